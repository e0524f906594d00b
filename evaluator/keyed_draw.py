"""Random stand-ins that behave as deterministic functions, for the CPU check's emulations of
what the GPU decides but this machine cannot know (an approximate instruction's error, an order
its layouts fix, the tie order of CUDA's sorts).

The GPU answers each of these as a fixed function of what it is given: MUFU.TANH of the same
bits gives the same bits, one compiled `tl.cat` gives one order at every call, an unstable
sort of the same row gives the same ties. An emulation that draws afresh at each call is a
detector of the CPU (`f(x) == f(x)` fails only there: red team rt48, asm and cat files). So a
draw here is a pure function of (a secret this process draws once, the key the caller names):
equal keys give equal answers within a candidate child, and each forked child draws its own
secret (the zygote imports this once and forks every child from it: `os.register_at_fork`),
so a kernel cannot learn the answer in one child and rely on it in the next.

What the key holds is each caller's rule, written in its module doc: for a value (an
instruction's error) the input's bits and the instruction, never the call site, as the GPU's
hardware function knows nothing of it; for an order, what fixes it on the GPU (the op, shapes,
dtype and num_warps of a layout; the row of a sort).
"""
from __future__ import annotations

import hashlib
import os
import secrets

import numpy as np

_SECRET = [secrets.randbits(64)]


def _redraw() -> None:
    _SECRET[0] = secrets.randbits(64)


os.register_at_fork(after_in_child=_redraw)


def seed(*key) -> int:
    """A 64-bit number fixed by `key` (its repr) and this process's secret."""
    digest = hashlib.blake2b(repr(key).encode(), digest_size=8, key=_SECRET[0].to_bytes(8, "little"))
    return int.from_bytes(digest.digest(), "little")


def pick(key: str, row: tuple):
    """One entry of `row`, fixed for this process by `key`: a per-child choice among the
    plausible answers of an unmeasured device behaviour (interpreter_tma, interpreter_idiv)."""
    return row[seed(key) % len(row)]


def coin(*key) -> bool:
    """A fair coin fixed by `key` for this process (a per-child choice between two models)."""
    return bool(seed("coin", *key) & 1)


_M1, _M2, _GOLDEN = np.uint64(0xBF58476D1CE4E5B9), np.uint64(0x94D049BB133111EB), np.uint64(0x9E3779B97F4A7C15)


def mix(words: np.ndarray, *key) -> np.ndarray:
    """A keyed hash of each uint64 word (splitmix64's finaliser after adding `seed(*key)`):
    equal words give equal hashes, any other word an unrelated one."""
    with np.errstate(over="ignore"):
        z = np.asarray(words, dtype=np.uint64) + np.uint64(seed(*key))
        z = (z ^ (z >> np.uint64(30))) * _M1
        z = (z ^ (z >> np.uint64(27))) * _M2
        return z ^ (z >> np.uint64(31))


def rows(words: np.ndarray, *key) -> np.ndarray:
    """One keyed hash per row (the last axis) of uint64 words: a function of the row's words in
    their order, so equal rows hash alike wherever they sit."""
    words = np.asarray(words, dtype=np.uint64)
    with np.errstate(over="ignore"):
        position = (np.arange(words.shape[-1], dtype=np.uint64) + np.uint64(1)) * _GOLDEN
        return mix(mix(words + position, "row", *key).sum(axis=-1, dtype=np.uint64), "rows", *key)

