"""Pinned forwards in a process that forgets: each one runs in a fork of the candidate child
taken before the checked forward it is held to, and only what it returned comes back.

The pinned forwards of evaluator.autotune_pins (a config drawn for this forward, `due`; every
config that has not met the trial's transform, `cover`) ran one after another in the child
itself, before the checked forward, on copies of its inputs. A forward that keeps what it has
seen (a fingerprint of its inputs' values, a count of large inputs, in a global, a module
attribute, a closure) then knew every forward of a trial but the first for a repeat, and handed
its kernel an "honest" flag there: the wrong config was caught only where it was drawn to run
first, about one evaluation in n - 1 (open since session 49, built in session 62:
hacks/s62f_autotune_forward_remembers_*). In a fork every pinned forward starts from the
state the checked forward starts from (its memory, its Python objects, its RNG), so whatever
the forward remembers, a pinned forward computes what the checked forward would have with that
config; what the fork learns (a fingerprint, a cache, a count) dies with it. The child itself
runs only the forwards a GPU runs (the checked ones), so its history is the GPU child's.

What comes back, through a pipe, after the fork has exited: its outputs and its inputs as it
left them (copied as it returned: autotune_pins.snapshot), which of its pins its launches took
(autotune_pins.pinned's `used`), or the error it raised. The child reads it all before the
checked forward and decodes it only after (`Forked.result`), so nothing the forks sent sits
among the checked forward's objects. A fork dies with the child (PR_SET_PDEATHSIG), and the
sandbox's end of job kills whatever is left (evaluator.zygote).

The pins no checked forward is left for (autotune_pins.schedule's: a config the last trial's
first pick noted, a pin whose key no forward it was drawn to launched) are known only after
the last checked forward, and run on its inputs: in the child they ran on inputs it had just
seen (red team s63g: a forward that remembered them handed the noted config its "honest" flag
there). A `Standby` fork is taken before that forward and told afterwards which configs to pin
(by autotuner id, key and config name: the fork shares the child's objects as they were); it
runs each pinned forward in a fork of its own, from the state the checked forward started from.
"""
from __future__ import annotations

import io
import os
from collections.abc import Callable
from functools import partial

_CHUNK = 1 << 20


class ForkLost(RuntimeError):
    """A pinned forward's process ended without sending what it returned, by the harness's fault
    (what it returned could not be sent)."""


class Forked:
    """What one fork sent: raw bytes until `result` decodes them (after the checked forward)."""

    def __init__(self, data: bytes, status: int):
        self.data, self.status = data, status

    def finished(self) -> tuple[bytes, int]:
        """(everything the fork sent, its wait status)."""
        return self.data, self.status

    def failed(self) -> Exception | None:
        """The error the pinned forward raised (a CandidateError as the child raises it), or
        ForkLost where the fork sent nothing whole; None where it returned."""
        from evaluator.runner import CandidateError

        if self.data[:1] == b"R":
            return None
        if self.data[:1] == b"E":
            kind, message, tb = _decode(self.data[1:])
            return CandidateError(str(kind), str(message), str(tb))
        if os.WIFSIGNALED(self.status):  # as the child itself, killed in that forward, would be
            return CandidateError("runtime_error", f"the forward, run with an autotune config pinned, was "
                                                   f"{_status(self.status)}")
        return ForkLost(f"a pinned forward's process ended without a result ({_status(self.status)})")

    def used(self) -> list[bool]:
        """Which of its pins its launches took (read before the checked forward: a config a pinned
        forward ran has met the trial's transform, as before a key's first pick in it)."""
        return [c == ord("1") for c in self.data[1:self.data.index(b"\n")]]

    def result(self) -> tuple[list, list]:
        """(its outputs, its inputs as it left them), decoded after the checked forward."""
        outputs, inputs = _decode(self.data[self.data.index(b"\n") + 1:])
        return list(outputs), list(inputs)


def run(forward: Callable[[], tuple[list, list]], used: Callable[[], list]) -> Forked:
    """`forward` (harness code around the candidate's: returns what it is held by) in a fork of
    this process; `used` tells, after it, which pins its launches took. Waits for the fork."""
    read_end, write_end = os.pipe()
    pid = _fork()
    if pid == 0:  # never returns
        os.close(read_end)
        _serve_fork(write_end, forward, used)
    os.close(write_end)
    # read whole now: a fork left blocked on its pipe until after the checked forward (so that
    # the child's heap held no fork's outputs) kept every fork of a trial alive at once, each
    # counted whole against the sandbox's memory limit (3 GiB passed with 8 relu forks)
    data = _read_all(read_end)
    return Forked(data, os.waitpid(pid, 0)[1])


def _fork() -> int:
    """os.fork, the fork going on with this process's allocator pools as they stand
    (evaluator.host_alignment.keep_pools): a fork given pools of its own put a pinned forward's
    fresh tensors at a random address terabytes from its inputs, where the checked forward's lie
    beside them, and a forward that measured the distance handed a wrong config its "honest" flag
    in the forks alone (red team s64G: ok in 2 of 2 CPU checks)."""
    from evaluator import host_alignment

    host_alignment.keep_pools(True)
    pid = os.fork()
    if pid != 0:  # the fork keeps it on, for the forks it takes itself (a standby's)
        host_alignment.keep_pools(False)
    return pid


def _read_all(fd: int) -> bytes:
    chunks = []
    with os.fdopen(fd, "rb", buffering=0) as pipe:
        while chunk := pipe.read(_CHUNK):
            chunks.append(chunk)
    return b"".join(chunks)


_STANDBY: list = [None]  # the one Standby the child holds (`stand_by`), until `after` or `dismiss`


def stand_by(forward: Callable[[dict], tuple[list, list]]) -> None:
    """Before a checked forward that may leave pins with no checked forward after them: a
    Standby fork of this process as it is now (the pinned forks before it stay open)."""
    standby, _STANDBY[0] = _STANDBY[0], None
    if standby is not None:
        standby.dismiss()
    _STANDBY[0] = Standby(forward)


def dismiss() -> None:
    """The standby fork, if any, exits unused."""
    standby, _STANDBY[0] = _STANDBY[0], None
    if standby is not None:
        standby.dismiss()


def after(described: list) -> list[Forked]:
    """After that checked forward: the pins `described` (autotune_pins.described) run in the
    standby's forks, what each sent."""
    standby, _STANDBY[0] = _STANDBY[0], None
    if standby is None:  # the child takes one wherever autotune_pins.schedule can return pins
        raise RuntimeError("pinned forwards with no checked forward left, and no standby fork to run them")
    return standby.run(described)


class Standby:
    """A fork taken before a checked forward, waiting to run the pinned forwards known only after
    it (`run`), each in a fork of its own; or to exit unused (`dismiss`)."""

    def __init__(self, forward: Callable[[dict], tuple[list, list]]):
        """`forward` (in the fork's forks): the pinned forward of a pin (autotune_pins.resolved)."""
        command_read, self._command = os.pipe()
        self._result, result_write = os.pipe()
        self.pid = _fork()
        if self.pid == 0:  # never returns
            os.close(self._command)
            os.close(self._result)
            _serve_standby(command_read, result_write, forward)
        os.close(command_read)
        os.close(result_write)

    def run(self, entries: list) -> list[Forked]:
        """Each pin's entries (autotune_pins.described), run in the fork: what each sent."""
        with os.fdopen(self._command, "wb", buffering=0) as pipe:
            _write_all(pipe, _encode(entries))
        data = self._wait()
        if data[:1] != b"R":
            raise ForkLost("the standby fork of the last checked forward ended without its pinned forwards' results")
        return [Forked(d, s) for d, s in _decode(data[1:])]

    def dismiss(self) -> None:
        """Nothing to pin: the fork exits."""
        os.close(self._command)
        self._wait()

    def _wait(self) -> bytes:
        data = _read_all(self._result)
        os.waitpid(self.pid, 0)
        return data


def _serve_standby(command: int, result: int, forward: Callable[[dict], tuple[list, list]]) -> None:
    """In the standby fork: wait for the pins' entries (none: exit), run each pin in a fork of
    this one, send what each fork sent (a failure here is the harness's: ForkLost)."""
    from evaluator import autotune_pins

    def serve(described: list) -> list[tuple[bytes, int]]:
        pins = [autotune_pins.resolved(entries) for entries in described]
        return [run(partial(forward, pin), partial(autotune_pins.took, pin)).finished() for pin in pins]

    code = 0
    try:
        _die_with_parent()
        with os.fdopen(command, "rb", buffering=0) as pipe:
            request = b"".join(iter(lambda: pipe.read(_CHUNK), b""))
        if request:
            payload = b"R" + _encode([(d, s) for d, s in serve(_decode(request))])
            with os.fdopen(result, "wb", buffering=0) as pipe:
                _write_all(pipe, payload)
    except BaseException:  # noqa: BLE001  (the child reads no "R": ForkLost)
        code = 70
    finally:
        os._exit(code)


def _write_all(pipe, payload: bytes) -> None:
    view = memoryview(payload)
    while view:
        view = view[pipe.write(view):]


def _serve_fork(write_end: int, forward: Callable[[], tuple[list, list]], used: Callable[[], list]) -> None:
    """In the fork: die with the child, run the forward, send what it returned or raised, exit
    without running anything of the child's (no atexit, no buffered output flushed twice)."""
    code = 0
    try:
        _die_with_parent()
        try:
            outputs, inputs = forward()
        except Exception as exc:  # noqa: BLE001  (sent as the child's own error: autotune_forks.Forked)
            payload = b"E" + _encode((getattr(exc, "kind", "runtime_error"),
                                      getattr(exc, "message", f"{type(exc).__name__}: {exc}"),
                                      getattr(exc, "tb", "")))
        else:  # the harness's part: a failure here is no error of the candidate's (ForkLost)
            took = "".join("1" if u else "0" for u in used()).encode()
            payload = b"R" + took + b"\n" + _encode((_plain(outputs), _plain(inputs)))
        with os.fdopen(write_end, "wb", buffering=0) as pipe:
            _write_all(pipe, payload)
    except BaseException:  # noqa: BLE001  (the child reads an empty pipe: ForkLost)
        code = 70
    finally:
        os._exit(code)


def _die_with_parent() -> None:
    """PR_SET_PDEATHSIG is not inherited over fork: a fork outliving a killed child would run on."""
    from evaluator import zygote

    parent = os.getppid()
    zygote.die_with_parent()
    if os.getppid() != parent:  # the child died before the signal was armed
        os._exit(70)


def _plain(values: list) -> list:
    """Tensors as plain detached tensors (what autotune_pins.held compares), anything else as
    None (held finds it is no tensor, as it found the object)."""
    import torch

    return [v.detach().as_subclass(torch.Tensor) if isinstance(v, torch.Tensor) else None for v in values]


def _encode(value: object) -> bytes:
    import torch

    buffer = io.BytesIO()
    torch.save(value, buffer)
    return buffer.getvalue()


def _decode(data: bytes) -> object:
    import torch

    return torch.load(io.BytesIO(data), weights_only=True)


def _status(status: int) -> str:
    if os.WIFSIGNALED(status):
        return f"killed by signal {os.WTERMSIG(status)}"
    return f"exit status {os.WEXITSTATUS(status)}" if os.WIFEXITED(status) else f"wait status {status}"
