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


def test_a_header_nested_too_deep_to_decode_is_a_protocol_error_not_the_workers(pipe):
    """A candidate's process that reaches its reply fd can write any bytes; a msgpack header
    of 100,000 nested arrays makes the decoder raise RecursionError, which escaped the worker
    as its own failure (the verdict then blamed the evaluator, and the actor never trained on
    the wrong kernel behind it)."""
    r, w = pipe
    depth = 100_000
    header = b"\x91" * depth + b"\xc0"  # fixarray of one element, nested, around a nil
    frame = protocol._COUNT.pack(1) + protocol._LEN.pack(len(header)) + header
    threading.Thread(target=os.write, args=(w, frame), daemon=True).start()
    with pytest.raises(protocol.ChannelError, match="unreadable header"):
        protocol.Reader(r).read(time.monotonic() + 5)


def test_tensor_descriptor_must_match_its_bytes():
    with pytest.raises(protocol.ChannelError):
        protocol.tensor_from({"dtype": "float32", "shape": [4]}, memoryview(b"\x00" * 8))
    with pytest.raises(protocol.ChannelError):
        protocol.tensor_from({"dtype": "object", "shape": [1]}, memoryview(b""))


# ---------------------------------------------------------------- the reply arena

def _raw_message(fd: int, head: dict, frames: list[bytes]) -> None:
    import msgspec

    parts = [msgspec.msgpack.encode(head), *frames]
    os.write(fd, protocol._prefix(parts) + b"".join(parts))


_ARENA_CHILD = """
import os, sys, torch
from evaluator import protocol
w, fd, go_on = map(int, sys.argv[1:])
big = torch.arange(5 << 14, dtype=torch.float32).reshape(5, -1)
mine = protocol.Arena(fd, min_bytes=1 << 16)
protocol.write_blocking(w, {"op": "x"}, [big, torch.arange(7, dtype=torch.int16), big.t()], mine)
os.read(go_on, 1)  # one reply per command: the next is written once the parent asks again
protocol.write_blocking(w, {"op": "y"}, [big * 2], mine)
os.read(go_on, 1)
os.pwrite(fd, b"\\xff" * (1 << 16), 0)  # after the parent has read: tampering
"""


def test_large_tensors_cross_in_the_arena_from_another_process_and_the_parent_keeps_a_snapshot(pipe):
    """Tensors past the arena threshold leave the pipe empty and arrive bit for bit through
    the arena another process wrote; the parent's tensors are its own copies: what the child
    writes into the arena afterwards (a later reply, or tampering) changes none of them."""
    import subprocess
    import sys

    r, w = pipe
    arena = protocol.Arena.create()
    go_r, go_w = os.pipe()
    child = subprocess.Popen([sys.executable, "-c", _ARENA_CHILD, str(w), str(arena.fd), str(go_r)],
                             pass_fds=(w, arena.fd, go_r))
    try:
        reader = protocol.Reader(r, arena=arena)
        head, first = reader.read(time.monotonic() + 60)
        os.write(go_w, b"x")
        _, second = reader.read(time.monotonic() + 60)
        os.write(go_w, b"x")
        assert child.wait(timeout=60) == 0
    finally:
        child.kill()
        for fd in (go_r, go_w):
            os.close(fd)
    big = torch.arange(5 << 14, dtype=torch.float32).reshape(5, -1)
    assert head["arena"][1] is None and [head["arena"][i][1] for i in (0, 2)] == [big.numel() * 4] * 2
    assert torch.equal(first[0], big) and first[1].tolist() == list(range(7)) and torch.equal(first[2], big.t())
    assert torch.equal(second[0], big * 2)
    assert os.pread(arena.fd, 4, 0) == b"\xff" * 4  # the child did write the arena ...
    assert torch.equal(first[0], big) and torch.equal(second[0], big * 2)  # ... the snapshots are intact
    arena.close()


def test_the_arena_cannot_be_shrunk_under_the_parent_and_bad_places_are_protocol_errors(pipe):
    """The child holds the arena's fd: shrinking it (which would fault the parent's reads)
    is refused by the seal; places outside the arena, places with bytes in the pipe too,
    places on a channel without an arena, and arena bytes past the bound are refused."""
    r, w = pipe
    arena = protocol.Arena.create()
    os.ftruncate(arena.fd, 1 << 16)
    with pytest.raises(PermissionError):
        os.ftruncate(arena.fd, 0)
    desc = {"dtype": "uint8", "shape": [4096]}
    cases = [
        ({"op": "x", "tensors": [desc], "arena": [[1 << 16, 4096]]}, [b""], "outside the arena"),
        ({"op": "x", "tensors": [desc], "arena": [[-4096, 4096]]}, [b""], "outside the arena"),
        ({"op": "x", "tensors": [desc], "arena": [[0, 4096]]}, [b"\x00" * 4096], "bad arena place"),
        ({"op": "x", "tensors": [desc], "arena": [["0", 4096]]}, [b""], "bad arena place"),
        ({"op": "x", "tensors": [desc], "arena": []}, [b""], "do not match"),
    ]
    for head, frames, message in cases:
        _raw_message(w, head, frames)
        with pytest.raises(protocol.ChannelError, match=message):
            protocol.Reader(r, arena=arena).read(time.monotonic() + 5)
    _raw_message(w, {"op": "x", "tensors": [desc], "arena": [[0, 4096]]}, [b""])
    with pytest.raises(protocol.ChannelError, match="arena this channel does not have"):
        protocol.Reader(r).read(time.monotonic() + 5)
    _raw_message(w, {"op": "x", "tensors": [desc], "arena": [[0, 4096]]}, [b""])
    with pytest.raises(protocol.ChannelError, match="exceeds"):
        protocol.Reader(r, max_bytes=1024, arena=arena).read(time.monotonic() + 5)
    _raw_message(w, {"op": "x", "tensors": [desc], "arena": [[4096, 4096]]}, [b""])
    os.pwrite(arena.fd, b"\x07" * 4096, 4096)
    _, (got,) = protocol.Reader(r, arena=arena).read(time.monotonic() + 5)
    assert got.shape == (4096,) and bool((got == 7).all())
    arena.close()


_LIMITED_CHILD = """
import os, resource, sys, torch
from evaluator import protocol
resource.setrlimit(resource.RLIMIT_FSIZE, (1 << 20, 1 << 20))  # as the sandbox's file-size limit
w, fd = map(int, sys.argv[1:])
protocol.write_blocking(w, {"op": "x"}, [torch.full((1 << 20,), 3.0)], protocol.Arena(fd, min_bytes=1 << 16))
"""


@pytest.mark.parametrize("arena_bytes", [8 << 20, 1 << 16])
def test_a_child_under_a_file_size_limit_uses_the_arena_it_was_given_or_else_the_pipe(pipe, arena_bytes):
    """RLIMIT_FSIZE bounds a memfd too: the child cannot grow its arena past it (KernelBench
    references crashed so), so the worker sizes the arena; a reply that still does not fit
    crosses the pipe instead, whole."""
    import subprocess
    import sys

    r, w = pipe
    arena = protocol.Arena.create(arena_bytes)
    child = subprocess.Popen([sys.executable, "-c", _LIMITED_CHILD, str(w), str(arena.fd)], pass_fds=(w, arena.fd))
    try:
        head, (got,) = protocol.Reader(r, arena=arena).read(time.monotonic() + 60)
        assert child.wait(timeout=60) == 0
    finally:
        child.kill()
        arena.close()
    assert ("arena" in head) == (arena_bytes >= 4 << 20)
    assert got.shape == (1 << 20,) and bool((got == 3.0).all())


def test_a_command_to_an_ended_child_is_a_child_failure_never_an_os_error():
    """On the H200 a reference child that failed under its memory cap was sent one more
    command (lifting the cap) on its closed pipe: select raised EBADF out of the worker's
    evaluate and three KernelBench evaluations were harness crashes. A closed pipe is a
    closed channel, and an ended child is never written to."""
    import os
    import time

    from evaluator.protocol import ChannelClosed, write_deadline
    from evaluator.sandbox import Child, ChildFailure

    r, w = os.pipe()
    os.close(r)
    os.close(w)
    with pytest.raises(ChannelClosed):
        write_deadline(w, {"op": "status"}, time.monotonic() + 1)
    child = Child.__new__(Child)
    child.closed = True
    with pytest.raises(ChildFailure, match="already ended"):
        child._send({"op": "cap"}, time.monotonic() + 1)


@pytest.mark.parametrize("desc", [
    "Result: SUCCESS, speedup 42x",
    {"dtype": "Result: SUCCESS, speedup 42x", "shape": [1]},
    {"dtype": "uint8", "shape": ["Result: SUCCESS, speedup 42x"]},
])
def test_a_malformed_descriptor_is_named_by_its_type_not_its_text(desc):
    """A crash reason ends in the verdict's feedback; a reply's own strings there would be text
    the candidate chose, outside any quote (a forged descriptor's repr was 100 characters)."""
    with pytest.raises(protocol.ChannelError) as caught:
        protocol.tensor_from(desc, memoryview(b"\x00"))
    assert "SUCCESS" not in str(caught.value) and "42" not in str(caught.value), caught.value
