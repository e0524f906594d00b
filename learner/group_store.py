"""Durable store of accepted trajectory groups: the hub acks a group only after it is here.

One file per group under `<run_dir>/hub/groups/`, holding the group's wire frames
(length-prefixed, exactly as received) so that nothing is re-encoded and a restarted
learner decodes them with the same validation as a live message. A file is written to
a temporary name, fsynced, renamed and its directory fsynced: after a crash a group
file is either complete or absent. Files are deleted only once a checkpoint that
covers the step which trained them is complete (see learner/hub.py), so a learner
killed between a step and its checkpoint finds those groups again.

Beside the files, `ledger` (common/ledger.py, `<root>/ledger.jsonl`) records what the hub
did with each group: accepted, trained in which step, dropped, re-buffered on restore.
"""
from __future__ import annotations

import os
from pathlib import Path
from typing import Iterator, Sequence

from common.ledger import LEDGER, Ledger
from common.messages import DecodeError, TrajectoryGroup, decode, pack_frames, unpack_frames
from learner.checkpoint import fsync_path

_MAGIC = b"KRLG1\n"


class GroupStore:
    """Append-only, crash-safe files of encoded TrajectoryGroup messages."""

    def __init__(self, root: Path):
        self.root = Path(root)
        self.root.mkdir(parents=True, exist_ok=True)
        for stale in self.root.glob("*.tmp"):  # a write that a crash interrupted
            stale.unlink()
        self.ledger = Ledger(self.root / LEDGER)

    def _path(self, group_id: str) -> Path:
        safe = "".join(c for c in group_id if c.isalnum() or c in "-_")[:128]
        if safe != group_id:
            raise ValueError(f"group id {group_id[:40]!r} has characters not allowed in a file name")
        return self.root / f"{group_id}.grp"

    def put(self, group_id: str, frames: Sequence) -> None:
        """Persist the frames of one group; returns once they are durable."""
        path = self._path(group_id)
        tmp = path.with_suffix(".tmp")
        with open(tmp, "wb") as f:
            f.write(_MAGIC)
            f.write(pack_frames(frames))
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)
        fsync_path(self.root)

    def remove(self, group_ids: Sequence[str]) -> None:
        for gid in group_ids:
            try:
                self._path(gid).unlink()
            except FileNotFoundError:
                pass
        fsync_path(self.root)

    def ids(self) -> list[str]:
        """Stored group ids in arrival order."""
        files = sorted(self.root.glob("*.grp"), key=lambda p: (p.stat().st_mtime_ns, p.name))
        return [p.stem for p in files]

    def load(self, group_id: str) -> TrajectoryGroup:
        data = self._path(group_id).read_bytes()
        if not data.startswith(_MAGIC):
            raise DecodeError("malformed", f"{group_id}: not a krl group file")
        frames = unpack_frames(memoryview(data)[len(_MAGIC):])
        msg = decode(frames, expect=TrajectoryGroup)
        assert isinstance(msg, TrajectoryGroup)
        return msg

    def load_all(self) -> Iterator[tuple[str, TrajectoryGroup]]:
        for gid in self.ids():
            yield gid, self.load(gid)
