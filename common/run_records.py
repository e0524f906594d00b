"""The run's records, one schema and one reader each: the learner's progress
(`<run_dir>/learner/progress.json`: `Progress`) and `krl run`'s summary
(`<run_dir>/summary.json`: `Summary`).

The learner (rank 0) rewrites it atomically after every step (learner/main.py) and keeps a
copy in each checkpoint, which a resumed learner loads; `krl run`'s console line and
summary.json (common/supervisor.py), the group ledger's reconciliation (common/ledger.py)
and benchmarks/learning.py read it. `read_progress` never raises (a missing or half-made
file reads as no progress yet); `load_progress` is for a checkpoint the learner cannot
resume without, and names the file and what is wrong with it.
"""
from __future__ import annotations

from pathlib import Path
from typing import Any, Optional

import msgspec

from common.jsonfile import StateFileError, write_json_atomic


class StepRecord(msgspec.Struct, kw_only=True):
    """One learner step: what it trained on and what that data said (None: not measured)."""

    step: int
    version: Optional[int] = None
    t: Optional[float] = None               # wall-clock seconds (time.time()) at its end
    groups: list[str] = []                  # ids of the groups trained on
    tokens: Optional[float] = None
    staleness_mean: Optional[float] = None  # versions behind at training time
    staleness_max: Optional[int] = None
    reward: Optional[float] = None
    correct: Optional[float] = None
    loss: Optional[float] = None
    seconds: Optional[float] = None
    mismatch_kl: Optional[float] = None
    mrs_rejected: Optional[float] = None
    mrs_stale: Optional[float] = None
    entropy: Optional[float] = None
    kl_to_start: Optional[float] = None
    hacks_rewarded: float = 0.0
    turns: list[dict[str, Any]] = []        # per turn: learner/stats.py:learning_by_turn


class Progress(msgspec.Struct, kw_only=True):
    """The learner's progress: steps done, the policy version, the hub's counts, history."""

    learner_steps: int = 0
    policy_version: Optional[int] = None
    groups_trained: Optional[int] = None
    hub: dict[str, Any] = {}                # learner/hub.py:Hub.counts()
    history: list[StepRecord] = []

    @property
    def last(self) -> Optional[StepRecord]:
        return self.history[-1] if self.history else None


def progress_path(run_dir: Path) -> Path:
    return Path(run_dir) / "learner" / "progress.json"


def read_progress(path: Path) -> Progress:
    """The progress in `path` (a progress.json); an empty Progress while it is missing,
    half-written or not of this shape (a reader polling a live run must not fail)."""
    try:
        return msgspec.json.decode(Path(path).read_bytes(), type=Progress)
    except (OSError, msgspec.DecodeError):
        return Progress()


def load_progress(path: Path) -> Progress:
    """The progress in `path`; StateFileError naming the file and what is wrong."""
    try:
        return msgspec.json.decode(Path(path).read_bytes(), type=Progress)
    except OSError as exc:
        raise StateFileError(f"{path}: cannot be read: {exc.strerror or exc}") from exc
    except msgspec.DecodeError as exc:
        raise StateFileError(f"{path}: damaged (not a progress record: {exc})") from exc


def write_progress(path: Path, progress: Progress) -> None:
    """Atomically (common/jsonfile.py): readers see the old record or the new."""
    write_json_atomic(path, msgspec.to_builtins(progress))


class SummaryStep(msgspec.Struct, kw_only=True):
    """summary.json's digest of one StepRecord."""

    step: int
    version: Optional[int] = None
    reward: Optional[float] = None
    correct: Optional[float] = None
    loss: Optional[float] = None
    staleness_mean: Optional[float] = None
    mrs_rejected: Optional[float] = None

    @classmethod
    def of(cls, h: StepRecord) -> SummaryStep:
        return cls(step=h.step, version=h.version, reward=h.reward, correct=h.correct,
                   loss=h.loss, staleness_mean=h.staleness_mean, mrs_rejected=h.mrs_rejected)


class Summary(msgspec.Struct, kw_only=True):
    """`<run_dir>/summary.json`, written by `krl run` (common/supervisor.py) at its start
    (status running), when it ends, and by a run that failed before supervising anything
    (common/run_cli.py). `evaluations`: verdicts in the groups the hub accepted (durable;
    the number to trust); `evaluator_runs_at_least`: the workers' sandbox runs, scraped
    every tick (a killed worker's last increments are missing, identical candidates in
    flight share one run)."""

    status: str = "running"
    reason: str = ""
    learner_steps: int = 0
    policy_version: Optional[int] = None
    groups_trained: Optional[int] = None
    evaluations: Optional[int] = None
    evaluator_runs_at_least: int = 0
    wall_seconds: Optional[float] = None
    groups: dict[str, Any] = {}                 # common/ledger.py:reconcile
    restarts: dict[str, int] = {}
    hung: dict[str, int] = {}
    exit_codes: dict[str, list[Any]] = {}
    checkpoint_fallbacks: list[Any] = []        # learner/recovery.json's events
    checkpoint_fallback_records_damaged: list[str] = []
    history: list[SummaryStep] = []


def summary_path(run_dir: Path) -> Path:
    return Path(run_dir) / "summary.json"


def read_summary(run_dir: Path) -> Optional[Summary]:
    """The run's summary; None while there is none or it is not readable as one."""
    try:
        return msgspec.json.decode(summary_path(run_dir).read_bytes(), type=Summary)
    except (OSError, msgspec.DecodeError):
        return None


def summary_data(summary: Summary) -> dict[str, Any]:
    """The summary as plain JSON data (common/jsonfile.py's writers take a dict)."""
    return msgspec.to_builtins(summary)
