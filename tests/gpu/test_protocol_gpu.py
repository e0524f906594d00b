"""Device tensors through the parent <-> child protocol: staged through pinned memory."""
from __future__ import annotations

import os
import threading
import time

import pytest
import torch

from evaluator import protocol

pytestmark = [pytest.mark.gpu,
              pytest.mark.skipif(not torch.cuda.is_available(), reason="needs a CUDA GPU")]


def test_device_tensors_larger_than_the_staging_buffer_arrive_bit_for_bit(monkeypatch):
    monkeypatch.setattr(protocol, "_STAGE_BYTES", 1 << 16)
    monkeypatch.setattr(protocol, "_stage", [])
    tensors = [torch.randn(3, 1 << 15, device="cuda"), torch.randn(5, 7, device="cuda").t(),
               torch.randn(1 << 14, device="cuda").to(torch.bfloat16), torch.zeros(0, device="cuda"),
               torch.tensor(True, device="cuda"), torch.arange(10, device="cuda")]
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
    tensors = [torch.randn(3, 1 << 15, device="cuda"), torch.randn(5, 7, device="cuda").t(),
               torch.randn(1 << 14, device="cuda").to(torch.bfloat16), torch.arange(10, device="cuda")]
    arena = protocol.Arena.create()
    r, w = os.pipe()
    try:
        sender = threading.Thread(target=protocol.write_blocking,
                                  args=(w, {"op": "x"}, tensors, protocol.Arena(os.dup(arena.fd), min_bytes=1 << 12)))
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
