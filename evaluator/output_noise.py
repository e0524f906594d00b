"""Noise in the outputs of chosen aten ops, for the checked forwards (evaluator.commands runs
them, evaluator.judge decides; evaluator.forward_watch's Provenance is the other watch):
  NoisyOutputs          a TorchDispatchMode that fills the outputs of chosen aten ops with
                        noise: fresh memory in every checked forward (random_uninitialised:
                        so torch.empty never tells the knock-out, where every Triton launch
                        is skipped, from the other runs) and every PyTorch compute op in the
                        strict policy's torch knock-out (torch_compute_noised);
  poison                fills a device's free memory before a run, so a kernel reading what it
                        never wrote reads noise.
"""
from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

import torch
from torch.utils._python_dispatch import TorchDispatchMode

from evaluator.aten_facts import (
    CONSTANT_OPS,
    FRESH_OPS,
    GLUE_OPS,
    HOST_VALUES,
    _read_keys,
    _still_made,
    _tensor_args,
    chain_ops,
    computes_by_conversion,
    constant_op,
    data_dependent_shape,
    storage_key,
    values_op,
    written,
)
from evaluator.index_ranges import index_in_range
from evaluator.launch_hook import LaunchRecorder
from evaluator.launch_storage import handed_tensors

_RNG = random.SystemRandom()


def poison(device: str, nbytes: int) -> None:
    """Fill and free a block so uninitialised outputs read NaN, not a stale result."""
    if device == "cuda" and nbytes > 0:
        block = torch.full((nbytes // 4 + 1,), float("nan"), device="cuda")
        del block


_RANDOM_INTS = (torch.uint8, torch.int8, torch.int16, torch.int32, torch.int64)
_WIDE_UNSIGNED = tuple(getattr(torch, n) for n in ("uint16", "uint32", "uint64") if hasattr(torch, n))


def noise(t: torch.Tensor) -> None:
    """Fill `t` with finite values nobody could have computed (normal, sd 1e3; random ints
    and bools). Finite, not NaN, on purpose: `0 * scratch.sum()` or `where(scratch > -inf,
    ...)` must not turn an unused buffer into a dependency."""
    if not t.numel():
        return
    with torch.no_grad():
        if t.is_complex():
            torch.view_as_real(t).normal_(0.0, 1e3)
        elif t.dtype in (torch.float32, torch.float64, torch.float16, torch.bfloat16):
            t.normal_(0.0, 1e3)
        elif t.dtype == torch.bool:
            t.random_(0, 2)
        elif not t.is_floating_point() and t.dtype in _RANDOM_INTS:
            # anywhere in the type's range: as an index, out of range for every dimension
            # (0..127 was a valid index into a big one: a kernel that only wrote the identity
            # permutation torch gathered its own product with then passed as "kernels matter")
            t.random_(1 << 7 if t.dtype != torch.int8 else 1 << 6, torch.iinfo(t.dtype).max)
        elif t.dtype in _WIDE_UNSIGNED:  # as the signed ones: >= 128 (a float draw cast
            # to uint32 was below 128 four times in ten, a valid index: red team A, session 19)
            hi = min(torch.iinfo(t.dtype).max, torch.iinfo(torch.int64).max)
            t.copy_(torch.empty(t.shape, dtype=torch.int64, device=t.device).random_(1 << 7, hi))
        else:  # float8, quantized, ...: noise through a same-sized float32 draw
            t.copy_(torch.empty(t.shape, dtype=torch.float32, device=t.device).normal_(0.0, 1e2))




def _random_length(t: torch.Tensor) -> torch.Tensor:
    """A tensor like `t` but of a random length in its first dimension, holding noise."""
    if t.dim() == 0:
        noise(t)
        return t
    fresh = torch.empty((_RNG.randrange(2 * t.shape[0] + 2), *t.shape[1:]), dtype=t.dtype, device=t.device)
    noise(fresh)
    return fresh


class NoisyOutputs(TorchDispatchMode):
    """While active, the outputs of the aten operators `pick` selects come back holding
    noise (`noise`). The two knock-out runs:
      random_uninitialised()  memory from torch.empty & co.: with every Triton launch
                               skipped, a buffer no kernel wrote holds values nobody
                               could have produced, so an output that is still right did
                               not need the skipped kernels;
      torch_compute_noised()  every operator but allocation, views and copies (GLUE_OPS;
                               a copy converting floats to integers computes, and is
                               noised), the strict policy's: Triton kernels run as usual,
                               so a forward whose output stays right computed it in its kernels."""

    def __init__(self, pick: Callable[[str], bool], shapes: bool = False,
                 recorder: LaunchRecorder | None = None, conversions: bool = False) -> None:
        super().__init__()
        self.pick = pick
        self.shapes = shapes  # also give data-dependent sizes random lengths
        self.conversions = conversions  # also a copy that computes (`computes_by_conversion`)
        # With a recorder (the torch knock-out): memory only make ops and constants wrote, as
        # the provenance watch keeps it (`constant_op`): an op computing from constants alone
        # (a causal mask from torch.ones().triu(), a group table from arange() // k) is not
        # noised, since no input reaches it; kernels' launches take their arguments out.
        self.recorder = recorder
        self.made: set[int] = set()
        self.ops: dict[int, int] = {}  # what each made storage's constant took (`chain_ops`)
        self.scatter = None  # fresh Python objects' addresses drawn anew too (`random_uninitialised`)

    def __enter__(self):
        if self.recorder is not None:
            self.recorder.observer = self._launched
        if self.scatter is not None:
            self.scatter.__enter__()
        return super().__enter__()

    def __exit__(self, *exc):
        if self.recorder is not None:
            self.recorder.observer = None
        try:
            return super().__exit__(*exc)
        finally:
            if self.scatter is not None:
                self.scatter.__exit__(None, None, None)

    def _launched(self, kernel: object, args: tuple, kwargs: dict) -> None:
        self.made.difference_update(storage_key(t) for v in (*args, *kwargs.values()) for t in handed_tensors(v))

    def __torch_dispatch__(self, func, types, args=(), kwargs=None):
        kwargs = kwargs or {}
        index_in_range(func, args)
        extents = _storage_extents(func, args, kwargs)
        constant, makes, reads, over = False, False, (), False
        name = func.overloadpacket.__name__
        if self.recorder is not None:
            reads, ins = _read_keys(func, args, kwargs), _tensor_args(args, kwargs)
            constant, makes = constant_op(func, name, ins, reads, self.made)
            n = chain_ops(name, ins, self.ops)
        out = func(*args, **kwargs)
        if self.recorder is not None:
            outs = written(func, args, kwargs, out)
            # float values computed from constants are PyTorch's: noise (`values_op`, rt65);
            # so is a constant past CONSTANT_OPS ops, a copy or a join of them too (rt71)
            over = constant and n > CONSTANT_OPS
            constant = constant and not over and not values_op(name, outs)
            for t in outs:
                if key := storage_key(t):
                    _still_made(self.made, key, t, makes or constant, reads)
                    if key in self.made:
                        self.ops[key] = n
        if extents is not None and self.pick("empty"):
            # memory an in-place view op added (resize_, set_ growing its source storage) holds what was
            # there (a freed torch result taken back unmarked: red teams C s16, D s17): noise, as empty's
            _noise_growth(args, kwargs, extents)
        if (self.pick(name) or over or self.conversions and computes_by_conversion(func, args, kwargs, out)) \
                and not constant:
            if isinstance(out, HOST_VALUES):
                # .item(), float(t), torch.equal: the value as the memory holds it (noise where PyTorch
                # computed it). Noising every read let `torch.ones(1).item() != 1` tell the torch
                # knock-out apart, the honest path ran only there (red team A, session 16); reads of
                # what PyTorch computed are the watch's (`handed`), many of the inputs `host_compute`
                return out
            if self.shapes and data_dependent_shape(func) and isinstance(out, (torch.Tensor, tuple, list)):
                # the size is the result too (a popcount read off masked_select(...).shape[0])
                if isinstance(out, torch.Tensor):
                    return _random_length(out)
                return type(out)(_random_length(t) if isinstance(t, torch.Tensor) else t for t in out)
            fresh = func.overloadpacket.__name__ in FRESH_OPS
            for t in written(func, args, kwargs, out):
                if fresh:  # its whole new storage: a strided tensor's gaps held a freed torch result
                    _noise_storage_from(t, 0)  # (red team C, session 17: empty_strided((2,), (big,)))
                else:
                    noise(t)
        return out


def _storages(args: tuple, kwargs: dict) -> list:
    """The untyped storages an op's arguments hold or are (tensors, storages)."""
    found = []
    for a in (*args, *kwargs.values()):
        if isinstance(a, torch.Tensor) and a.layout == torch.strided:
            found.append(a.untyped_storage())
        elif isinstance(a, torch.UntypedStorage):
            found.append(a)
        elif isinstance(a, torch.TypedStorage):
            found.append(a._untyped_storage)
    return found


def _storage_extents(func: Any, args: tuple, kwargs: dict) -> dict[int, int] | None:
    """For an op that changes a tensor's view of memory without writing values (tagged
    inplace_view: resize_, resize_as_, set_, as_strided_...): each argument storage's bytes
    before it ran, by storage identity; None for any other op (those write what they grow)."""
    if torch.Tag.inplace_view not in getattr(func, "tags", ()):
        return None
    return {st._cdata: st.nbytes() for st in _storages(args, kwargs)}


def _noise_growth(args: tuple, kwargs: dict, before: dict[int, int]) -> None:
    """Noise every byte an argument tensor's storage gained during the op."""
    for t in (a for a in (*args, *kwargs.values()) if isinstance(a, torch.Tensor) and a.layout == torch.strided):
        storage = t.untyped_storage()
        _noise_storage_from(t, before.get(storage._cdata, 0))


def _noise_storage_from(t: torch.Tensor, before: int) -> None:
    """Noise the bytes `t`'s storage gained past `before`, whatever the tensor's layout over
    them: a channels_last resize_ is not contiguous, and once took back a freed PyTorch
    result whole (red team A, session 17)."""
    storage = t.untyped_storage()
    size = t.element_size()
    first, last = -(-before // size), storage.nbytes() // size
    if last > first:
        whole = torch.empty(0, dtype=t.dtype, device=t.device).set_(storage, 0, (last,))
        noise(whole[first:])


def random_uninitialised(scattered: bool = False) -> NoisyOutputs:
    """Fresh memory holding noise; `scattered` (a CPU candidate's checked and pinned forwards),
    fresh Python objects at random slots too (evaluator.heap_scatter: a pinned forward's fork
    told itself from the checked forward by `hash(object())`, red team s65H)."""
    mode = NoisyOutputs(lambda name: name in FRESH_OPS)
    if scattered:
        from evaluator import heap_scatter

        mode.scatter = heap_scatter.scattered()
    return mode


def torch_compute_noised(recorder: LaunchRecorder | None = None) -> NoisyOutputs:
    # fresh memory holds noise here too, as in every other checked forward: what torch.empty
    # returned was the one difference left to tell this run apart by (`torch.empty(1).item()`)
    return NoisyOutputs(lambda name: name not in GLUE_OPS or name in FRESH_OPS, shapes=True,
                        recorder=recorder, conversions=True)
