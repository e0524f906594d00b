"""Process groups as the supervisor keeps them: each role in a session of its own, whose
members (a vLLM engine core, sandbox children) are found, signalled and waited for by
group, and which dies with its parent. Linux /proc and prctl."""

from __future__ import annotations

import ctypes
import os
import signal
import subprocess
import sys
import time
from pathlib import Path


def group_members(pgid: int) -> list[int]:
    """Pids of the live (not zombie) processes in process group `pgid` (Linux /proc). A
    process that exits while /proc is read is skipped: pathlib's glob stats each entry and
    raised ProcessLookupError for one that vanished in between, which crashed `krl run`'s
    stop with summary.json left at "running" (seen under load in the test suite)."""
    pids = []
    for name in os.listdir("/proc"):
        if not name.isdigit():
            continue
        try:
            fields = (
                Path("/proc", name, "stat").read_text().rsplit(")", 1)[1].split()
            )  # state, ppid, pgrp, ...
        except (OSError, IndexError):  # gone (ENOENT, ESRCH) or unreadable
            continue
        if fields[0] != "Z" and int(fields[2]) == pgid:
            pids.append(int(name))
    return pids


def leader_exited(popen: subprocess.Popen) -> bool:
    """Whether the process has exited, without reaping it: while its zombie is unreaped
    its pid (the id of its process group) cannot be reused, so the group can still be
    signalled safely."""
    if popen.returncode is not None:
        return True
    try:
        return os.waitid(os.P_PID, popen.pid, os.WEXITED | os.WNOHANG | os.WNOWAIT) is not None
    except ChildProcessError:
        return True


_PR_SET_PDEATHSIG = 1
_libc = ctypes.CDLL(None, use_errno=True) if sys.platform.startswith("linux") else None


def term_with_parent(parent: int):
    """A preexec_fn: the child gets SIGTERM when this process dies, however it dies (kill
    -9 included), and stops the way a role stops on SIGTERM (the learner checkpoints).
    Without it the roles, each in a session of its own, would run on unsupervised, and a
    second `krl run` would meet them on its ports and files."""

    def preexec() -> None:
        if _libc is not None:
            _libc.prctl(_PR_SET_PDEATHSIG, signal.SIGTERM, 0, 0, 0)
        if os.getppid() != parent:  # the parent died before the prctl took effect
            os.kill(os.getpid(), signal.SIGTERM)

    return preexec


def signal_group(pgid: int, sig: int) -> None:
    """Send sig to every process in group `pgid`; an empty group is not an error."""
    try:
        os.killpg(pgid, sig)
    except ProcessLookupError:
        pass


def wait_group_empty(pgid: int, deadline: float) -> bool:
    """Poll until group `pgid` has no live member or `deadline` (monotonic) passes."""
    while group_members(pgid):
        if time.monotonic() >= deadline:
            return False
        time.sleep(0.05)
    return True
