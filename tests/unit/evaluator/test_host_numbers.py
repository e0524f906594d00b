"""evaluator.host_numbers: floats host Python computed, told from the floats the author typed
(red team rt74: sigmoid at 64 breakpoints of math.exp lifted by torch.tensor in __init__, the
kernel only interpolating, was ok under strict and paper at 1.00)."""
import math
import types

import pytest
import torch
import torch.nn as nn

from evaluator import construction_watch as cw
from evaluator import host_numbers as hn
from evaluator import problem_numbers as pn
from evaluator.host_limits import judge_host_limits

SOURCE = "EPS = 1e-5\nC = (0.044715, 0.1)\nBLOCK = 0x40\nscale = 3\n"


@pytest.fixture(autouse=True)
def _sources():
    hn.set_sources(SOURCE, "negative_slope = 0.01\n", numbers=hn.given([[0.7, [2.5]], {"dim": 1000}]))
    yield
    hn.set_sources()


def _floats(numbers: set) -> set:
    """The floats themselves among counted numbers (a float's further bits are tokens beside it)."""
    return {v for v in numbers if type(v) is float}


def _table(n: int) -> list[float]:
    return [1.0 / (1.0 + math.exp(-k * 8.0 / (n - 1))) for k in range(n)]


def test_typed_literals_given_numbers_and_well_known_constants_are_not_computed():
    typed = [1e-5, 0.044715, -0.1, 64.0, 3.0, 0.01, 0.7, 2.5, 1000.0, 0.0, 1.0, 2.0, math.inf, math.nan,
             math.log2(math.e), math.sqrt(2.0 / math.pi), math.pi, 1.0 / math.sqrt(2.0)]
    assert hn.computed(typed) == set()
    # a literal lifted into a float32 or bfloat16 tensor reads back rounded: still typed
    assert hn.tensor_computed(torch.tensor([0.044715, 0.1, 1e-5], dtype=torch.bfloat16)) == set()
    assert hn.tensor_computed(torch.tensor([0.044715, 0.1, 1e-5])) == set()


def test_computed_floats_are_counted_however_held():
    assert len(_floats(hn.computed(_table(64)))) == 63  # s(0) = 0.5 is typed (a common constant)
    assert len(_floats(hn.tensor_computed(torch.tensor(_table(32))))) == 31
    assert _floats(hn.computed([1.0 / math.sqrt(96), 7, "x"])) == {1.0 / math.sqrt(96)}  # ints are host_tables'
    assert hn.tensor_computed(torch.arange(4)) == set()


def test_construction_keeps_the_floats_python_computed():
    class Model(nn.Module):
        def __init__(self):
            super().__init__()
            self.register_buffer("table", torch.tensor(_table(64)))
            self.parts = [torch.full((1,), v) for v in _table(20)]

    with cw.watched() as watch:
        Model()
    assert len(watch.numbers) >= 63 + 19
    with cw.watched() as watch:  # a typed coefficient table, a norm's initialisation, a fill
        torch.tensor([0.044715, 0.1, 1e-5]), nn.LayerNorm(8), torch.full((4,), 0.01)
    assert watch.numbers == set()
    # a Linear's bound 1/sqrt(16) (0.24999999999999997 as nn.init computes it) is a host number
    # its draws carry (s62b), the problem's where the reference draws its same Linear: one run
    with cw.watched() as watch:
        nn.Linear(16, 16)
    assert len(hn.priced(watch.numbers)) > 1
    with pn.recording() as recorder:
        nn.Linear(16, 16)
    hn.set_sources(SOURCE, problem=pn.problem_numbers(types.ModuleType("problem"), recorder))
    with cw.watched() as watch:
        nn.Linear(16, 16)
    assert len(hn.priced(watch.numbers)) == 1


def test_more_computed_floats_than_a_few_constants_is_host_compute():
    def trial(n):
        return [{"provenance": {"host_reads": 0, "host_made": 0, "launch_ints": 0, "host_computed": n}}]

    assert judge_host_limits(trial(hn.COMPUTED_NUMBERS), 16, 64) is None
    outcome = judge_host_limits(trial(hn.COMPUTED_NUMBERS + 1), 16, 64)
    assert outcome.status == "hack" and outcome.hacks == ["host_compute"] and "computed" in outcome.feedback
    assert judge_host_limits(trial(hn.COMPUTED_NUMBERS + 1), None, None) is None  # no policy limits


def test_a_forward_reports_the_floats_python_computed_it_lifted_or_gave_ops():
    from evaluator.forward_watch import Provenance
    from evaluator.launch_hook import LaunchRecorder

    watch = Provenance(LaunchRecorder())
    with watch:
        table = torch.tensor(_table(12))
        torch.full((3,), 1.0 / math.sqrt(96)) + 0.044715
        table * 0.01
    assert watch.report()["host_computed"] == 2 * (11 + 1)  # s(0) = 0.5 is typed; float32: 2 each
    watch = Provenance(LaunchRecorder())
    with watch:  # typed coefficients, a fill of 0, an arange
        torch.tensor([0.044715, 0.1]) * 0.7, torch.zeros(4), torch.arange(8)
    assert watch.report()["host_computed"] == 0


def test_series_coefficients_python_computes_are_not_computed():
    # honest round s58j: exp by range reduction and a degree-11 series, Horner constants
    # [1.0 / math.factorial(i) for i in range(12)] (9 past 0.5 and 1), exp2's ln2**k / k!,
    # softplus's log1p by atanh's 2 / (2k + 1) (s58j_24: 9)
    series = [1.0 / math.factorial(i) for i in range(12)]
    series += [(-1) ** k * math.log(2.0) ** k / math.factorial(k) for k in range(8)]
    series += [2.0 / (2 * k + 1) for k in range(10)] + [(-1) ** k / k for k in range(1, 17)]  # atanh, log1p
    assert hn.computed(series) == set()
    assert hn.tensor_computed(torch.tensor(series, dtype=torch.float32)) == set()
    # a function's values stay computed: sigmoid's breakpoints, and 1/k! scaled by a chosen x
    assert len(_floats(hn.computed(_table(16)))) == 15
    assert len(_floats(hn.computed([0.3 ** k / math.factorial(k) for k in range(2, 12)]))) == 10
