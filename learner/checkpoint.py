"""Checkpoint directories: written atomically, found again after a crash.

Layout under `<run_dir>/checkpoints/`:
    step_00000040/            a complete checkpoint (has COMPLETE)
        model/                whatever the trainer writes (DeepSpeed state)
        hub.json              hub state (data cursor, leases, counters, RNG ...)
        COMPLETE              JSON metadata, written last
    .step_00000050.tmp/       being written; never read

`save(step, writer)` calls writer(tmp_dir), fsyncs every file, writes COMPLETE (with a
blake3 checksum and the size of every file), renames the directory into place and fsyncs
the parent: a crash at any point leaves either the previous checkpoints or the new one,
never a half one under a real name. `latest()` returns the newest directory with a
readable COMPLETE; anything else is skipped with a warning. `verify(path)` says what is
wrong with a complete one (a file missing, truncated or changed since it was written);
the learner loads the newest that verifies and sets each bad one aside as
`damaged_step_N/` (kept for inspection, never loaded or pruned). Retention keeps the
newest `keep` checkpoints. A write that fails (a full disk) raises an OSError naming
the path, and the half-written directory is removed.
"""

from __future__ import annotations

import errno
import json
import logging
import os
import shutil
import time
from pathlib import Path
from typing import Callable, Optional

import blake3

from common.jsonfile import disk_error

log = logging.getLogger(__name__)
_PREFIX = "step_"
_FULL_BYTES = 1 << 20  # a writer failing with less free space than this ran out of disk


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


def _digest(path: Path) -> str:
    h = blake3.blake3(max_threads=blake3.blake3.AUTO)
    with open(path, "rb") as f:
        while chunk := f.read(8 << 20):
            h.update(chunk)
    return h.hexdigest()


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
        try:
            writer(tmp)
            files = {
                str(p.relative_to(tmp)): {"bytes": p.stat().st_size, "blake3": _digest(p)}
                for p in sorted(tmp.rglob("*"))
                if p.is_file()
            }
            (tmp / "COMPLETE").write_text(
                json.dumps({"step": step, "time": time.time(), **(meta or {}), "files": files})
            )
            _fsync_tree(tmp)
        except Exception as exc:
            shutil.rmtree(tmp, ignore_errors=True)
            if isinstance(exc, OSError):
                raise disk_error(exc, tmp) from exc
            if shutil.disk_usage(self.root).free < _FULL_BYTES:  # torch.save says only
                raise disk_error(OSError(errno.ENOSPC, ""), tmp) from exc  # "basic_ios::clear"
            raise
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

    @staticmethod
    def verify(path: Path) -> str:
        """What is wrong with checkpoint `path` ("" if nothing): every file COMPLETE lists
        must be there with its size and checksum. A checkpoint written before checksums
        were recorded (no "files") verifies as it is."""
        try:
            meta = json.loads((path / "COMPLETE").read_text())
        except (OSError, ValueError) as exc:
            return f"COMPLETE unreadable: {exc}"
        for name, want in (meta.get("files") or {}).items():
            f = path / name
            try:
                size = f.stat().st_size
            except OSError:
                return f"{name} is missing"
            if size != want["bytes"]:
                return f"{name} has {size} bytes, {want['bytes']} were written"
            if _digest(f) != want["blake3"]:
                return f"{name} does not match its checksum (changed since it was written)"
        return ""

    def set_aside(self, path: Path) -> Path:
        """Rename a damaged checkpoint out of the way: `damaged_step_N` is never loaded,
        counted or pruned."""
        target = path.with_name(f"damaged_{path.name}")
        if target.exists():
            shutil.rmtree(target)
        os.replace(path, target)
        fsync_path(self.root)
        return target

    def named(self) -> list[Path]:
        """Every directory under a checkpoint's name, oldest first, complete or not: one
        without a readable COMPLETE under a real name can only be damaged (writes are
        renamed into place after COMPLETE), and the learner sets it aside as such."""
        return sorted(self.root.glob(f"{_PREFIX}*"))

    def newest_verified(self) -> Optional[Path]:
        """The newest complete checkpoint that verifies; each newer one that does not is
        named in an ERROR line (and left where it is)."""
        for path in reversed(self.complete()):
            problem = self.verify(path)
            if not problem:
                return path
            log.error("checkpoint %s is damaged (%s): using an older one", path, problem)
        return None

    def latest(self) -> Optional[Path]:
        found = self.complete()
        return found[-1] if found else None

    @staticmethod
    def step_of(path: Path) -> int:
        return int(path.name[len(_PREFIX) :])

    def _retain(self) -> None:
        for d in self.complete()[: -self.keep]:
            shutil.rmtree(d, ignore_errors=True)
        for tmp in self.root.glob(f".{_PREFIX}*.tmp"):
            shutil.rmtree(tmp, ignore_errors=True)
