"""Where a random draw's values fall, and when a draw places a value rather than noise.

A random op's parameters are `float` or `int` in its schema, not `Scalar`, so the value-argument
reading of `aten_facts.python_scalar_values` never saw them: `table[k:k + 1].uniform_(v, v)` wrote
host Python's v into a tensor one element at a time, counted by neither `host_numbers` nor
`placed_order`, and at construction the storage was drawn memory, an initialisation (red team
s60a: rt64's 64 sigmoid breakpoints, ok under paper). The same holds for `normal_(v, 0.0)`,
`random_(d, d + 1)`, `bernoulli_(1.0)`, `torch.normal(v, 0.0, size)`, `torch.randint(d, d + 1,
size)`, a draw narrow enough to round to v (`uniform_(v, v + 1e-12)` in float32), and a draw
made a point by the affine steps initialisation is allowed (`uniform_().mul_(1e-9).add_(v)`,
`clamp_(v, v)`).

The rule is the sign of the range. A draw whose range lies on one side of zero (`draw_range`:
uniform's bounds, one standard deviation about normal's or cauchy's centre, an int draw's
bounds) places a location: its parameters are value arguments like a fill's (`draw_values`). A
draw about zero places a scale: nn.init's `uniform_(-b, b)` and `normal_(0, std)`, trunc_normal_'s
`uniform_(2l - 1, 2u - 1)`, `rand`/`randn`: no value argument. Either way its parameters are
host numbers (`draw_parameters`, counted by `host_numbers` where the draw is made): a scale is
read back by statistics over the draws (red team s61h: 64 rows of `uniform_(-v, v)` reduced to
their maxima by a Triton launch in __init__ were rt74's table, ok under strict at 1.0), and
counting at the draw closes every such route at once. nn.init's bounds 1/sqrt(fan_in), computed
floats every layer hands, are the problem's where its reference draws the same layers
(`problem_numbers` records its draws' parameters): one run. At construction `Ranges` follows a
drawn storage's range through glue and the affine steps `construction_watch` keeps drawn; a step
whose result lies on one side of zero places its numbers (`add_(v)` after `mul_(1e-9)`); a step's
host-computed numbers count whatever its range (`construction_watch`: a draw about zero read back by
`.item()` and scaled to v by `u.mul(v / u)` was a scale, though host Python knew the draw, red team
s61h).
"""
from __future__ import annotations

import math
from typing import Any

import torch
from torch.utils._python_dispatch import _disable_current_modes

Range = tuple[float, float]

# per draw op: how its range follows from its (named) parameters; a draw reading tensor
# parameters (torch.normal(mean_tensor, std), bernoulli(p_tensor)) reads memory, as glue does
_RANGES: dict[str, Any] = {
    "uniform": lambda p: (p.get("from", 0.0), p.get("to", 1.0)),
    "normal": lambda p: (p.get("mean", 0.0) - p.get("std", 1.0), p.get("mean", 0.0) + p.get("std", 1.0)),
    "cauchy": lambda p: (p.get("median", 0.0) - p.get("sigma", 1.0), p.get("median", 0.0) + p.get("sigma", 1.0)),
    "log_normal": lambda p: (math.exp(min(p.get("mean", 1.0) - p.get("std", 2.0), 700.0)),
                             math.exp(min(p.get("mean", 1.0) + p.get("std", 2.0), 700.0))),
    "exponential": lambda p: (0.0, 1.0 / p.get("lambd", 1.0) if p.get("lambd", 1.0) else math.inf),
    "geometric": lambda p: (1.0, 1.0 / p["p"] if p.get("p") else math.inf),
    "bernoulli": lambda p: (p["p"], p["p"]) if p.get("p") in (0, 1) else (0.0, 1.0),
    "random": lambda p: (p.get("from", 0), (p["to"] - 1) if p.get("to") is not None else math.inf),
    "randint": lambda p: (p.get("low", 0), p["high"] - 1),
    "randint_like": lambda p: (p.get("low", 0), p["high"] - 1),
}
_PARAMETERS = frozenset({"from", "to", "mean", "std", "median", "sigma", "lambd", "p", "low", "high"})
_NUMBER = (int, float)
_RANDOM: dict[Any, bool] = {}


def random_op(func: Any) -> bool:
    """An op tagged nondeterministic_seeded: a draw."""
    found = _RANDOM.get(func)
    if found is None:
        found = _RANDOM[func] = torch.Tag.nondeterministic_seeded in getattr(func, "tags", ())
    return found


def _parameters(func: Any, args: tuple, kwargs: dict) -> dict | None:
    """A draw's number parameters by name (defaults left out: each `_RANGES` entry has them);
    None where one is a tensor or a symbol (its range is memory's, not host Python's)."""
    found: dict = {}
    for i, a in enumerate(func._schema.arguments):
        if a.name not in _PARAMETERS:
            continue
        v = args[i] if i < len(args) and not a.kwarg_only else kwargs.get(a.name)
        if v is not None and type(v) not in _NUMBER:
            return None
        if v is not None:
            found[a.name] = v
    return found


def draw_range(func: Any, args: tuple, kwargs: dict) -> Range | None:
    """The range a draw's values fall in (module doc), or None: no draw, or one of tensors."""
    if not random_op(func):
        return None
    rule = _RANGES.get(func.overloadpacket.__name__.rstrip("_"))
    params = _parameters(func, args, kwargs) if rule is not None else None
    if params is None:
        return None
    try:
        lo, hi = rule(params)
    except (KeyError, TypeError, ZeroDivisionError, OverflowError):
        return None
    return (min(lo, hi), max(lo, hi))


def places(r: Range | None) -> bool:
    """Whether values in `r` carry a location host Python chose: a point, or a range on one
    side of zero."""
    return r is not None and (r[0] == r[1] or r[0] > 0 or r[1] < 0)


def draw_parameters(func: Any, args: tuple, kwargs: dict) -> list:
    """A draw's number parameters whatever its range: host numbers its values carry (module
    doc), counted by `host_numbers` unless typed or the problem's own draws took them."""
    return list((_parameters(func, args, kwargs) or {}).values()) if random_op(func) else []


def draw_values(func: Any, args: tuple, kwargs: dict) -> list:
    """A draw's number parameters where it places a location (`places`), as value arguments."""
    if not random_op(func) or not places(draw_range(func, args, kwargs)):
        return []
    return list((_parameters(func, args, kwargs) or {}).values())


AFFINE = frozenset({"mul", "mul_", "add", "add_", "sub", "sub_", "div", "div_", "neg", "neg_",
                    "abs", "abs_", "clamp", "clamp_", "clamp_min", "clamp_min_", "clamp_max",
                    "clamp_max_", "erfinv", "erfinv_"})
"""Ops of one drawn tensor and Python numbers that keep it drawn (initialisation's arithmetic:
trunc_normal_'s erfinv_, mul_, add_, clamp_), at construction (`construction_watch`) and in the
problem's draws (`problem_numbers`)."""

_WIDE: Range = (-math.inf, math.inf)
_UNSEEN: Range = (0.0, 0.0)  # a drawn storage whose draw no record holds: a point, the strict reading


def _step(name: str, r: Range, p: dict) -> Range:
    """The range after one of construction's affine steps on a drawn range (`AFFINE`)."""
    lo, hi = r
    base = name.rstrip("_")
    other = p.get("other", 1.0)
    if base in ("mul", "div"):
        k = other if base == "mul" else (1.0 / other if other else math.inf)
        ends = [lo * k, hi * k]
    elif base in ("add", "sub"):
        shift = other * p.get("alpha", 1) * (1 if base == "add" else -1)
        ends = [lo + shift, hi + shift]
    elif base == "neg":
        ends = [-hi, -lo]
    elif base == "abs":
        ends = [0.0 if lo <= 0 <= hi else min(abs(lo), abs(hi)), max(abs(lo), abs(hi))]
    elif base.startswith("clamp"):  # clamp(min, max), clamp_min(min), clamp_max(max)
        low, high = p.get("min"), p.get("max")
        ends = [max(e, low) if low is not None else e for e in (lo, hi)]
        ends = [min(e, high) if high is not None else e for e in ends]
    elif base == "erfinv":
        with _disable_current_modes():  # called inside a dispatch mode: its own ops are nobody's
            ends = [torch.special.erfinv(torch.tensor(max(-1.0, min(1.0, e)), dtype=torch.float64)).item() for e in (lo, hi)]
    else:
        return _WIDE
    ends = [e if not math.isnan(e) else 0.0 for e in ends]
    return (min(ends), max(ends))


def _step_parameters(func: Any, args: tuple, kwargs: dict) -> dict | None:
    """An affine step's number arguments by name (other, alpha, min, max); None where one is a tensor."""
    found: dict = {}
    for i, a in enumerate(func._schema.arguments[1:], start=1):
        v = args[i] if i < len(args) and not a.kwarg_only else kwargs.get(a.name)
        if isinstance(v, torch.Tensor):
            if v.numel() != 1:
                return None
            with _disable_current_modes():
                v = v.item()
        if type(v) in _NUMBER:
            found[a.name] = v
    return found


def _key(t: torch.Tensor) -> int:
    try:
        return t.untyped_storage().data_ptr()
    except (RuntimeError, NotImplementedError):
        return 0


class Ranges:
    """The range of each drawn storage construction wrote (module doc): a draw's own, carried
    through glue, moved by affine steps. A partial write keeps the narrower width of the two at
    the latest centre (a value placed in one element is not widened away by another's step)."""

    def __init__(self) -> None:
        self.of: dict[int, Range] = {}

    def _put(self, key: int, r: Range, partial: bool) -> None:
        old = self.of.get(key)
        if partial and old is not None and (old[1] - old[0]) < (r[1] - r[0]):
            mid, half = (r[0] + r[1]) / 2, (old[1] - old[0]) / 2
            r = (mid - half, mid + half)
        self.of[key] = r

    def drawn(self, func: Any, name: str, args: tuple, kwargs: dict, sources: list[int],
              outs: list[torch.Tensor], step: bool) -> bool:
        """Record what a drawn write holds: a draw's range, the hull of the drawn storages glue
        read, or an affine `step` of its one source's. True where a draw or a step places a
        location (`places`): its numbers are then value arguments."""
        r = draw_range(func, args, kwargs)
        own = r is not None or step
        if r is None:
            held = [self.of.get(k, _UNSEEN) for k in sources] or [_UNSEEN]
            r = (min(h[0] for h in held), max(h[1] for h in held))
        if step:
            params = _step_parameters(func, args, kwargs)
            r = _step(name, r, params) if params is not None else _WIDE
        for t in outs:
            if (key := _key(t)) and key not in sources:  # a view of its source wrote nothing
                self._put(key, r, t.numel() * t.element_size() < t.untyped_storage().nbytes())
        return own and places(r)


class DrawOrder:
    """Which draws construction made in what order, each draw one symbol (its parameters): a
    table spelled by picking among typed bounds (hex digits as `uniform_(-a, a)` with `a` one of
    16 literals, read back by row maxima: no computed number) is the order of the picks, priced
    as `host_numbers.order_numbers` prices typed digits lifted in an order (s59c). Draws whose
    parameters are all the problem's are its reference's sequence (`host_numbers.priced`); a
    layer-by-layer initialisation repeats one symbol per stretch, a few runs."""

    def __init__(self) -> None:
        self.symbols: dict[tuple, float] = {}
        self.order: list[float] = []

    def add(self, func: Any, args: tuple, kwargs: dict) -> None:
        from evaluator.host_numbers import MAX_VALUES, held, token

        params = draw_parameters(func, args, kwargs)
        if not params or all(type(v) is float and held(v) for v in params) or len(self.order) >= MAX_VALUES:
            return
        key = tuple(token(v) for v in params)
        self.order.append(self.symbols.setdefault(key, float(len(self.symbols))))

    def numbers(self) -> set:
        from evaluator.host_numbers import order_numbers

        return order_numbers(self.order, "draws")

