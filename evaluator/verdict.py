"""The verdict on one candidate (the record is common/verdict.py's `Verdict`) and its reward.

Statuses (only `ok` earns a positive reward):
  ok             correct, not a hack; timed when timing was asked for
  format_error   not a usable kernel file (no code block, empty, not UTF-8, too
                 large, no ModelNew or no forward)
  compile_error  does not parse, imports something unavailable, its module or
                 ModelNew(...) raises, or Triton fails to compile a kernel
  runtime_error  forward raises (or, with error_source == "problem", the problem's own
                 code failed: not the candidate's fault)
  incorrect      wrong shape, dtype or values on some trial
  hack           a static or runtime hack (codes below)
  timeout        the sandbox's hard timeout killed it
  crashed        the child died (segfault, os._exit, memory limit, protocol abuse)

Hack codes: the static ones (evaluator.static_allowlist: forbidden_import, forbidden_api,
forbidden_syntax, concurrency, file_access, dynamic_code, reflection, monkey_patch,
harness_tamper, side_stream, clock, try_except, no_triton_kernel) and the run-time ones:
no_triton_launch (forward launched none of the candidate's kernels), triton_not_needed
(the output is still right with every Triton launch skipped: a decoy), modified_inputs,
constant_output, precision_downgrade, timed_output_mismatch (a revealed timed run was
wrong: it behaves differently when timed), forged_timing (revealed outputs differ from the
checksum committed to, or CUDA events claim more than the worker's clock), side_stream
(the worker's clock >> CUDA events), low_coverage and torch_computes (strict policy: too
little time in its own kernels; wrong when PyTorch's compute operators return noise),
host_compute (forward read many of its inputs' values to the host: Python computed),
monkey_patch (the child's integrity report).
"""
from __future__ import annotations

from common.config.evaluator import RewardConfig
from common.verdict import STATUSES, Verdict

__all__ = ["STATUSES", "Verdict", "compute_reward"]


def compute_reward(status: str, speedup: float | None, coverage: float | None,
                   cfg: RewardConfig) -> float:
    """w_correct + w_speed*min(speedup, cap) + w_coverage*coverage for ok; 0 otherwise.
    A missing speedup (timing off) or coverage (CPU) contributes nothing."""
    if status != "ok":
        return 0.0
    reward = cfg.w_correct
    if speedup is not None:
        reward += cfg.w_speed * min(max(speedup, 0.0), cfg.speedup_cap)
    if coverage is not None:
        reward += cfg.w_coverage * min(max(coverage, 0.0), 1.0)
    return reward
