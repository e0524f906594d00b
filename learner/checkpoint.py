"""Checkpoint directories: written atomically, found again after a crash.

Layout under `<run_dir>/checkpoints/`:
    step_00000040/            a complete checkpoint (has COMPLETE)
        model/                whatever the trainer writes (DeepSpeed state)
        hub.json              hub state (data cursor, leases, counters, RNG ...)
        COMPLETE              JSON metadata, written last
    .step_00000050.tmp/       being written; never read

`save(step, writer)` calls writer(tmp_dir), fsyncs every file, writes COMPLETE,
renames the directory into place and fsyncs the parent: a crash at any point leaves
either the previous checkpoints or the new one, never a half one under a real name.
`latest()` returns the newest directory with a readable COMPLETE; anything else is
skipped with a warning. Retention keeps the newest `keep` checkpoints.
"""
from __future__ import annotations

import json
import logging
import os
import shutil
import time
from pathlib import Path
from typing import Callable, Optional

log = logging.getLogger(__name__)
_PREFIX = "step_"


def fsync_path(path: str | os.PathLike) -> None:
    """fsync one file or directory (a directory's fsync makes renames in it durable)."""
    fd = os.open(path, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def _fsync_tree(root: Path) -> None:
    for dirpath, _, files in os.walk(root):
        for name in files:
            fsync_path(os.path.join(dirpath, name))
        fsync_path(dirpath)


class Checkpoints:
    """Atomic save, newest-complete lookup and retention for one run."""

    def __init__(self, root: Path, keep: int = 3):
        self.root = Path(root)
        self.keep = keep
        self.root.mkdir(parents=True, exist_ok=True)

    def save(self, step: int, writer: Callable[[Path], None], meta: Optional[dict] = None) -> Path:
        final = self.root / f"{_PREFIX}{step:08d}"
        tmp = self.root / f".{final.name}.tmp"
        if tmp.exists():
            shutil.rmtree(tmp)
        tmp.mkdir()
        writer(tmp)
        (tmp / "COMPLETE").write_text(json.dumps({"step": step, "time": time.time(), **(meta or {})}))
        _fsync_tree(tmp)
        if final.exists():  # a re-run of the same step after a restore replaces it
            shutil.rmtree(final)
        os.replace(tmp, final)
        fsync_path(self.root)
        self._retain()
        return final

    def complete(self) -> list[Path]:
        """Complete checkpoints, oldest first."""
        out = []
        for d in sorted(self.root.glob(f"{_PREFIX}*")):
            try:
                json.loads((d / "COMPLETE").read_text())
            except (OSError, ValueError):
                log.warning("skipping incomplete checkpoint %s (no readable COMPLETE marker)", d)
                continue
            out.append(d)
        return out

    def latest(self) -> Optional[Path]:
        found = self.complete()
        return found[-1] if found else None

    @staticmethod
    def step_of(path: Path) -> int:
        return int(path.name[len(_PREFIX):])

    def _retain(self) -> None:
        for d in self.complete()[: -self.keep]:
            shutil.rmtree(d, ignore_errors=True)
        for tmp in self.root.glob(f".{_PREFIX}*.tmp"):
            shutil.rmtree(tmp, ignore_errors=True)
