"""Exclusive ownership of a run directory, or of one role's part of it, by one process.

`krl run` holds RUN_DIR/krl-run.lock for its life, so a second `krl run` on the same
directory is refused instead of starting a second set of roles on the same files and
ports. The learner's rank 0 holds RUN_DIR/learner/learner.lock, so a learner started
while the previous one is still stopping (writing its last checkpoint after its
supervisor died, say) waits for it rather than resuming from an older checkpoint.

flock(2) on the file: the lock belongs to the open file, so it is gone the moment its
holder dies, kill -9 included, and a successor never has a stale lock to clean up. On a
filesystem without flock the lock is skipped with a warning. The descriptor is not
inherited by the holder's subprocesses (Python opens files non-inheritable). The file
holds the holder's pid and name, for the message a refused process prints.
"""

from __future__ import annotations

import errno
import fcntl
import logging
import os
import time
from collections.abc import Callable
from pathlib import Path

log = logging.getLogger(__name__)


class LockHeld(Exception):
    """The lock belongs to another live process; the message names it."""


class RunLock:
    def __init__(self, path: Path, holder_name: str):
        self.path, self.holder_name = Path(path), holder_name
        self._fd: int | None = None

    def holder(self) -> str:
        """Who holds (or last held) the lock, as its file says: 'pid N (name)'."""
        try:
            pid, _, name = self.path.read_text().strip().partition(" ")
        except OSError:
            return "an unknown process"
        return f"pid {pid} ({name})" if pid else "an unknown process"

    def acquire(
        self,
        wait_s: float = 0.0,
        on_wait: Callable[[str], None] | None = None,
        poll_s: float = 0.5,
        report_every_s: float = 10.0,
    ) -> None:
        """Take the lock, waiting up to wait_s for its holder to let go; LockHeld if it
        does not. on_wait(holder) is called at once and every report_every_s while waiting."""
        self.path.parent.mkdir(parents=True, exist_ok=True)
        fd = os.open(self.path, os.O_RDWR | os.O_CREAT, 0o644)
        deadline, next_report = time.monotonic() + wait_s, 0.0
        while True:
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                break
            except OSError as exc:
                if exc.errno not in (errno.EAGAIN, errno.EWOULDBLOCK, errno.EACCES):
                    # A filesystem without flock (some network mounts): run unguarded.
                    log.warning(
                        "cannot lock %s (%s): going on without the one-owner guard", self.path, exc
                    )
                    break
                now = time.monotonic()
                if now >= deadline:
                    os.close(fd)
                    raise LockHeld(f"{self.path} is held by {self.holder()}") from None
                if on_wait is not None and now >= next_report:
                    on_wait(self.holder())
                    next_report = now + report_every_s
                time.sleep(min(poll_s, max(0.0, deadline - now)))
        os.ftruncate(fd, 0)
        os.pwrite(fd, f"{os.getpid()} {self.holder_name}\n".encode(), 0)
        self._fd = fd

    def release(self) -> None:
        if self._fd is not None:
            os.close(self._fd)  # closing the file drops the flock
            self._fd = None

    @property
    def held(self) -> bool:
        return self._fd is not None
