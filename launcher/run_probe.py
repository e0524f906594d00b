"""What `krl run` reads about its processes besides their exit codes: whether one
answers /health (a busy process does, from its own HTTP thread; a hung or stopped one
does not), a counter of its /metrics (summed across its restarts), the line of its log that
says why it stopped, and whether the disk under the run directory is full (a role that could
not write its log cannot say so itself)."""

from __future__ import annotations

import http.client
import os
import re
import shutil
import urllib.error
import urllib.request
from pathlib import Path
from typing import Optional

DISK_FULL_BYTES = 1 << 20  # less free space than this under RUN_DIR reads as a full disk


def health(port: int, timeout_s: float = 1.0) -> Optional[bool]:
    """Whether the process serving /health on `port` says it is healthy; None if it does
    not answer within timeout_s (stopped, hung, not yet serving)."""
    try:
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/health", timeout=timeout_s) as r:
            return r.status == 200
    except urllib.error.HTTPError as exc:  # 503: it answered, unhealthy
        return False if exc.code == 503 else None
    except (OSError, ValueError, http.client.HTTPException):  # not an HTTP server there: another
        return None  # process's ZeroMQ socket answered a greeting on a reused port (BadStatusLine)


def last_error_line(log_path: Path, name: str) -> str:
    """The line of a process's log that best says why it stopped: its own `krl ROLE:`
    line, else the last ERROR/CRITICAL line or exception, "" if none (the tail only)."""
    try:
        with open(log_path, "rb") as f:
            f.seek(max(0, f.seek(0, os.SEEK_END) - 65536))
            lines = f.read().decode(errors="replace").splitlines()
    except OSError:
        return ""
    exception = re.compile(r"(^|\s)[A-Za-z_.]*(Error|Exception): ")
    for marker in (
        lambda l: l.startswith("krl ") and ": " in l,
        lambda l: " ERROR " in l or " CRITICAL " in l or exception.search(l),
    ):
        found = [l.strip() for l in lines if marker(l)]
        if found:
            return found[-1][:300]
    return ""


def disk_full_note(run_dir: Path) -> str:
    """The note `; the disk holding RUN_DIR is full (N bytes free)` when it is, else ""."""
    try:
        free = shutil.disk_usage(run_dir).free
    except OSError:
        return ""
    return (
        f"; the disk holding {run_dir} is full ({free} bytes free)"
        if free < DISK_FULL_BYTES
        else ""
    )


class CounterTotal:
    """A counter summed across process restarts (a restarted process counts from 0)."""

    def __init__(self) -> None:
        self.total, self.last = 0.0, 0.0

    def observe(self, value: float) -> None:
        self.total += value if value < self.last else value - self.last
        self.last = value


def scrape(port: int, name: str) -> Optional[float]:
    """Sum of every sample of metric `name` at a local /metrics, None if unreachable."""
    try:
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/metrics", timeout=2) as r:
            text = r.read().decode()
        total = 0.0
        for line in text.splitlines():
            if line.startswith(name) and (line[len(name)] in " {"):
                total += float(line.rsplit(" ", 1)[1])
    except (OSError, ValueError, http.client.HTTPException):  # unreachable, or not our exporter
        return None  # (a reused port's ZeroMQ greeting crashed `krl run` with BadStatusLine)
    return total
