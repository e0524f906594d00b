"""The fault matrix: every fault krl must survive (kill, stop, corrupt, fill, poison), each
injected into real processes by an integration test, run one by one; prints a Markdown
table of what was injected, what must hold, and whether it held.

    .venv/bin/python scripts/fault_matrix.py [--chaos] [--out FILE]

--chaos adds tests/integration/test_chaos.py (kill -9 of every role in turn with the
real vLLM actor; minutes). The full-disk rows mount a small tmpfs and need root; without
it their test skips and the row says so. Exit status 0 only when every row held.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
T = "tests/integration/"
F = T + "test_faults.py::"
# (fault, how it is injected, what must hold, pytest node that injects and checks it)
ROWS = [
    (
        "poison",
        "7 groups: id with '/', 200-char id, token id >= vocabulary, NaN logprob, "
        "version 999, 3 logprobs for 4 tokens, empty prompt",
        "each acked `rejected`, none stored, "
        "counted in the metric, /health 200, the run then trains to its budget",
        F + "test_poison_is_refused_and_damaged_state_falls_back",
    ),
    (
        "corrupt",
        "4 KiB of garbage in the newest checkpoint's model file",
        "checksum mismatch found, checkpoint set aside, resume from the previous one; console "
        "and summary.json say so; its steps retrained, none twice, none lost",
        F + "test_poison_is_refused_and_damaged_state_falls_back",
    ),
    (
        "corrupt",
        "a stored group cut in half; a poison group written into the store",
        "both quarantined (moved aside, ledger line), the run goes on",
        F + "test_poison_is_refused_and_damaged_state_falls_back",
    ),
    (
        "start",
        "missing data set; problem file with a syntax error; missing learner or actor "
        "model directory",
        "exit 78, no restart, run fails at once, reason on the console in one line",
        F + "test_start_errors_fail_the_run_at_once_with_the_reason",
    ),
    (
        "stop",
        "SIGSTOP of the broker (hung, not dead)",
        "killed as hung after hang_after_s, restarted, console says why, run completes",
        F + "test_a_hung_role_is_killed_and_restarted",
    ),
    (
        "poison",
        "a bug raised while the hub handles one group",
        "ErrorReply(internal), the hub serves the next message",
        F + "test_hub_answers_errors_and_full_disk_and_dies_loudly",
    ),
    (
        "fill",
        "full tmpfs under the group store",
        "ErrorReply(busy) naming the path and 'disk full', no partial file; accepted once "
        "space is back",
        F + "test_hub_answers_errors_and_full_disk_and_dies_loudly",
    ),
    (
        "kill",
        "the hub server thread dies",
        "the learner process exits 70 with a CRITICAL line (krl run restarts it)",
        F + "test_hub_answers_errors_and_full_disk_and_dies_loudly",
    ),
    (
        "fill",
        "full tmpfs under the run directory during a run",
        "krl run exits 1 without a traceback; summary.json status failed, reason says the "
        "disk is full",
        F + "test_full_disk_fails_the_run_with_a_summary_and_no_traceback",
    ),
    (
        "poison",
        "learner.lr=1e37: step 2 makes the weights non-finite",
        "exit 65 before publishing or saving it, no restart, run fails with the reason",
        F + "test_a_step_that_makes_the_weights_non_finite_stops_the_run",
    ),
    (
        "poison",
        "learner/training.json says a batch killed the learner twice",
        "that batch's groups quarantined at the next start, prompts re-issued",
        F + "test_poison_is_refused_and_damaged_state_falls_back",
    ),
    (
        "kill",
        "kill -9 of the learner mid-run, restart",
        "resumes from its checkpoint, no group trained twice or lost",
        T + "test_learner_resume.py::test_learner_survives_kill_9",
    ),
    (
        "poison",
        "groups that decode but cannot be trained: 2-D logprobs, float token ids, "
        "a logprob of +50, code_start past the response, a repeated sample index, NaN speedup, "
        "a path in the group id; a prompt id spelled e00-i1 beside e0-i1",
        "each answered `rejected` with the reason, never stored; the prompt accepted once",
        T + "test_hub_poison.py",
    ),
    (
        "poison",
        "a bug raised while the hub answers a bucket request it held",
        "ErrorReply(internal), counted, the hub serves on (the learner does not exit)",
        F + "test_a_held_request_that_fails_is_answered_and_the_hub_serves_on",
    ),
    (
        "corrupt",
        "learner/recovery.json (the fallback record) cut short",
        "summary.json names it and is never a clean `completed`; the next fallback moves it "
        "aside and the new record says it was lost",
        "tests/unit/launcher/test_supervisor.py::"
        "test_a_damaged_fallback_record_is_said_and_never_reads_as_a_clean_run",
    ),
    (
        "kill",
        "a DeepSpeed op build killed mid-way (its lock file left behind)",
        "the next learner removes the dead builder's lock with a WARNING and builds (it hung "
        "forever)",
        "tests/unit/learner/test_ds_ops.py",
    ),
    (
        "kill",
        "kill -9 of the broker under krl run; krl run again",
        "restarted, run completes, nothing outlives it, the second run resumes",
        T + "test_run.py::test_run_restarts_a_killed_role_and_finishes",
    ),
]
CHAOS = (
    "kill",
    "kill -9 of actor, evaluator worker, broker, learner in turn (real vLLM)",
    "budget reached, books balance (lost = trained_twice = 0), nothing outlives the run",
    T + "test_chaos.py",
)


def run_node(node: str) -> tuple[str, float]:
    t0 = time.monotonic()
    proc = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-rs", node],
        cwd=ROOT,
        capture_output=True,
        text=True,
    )
    seconds = time.monotonic() - t0
    if proc.returncode == 0:
        return (
            "skipped" if " skipped" in proc.stdout and " passed" not in proc.stdout else "held"
        ), seconds
    tail = [l for l in proc.stdout.splitlines() if l.startswith(("FAILED", "ERROR", "E "))]
    print(f"--- {node} failed:\n" + "\n".join(tail[-15:]), file=sys.stderr)
    return "FAILED", seconds


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--chaos", action="store_true", help="add the chaos run (minutes)")
    parser.add_argument("--out", type=Path, help="also write the table to this file")
    args = parser.parse_args()
    rows = ROWS + ([CHAOS] if args.chaos else [])
    results: dict[str, tuple[str, float]] = {}
    for _, _, _, node in rows:
        if node not in results:
            results[node] = run_node(node)
            print(f"{results[node][0]:>7} {results[node][1]:6.1f}s {node}", file=sys.stderr)
    lines = ["| fault | injected | must hold | result | test (s) |", "|---|---|---|---|---|"]
    for kind, how, holds, node in rows:
        result, seconds = results[node]
        lines.append(
            f"| {kind} | {how} | {holds} | {result} | `{node.split('/')[-1]}` ({seconds:.0f}) |"
        )
    table = "\n".join(lines)
    print(table)
    if args.out:
        args.out.write_text(table + "\n")
    return 0 if all(r[0] == "held" for r in results.values()) else 1


if __name__ == "__main__":
    sys.exit(main())
