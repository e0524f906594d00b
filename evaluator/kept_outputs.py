"""Outputs a module keeps from call to call: the candidate child's side of the kept-output check
(the worker's is evaluator.kept_check).

A forward that returns one buffer it keeps on the module, and writes only part of it after the
first call, answers with whatever earlier calls left in the rest: a causal softmax that zeroed
its kept output once and then stored only the lower triangle was ok (reward 1.001, paper and
strict) though a caller that clamps the probabilities in place makes every later answer wrong
(red team s69H, session 69). Nothing the harness did wrote a returned output between forwards.

So every storage a candidate forward returned is remembered weakly (`note`: a weak reference
keeps no memory alive), and the child's very last command (`command`, after the trials, the
knock-outs and the timing: corrupting the module's state then costs nothing, on the GPU too, so
no fork is needed) fills every one still alive with random bits drawn from the worker's seed
(`fill_bytes`), then runs one forward on a fresh draw. What that forward returns inside a
filled storage comes back with its place there; the worker regenerates the fill from its seed
and refuses elements that still hold the fill's exact bits (never written). An honest module
that reuses one output buffer writes all of it; one that returns its state and reads it back
next call (a recurrent cell) computes from noise in that forward and writes every element: the
fill holds no NaN or infinity for a floating dtype, so nothing computed from it reproduces it.

Alive means held by anyone: the module, or the harness (a launch record, an input set a forward
returned a view of). Filling the harness's copies is harmless there: nothing reads them after
this command, and the check forward's inputs are drawn after the fill.
"""
from __future__ import annotations

import gc
from typing import TYPE_CHECKING

import torch
from torch.multiprocessing.reductions import StorageWeakRef
from torch.utils._python_dispatch import _disable_current_modes

from evaluator.output_noise import random_uninitialised
from evaluator.runner import CandidateError

if TYPE_CHECKING:
    from evaluator.commands import ChildState

# storage -> (its weak reference, the dtype it was first returned as): every storage a candidate
# forward in this process returned that may still be alive
_RETURNED: dict[int, tuple[StorageWeakRef, torch.dtype]] = {}
MAX_TRACKED = 4096  # past it the table drops its expired entries (never a live one: an evicted kept
# buffer would go unfilled, a cheat holding 4096 fresh outputs alive to push it out)

_INT_OF_SIZE = {1: torch.uint8, 2: torch.int16, 4: torch.int32, 8: torch.int64}


def note(outs: object) -> None:
    """Remember the storage of every tensor in `outs` (a tensor, or a list or tuple of them),
    past every torch mode a checked forward runs under (the harness's reads, no one's work)."""
    with torch._C.DisableTorchFunction(), _disable_current_modes():
        _note(outs)


def _note(outs: object) -> None:
    items = outs if isinstance(outs, (list, tuple)) else [outs]
    for t in items:
        if isinstance(t, (list, tuple)):
            _note(t)
        elif isinstance(t, torch.Tensor) and t.layout == torch.strided and not t.is_meta:
            _remember(t)
    if len(_RETURNED) > MAX_TRACKED:
        _prune()


def _remember(t: torch.Tensor) -> None:
    try:
        ref = StorageWeakRef(t.untyped_storage())
    except (RuntimeError, NotImplementedError):
        return
    if ref.cdata not in _RETURNED:
        _RETURNED[ref.cdata] = (ref, t.dtype)


def _prune() -> None:
    for key in [k for k, (ref, _) in _RETURNED.items() if ref.expired()]:
        del _RETURNED[key]


def alive() -> list[tuple[torch.UntypedStorage, torch.dtype]]:
    """The remembered storages still alive, in the order they were first returned."""
    found = []
    for ref, dtype in list(_RETURNED.values()):
        storage = None if ref.expired() else torch.UntypedStorage._new_with_weak_ptr(ref.cdata)
        if storage is not None and storage.nbytes() > 0:
            found.append((storage, dtype))
    return found


def fill_bytes(seed: int, index: int, nbytes: int, dtype: torch.dtype) -> torch.Tensor:
    """The fill of storage `index` under `seed`: `nbytes` random bytes (a uint8 CPU tensor), the
    same in both processes; where `dtype` is floating, no element as `dtype` is NaN or infinite
    (the top exponent bit cleared), so no arithmetic on the fill reproduces a filled element."""
    g = torch.Generator().manual_seed((int(seed) * 1_000_003 + index) % (1 << 63))
    words = torch.randint(-(1 << 63), (1 << 63) - 1, ((nbytes + 7) // 8,), dtype=torch.int64, generator=g)
    raw = words.view(torch.uint8)[:nbytes].clone()
    size = dtype.itemsize if dtype.is_floating_point and not dtype.is_complex else 0
    if size in _INT_OF_SIZE and nbytes % size == 0:
        _finite(raw, dtype, size)
    return raw


def _finite(raw: torch.Tensor, dtype: torch.dtype, size: int) -> None:
    """Clear the exponent's top bit (the one below the sign, in every IEEE format) of each element
    of `raw` that reads as NaN or infinity in `dtype`, in place."""
    try:
        bad = ~torch.isfinite(raw.view(dtype))
    except (RuntimeError, TypeError):  # a float8 type without isfinite: left as drawn
        return
    ints = raw.view(_INT_OF_SIZE[size])
    bit = 1 << (8 * size - 2)
    ints[bad] = torch.bitwise_and(ints[bad], ~bit)


def command(state: ChildState, h: dict) -> tuple[dict, list]:
    """`kept` {id, draw_seed, fill_seed}: the candidate child's last forward. Every storage an
    earlier forward returned that is still alive is filled from `fill_seed`; set `id` is drawn
    fresh under `draw_seed` and run once; each output that lies in a filled storage comes back
    with where (`placed`): its storage's index and size, the dtype it was filled as, its offset,
    shape and strides. A forward that raises answers `error` (it read noise: no verdict)."""
    if state.role != "candidate":
        raise ValueError("only a candidate child runs the kept-output check")
    ws = state._workspace()
    state.batch, state.last_outputs, state.summary = [], [], None  # the harness's own references
    ws.forget_draws()
    gc.collect()
    storages = alive()
    for index, (storage, dtype) in enumerate(storages):
        _fill(storage, fill_bytes(h["fill_seed"], index, storage.nbytes(), dtype))
    ws.regenerate(int(h["id"]), int(h["draw_seed"]))
    inputs = ws.inputs(int(h["id"]))
    state._autotuned_as_checked()
    try:
        with random_uninitialised(state.device == "cpu"):
            outs, _ = state._forward(inputs)
    except CandidateError as exc:
        return {"op": "result", "filled": len(storages), "error": exc.message[:500],
                "tampered": state.integrity.check()}, []
    placed, tensors = _placed(outs, storages)
    return {"op": "result", "filled": len(storages), "placed": placed,
            "tampered": state.integrity.check()}, tensors


def _fill(storage: torch.UntypedStorage, raw: torch.Tensor) -> None:
    """Write `raw`'s bytes over all of `storage`, on its device."""
    view = torch.empty(0, dtype=torch.uint8, device=storage.device)
    view.set_(storage, 0, (storage.nbytes(),))
    view.copy_(raw.to(storage.device))


def _placed(outs: list, storages: list) -> tuple[list[dict], list]:
    """Each output whose memory lies in a filled storage (where, in bytes from the storage's
    start) and the output itself, on the host."""
    spans = [(s.data_ptr(), s.nbytes(), i, dtype) for i, (s, dtype) in enumerate(storages) if s.data_ptr()]
    placed, tensors = [], []
    for k, t in enumerate(outs):
        if not isinstance(t, torch.Tensor) or t.layout != torch.strided or t.numel() == 0:
            continue
        start = t.untyped_storage().data_ptr()
        hit = next((x for x in spans if x[0] <= start < x[0] + x[1]), None)
        if hit is None:
            continue
        base, nbytes, index, dtype = hit
        placed.append({"output": k, "storage": index, "nbytes": nbytes, "filled_as": str(dtype),
                       "dtype": str(t.dtype), "byte_offset": start - base + t.storage_offset() * t.element_size(),
                       "shape": list(t.shape), "stride": list(t.stride())})
        tensors.append(t.detach().cpu())
    return placed, tensors
