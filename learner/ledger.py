"""The hub's group ledger: an append-only record of what happened to every group, and
the reconciliation `krl run` writes into summary.json.

`<run_dir>/hub/groups/ledger.jsonl`, one JSON object per line, written by learner rank 0
(learner/hub.py through learner/group_store.py):
    {"event": "accepted", "group_id", "prompt_id", "version", "evaluations", "t"}
                                                                    stored, before the ack
        (with "recovered": true and version null when a restore found the group's file
        but no line: the learner died between the two, before acking it)
    {"event": "trained",  "step", "group_ids", "t"}                 one optimizer step
    {"event": "dropped",  "group_id", "reason", "t"}                reason "stale": went stale in
                                                the buffer; "rolled_back": a restore found it
                                                made by weights newer than the checkpoint
    {"event": "restored", "version", "group_ids", "t"}              a (re)start re-buffered these
    {"event": "quarantined", "group_id", "prompt_id", "reason", "t"}  its stored file could not be
                                                read or trained: moved to hub/quarantine/,
                                                its prompt re-issued
    ("dropped" with reason "checkpoint_rollback": trained after a checkpoint that could not be
    loaded, so the restore fell back past it; its file was gone and its prompt is re-issued)

A restart rolls the model back to its checkpoint, so a `restored` line at version v voids
the `trained` lines of steps > v written before it: those steps are trained again, from
the stored groups it lists. Each line is one write(2) to an O_APPEND file, so a killed
process leaves whole lines, and is fdatasync'ed before `append` returns (an `accepted`
line before the ack, like the group file), so a host crash cannot lose a line whose
effect was acknowledged. A line torn by a crash mid-write can only be the last one:
the writer ends it with a newline on reopening and readers skip it with a warning.

`reconcile(run_dir)` replays the ledger and checks it against the learner's own record
(the per-step group ids in learner/progress.json, which checkpoints restore) and the
group files still stored. Shared by the learner (writer) and the supervisor (reader), which
imports this module alone of the learner's: it needs only common/ and the standard library.

`evaluations(path)` is the run's count of evaluator verdicts: the turns of accepted
groups whose verdict came from the evaluator service (the actor counts them per group,
TrajectoryGroup.evaluations). It is durable and exact for what was trained on, unlike
a worker's run counter: identical candidates in flight together share one run (the
broker joins them), cached verdicts are no run, and a killed worker's last increments
are never scraped. Verdicts of groups never accepted (stale, lost with a killed actor)
are not in it.
"""

from __future__ import annotations

import json
import logging
import os
import time
from collections.abc import Iterator
from pathlib import Path

from common.jsonfile import disk_error
from common.run_records import StepRecord, progress_path, read_progress

LEDGER = "ledger.jsonl"
log = logging.getLogger(__name__)


class Ledger:
    """Appends events to one ledger file."""

    def __init__(self, path: Path):
        self.path = Path(path)
        self._fd = os.open(self.path, os.O_RDWR | os.O_APPEND | os.O_CREAT, 0o644)
        size = os.fstat(self._fd).st_size
        if size and os.pread(self._fd, 1, size - 1) != b"\n":  # a tail torn by a crash
            os.write(self._fd, b"\n")  # ends its own line

    def append(self, event: str, **fields) -> None:
        line = json.dumps({"event": event, **fields, "t": round(time.time(), 3)}) + "\n"
        try:
            os.write(self._fd, line.encode())  # one write: a kill leaves it whole or absent
            os.fdatasync(self._fd)  # durable before what it records is acknowledged
        except OSError as exc:
            raise disk_error(exc, self.path) from exc

    def close(self) -> None:
        os.close(self._fd)


def read(path: Path) -> Iterator[dict]:
    """The ledger's events in order. A line that does not parse can only be a write torn
    by a host crash (the writer makes every line with one write and terminates a torn
    tail before appending again): skipped with a warning."""
    try:
        text = Path(path).read_text()
    except FileNotFoundError:
        return
    for number, line in enumerate(text.splitlines(), 1):
        if not line.strip():
            continue
        try:
            yield json.loads(line)
        except ValueError:
            log.warning("%s:%d: skipping a torn line (%d bytes)", path, number, len(line))


def trained_by_step(path: Path) -> dict[int, list[str]]:
    """Group ids per step that survive in the ledger (steps voided by a restore removed)."""
    steps: dict[int, list[str]] = {}
    for ev in read(path):
        if ev["event"] == "trained":
            steps[ev["step"]] = ev["group_ids"]
        elif ev["event"] == "restored":
            for step in [s for s in steps if s > ev["version"]]:
                del steps[step]
    return steps


def evaluations(path: Path) -> int:
    """Evaluator verdicts in the groups the ledger at `path` accepted (module docstring)."""
    per_group = {
        ev["group_id"]: ev.get("evaluations", 0) for ev in read(path) if ev["event"] == "accepted"
    }
    return sum(per_group.values())


def reconcile(run_dir: Path, history: list[StepRecord] | None = None) -> dict:
    """Counts of groups by fate, from the ledger, the learner's history (progress.json's,
    unless the caller has read it) and the stored files.

    A consistent run has lost == trained_twice == not_accepted == 0 and
    ledger_matches_learner true."""
    run_dir = Path(run_dir)
    groups_dir = run_dir / "hub" / "groups"
    accepted, dropped, rolled_back = set(), set(), set()
    fallback, quarantined = set(), set()
    for ev in read(groups_dir / LEDGER):
        if ev["event"] == "accepted":
            accepted.add(ev["group_id"])
        elif ev["event"] == "restored":
            accepted.update(ev["group_ids"])
        elif ev["event"] == "dropped":
            dropped.add(ev["group_id"])
            if ev.get("reason") == "rolled_back":
                rolled_back.add(ev["group_id"])
            elif ev.get("reason") == "checkpoint_rollback":
                fallback.add(ev["group_id"])
        elif ev["event"] == "quarantined":
            quarantined.add(ev["group_id"])
    if history is None:
        history = read_progress(progress_path(run_dir)).history
    learner_steps = {h.step: h.groups for h in history}
    trained = [g for h in history for g in h.groups]
    stored = {p.stem for p in groups_dir.glob("*.grp")}
    done = set(trained)
    return {
        "accepted": len(accepted),
        "trained": len(trained),
        "trained_twice": len(trained) - len(done),
        "buffered": len(stored - done),
        "dropped_stale": len(dropped - rolled_back - fallback),
        "dropped_rolled_back": len(rolled_back),
        "dropped_checkpoint_fallback": len(fallback - done),
        "quarantined": len(quarantined - done),
        "lost": len(accepted - done - stored - dropped - quarantined),
        "not_accepted": len(done - accepted),
        "ledger_matches_learner": trained_by_step(groups_dir / LEDGER) == learner_steps,
    }
