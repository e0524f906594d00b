"""evaluator.draw_range: a random draw whose values lie on one side of zero places a value (red
team s60a: rt74's 64 sigmoid breakpoints written by `table[k:k + 1].uniform_(v, v)` in __init__,
ok under paper), while nn.init's draws about zero place only a scale and stay free."""
import math
import types

import pytest
import torch
import torch.nn as nn

from evaluator import construction_watch as cw
from evaluator import host_numbers as hn
from evaluator import problem_numbers as pn
from evaluator.aten_facts import python_scalar_values
from evaluator.draw_range import draw_range, places


@pytest.fixture(autouse=True)
def _sources():
    hn.set_sources("")
    yield
    hn.set_sources()


def _values() -> list[float]:
    return [1.0 / (1.0 + math.exp(-k * 8.0 / 63)) for k in range(64)]


class _Ops(torch.utils._python_dispatch.TorchDispatchMode):
    """The aten calls a block makes, with their value arguments as the watches read them."""

    def __init__(self) -> None:
        super().__init__()
        self.seen: list[tuple[str, list, bool]] = []

    def __torch_dispatch__(self, func, types, args=(), kwargs=None):
        kwargs = kwargs or {}
        self.seen.append((func.overloadpacket.__name__, python_scalar_values(func, args, kwargs),
                          places(draw_range(func, args, kwargs))))
        return func(*args, **kwargs)


def _ops(fn) -> list[tuple[str, list, bool]]:
    with _Ops() as ops:
        fn()
    return ops.seen


@pytest.mark.parametrize("draw, value", [
    (lambda t, v: t.uniform_(v, v), 0.3),
    (lambda t, v: t.uniform_(v, v + 1e-12), 0.3),  # a point at float32's precision: no equal bounds
    (lambda t, v: t.normal_(v, 0.0), 0.3),
    (lambda t, v: t.normal_(v, 1e-9), -0.3),
    (lambda t, v: t.cauchy_(v, 1e-9), 0.3),
    (lambda t, v: t.log_normal_(v, 1e-9), 0.3),
    (lambda t, v: t.random_(v, v + 1), 37),
    (lambda t, v: t.bernoulli_(v), 1.0),
    (lambda t, v: torch.normal(v, 0.0, (4,)), 0.3),
    (lambda t, v: torch.randint(v, v + 1, (4,)), 37),
    (lambda t, v: torch.randint_like(t, v, v + 1), 37),
])
def test_a_draw_on_one_side_of_zero_hands_its_parameters_as_values(draw, value):
    t = torch.empty(4, dtype=torch.int64 if type(value) is int else torch.float32)
    seen = _ops(lambda: draw(t, value))
    assert any(value in scalars and placing for _, scalars, placing in seen), seen


@pytest.mark.parametrize("init", [
    lambda w: nn.init.kaiming_uniform_(w, a=math.sqrt(5)),
    lambda w: nn.init.xavier_normal_(w),
    lambda w: nn.init.trunc_normal_(w, std=0.02),
    lambda w: nn.init.normal_(w, 0.0, 1.0 / math.sqrt(w.shape[1])),
    lambda w: nn.init.uniform_(w, -1.0 / math.sqrt(w.shape[1]), 1.0 / math.sqrt(w.shape[1])),
    lambda w: w.bernoulli_(0.5),
    lambda w: w.random_(0, 256),
    lambda w: torch.rand_like(w),
    lambda w: torch.randn(w.shape),
])
def test_draws_about_zero_place_a_scale_and_hand_no_value(init):
    """nn.init's bounds place no value (not a fill of v): their numbers are counted as host
    numbers instead, the problem's where its reference draws alike (below)."""
    seen = _ops(lambda: init(torch.empty(48, 80)))
    assert not any(placing for _, _, placing in seen), seen
    assert not any(scalars for name, scalars, _ in seen if name in ("uniform_", "normal_", "random_", "bernoulli_")), seen


def _watched(build) -> set:
    watch = cw.ConstructionWatch()
    with watch:
        build()
    return watch.computed_numbers()


def _layers():
    nn.Linear(80, 48), nn.Linear(48, 20), nn.Conv2d(3, 16, 3), nn.Embedding(100, 24)
    nn.init.trunc_normal_(torch.empty(24, 24), std=0.02)


def test_layers_initialised_by_nn_init_cost_one_run_where_the_problem_draws_them():
    """A draw's parameters are host numbers whatever its range (s62b); nn.init's bounds and
    trunc_normal_'s steps are the problem's where its reference draws the same layers, as a
    correct candidate must (the same seed, the same draws): one run of its draw sequence."""
    assert len(hn.priced(_watched(_layers))) > 1  # a problem holding none: each bound counted
    with pn.recording() as recorder:
        _layers()
    hn.set_sources("", problem=pn.problem_numbers(types.ModuleType("problem"), recorder))
    assert len(hn.priced(_watched(_layers))) == 1
    assert len(hn.priced(_watched(lambda: nn.Linear(80, 48)))) == 1  # a part of them: one run


def _codes() -> list[int]:
    return [round((v - 0.5) * 2048) for v in _values()]


@pytest.mark.parametrize("carry", [
    lambda row, k: row.uniform_(-_values()[k], _values()[k]),  # s61h's: a row maximum reads v back
    lambda row, k: row.normal_(0.0, _values()[k]),  # its spread
    lambda row, k: row.bernoulli_(_values()[k] - 0.5),  # its mean
    lambda row, k: row.random_(0, _codes()[k] + 1),  # an int code, exactly its maximum
])
def test_a_table_carried_by_the_parameters_of_draws_about_zero_is_host_computed(carry):
    """Red team s61h: 64 rows of `uniform_(-v, v)` reduced to their maxima by a Triton launch in
    __init__ recovered rt74's table (ok under paper and strict, reward 1.0): a draw about zero
    placed no value, so its bounds were free. Counted at the draw, every route back out (a
    maximum, a mean, a launch or torch) is closed with it."""
    def build():
        rows = torch.empty(64, 16, dtype=torch.int32 if "random_" in str(carry.__code__.co_names) else torch.float32)
        for k in range(64):
            carry(rows[k], k)
    assert len(hn.priced(_watched(build))) > hn.COMPUTED_NUMBERS


@pytest.mark.parametrize("place", [
    lambda t, k, v: t[k:k + 1].uniform_(v, v),  # s60a's file
    lambda t, k, v: t[k:k + 1].normal_(v, 0.0),
    lambda t, k, v: t[k:k + 1].uniform_(v, v + 1e-12),
    lambda t, k, v: t[k:k + 1].mul_(1e-9).add_(v),  # a draw made a point by initialisation's affine steps
    lambda t, k, v: t[k:k + 1].mul_(0.0).add_(v),
    lambda t, k, v: t[k:k + 1].clamp_(v, v),
])
def test_a_table_placed_by_draws_at_construction_is_host_computed(place):
    def build():
        t = torch.rand(64)
        for k, v in enumerate(_values()):
            place(t, k, v)
    assert len(_watched(build)) > hn.COMPUTED_NUMBERS


def test_points_drawn_in_separate_tensors_and_joined_are_host_computed():
    assert len(_watched(lambda: torch.cat([torch.rand(1).mul_(0.0).add_(v) for v in _values()]))) > hn.COMPUTED_NUMBERS


def test_typed_digits_placed_by_point_draws_are_read_in_order():
    """Typed digits placed one draw each spell a table by their order (`placed_order`)."""
    digits = [round(8 * v) for v in _values()]

    def build():
        t = torch.empty(64, dtype=torch.int32)
        for k, d in enumerate(digits):
            t[k:k + 1].random_(d, d + 1)
    assert len(_watched(build)) > hn.COMPUTED_NUMBERS


@pytest.mark.parametrize("cell", [
    lambda v: torch.ones(1).exp().mul_(0.0).add_(v),  # in place on computed memory
    lambda v: torch.ones(1).exp().mul(0.0).add(v),  # out of place from it
])
def test_numbers_written_into_computed_memory_are_host_computed(cell):
    """Red team s61h: a compute op writing computed memory took the computed branch, whose Python
    numbers construction never counted; 64 of them joined by cat were a table, ok under paper."""
    assert len(_watched(lambda: torch.cat([cell(v) for v in _values()]))) > hn.COMPUTED_NUMBERS


@pytest.mark.parametrize("draw", [
    lambda: torch.normal(0.0, 1.0, (1,)),  # out of place: its range (-1, 1) is recorded
    lambda: torch.randint(-8, 8, (1,)).float(),
])
def test_a_draw_read_back_and_scaled_to_a_value_is_host_computed(draw):
    """Red team s61h: a draw about zero read back (.item()) and scaled to v by `u.mul(v / u)`
    kept a range about zero, a scale, though host Python knew the draw it scaled: a step's
    computed numbers count whatever the range (nn.init's draws' own parameters stay free)."""
    def cell(v):
        u = draw()
        while u.item() == 0:
            u = draw()
        return u.mul(v / u.item())
    assert len(_watched(lambda: torch.cat([cell(v) for v in _values()]))) > hn.COMPUTED_NUMBERS


def test_typed_bounds_picked_in_an_order_spell_a_table():
    """Attacking s62b's rule: hex digits of 12-bit sigmoid codes, each the bound of a row of
    `uniform_(-a, a)` with `a` one of 16 typed literals, read back by row maxima, hand no
    computed number (`hacks/s62b_init_sigmoid_64_hex_digits_as_typed_draw_bounds_*`, ok before).
    The order of the picks is the table (`draw_range.DrawOrder`); an initialisation that draws
    layer by layer, part by part, repeats one draw per stretch."""
    alphabet = [0.25 + k / 16 for k in range(16)]
    hn.set_sources(repr(tuple(alphabet)) + "\nSTD, BOUND = 0.02, 0.25\n")
    codes = [min(4095, round((v - 0.5) * 8192)) for v in _values()]

    def spelled():
        rows = torch.empty(192, 8)
        for k, c in enumerate(codes):
            for j, digit in enumerate((c >> 8, (c >> 4) & 15, c & 15)):
                rows[3 * k + j].uniform_(-alphabet[digit], alphabet[digit])
    assert len(hn.priced(_watched(spelled))) > hn.COMPUTED_NUMBERS

    def layers():
        w = torch.empty(8, 16, 16)
        for h in range(8):
            w[h].normal_(0.0, 0.02)
        for r in range(16):
            w[:, r].uniform_(-0.25, 0.25)
        for _ in range(3):
            nn.init.trunc_normal_(torch.empty(4, 4), std=0.02)
    assert _watched(layers) == set()
