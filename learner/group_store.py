"""Durable store of accepted trajectory groups: the hub acks a group only after it is here.

One file per group under `<run_dir>/hub/groups/`, holding the group's wire frames
(length-prefixed, exactly as received) so that nothing is re-encoded and a restarted
learner decodes them with the same validation as a live message. A file is written to
a temporary name, fsynced, renamed and its directory fsynced: after a crash a group
file is either complete or absent. Files are deleted only once a checkpoint that
covers the step which trained them is complete (see learner/hub.py), so a learner
killed between a step and its checkpoint finds those groups again.

A file that cannot be read back (damaged on disk) is not fatal: `load_all` reports it and
the hub moves it to `<run_dir>/hub/quarantine/` with a ledger line (`quarantine`).

Beside the files, `ledger` (learner/ledger.py, `<root>/ledger.jsonl`) records what the hub
did with each group: accepted, trained in which step, dropped, re-buffered on restore.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Iterator, Sequence

from common.ids import id_error
from common.jsonfile import disk_error
from common.messages import DecodeError, TrajectoryGroup, decode, pack_frames, unpack_frames
from learner.checkpoint import fsync_path
from learner.ledger import LEDGER, Ledger

_MAGIC = b"KRLG1\n"
QUARANTINE = "quarantine"  # beside the groups directory: <run_dir>/hub/quarantine/


class GroupStore:
    """Append-only, crash-safe files of encoded TrajectoryGroup messages."""

    def __init__(self, root: Path):
        self.root = Path(root)
        self.root.mkdir(parents=True, exist_ok=True)
        for stale in self.root.glob("*.tmp"):  # a write that a crash interrupted
            stale.unlink()
        self.ledger = Ledger(self.root / LEDGER)

    def _path(self, group_id: str) -> Path:
        problem = id_error("group_id", group_id, names_a_file=True)
        if problem:  # the hub checked it already; never a path outside the store
            raise ValueError(problem)
        return self.root / f"{group_id}.grp"

    def put(self, group_id: str, frames: Sequence) -> None:
        """Persist the frames of one group; returns once they are durable. An OSError
        (a full disk) names the file and leaves no temporary file behind."""
        path = self._path(group_id)
        tmp = path.with_suffix(".tmp")
        try:
            with open(tmp, "wb") as f:
                f.write(_MAGIC)
                f.write(pack_frames(frames))
                f.flush()
                os.fsync(f.fileno())
            os.replace(tmp, path)
            fsync_path(self.root)
        except OSError as exc:
            tmp.unlink(missing_ok=True)
            raise disk_error(exc, path) from exc

    def quarantine(self, group_id: str, reason: str, prompt_id: str | None = None) -> None:
        """Move a group that cannot be read or trained to `<root>/../quarantine/` (kept for
        inspection, never loaded again) and record it in the ledger."""
        target = self.root.parent / QUARANTINE
        target.mkdir(exist_ok=True)
        src = self.root / f"{group_id}.grp"
        if src.exists():
            os.replace(src, target / src.name)
            fsync_path(self.root)
        self.ledger.append(
            "quarantined", group_id=group_id, prompt_id=prompt_id, reason=reason[:500]
        )

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
        frames = unpack_frames(memoryview(data)[len(_MAGIC) :])
        msg = decode(frames, expect=TrajectoryGroup)
        assert isinstance(msg, TrajectoryGroup)
        return msg

    def load_all(self) -> Iterator[tuple[str, TrajectoryGroup | str]]:
        """(group id, group) for every stored group, or (group id, why it cannot be read)
        for a damaged file, which the hub quarantines."""
        for gid in self.ids():
            try:
                yield gid, self.load(gid)
            except (DecodeError, OSError, ValueError) as exc:
                yield gid, f"stored file unreadable: {exc}"
