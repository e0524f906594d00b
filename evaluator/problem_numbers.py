"""The floats the problem's own construction computed, read in the trusted reference child.

`host_numbers` prices every float host Python computed that matches no literal of the
candidate's or the problem's file (`COMPUTED_NUMBERS`: more than 8 is `host_compute`). A
problem that computes a table itself (ALiBi's slopes 2**(-8k/n) per head, RoPE's inverse
frequencies 10000**(-2i/d), a sinusoidal position table, Gaussian blur weights, a Hann window)
makes its honest solutions compute the same table, usually in Python (`math` in a list
comprehension, numpy) rather than in the reference's torch ops: 16 slopes or 32 frequencies
were `host_compute` (session 59). Those numbers are the problem's, not the candidate's work:
the reference child (which runs only problem code) records what its Model's construction
and its module's globals hold, and the candidate's floats within float32 rounding noise of
one of them are the problem's (`host_numbers.set_sources(problem=...)`).

The values, not the choice among them: a problem holding a dense table (a sinusoidal
position table, 1910 distinct values in [-1, 1]) let host Python compute a sigmoid at 60
breakpoints and replace each by the table's nearest value, every float the problem's
(session 60, s60c). So each recorded tensor goes to the pipeline as a sequence in its own
order (`sequences`; each Python scalar a sequence of one), and the problem's floats a check
uses cost one computed number per run of consecutive places they fill
(`host_numbers.priced`): a table the problem computes, reproduced, is one; picks are one each.

Which floats: the outputs of every op of the Model's construction that reads nothing drawn
(a random op's outputs and all that is computed from them are the weights, never recorded:
a Linear's uniform_ draws are thousands of numbers near any table), the Python scalars its
ops are given, and the floats and float lists the module binds at its top level. Never a
forward's values (they depend on the inputs) and only where the problem's code computed them:
a candidate gets for free only the values the problem itself holds, so a function table the
problem does not compute (rt74's sigmoid breakpoints) still counts each entry.

The weights' initialisation is the problem's too, as numbers, not values: the parameters of
its draws and of the affine steps on them (nn.init's bounds 1/sqrt(fan_in), trunc_normal_'s
erfinv range and scale), one sequence in the order drawn. A candidate's draws take numbers
host Python chose as any op does (`draw_range.draw_parameters`: a row's maximum of
`uniform_(-v, v)` is v, red team s61h); a correct candidate draws its weights as its
reference does, with the same numbers in the same order: one run.

Why not by the formula (a power series of the file's own literals, base**(k/n), priced as one
number): exp at evenly spaced breakpoints is such a series, e**(-8k/63), and s58c's exp table
that a kernel combines into 1/(1+e) is exactly it. Who holds the number is what separates
ALiBi's 2**(-8k/n) from that table: the problem computes the one and not the other.
"""
from __future__ import annotations

import math
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import torch
from torch.utils._python_dispatch import TorchDispatchMode, _disable_current_modes

from evaluator.aten_facts import python_scalar_values, storage_key
from evaluator.draw_range import AFFINE, draw_parameters

MAX_ELEMENTS = 1 << 16  # one construction output read for its values (larger: a weight, not a table)
MAX_NUMBERS = 1 << 16  # numbers recorded per problem, in all its sequences
MAX_READ = 1 << 22  # elements read in all (a deep model's many small outputs: a bounded cost)


class _Recorder(TorchDispatchMode):
    """The values of construction's ops that read nothing drawn (module doc)."""

    def __init__(self) -> None:
        super().__init__()
        self.drawn: set[int] = set()  # storages holding draws or what was computed from them
        self.scalars: set[float] = set()
        self.draws: list[float] = []  # the floats its draws and their affine steps took, in order
        self.building = True  # construction (not the first forward, whose inputs count as drawn)
        self.made: list[torch.Tensor] = []  # read at the end (`numbers`): an empty is written later
        self.elements = 0  # their elements, up to MAX_READ

    def __torch_dispatch__(self, func, types, args=(), kwargs=None):
        kwargs = kwargs or {}
        leaves = [t for a in (*args, *kwargs.values()) for t in (a if isinstance(a, (list, tuple)) else (a,))]
        ins = [t for t in leaves if isinstance(t, torch.Tensor)]
        out = func(*args, **kwargs)
        outs = [t for t in (out if isinstance(out, (list, tuple)) else (out,)) if isinstance(t, torch.Tensor)]
        seeded = torch.Tag.nondeterministic_seeded in getattr(func, "tags", ())
        drawn = any(storage_key(t) in self.drawn for t in ins)
        if seeded or self.building and drawn and func.overloadpacket.__name__ in AFFINE and len(ins) == 1:
            # its weights' initialisation: the draws' parameters and the affine steps' numbers
            # (trunc_normal_'s), in order, which a candidate's same layers take (`host_numbers`)
            self.draws.extend(v for v in (*draw_parameters(func, args, kwargs),
                                          *python_scalar_values(func, args, kwargs)) if type(v) is float)
        if seeded or drawn:
            # a draw (in place: uniform_ returns its tensor) or what is computed from one: never
            # a table it was combined with (a buffer added to a draw stays the problem's)
            self.drawn.update(k for k in map(storage_key, outs) if k)
            return out
        self.scalars.update(v for v in python_scalar_values(func, args, kwargs) if type(v) is float)
        if not func.overloadpacket.__name__.startswith("empty"):
            for t in outs:
                if t.is_floating_point() and t.numel() <= MAX_ELEMENTS and not t.is_meta \
                        and t.layout == torch.strided and self.elements + t.numel() <= MAX_READ:
                    self.made.append(t)
                    self.elements += t.numel()
        return out

    def sequences(self) -> list[list[float]]:
        """Each undrawn output's table values (`_table_value`, magnitudes) in its own order, and
        each of the ops' Python floats alone: what a candidate may reproduce (`host_numbers.priced`)."""
        found = [[abs(v)] for v in sorted(self.scalars) if _table_value(v)]
        found.append([abs(v) for v in self.draws[:MAX_NUMBERS] if _table_value(v)])
        total = len(found)
        with _disable_current_modes():
            for t in self.made:
                if total >= MAX_NUMBERS:
                    break
                if storage_key(t) not in self.drawn:
                    found.append([abs(v) for v in t.detach().reshape(-1).to(torch.float64).tolist()
                                  if _table_value(v)])
                    total += len(found[-1])
        return _bounded(found)


def _table_value(v: float) -> bool:
    """A value the exemption may hold: finite, not zero and not a whole number. Whole numbers
    are positions, counts and sizes (a reference's `torch.arange(seq_len).float()` holds every
    int below seq_len); held, they would free a fixed-point table spelled as whole floats
    (sigmoid codes 0..1023 on any problem with 1024 positions: the session's own review). A
    whole number an honest solution types is typed already (`host_numbers.typed`)."""
    return math.isfinite(v) and v != 0 and v != int(v)


@contextmanager
def forward(recorder: _Recorder | None, inputs: list) -> Iterator[None]:
    """The reference's first forward recorded too (a table its forward computes from its
    buffers and constants: RoPE's cos and sin of arange * inv_freq), the inputs as draws."""
    if recorder is None:
        yield
        return
    from evaluator.runner import leaves

    recorder.drawn.update(k for k in map(storage_key, leaves(inputs)) if k)
    recorder.building = False
    with recorder:
        yield


@contextmanager
def recording():
    """Record the problem's construction (`_Recorder`); yields the recorder."""
    recorder = _Recorder()
    with recorder:
        yield recorder


def module_numbers(module: Any) -> list[list[float]]:
    """The floats a problem module binds at its top level (a float, a list or tuple of them),
    one sequence per name."""
    from evaluator.host_numbers import given

    found = []
    for name, value in vars(module).items():
        if not name.startswith("__"):
            found.append([abs(v) for v in given(value) if type(v) is float and _table_value(v)])
    return _bounded(found)


def _bounded(sequences: list[list[float]]) -> list[list[float]]:
    """The sequences once each, none empty, at most `MAX_NUMBERS` values in all."""
    kept, seen, total = [], set(), 0
    for seq in sequences:
        key = tuple(seq)
        if seq and key not in seen and total < MAX_NUMBERS:
            seen.add(key)
            kept.append(seq[:MAX_NUMBERS - total])
            total += len(kept[-1])
    return kept


def problem_numbers(module: Any, recorder: _Recorder) -> list[list[float]]:
    """What the reference child hands the pipeline: construction's and the module's sequences."""
    return _bounded([*recorder.sequences(), *module_numbers(module)])
