"""The tensors a Triton launch can touch, kept and compared as whole storages: what the CPU's
emulation of the GPU's autotune benchmark (evaluator.autotune_cpu) saves before a config runs,
puts back between runs and compares after them."""
from __future__ import annotations

import hashlib

import torch


def launch_values(tuner, args: tuple, kwargs: dict) -> list:
    """(name, value) of the launch's arguments, by position and by keyword (a tensor handed by
    keyword is the launch's as much as one handed by position)."""
    names = list(getattr(tuner, "arg_names", None) or ())
    given = [(names[i] if i < len(names) else f"#{i}", v) for i, v in enumerate(args)]
    return given + [(k, v) for k, v in kwargs.items() if k not in ("grid", "warmup")]


def launch_tensors(tuner, args: tuple, kwargs: dict) -> list:
    """(where, tensor) for every tensor the launch can touch (interpreter_guard.handed_leaves:
    in tuples and lists, a host TensorDescriptor's base; red team s45b's output in a tuple,
    rt25's written through a descriptor, were neither copied nor compared)."""
    from evaluator.interpreter_guard import handed_leaves

    return [leaf for name, value in launch_values(tuner, args, kwargs) for leaf in handed_leaves(value, name)]


def storages(tensors: list) -> list:
    """(storage, a copy of its bytes) of each storage under these tensors, once each."""
    seen, out = set(), []
    for _, t in tensors:
        storage = t.untyped_storage()
        if storage.data_ptr() in seen or not storage.nbytes():
            continue
        seen.add(storage.data_ptr())
        out.append((storage, storage.clone()))
    return out


def restore(saved: list) -> None:
    for storage, copy in saved:
        storage.copy_(copy)


def digest(saved: list) -> bytes:
    """A digest of the bytes of a `storages`."""
    digest = hashlib.blake2b(digest_size=16)
    for _, copy in saved:
        digest.update(memoryview(torch.empty(0, dtype=torch.uint8).set_(copy).numpy()))
    return digest.digest()


def differs(now: list, then: list):
    """The first storage whose bytes differ between two `storages` of the same tensors, or None."""
    for (storage, a), (_, b) in zip(now, then):
        if not torch.equal(torch.empty(0, dtype=torch.uint8).set_(a), torch.empty(0, dtype=torch.uint8).set_(b)):
            return storage
    return None
