"""The dry launch model's memory (evaluator.dry_memory): where its storages lie is what a kernel
reads from its own pointer arguments, so they lie as the caching
allocator lays a fresh process's blocks out (session 65, red team s65H: storages 2**44 bytes
apart let a kernel store everything in the model alone).

- Layout: blocks rounded up to 512 bytes, packed in order of birth, small ones (up to 1 MiB) in
  one pool and larger ones in another, each pool's start a random 512-byte step past the H200's;
- under the interpreter (a child pytest): a kernel storing only where its output lies more than
  2**40 bytes from its input stores nothing in the model, as on the GPU.
"""
from __future__ import annotations

import os

import pytest
import torch
import triton
import triton.language as tl

from evaluator import dry_memory

INTERPRETED = os.environ.get("TRITON_INTERPRET") == "1"


# its TRITON_INTERPRET=1 child: test_interpreted.py (one child per group of such modules)


def test_storages_are_packed_in_order_of_birth_each_pool_apart():
    dry_memory.births_from(None, [])
    small, big, after = (torch.empty(n, device="meta") for n in (100, 1 << 20, 300))
    bases = [dry_memory.LAYOUT.base(t.untyped_storage()) for t in (small, big, after)]
    assert bases[2] - bases[0] == 512 and bases[0] % 512 == 0 and bases[1] % 512 == 0
    assert dry_memory._SMALL_BASE <= bases[0] < dry_memory._SMALL_BASE + (1 << 21)
    assert dry_memory._LARGE_BASE <= bases[1] < dry_memory._LARGE_BASE + (1 << 28)
    starts = {dry_memory.Layout().next[1] for _ in range(8)}
    assert len(starts) > 1  # a random step each forward: no absolute address tells the model


@triton.jit
def _far_only(x_ptr, y_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    far = (y_ptr.to(tl.int64) - x_ptr.to(tl.int64)) > (1 << 40)
    tl.store(y_ptr + offs, tl.load(x_ptr + offs, mask=offs < n), mask=(offs < n) & far)


@pytest.mark.skipif(not INTERPRETED, reason="runs in the TRITON_INTERPRET=1 child")
def test_a_kernel_reading_its_pointers_sees_them_as_the_gpu_lays_them_out():
    from evaluator import dry_launch

    dry_memory.births_from(None, [])
    x, y = torch.empty(4096, device="meta"), torch.empty(4096, device="meta")
    for t in (x, y):
        dry_memory.LAYOUT.base(t.untyped_storage())
    got = dry_launch.stored([dry_launch.Launch(_far_only, (4,), (x, y, 4096), {"BLOCK": 1024})], dry_launch.Budget(60))
    assert got["_far_only#0:1"]["stored"] == {}, got


def _marked(runs: list, loaded: list | None = None) -> tuple:
    """A storage's marks after two launches storing `runs` (byte offsets, one array a store),
    the second after loading `loaded`: stored, overwritten and updated counts."""
    import numpy as np

    storage = dry_memory._Storage(0, 4 * 64)
    storage.mark(np.arange(0, 4 * 40, 4), 4, "a", "a", "a#0")
    storage.current.clear()
    for offsets in loaded or ():
        storage.load(np.asarray(offsets, dtype=np.int64), 4)
    for offsets in runs:
        storage.mark(np.asarray(offsets, dtype=np.int64), 4, "b", "b", "b#0")
    return (storage.stored(4), {k: int(v.sum()) for k, v in storage.overwritten.items()},
            dict(storage.launch_over), {k: int(v.sum()) for k, v in storage.updated.items()})


def test_an_ascending_run_marks_as_the_same_lanes_in_any_order():
    """A block's lanes are marked through a slice (`_span`), any other index lane by lane: the
    same lanes shuffled mark the same elements and count the same overwrites and updates."""
    import numpy as np

    rng = np.random.default_rng(0)
    run = np.arange(4 * 30, 4 * 50, 4)
    shuffled = rng.permutation(run)
    for runs in ([run], [run, run], [run[:5], run], [run[12:], run[3:9]]):
        assert _marked(runs, loaded=[run[::2]]) == _marked([rng.permutation(r) for r in runs], loaded=[run[::2]])
        assert _marked(runs) == _marked([rng.permutation(r) for r in runs])
    assert dry_memory._span(run, 4) == slice(30, 50)
    assert isinstance(dry_memory._span(shuffled, 4), np.ndarray)
    assert dry_memory._span(run + 2, 4) == slice(30, 50)  # unaligned: the elements they fall in
