"""A judged turn's verdict: the one record of what the evaluator said about a candidate.

The evaluator builds it (evaluator/pipeline.py), the worker sends it inside `EvalResult`,
the broker caches it, the actor reads it and puts it in the turn it sends the learner
(`Turn.verdict`), and the learner trains on its reward: the same struct in memory and on
the wire, decoded and validated by msgspec wherever it arrives.

Statuses (only `ok` earns a positive reward; evaluator/verdict.py says what each means and
lists the hack codes). `error_source` says whose fault a failure is:
  candidate   the candidate's (the default where a failure has one; "" on `ok`)
  problem     the problem's own code failed: not the candidate's fault
  evaluator, broker, harness, actor
              the service failed or no verdict came in time
A verdict whose source is not the candidate's is no verdict on the candidate (`judged` is
False): the actor ends the episode there and the learner does not train on that turn.
"""

from __future__ import annotations

import typing
from typing import Any, Literal, Optional

import msgspec

from common.bounds import Id, Text

Status = Literal[
    "ok",
    "format_error",
    "compile_error",
    "runtime_error",
    "incorrect",
    "hack",
    "timeout",
    "crashed",
]
STATUSES: tuple[str, ...] = typing.get_args(Status)
ErrorSource = Literal["", "candidate", "problem", "evaluator", "broker", "harness", "actor"]
NOT_A_VERDICT = ("problem", "evaluator", "broker", "harness", "actor")
# Failures of the service, not of the candidate or the problem: not cached (a retry may differ).
SERVICE_FAILURES = ("evaluator", "broker", "harness", "actor")
UNJUDGED = "unevaluated"
MAX_FEEDBACK_CHARS = (
    1 << 20
)  # common/bounds.py's Text  # the metric label and Turn status of a turn with no verdict


class Verdict(msgspec.Struct):
    """Everything the evaluator reports for one evaluation. `details` holds diagnostics
    (phase, claimed kind, coverage breakdown, ...) that no consumer reads as a verdict."""

    status: Status
    correct: bool = False
    speedup: Optional[float] = None
    reward: float = 0.0
    hacks: list[Id] = []
    feedback: Text = ""
    coverage: Optional[float] = None
    phase_seconds: dict[Id, float] = {}
    ref_time_s: Optional[float] = None
    candidate_time_s: Optional[float] = None
    error_source: ErrorSource = ""
    details: dict[Id, Any] = {}

    def __post_init__(self) -> None:
        if self.status not in STATUSES:
            raise ValueError(f"unknown verdict status {self.status!r}")
        if self.error_source not in typing.get_args(ErrorSource):
            raise ValueError(f"unknown error source {self.error_source!r}")

    @property
    def judged(self) -> bool:
        """A verdict on the candidate, not a failure of the service or of the problem."""
        return self.error_source not in NOT_A_VERDICT

    @property
    def label(self) -> str:
        """The status, or `unevaluated` where no verdict on the candidate came (metrics)."""
        return self.status if self.judged else UNJUDGED

    def to_dict(self) -> dict[str, Any]:
        """Plain JSON-able data (values msgpack cannot carry become their repr)."""
        return msgspec.to_builtins(self, enc_hook=repr, str_keys=True)

    def to_wire(self) -> Verdict:
        """A copy whose details are plain data, so that it encodes for the wire."""
        return msgspec.structs.replace(
            self, details=msgspec.to_builtins(self.details, enc_hook=repr, str_keys=True)
        )

    def without_details(self) -> Verdict:
        """The verdict as the learner needs it: no diagnostics, no timings by phase, the
        feedback within the wire's bound."""
        return msgspec.structs.replace(
            self, details={}, phase_seconds={}, feedback=self.feedback[:MAX_FEEDBACK_CHARS]
        )


def no_verdict(source: str, feedback: str, status: str = "crashed") -> Verdict:
    """A result that is no verdict on the candidate: `source` says whose failure it is."""
    return Verdict(status, feedback=feedback, error_source=source)
