"""Parent <-> child pipe protocol: round trips, bounds, deadlines, closed pipes."""
from __future__ import annotations

import os
import threading
import time

import pytest
import torch

from evaluator import protocol


@pytest.fixture
def pipe():
    r, w = os.pipe()
    yield r, w
    for fd in (r, w):
        try:
            os.close(fd)
        except OSError:
            pass


def test_round_trip_with_tensors_of_every_kind(pipe):
    r, w = pipe
    tensors = [torch.randn(3, 4), torch.arange(6, dtype=torch.int64).reshape(2, 3), torch.empty(0, 5),
               torch.randn(2).to(torch.bfloat16), torch.tensor(True), torch.randn(4, 4).t()]
    sender = threading.Thread(target=protocol.write_blocking, args=(w, {"op": "x", "n": 1}, tensors))
    sender.start()
    head, got = protocol.Reader(r).read(time.monotonic() + 10)
    sender.join()
    assert head["op"] == "x" and head["n"] == 1
    for a, b in zip(tensors, got):
        assert a.dtype == b.dtype and a.shape == b.shape and torch.equal(a, b)


def test_large_message_beyond_the_pipe_buffer(pipe):
    r, w = pipe
    big = torch.randn(1 << 20)
    sender = threading.Thread(target=protocol.write_blocking, args=(w, {"op": "big"}, [big]))
    sender.start()
    _, (got,) = protocol.Reader(r).read(time.monotonic() + 10)
    sender.join()
    assert torch.equal(got, big)


def test_frames_past_the_populate_threshold_arrive_whole_in_their_own_memory(pipe, monkeypatch):
    """A frame past the populate threshold is received into mapped memory: it must arrive
    bit for bit next to small frames, and stay valid after the reader has moved on.
    (Device tensors' staged sending is exercised in tests/gpu.)"""
    monkeypatch.setattr(protocol, "_POPULATE_BYTES", 1 << 16)
    r, w = pipe
    big, small = torch.randn(3 << 16).reshape(3, -1), torch.arange(5, dtype=torch.int16)
    sender = threading.Thread(target=lambda: [protocol.write_blocking(w, {"op": "x"}, [big, small, big.t()])
                                              for _ in range(2)])
    sender.start()
    reader = protocol.Reader(r)
    first = reader.read(time.monotonic() + 10)[1]
    second = reader.read(time.monotonic() + 10)[1]
    sender.join()
    for got in (first, second):
        assert torch.equal(got[0], big) and torch.equal(got[1], small) and torch.equal(got[2], big.t())
    second[0].zero_()
    assert torch.equal(first[0], big)  # separate memory per message


def test_oversized_message_is_refused_before_it_is_read(pipe):
    r, w = pipe

    def send() -> None:
        try:
            protocol.write_blocking(w, {"op": "big"}, [torch.zeros(1 << 16)])
        except BrokenPipeError:  # the reader gave up on the message: expected
            pass

    sender = threading.Thread(target=send)
    sender.start()
    with pytest.raises(protocol.ChannelError, match="exceeds"):
        protocol.Reader(r, max_bytes=1 << 10).read(time.monotonic() + 10)
    os.close(r)
    sender.join(timeout=5)


def test_deadline_and_closed_pipe(pipe):
    r, w = pipe
    t0 = time.monotonic()
    with pytest.raises(protocol.ChannelTimeout):
        protocol.Reader(r).read(time.monotonic() + 0.3)
    assert time.monotonic() - t0 < 1.0
    os.close(w)
    with pytest.raises(protocol.ChannelClosed):
        protocol.Reader(r).read(time.monotonic() + 1)


def test_garbage_is_a_protocol_error(pipe):
    r, w = pipe
    os.write(w, b"\x00\x00\x00\x00")
    with pytest.raises(protocol.ChannelError):
        protocol.Reader(r).read(time.monotonic() + 1)


def test_tensor_descriptor_must_match_its_bytes():
    with pytest.raises(protocol.ChannelError):
        protocol.tensor_from({"dtype": "float32", "shape": [4]}, memoryview(b"\x00" * 8))
    with pytest.raises(protocol.ChannelError):
        protocol.tensor_from({"dtype": "object", "shape": [1]}, memoryview(b""))
