"""Device tensors through the parent <-> child protocol: staged through pinned memory."""

from __future__ import annotations

import os
import threading
import time

import pytest
import torch

from evaluator import protocol

pytestmark = [
    pytest.mark.gpu,
    pytest.mark.skipif(not torch.cuda.is_available(), reason="needs a CUDA GPU"),
]


def test_device_tensors_larger_than_the_staging_buffer_arrive_bit_for_bit(monkeypatch):
    monkeypatch.setattr(protocol, "_STAGE_BYTES", 1 << 16)
    monkeypatch.setattr(protocol, "_stage", [])
    tensors = [
        torch.randn(3, 1 << 15, device="cuda"),
        torch.randn(5, 7, device="cuda").t(),
        torch.randn(1 << 14, device="cuda").to(torch.bfloat16),
        torch.zeros(0, device="cuda"),
        torch.tensor(True, device="cuda"),
        torch.arange(10, device="cuda"),
    ]
    r, w = os.pipe()
    try:
        sender = threading.Thread(target=protocol.write_blocking, args=(w, {"op": "x"}, tensors))
        sender.start()
        _, got = protocol.Reader(r).read(time.monotonic() + 30)
        sender.join()
    finally:
        os.close(r)
        os.close(w)
    assert protocol._stage and protocol._stage[0].is_pinned()
    for a, b in zip(tensors, got):
        assert b.device.type == "cpu" and a.dtype == b.dtype and a.shape == b.shape
        assert torch.equal(a.cpu(), b)


def test_device_tensors_through_the_reply_arena_arrive_bit_for_bit(monkeypatch):
    """The arena path of device tensors (staged, then written into the shared memfd)."""
    monkeypatch.setattr(protocol, "_STAGE_BYTES", 1 << 16)
    monkeypatch.setattr(protocol, "_stage", [])
    tensors = [
        torch.randn(3, 1 << 15, device="cuda"),
        torch.randn(5, 7, device="cuda").t(),
        torch.randn(1 << 14, device="cuda").to(torch.bfloat16),
        torch.arange(10, device="cuda"),
    ]
    arena = protocol.Arena.create()
    r, w = os.pipe()
    try:
        sender = threading.Thread(
            target=protocol.write_blocking,
            args=(w, {"op": "x"}, tensors, protocol.Arena(os.dup(arena.fd), min_bytes=1 << 12)),
        )
        sender.start()
        head, got = protocol.Reader(r, arena=arena).read(time.monotonic() + 30)
        sender.join()
    finally:
        os.close(r)
        os.close(w)
        arena.close()
    assert [p is not None for p in head["arena"]] == [True, False, True, False]
    for a, b in zip(tensors, got):
        assert b.device.type == "cpu" and a.dtype == b.dtype and a.shape == b.shape
        assert torch.equal(a.cpu(), b)


def test_device_tensors_reach_a_page_locked_arena_in_one_copy(monkeypatch):
    """The child's arena mapping is registered with the driver once and kept (one DMA per
    tensor, no staging buffer), from a thread other than the one that made the tensors; a
    later reply reuses it."""
    locked, staged = [], []
    lock, stage = protocol._page_lock, protocol._staging
    monkeypatch.setattr(protocol, "_page_lock", lambda t: locked.append(lock(t)) or locked[-1])
    monkeypatch.setattr(protocol, "_staging", lambda: staged.append(1) or stage())
    tensors = [
        torch.randn(3, 1 << 20, device="cuda"),
        torch.randn(1 << 16, device="cuda").to(torch.bfloat16),
    ]
    arena = protocol.Arena.create()
    child_side = protocol.Arena(os.dup(arena.fd), min_bytes=1 << 12)
    r, w = os.pipe()
    try:
        for _ in range(2):  # the second reply reuses the registered mapping
            sender = threading.Thread(
                target=protocol.write_blocking, args=(w, {"op": "x"}, tensors, child_side)
            )
            sender.start()
            head, got = protocol.Reader(r, arena=arena).read(time.monotonic() + 30)
            sender.join()
            for a, b in zip(tensors, got):
                assert torch.equal(a.cpu(), b)
    finally:
        os.close(r)
        os.close(w)
        child_side.close()
        arena.close()
    assert locked == [True] and not staged


def test_judging_on_the_device_agrees_with_the_host():
    """compare.on_device: the worker's float32 passes over host snapshots, run on the GPU,
    give the host's answers (matches, misses, infinities and NaN in place, subnormal pairs,
    half precision widened)."""
    from evaluator import compare as C

    tol = C.Tolerance(atol=1e-5, rtol=1e-5, norm_rtol=1e-3, residual_rtol=1.5e-4)
    g = torch.Generator().manual_seed(0)
    ref = torch.randn(3 * C._SLICE + 17, generator=g)
    close = ref + 1e-7 * torch.randn(ref.shape, generator=g)
    off = close.clone()
    off[C._SLICE + 5] += 1.0
    special = ref.clone()
    special[[3, C._SLICE * 2]] = torch.tensor([float("inf"), float("nan")])
    tiny = torch.full((1000,), 1e-40)
    cases = [
        (close, ref),
        (off, ref),
        (special, special.clone()),
        (special.nan_to_num(), special),
        (tiny * 1.01, tiny),
        (torch.zeros(1000), torch.full((1000,), 1e-23)),
        (close.half(), ref.half()),
        (off.double(), ref.double()),
    ]
    for out, r in cases:
        host = C.fast_match(out, r, tol)
        with C.on_device("cuda"):
            dev = C.fast_match(out, r, tol)
            within = C.fast_match(out, r, tol, within=0.5)
        assert dev == host, (out.dtype, host, dev)
        assert within == C.fast_match(out, r, tol, within=0.5)
    assert [C.fast_match(o, r, tol) for o, r in cases[:2]] == [True, False]


def test_a_device_index_out_of_range_raises_on_the_host_under_the_noise_mode():
    """Under the knock-out's noise mode a gather with garbage indices raises IndexError, as on
    the CPU, instead of a device-side assert that would end the CUDA context; the context
    still works afterwards, and indices in range gather as usual."""
    from evaluator.output_noise import random_uninitialised

    x = torch.randn(16, 8, device="cuda")
    bad = torch.full((4, 8), 40, dtype=torch.int64, device="cuda")
    with random_uninitialised():
        for call in (
            lambda: x.gather(0, bad),
            lambda: x.index_select(0, bad[:, 0]),
            lambda: x[bad[:, 0]],
            lambda: torch.nn.functional.embedding(bad, x),
            lambda: x.take(bad * 10),
        ):
            with pytest.raises(IndexError):
                call()
        good = torch.arange(4, device="cuda")
        assert torch.equal(x.index_select(0, good), x[:4])
    assert torch.equal(x[torch.tensor([-1], device="cuda")], x[-1:])
    torch.cuda.synchronize()
