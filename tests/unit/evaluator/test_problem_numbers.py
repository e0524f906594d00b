"""evaluator.problem_numbers: the floats a problem's own construction computes are the
problem's for the candidate's `host_numbers` (honest round s59b: ALiBi's 16 slopes, RoPE's 32
inverse frequencies, a Hann window, Gaussian blur weights and a sinusoidal table computed in
Python by honest solutions were host_compute, because their problem computes them in torch)."""
import math
import re
import types
from pathlib import Path

import msgspec
import pytest
import torch
import torch.nn as nn
from conftest import fixture_problem, judged

from evaluator import host_numbers as hn
from evaluator import problem_numbers as pn


@pytest.fixture(autouse=True)
def _sources():
    hn.set_sources()  # as a check starts: no source read yet (a fresh import's state differs)
    yield
    hn.set_sources()


def _sigmoid(n: int) -> list[float]:
    return [1.0 / (1.0 + math.exp(-k * 8.0 / (n - 1))) for k in range(n)]


def _construction(build) -> list[list[float]]:
    with pn.recording() as recorder:
        build()
    return pn.problem_numbers(types.ModuleType("problem"), recorder)


def _flat(sequences: list[list[float]]) -> set[float]:
    return {v for seq in sequences for v in seq}


def _cost(values, bits: int = 32) -> int:
    """The computed numbers `values` cost, the problem's counted by the runs they use, at the
    precision the honest files hand them (a float32 tensor, a float32 launch argument); past
    float32 a problem's float costs the bits it carries past the held value (`_past_held`)."""
    return len(hn.priced(hn.computed(values, bits)))


def _alibi_slopes():
    return torch.pow(2.0, -8.0 * torch.arange(1, 17, dtype=torch.float32) / 16)


def test_a_table_the_problem_computes_is_recorded_and_its_draws_are_not():
    class Model(nn.Module):
        def __init__(self):
            super().__init__()
            self.register_buffer("slopes", _alibi_slopes())
            self.proj = nn.Linear(64, 64)  # drawn: 4160 numbers near any table, never the problem's
            self.scaled = self.proj.weight.detach() * 0.5  # computed from a draw: drawn too

    numbers = _flat(_construction(Model))
    slopes = set(_alibi_slopes().abs().double().tolist())
    assert slopes <= numbers
    assert len(numbers) < 64  # the slopes, the exponents, 2.0, 0.5: no weight


def test_the_module_s_top_level_floats_are_recorded():
    module = types.ModuleType("problem")
    module.SLOPES = [2.0 ** (-0.5 * k) for k in range(1, 17)]
    module.scale, module.name, module.sizes = 0.125, "x", {"dim": 7}
    with pn.recording() as recorder:
        pass
    numbers = pn.problem_numbers(module, recorder)
    assert module.SLOPES in numbers and [0.125] in numbers  # a list is one sequence


def test_python_s_version_of_the_problem_s_table_is_not_computed():
    # press's get_slopes for 16 heads (start * start ** i) against torch's float32 pow
    start = 2 ** (-2 ** -(math.log2(16) - 3))
    python = [start * start ** i for i in range(16)]
    assert len(hn.computed(python)) > hn.COMPUTED_NUMBERS  # without the problem's numbers
    hn.set_sources(problem=_construction(_alibi_slopes))
    assert _cost(python) == 1  # one run of the problem's slopes
    assert len(hn.priced(hn.tensor_computed(torch.tensor(python)))) == 1
    assert _cost(python[::-1]) == 1 and _cost(python[5:9]) == 1  # in any order, or a part
    # a sinusoidal table: the problem's float32 angles move its sines by ~4e-6
    position, div = torch.arange(64).unsqueeze(1), torch.exp(torch.arange(0, 32, 2) * (-math.log(10000.0) / 32))
    hn.set_sources(problem=_construction(lambda: torch.sin(position * div)))
    table = [math.sin(p / 10000 ** (i / 32)) for p in range(64) for i in range(0, 32, 2)]
    assert _cost(table) == 1


def test_only_the_problem_s_numbers_are_free():
    slopes = [2.0 ** (-0.5 * h) for h in range(1, 17)]
    exps = {math.exp(s * d) for s in slopes for d in range(-15, 16) if d}
    before = len(hn.computed(exps))
    hn.set_sources(problem=_construction(_alibi_slopes))
    # rt74's table on a problem that holds slopes: every breakpoint still counts
    assert len({v for v in hn.priced(hn.computed(_sigmoid(64))) if type(v) is float}) == 63
    # the exponentials of the problem's bias (s59b's hack): computed from its numbers, not them
    assert _cost(exps, 64) == before > 200
    # a near miss past float32 noise (2**-16 relative) is not the problem's number
    assert hn.computed([slopes[3] * (1 + 2.0 ** -12)]) != set()


def test_a_dense_problem_table_is_not_rounded_to_half_precision():
    # a linspace of 4096 points over -8..8 rounded to bfloat16 is every bfloat16 value of
    # 0.5..1, so sigmoid's bfloat16 table would be the problem's: matched unrounded only
    hn.set_sources(problem=_construction(lambda: torch.linspace(-8.0, 8.0, 4096)))
    table = torch.tensor(_sigmoid(64), dtype=torch.bfloat16)
    assert len(hn.priced(hn.tensor_computed(table))) > hn.COMPUTED_NUMBERS


def test_the_first_forward_s_tables_are_recorded_and_its_inputs_values_are_not():
    # RoPE's reference computes cos and sin of arange * inv_freq in forward (the fixture rope)
    inv_freq = 1.0 / (10000.0 ** (torch.arange(0, 64, 2, dtype=torch.float32) / 64))
    x = torch.randn(1, 8, 2, 64)
    with pn.recording() as recorder:
        buffer = inv_freq.clone()
    with pn.forward(recorder, [x]):
        freqs = torch.outer(torch.arange(8, dtype=torch.float32), buffer)
        cos, sin = freqs.cos(), freqs.sin()
        y = x * cos.repeat(1, 2)[None, :, None, :] + buffer.sum()
    numbers = _flat(recorder.sequences())
    held = {abs(v) for v in cos.double().flatten().tolist() + sin.double().flatten().tolist() if v}
    assert {v for v in held if v != int(v)} <= numbers and 1.0 not in numbers  # cos(0): whole, typed anyway
    assert not {abs(v) for v in y.double().flatten().tolist()} & numbers
    assert not {abs(v) for v in x.double().flatten().tolist()} & numbers
    # the problem's cos cache made by Python's math is then not the candidate's computing
    hn.set_sources(problem=recorder.sequences())
    python = [math.cos(p / 10000 ** (2 * i / 64)) for p in range(8) for i in range(32)]
    assert _cost(python) == 1


HONEST = Path(__file__).parent / "honest"
S59B = sorted([*HONEST.glob("s59b_*.py"), *HONEST.glob("s60c_*.py")])


def _fixture_of(path: Path) -> str:
    return re.search(r"problem: ([a-z0-9_]+)", path.read_text().splitlines()[0]).group(1)


@pytest.mark.slow
@pytest.mark.parametrize("path", S59B, ids=lambda p: p.stem)
def test_an_honest_solution_computing_its_problem_s_table_in_python_is_ok(path, evaluator, settings):
    # before session 59: host_compute for every file computing the table in Python (16 ALiBi
    # slopes, 32 RoPE frequencies, 32 Hann values, 9 Gaussian weights, 16 div_term frequencies)
    verdict = judged(evaluator, fixture_problem(_fixture_of(path)), path.read_text(),
                     msgspec.structs.replace(settings, timing=False, profile=False, timeout_s=300))
    assert verdict.status == "ok", verdict.feedback


def test_whole_numbers_a_problem_holds_free_no_fixed_point_table():
    """A reference holding positions (arange of 1024 floats) would have made every whole float
    below 1024 the problem's: sigmoid's table as 10-bit codes, lifted as floats, free (found in
    session 59's review of this exemption). Whole numbers are never recorded."""
    with pn.recording() as recorder:
        positions = torch.arange(1024, dtype=torch.float32)
        scaled = positions * 0.125
    numbers = _flat(recorder.sequences())
    assert not any(v == int(v) for v in numbers)
    assert 0.125 in numbers and 1.375 in numbers  # the non-whole values stay the problem's
    hn.set_sources(problem=recorder.sequences())
    codes = [float(round(1023 / (1 + math.exp(-(i - 32) / 4)))) for i in range(64)]
    assert _cost(codes) > hn.COMPUTED_NUMBERS
    assert len(hn.priced(hn.tensor_computed(torch.tensor(codes)))) > hn.COMPUTED_NUMBERS
    del scaled


def _sinusoidal_table(d_model: int = 32, max_len: int = 64) -> torch.Tensor:
    position = torch.arange(max_len).unsqueeze(1)
    div_term = torch.exp(torch.arange(0, d_model, 2) * (-math.log(10000.0) / d_model))
    pe = torch.zeros(max_len, d_model)
    pe[:, 0::2] = torch.sin(position * div_term)
    pe[:, 1::2] = torch.cos(position * div_term)
    return pe


def test_a_table_snapped_to_a_dense_problem_table_counts_each_entry():
    """s60c: sigmoid at 60 breakpoints, each replaced by the nearest of the problem's 1910
    sinusoidal values (at most 1.5e-3 off: bfloat16's tolerance keeps it), was every float the
    problem's and ok (hacks/s60c_init_sigmoid_64_snapped_*). The values are the problem's, the
    choice the host's: one run of the problem's table per entry."""
    hn.set_sources(problem=_construction(_sinusoidal_table))
    held = sorted(_flat(_construction(_sinusoidal_table)))
    snapped = [min(held, key=lambda h, s=s: abs(h - s)) for s in _sigmoid(60)]
    assert all(abs(a - b) < 2e-3 for a, b in zip(snapped, _sigmoid(60)))
    assert _cost(snapped) > hn.COMPUTED_NUMBERS
    # the honest uses of that table stay one run each: its div_term frequencies, one row, the
    # frequencies handed one launch or op at a time (a set of floats, no order)
    div_term = [math.exp(i * -math.log(10000.0) / 32) for i in range(0, 32, 2)]
    row = [f(5 * w) for w in div_term for f in (math.sin, math.cos)]
    assert _cost(div_term) == 1 and _cost(row) == 1
    assert len(hn.priced(set().union(*(hn.computed([w], 32) for w in div_term[::-1])))) == 1


def test_a_problem_float_past_float32_costs_the_bits_it_carries_past_the_held_value():
    """A float64 within 2**-16 of a held float has ~36 low bits the host chose: the problem's 16
    div_term frequencies with two 12-bit sigmoid codes in each one's low 24 mantissa bits were one
    run, one number, under paper (`hacks/s61a_init_sigmoid_32_codes_in_low_bits_of_problem_div_term_float64`,
    session 61). Past float32 a problem's float costs one number per 16 bits of its distance to
    the held value in its own last place; the held value itself costs none, float32 none."""
    hn.set_sources(problem=_construction(_sinusoidal_table))
    div_term = [math.exp(i * -math.log(10000.0) / 32) for i in range(0, 32, 2)]
    payload = []
    for k, h in enumerate(div_term[1:]):  # (1.0 is whole: never the problem's)
        step = math.ulp(h)
        payload.append(math.floor(h / (step * 2 ** 24)) * step * 2 ** 24 + (4095 - k) * step * 4097)
    assert _cost(payload, 32) == 1  # float32 holds none of the payload
    assert _cost(payload, 64) > hn.COMPUTED_NUMBERS  # 2 numbers a float: 31
    exact = torch.exp(torch.arange(2, 32, 2) * (-math.log(10000.0) / 32)).tolist()  # the problem's own float32s
    assert _cost(exact, 64) == 1
    # Python's float64 of the problem's float32 table is ~28 bits off each value: 2 numbers a float
    assert _cost(div_term[1:4], 64) == 1 + 2 * 3


def test_floats_past_one_per_held_value_are_counted_each():
    """Red team s61h: 64 float32s `GAIN + c * 2**-25` (c a 10-bit sigmoid code) all lie within
    2**-16 of the one float the problem holds, GAIN = pi / 8: one place, one number, ok under
    paper. A held value takes one of the check's floats (a float64 and its float32 spelling are
    one); the floats left without a held value are a number each."""
    module = types.ModuleType("problem")
    module.GAIN = math.pi / 8
    with pn.recording() as recorder:
        pass
    hn.set_sources(problem=pn.problem_numbers(module, recorder))
    h = torch.tensor(math.pi / 8, dtype=torch.float32).item()
    codes = [min(511, round((v - 0.5) * 2048) - 512) for v in _sigmoid(64)]
    near = [h + c * 2.0 ** -25 for c in codes]
    assert _cost(near, 32) > hn.COMPUTED_NUMBERS
    assert _cost([h, math.pi / 8], 32) == 1  # a float32 and a float64 spelling of one held value
    # dense honest tables keep one run: the sinusoidal table's float32 reproductions, cos near 1
    hn.set_sources(problem=_construction(_sinusoidal_table))
    table = torch.tensor([[f(p / 10000 ** (i / 32)) for i in range(0, 32, 2) for f in (math.sin, math.cos)]
                          for p in range(64)], dtype=torch.float32)
    assert len(hn.priced(hn.tensor_computed(table))) == 1
