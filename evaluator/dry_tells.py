"""What the candidate's code may ask of a tensor in the dry launch model's forward
(evaluator.dry_launch) and get the answer the GPU's forward gets.

The model runs the forward on meta tensors at the declared sizes, where no trial checks what
it does, so a forward that tells the model's run from the GPU's can launch the full grid there
and a capped one on the GPU: `x.is_meta` (True on meta tensors) and `x.data_ptr() == 0` (a
meta tensor's address) each did, ok on the CPU with 4M of the GPU's 33.5M ReLU outputs written
(red team s61d, hacks/s61d_dry_*_tell_*). In that forward the candidate's own code now gets
is_meta False and a plausible device address for a meta tensor (`answer`); the CUDA device's
name already made meta tensors answering cuda:0 (candidate_env.STANDING_DEVICE). A tensor the
candidate makes on the meta device itself would then answer otherwise there than on the GPU,
so no candidate names the meta device in a CPU child (`names_meta`, refused where named).

What is left (docs/threat_model.md): values read to the host (`.item()`, `bool(t)`) raise on
meta tensors, so such a forward has no model (its ok stands: any fixed answer would be a tell
of its own), and the addresses follow a caching allocator's shape (512-byte granules, 2 MiB
segments from a random base) without being the GPU's own.
"""
from __future__ import annotations

import random
from typing import Any

import torch

NOT_ANSWERED = object()
_IS_META = torch._C.TensorBase.__dict__["is_meta"]
_DATA_PTR = torch._C.TensorBase.data_ptr
_SEGMENT = 2 << 20  # a caching allocator's large segment
_GRANULE = 512  # and its rounding


class _Addresses:
    """A device-like address per meta storage, fixed for the storage's life in the forward."""

    def __init__(self) -> None:
        self.next = (0x7F00 << 32) + random.randrange(1 << 14) * _SEGMENT
        self.made: dict[int, int] = {}

    def of(self, tensor: torch.Tensor) -> int:
        key = tensor.untyped_storage()._cdata
        if key not in self.made:
            self.made[key] = self.next
            size = max(tensor.untyped_storage().nbytes(), 1)
            step = -(-size // _GRANULE) * _GRANULE if size < (1 << 20) else -(-size // _SEGMENT) * _SEGMENT
            self.next += step
        return self.made[key] + tensor.storage_offset() * tensor.element_size()


_ADDRESSES = [_Addresses()]


def reset() -> None:
    """A fresh address space for one dry forward."""
    _ADDRESSES[0] = _Addresses()


def answer(func: Any, args: tuple) -> Any:
    """The GPU forward's answer to `func(*args)` asked by the candidate's code of a meta
    tensor in the model's forward, or NOT_ANSWERED (the call runs as it is)."""
    target = getattr(func, "__self__", None)
    if target is _IS_META and args and isinstance(args[0], torch.Tensor) and args[0].is_meta:
        return False
    if func is _DATA_PTR and len(args) == 1 and isinstance(args[0], torch.Tensor) and args[0].is_meta:
        return _ADDRESSES[0].of(args[0])
    return NOT_ANSWERED


def names_meta(device: Any) -> bool:
    """Whether a device argument names the meta device."""
    if isinstance(device, torch._C.device):  # torch.device itself (candidate_env rebinds the name)
        return device.type == "meta"
    return isinstance(device, str) and (device == "meta" or device.startswith("meta:"))
