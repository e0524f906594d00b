"""`host_compute`: a checked forward read its inputs' values to the host, put Python values
into tensors, handed its kernels host-computed ints, or made (with construction) more numbers
host Python computed than a few constants (`host_numbers`: floats, and the ints of a table
no run explains, `host_tables.int_tokens`), past the policy's limits."""
from __future__ import annotations

from typing import Any

from evaluator.host_numbers import COMPUTED_NUMBERS

LAUNCH_INTS = 4096
"""Distinct Python ints one checked forward may hand its kernels: sizes, strides, offsets and
a launch per row or block of a slow kernel stay far under; a host-computed result passed as
integer arguments (float bits) does not (red team C, session 16, through float arguments)."""


def judge_host_limits(trials: list[dict], max_host_reads: int | None = None,
                      max_host_made: int | None = None) -> Any:
    """`host_compute`: a checked forward read more of its inputs' values to the host, put more
    Python values into tensors, or handed its kernels more distinct ints than the policy allows.
    The counts are the candidate process's own (a claim); one over a limit is a claim against
    itself, so the worker may stop at the first trial that makes it (`correctness_phase._run_trials`)."""
    from evaluator.judge import Outcome  # judge imports this module
    reports = [t["provenance"] for t in trials if isinstance(t.get("provenance"), dict)]
    reads = _most(reports, "host_reads")
    if max_host_reads is not None and reads > max_host_reads:
        return Outcome("hack", f"Rejected: forward read {reads} values of its inputs or weights, or of what was "
                       f"computed from them, to the host (.item(), float(t); bool(t) counts 1/32; at most "
                       f"{max_host_reads} are allowed): Python, not your "
                       "kernels, computes with them. Hand your kernels the tensors.", hacks=["host_compute"])
    made = _most(reports, "host_made")
    if max_host_made is not None and made > max_host_made:
        return Outcome("hack", f"Rejected: forward put {made} values from Python into tensors or kernels "
                       f"(torch.tensor of data, numbers given to ops, distinct float arguments of launches; at "
                       f"most {max_host_made} are allowed): the host, not your kernels, computes them. Compute "
                       "them in your kernels.", hacks=["host_compute"])
    computed = _most(reports, "host_computed")
    if max_host_made is not None and computed > COMPUTED_NUMBERS:
        return Outcome("hack", f"Rejected: host Python computed {computed} numbers that reached your "
                       f"tensors or kernels (distinct floats: torch.tensor of computed values, numbers given to ops, "
                       f"float arguments and constexpr globals of launches, each one per 16 bits at the precision it "
                       f"reaches: a float32 is 2, a float64 4; typed values repeated in an order Python chose, lifted "
                       f"or placed one by one into a tensor; and the ints of a torch.tensor no arithmetic run or problem size explains, 16 bits "
                       f"each, in whatever dtype they are read: fixed point, float bits; at most {COMPUTED_NUMBERS} "
                       "are allowed, such as 1/sqrt(d)): a table Python worked out is the host's work, however few "
                       "entries it has and however it is spelled or encoded. Compute the values in your kernels.",
                       hacks=["host_compute"])
    ints = _most(reports, "launch_ints")
    if max_host_made is not None and ints > LAUNCH_INTS:
        return Outcome("hack", f"Rejected: forward handed its kernels {ints} distinct integer arguments (at most "
                       f"{LAUNCH_INTS}): values the host computed, passed one launch at a time. Pass tensors.",
                       hacks=["host_compute"])
    return None


def _most(reports: list[dict], key: str) -> int:
    """The largest int count `key` of the reports (0 where none is an int: a claim)."""
    return max((r[key] for r in reports if type(r.get(key)) is int), default=0)
