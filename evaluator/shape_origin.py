"""Which tensors an op of the forward made have sizes the problem gave (session 67, issue 11).

A launch int a handed tensor's size explains is free (`launch_sizes`), but not the size of a
storage an op of the forward made (red team rt80: host Python sizes `torch.empty(code)` as it
likes, so its numel is no explanation). Session 66 then priced unexplained launch ints as
computed numbers (`DataInts.computed`), and the honest KernelBench-style conv + BatchNorm
epilogue (`kernelbench_style/s54k_52`: a cuDNN conv, then a Triton kernel handed N, C and H*W of
the conv's output) went `hack` at 10 computed numbers: the conv's output was made in forward,
so its sizes explained nothing, though no host Python chose them.

What decides is where a made tensor's sizes came from. An op's output sizes are a function of
its tensor inputs' sizes and its int arguments; they are the problem's (`problem_shaped`) only
where both are: every tensor input made before the forward, a whole storage (no slice or view
cut to a chosen shape), each of its sizes one no host computation chose (`problem_size`: an
int the problem typed or the check was given, the inputs' and a Conv2d's weight's; a literal the
author typed; a product of two problem ints); every int argument 0, 1, -1, a
problem int or a dimension index (a float too: a scale factor sizes); no list of tensors (a join's length is a choice:
`torch.cat([x] * code)`); and no size computed from values (`aten_facts.data_dependent_shape`).
One step only: a vouched output is a made tensor to the next op, so shape arithmetic cannot be
chained (pad by one, repeat, pad again) into any number.

Construction sizes as it likes too (session 67, red team of this change): sixteen buffers made in
`__init__`, each one sigmoid code long, handed beside their numels, were ok at 1.0001 with
session 66's pricing, since only the forward's storages were held to it. So a storage an op of
construction wrote at a size no `problem_size` is, and that the candidate still holds
(`CHOSEN`, kept by the runner), explains no launch int either, and is no problem-sized input.

The alphabet left is what one op over the problem's tensors with the problem's ints can size
(a conv's OH x OW, a sum over a dimension): a few hundred shapes at most, as wide as the choice
among a launch's own explained ints that was always free; a different such tensor per launch
with the same other tensors is read in launch order (`DataInts.add`: the order's key leaves
vouched sizes out).
"""

from __future__ import annotations

import torch

from evaluator import host_numbers
from evaluator.aten_facts import _sparse, data_dependent_shape
from evaluator.host_numbers import problem_int, typed
from evaluator.launch_sizes import explained_by

MAX_DIM = 8  # a dimension index an op may be handed (tensors here have at most this many)
CHOSEN: set[int] = set()  # storages construction sized other than the problem, still held (`note_sizes`)


def _numbers(v: object, depth: int = 0) -> list:
    """The numbers in an argument (an int or a float, or a list or tuple of them), bools left
    out: a float sizes too (`F.interpolate(x, scale_factor=code / 14)` is `code` wide)."""
    if type(v) in (int, float):
        return [v]
    if type(v) in (list, tuple) and depth < 2:
        return [i for item in v for i in _numbers(item, depth + 1)]
    return []


def _named_args(func: object, args: tuple, kwargs: dict) -> list[tuple[str, object]]:
    """(schema name, value) of each argument of an aten op (positional names from its schema)."""
    try:
        names = [a.name for a in func._schema.arguments]  # type: ignore[attr-defined]
    except AttributeError:
        names = []
    positional = [(names[i] if i < len(names) else str(i), v) for i, v in enumerate(args)]
    return [*positional, *kwargs.items()]


def problem_size(v: int) -> bool:
    """A size no host computation chose: a problem int, a literal the author typed (free as a
    launch int already: `DataInts.computed`), or what two problem ints explain as a launch's
    sizes do (`launch_sizes.explained_by`: a product k * k of taps, a next power of two)."""
    return problem_int(v) or typed(v) or v in explained_by(host_numbers._State.problem_ints)


def _int_allowed(name: str, v: float) -> bool:
    """An op's number argument that chooses no size: 0, 1, -1, a problem int, or a dimension
    (a float only where it is one of those ints: a scale factor sizes an output)."""
    if type(v) is float:
        if not v.is_integer():
            return False
        v = int(v)
    return v == -1 or problem_int(v) or ("dim" in name and abs(v) <= MAX_DIM)


def _problem_sized(t: torch.Tensor, shaped: set, key) -> bool:
    """`t` was made before the forward, is the whole of its storage, and each of its sizes is
    a `problem_size`."""
    try:
        if key(t) in shaped or key(t) in CHOSEN or t.storage_offset() != 0:
            return False
        if t.numel() * t.element_size() != t.untyped_storage().nbytes():
            return False
        return all(problem_size(int(s)) for s in t.shape)
    except (RuntimeError, TypeError, AttributeError, NotImplementedError):
        return False


def problem_shaped(func: object, args: tuple, kwargs: dict, outs: list, shaped: set, key) -> bool:
    """Whether the outputs of this op of the forward have sizes only the problem chose (module
    doc); `shaped`: storages an op of this forward made; `key`: a tensor's storage key."""
    if data_dependent_shape(func) or _sparse([], outs):
        return False
    tensors = []
    for name, v in _named_args(func, args, kwargs):
        if isinstance(v, torch.Tensor):
            tensors.append(v)
        elif type(v) in (list, tuple) and any(isinstance(i, torch.Tensor) for i in v):
            return False  # a join's list: its length is host Python's
        elif not all(_int_allowed(name, i) for i in _numbers(v)):
            return False
    return bool(tensors) and all(_problem_sized(t, shaped, key) for t in tensors)


def note_sizes(chosen: set[int], outs: list, key) -> None:
    """Keep `chosen` (storage keys) up to date with the tensors an op of construction wrote
    (`ConstructionWatch`): one with a size no `problem_size` is is chosen (`torch.empty(code)` in
    `__init__` is as chosen as in forward: session 67, a buffer per sigmoid code, each code long,
    handed beside its numel, was ok at 1.0001 with session 66's pricing); a whole storage written
    at problem sizes by no view is not (a parameter at the address a freed temporary had). The runner keeps
    those the candidate still holds (`CHOSEN`)."""
    for t in outs:
        try:
            if not isinstance(t, torch.Tensor) or not (k := key(t)):
                continue
            if not all(problem_size(int(s)) for s in t.shape):
                chosen.add(k)
            elif t._base is None and t.storage_offset() == 0 and t.numel() * t.element_size() == t.untyped_storage().nbytes():
                chosen.discard(k)
        except (RuntimeError, TypeError, AttributeError, NotImplementedError):
            continue
