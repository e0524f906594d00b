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
