"""The tensors a Triton launch can touch (`handed_leaves`, the one walk of them), kept and
compared as whole storages: what the CPU's emulation of the GPU's autotune benchmark
(evaluator.autotune_cpu) saves before a config runs, puts back between runs and compares after
them."""
from __future__ import annotations

import hashlib

import torch


def handed_tensors(value, depth: int = 0):
    """Every tensor a launch argument hands the kernel (`handed_leaves`)."""
    for _, tensor in handed_leaves(value, "", depth):
        yield tensor


def handed_leaves(value, where: str = "", depth: int = 0):
    """(where, tensor) for every tensor a launch argument hands the kernel, so every tensor the
    launch can touch: itself, inside tuples and lists (`where[i]`) and a tl.constexpr, or a host
    TensorDescriptor's base (`where.base`), as far as the launcher takes them
    (evaluator.launch_args._plain). The one walk of a launch's tensors: this guard's address
    ranges, the provenance watch (evaluator.forward_watch), and what an autotuner's benchmark
    saves, compares and puts back (evaluator.autotune_cpu; red team rt25: a config writing half
    its output through a descriptor was never compared there)."""
    import triton.language as tl

    if isinstance(value, torch.Tensor):
        yield where, value
    elif type(value) is tl.constexpr and depth < 4:  # the launcher accepts a wrapped one
        yield from handed_leaves(getattr(value, "value", None), where, depth + 1)
    elif isinstance(value, (tuple, list)) and depth < 4:
        for i, v in enumerate(value):
            yield from handed_leaves(v, f"{where}[{i}]", depth + 1)
    elif hasattr(value, "base") and isinstance(getattr(value, "base", None), torch.Tensor):
        yield f"{where}.base", value.base  # a host-side TensorDescriptor


def launch_values(tuner, args: tuple, kwargs: dict) -> list:
    """(name, value) of the launch's arguments, by position and by keyword (a tensor handed by
    keyword is the launch's as much as one handed by position)."""
    names = list(getattr(tuner, "arg_names", None) or ())
    given = [(names[i] if i < len(names) else f"#{i}", v) for i, v in enumerate(args)]
    return given + [(k, v) for k, v in kwargs.items() if k not in ("grid", "warmup")]


def launch_tensors(tuner, args: tuple, kwargs: dict) -> list:
    """(where, tensor) for every tensor the launch can touch (`handed_leaves`:
    in tuples and lists, a host TensorDescriptor's base; red team s45b's output in a tuple,
    rt25's written through a descriptor, were neither copied nor compared)."""
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
