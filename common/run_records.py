"""The run's records, one schema and one reader each: the learner's progress
(`<run_dir>/learner/progress.json`: `Progress`), `krl run`'s summary
(`<run_dir>/summary.json`: `Summary`) and `krl sft`'s progress (`<out>/progress.json`:
`SftProgress`).

The learner (rank 0) rewrites its progress atomically after every step (learner/main.py)
and keeps a copy in each checkpoint, which a resumed learner loads; `krl run`'s console
line and summary.json (launcher/supervisor.py), the group ledger's reconciliation
(learner/ledger.py) and benchmarks/learning.py read it.

Every record is read by `read_record` (or `read_progress` / `read_summary` over it): a
missing file is None (or StateFileError with required=True), a damaged one or one of
another shape is a StateFileError naming the file and, from msgspec, the field
(`... - at $.history[3].step`). A file of an earlier version reads: fields it lacks take
their defaults and fields this version dropped are ignored. A reader polling a live run
(the supervisor) catches StateFileError and says so instead of failing the run.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Optional, TypeVar

import msgspec

from common.jsonfile import StateFileError, write_json_atomic


class StepRecord(msgspec.Struct, kw_only=True):
    """One learner step: what it trained on and what that data said (None: not measured)."""

    step: int
    version: Optional[int] = None
    t: Optional[float] = None  # wall-clock seconds (time.time()) at its end
    groups: list[str] = []  # ids of the groups trained on
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
    turns: list[dict[str, Any]] = []  # per turn: learner/stats.py:learning_by_turn


class HubCounts(msgspec.Struct, kw_only=True):
    """The hub's counts when the step ended (learner/hub.py:Hub.counts())."""

    version: Optional[int] = None
    accepted_total: int = 0
    trained_total: int = 0
    buffered: int = 0
    leases: int = 0
    requeued: int = 0


class Progress(msgspec.Struct, kw_only=True):
    """The learner's progress: steps done, the policy version, the hub's counts, history."""

    learner_steps: int = 0
    policy_version: Optional[int] = None
    groups_trained: Optional[int] = None
    hub: HubCounts = msgspec.field(default_factory=HubCounts)
    history: list[StepRecord] = []

    @property
    def last(self) -> Optional[StepRecord]:
        return self.history[-1] if self.history else None


def progress_path(run_dir: Path) -> Path:
    return Path(run_dir) / "learner" / "progress.json"


def read_progress(path: Path, required: bool = False) -> Progress:
    """The progress in `path` (a progress.json); an empty Progress while it is missing
    (StateFileError instead with required=True, for a checkpoint the learner cannot resume
    without); StateFileError when it is damaged (see read_record)."""
    return read_record(path, Progress, required) or Progress()


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
        return cls(
            step=h.step,
            version=h.version,
            reward=h.reward,
            correct=h.correct,
            loss=h.loss,
            staleness_mean=h.staleness_mean,
            mrs_rejected=h.mrs_rejected,
        )


class Summary(msgspec.Struct, kw_only=True):
    """`<run_dir>/summary.json`, written by `krl run` (launcher/supervisor.py) at its start
    (status running), when it ends, and by a run that failed before supervising anything
    (launcher/run_cli.py). `evaluations`: verdicts in the groups the hub accepted (durable;
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
    groups: dict[str, Any] = {}  # learner/ledger.py:reconcile
    restarts: dict[str, int] = {}
    hung: dict[str, int] = {}
    exit_codes: dict[str, list[Any]] = {}
    checkpoint_fallbacks: list[Any] = []  # learner/recovery.json's events
    checkpoint_fallback_records_damaged: list[str] = []
    history: list[SummaryStep] = []


def summary_path(run_dir: Path) -> Path:
    return Path(run_dir) / "summary.json"


def read_summary(run_dir: Path) -> Optional[Summary]:
    """The run's summary; None while there is none; StateFileError when it is damaged."""
    return read_record(summary_path(run_dir), Summary)


def summary_data(summary: Summary) -> dict[str, Any]:
    """The summary as plain JSON data (common/jsonfile.py's writers take a dict)."""
    return msgspec.to_builtins(summary)


class SftStep(msgspec.Struct, kw_only=True):
    """One `krl sft` step (learner/sft.py)."""

    step: int
    loss: Optional[float] = None
    tokens: Optional[float] = None
    seconds: Optional[float] = None


class SftProgress(msgspec.Struct, kw_only=True):
    """`<out>/progress.json` of `krl sft` (rank 0 rewrites it after every step; each
    checkpoint keeps a copy, which a resumed run loads). `steps`: the run's step budget."""

    steps: Optional[int] = None
    history: list[SftStep] = []


Record = TypeVar("Record", Progress, Summary, SftProgress)


def read_record(path: Path, kind: type[Record], required: bool = False) -> Optional[Record]:
    """The record of type `kind` in `path`; None while the file does not exist (with
    required=True, StateFileError); StateFileError naming the file and what is wrong when
    it cannot be read, is not JSON or is not a `kind` (msgspec names the field)."""
    try:
        data = Path(path).read_bytes()
    except FileNotFoundError as exc:
        if required:
            raise StateFileError(f"{path}: missing (no {kind.__name__} record)") from exc
        return None
    except OSError as exc:
        raise StateFileError(f"{path}: cannot be read: {exc.strerror or exc}") from exc
    try:
        return msgspec.json.decode(data, type=kind)
    except msgspec.ValidationError as exc:
        raise StateFileError(
            f"{path}: not a {kind.__name__} record (common/run_records.py): {exc}"
        ) from exc
    except msgspec.DecodeError as exc:
        raise StateFileError(f"{path}: damaged (not valid JSON: {exc})") from exc


def write_record(path: Path, record: Progress | Summary | SftProgress) -> None:
    """Atomically (common/jsonfile.py): readers see the old record or the new."""
    write_json_atomic(path, msgspec.to_builtins(record))
