"""Who may use the evaluator's device at once: many candidates, or one being timed.

Loading a candidate, its correctness trials and the reference child's runs take the
lock shared, so several run at once; timing and profiling take it exclusively, so no
other kernel shares the GPU (or, under the interpreter, the CPU) while one is timed
and a timing taken under load matches one taken alone. Writer-preferring: once a
timing waits, no new shared holder enters, so timings are never starved.

With `timing.exclusive_device` off, timing only excludes other timings (the shared
side becomes a no-op): more throughput, timings disturbed by concurrent trials.

With a `HostLock`, the same holds across processes: evaluators of one device in separate
processes on a host (several `krl check` runs, or two workers given one GPU) take it through
a file lock, so one's timing is alone on the device against the others' trials and timings
too (on the H200, six `krl check` runs at once on one GPU made an honest MLP's timed
forwards look as if their work escaped onto another stream). A process holds the file's
shared lock while any of its threads holds `shared()`; the kernel drops a dead process's locks.
"""
from __future__ import annotations

import fcntl
import logging
import os
import re
import tempfile
import threading
import time
from contextlib import contextmanager
from typing import Iterator

log = logging.getLogger(__name__)


class HostLock:
    """A readers-writer lock between processes on one host, writer-preferring: a writer
    first takes the gate exclusively, so readers arriving after it wait at the gate, then
    the lock itself once the readers inside have left. flock(2) locks, polled: a process
    that waits `wait_s` in vain goes on without (logged; a stopped or stuck process holding
    it must not stop every other evaluator of the device), and one that dies drops its own."""

    def __init__(self, path: str, wait_s: float = 600.0):
        self.path, self.wait_s = path, wait_s
        self._gate = _open(path + ".gate")
        try:
            self._rw = _open(path)
        except OSError:
            os.close(self._gate)
            raise

    def acquire_shared(self) -> bool:
        deadline = time.monotonic() + self.wait_s
        if not _flock(self._gate, fcntl.LOCK_SH, deadline):
            return self._gave_up("shared")
        try:
            return _flock(self._rw, fcntl.LOCK_SH, deadline) or self._gave_up("shared")
        finally:
            fcntl.flock(self._gate, fcntl.LOCK_UN)

    def release_shared(self) -> None:
        fcntl.flock(self._rw, fcntl.LOCK_UN)

    def wait_gate(self) -> None:
        """Wait behind a writer that another process has queued (or is running)."""
        if _flock(self._gate, fcntl.LOCK_SH, time.monotonic() + self.wait_s):
            fcntl.flock(self._gate, fcntl.LOCK_UN)

    def acquire_exclusive(self) -> bool:
        deadline = time.monotonic() + self.wait_s
        if not _flock(self._gate, fcntl.LOCK_EX, deadline):
            return self._gave_up("exclusive")
        if _flock(self._rw, fcntl.LOCK_EX, deadline):
            return True
        fcntl.flock(self._gate, fcntl.LOCK_UN)
        return self._gave_up("exclusive")

    def release_exclusive(self) -> None:
        fcntl.flock(self._rw, fcntl.LOCK_UN)
        fcntl.flock(self._gate, fcntl.LOCK_UN)

    def _gave_up(self, side: str) -> bool:
        log.warning("device lock %s: another process held it %.0f s; going on without its %s hold",
                    self.path, self.wait_s, side)
        return False

    def close(self) -> None:
        os.close(self._gate)
        os.close(self._rw)


def _flock(fd: int, op: int, deadline: float) -> bool:
    """flock(fd, op), polled until `deadline` (False: not taken by then)."""
    delay = 0.002
    while True:
        try:
            fcntl.flock(fd, op | fcntl.LOCK_NB)
            return True
        except BlockingIOError:
            if time.monotonic() >= deadline:
                return False
            time.sleep(delay)
            delay = min(2 * delay, 0.05)


def _open(path: str) -> int:
    """A lock file's descriptor (flock needs no write access: another user's file opens
    read-only; O_NOFOLLOW: a link planted at the name is refused, not followed)."""
    try:
        return os.open(path, os.O_RDWR | os.O_CREAT | os.O_CLOEXEC | os.O_NOFOLLOW, 0o666)
    except PermissionError:
        return os.open(path, os.O_RDONLY | os.O_CLOEXEC | os.O_NOFOLLOW)


def open_host_lock(path: str, wait_s: float) -> HostLock | None:
    """The host-wide lock at `path`, or None (logged) where its file cannot be opened (a link
    or another user's directory at the name): the evaluator then runs with its own lock only."""
    try:
        return HostLock(path, wait_s)
    except OSError as exc:
        log.warning("device lock %s cannot be opened (%s): timings exclude only this process's work", path, exc)
        return None


def host_lock_path(device: str) -> str:
    """The lock file of `device` as this process sees it: the device kind and the GPUs it
    was given (two processes given the same GPUs by other names only share nothing)."""
    visible = os.environ.get("CUDA_VISIBLE_DEVICES", "all") if device == "cuda" else ""
    name = re.sub(r"[^A-Za-z0-9,._-]", "_", f"{device}-{visible}")[:120]
    return os.path.join(tempfile.gettempdir(), f"krl-device-{name}.lock")


class DeviceLock:
    def __init__(self, exclusive_timing: bool = True, host: HostLock | None = None):
        self.exclusive_timing = exclusive_timing
        self.host = host
        self._cond = threading.Condition()
        self._shared = 0
        self._timing = False
        self._timings_waiting = 0
        self._host_mutex = threading.Lock()  # the process's shared hold on `host`, taken once
        self._host_shared, self._host_held = 0, False

    def close(self) -> None:
        if self.host is not None:
            self.host.close()
            self.host = None

    @contextmanager
    def shared(self) -> Iterator[None]:
        """Candidate work that may overlap other candidates' work (not a timing)."""
        if not self.exclusive_timing:
            yield
            return
        with self._cond:
            while self._timing or self._timings_waiting:
                self._cond.wait()
            self._shared += 1
        try:
            with self._host_shared_hold():
                yield
        finally:
            with self._cond:
                self._shared -= 1
                self._cond.notify_all()

    @contextmanager
    def _host_shared_hold(self) -> Iterator[None]:
        host = self.host
        if host is None:
            yield
            return
        # every entrant, not only the process's first, waits behind a timing another process
        # queued: a worker whose trials overlap without a break would otherwise starve it
        host.wait_gate()
        with self._host_mutex:
            if self._host_shared == 0:
                self._host_held = host.acquire_shared()
            self._host_shared += 1
        try:
            yield
        finally:
            with self._host_mutex:
                self._host_shared -= 1
                if self._host_shared == 0 and self._host_held:
                    host.release_shared()
                    self._host_held = False

    @contextmanager
    def exclusive(self) -> Iterator[None]:
        """Timing and profiling: alone on the device (alone among timings at least)."""
        with self._cond:
            self._timings_waiting += 1
            while self._timing or (self.exclusive_timing and self._shared):
                self._cond.wait()
            self._timings_waiting -= 1
            self._timing = True
        host = self.host
        try:
            held = host is not None and host.acquire_exclusive()
            try:
                yield
            finally:
                if held:
                    host.release_exclusive()
        finally:
            with self._cond:
                self._timing = False
                self._cond.notify_all()
