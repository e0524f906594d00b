"""The evaluator's dry launch model (evaluator.dry_launch) run in this process, for profiling.

The `dry` command runs in a sandboxed child, where neither cProfile nor py-spy reaches it; this
script sets the process up as the zygote does (evaluator.child.prepare_process, the Triton
interpreter) and serves one candidate child's `prepare`, `load` and `dry` commands itself, at a
problem's declared sizes (or its CPU sizes with --cpu-sizes). It prints the reply's storages and
the command's CPU seconds, and with --profile writes cProfile stats; --off runs it without
evaluator.interpreter_dtypes (Triton's own lookups: the before of a before/after).

    TRITON_INTERPRET=1 PYTHONPATH=$PWD python scripts/dev/profile_dry.py \
        --problem activation/relu --candidate tests/unit/evaluator/hacks/X.py [--off]

One model a process: a dry command is a child's last (a second in the same process is answered
from what the first left: `values`), as the pipeline's fresh child for each model.
"""

from __future__ import annotations

import argparse
import cProfile
import json
import os
import sys
import tempfile
import time
from pathlib import Path


def _sizes(problem) -> tuple[dict, dict]:
    """The problem's CPU sizes and the ones its file declares (its module's own values)."""
    cpu = dict(problem.sizes["cpu"])
    namespace: dict = {}
    exec(compile(problem.source, "<problem>", "exec"), namespace)  # noqa: S102  (a built-in problem)
    return cpu, {k: namespace[k] for k in cpu}


def _one(problem, source: str, sizes: dict, budget: float, configs: bool) -> tuple[dict, float]:
    """One fresh candidate child state's prepare, load and dry: its reply and the dry's CPU s."""
    from evaluator import child
    from evaluator.commands import ChildState

    state = ChildState(
        "candidate", "cpu", Path(tempfile.mkdtemp(prefix="dryprof")), child._RECORDER
    )
    for head in (
        {"op": "prepare", "problem": problem.source, "sizes": sizes, "sets": []},
        {"op": "load", "candidate": source, "init_seed": 1, "init": None, "problem_numbers": []},
    ):
        reply, _ = state.handle(head)
        assert reply.get("op") != "error", reply
    started = time.process_time()
    reply, _ = state.handle(
        {
            "op": "dry",
            "budget_s": budget,
            "skip": [],
            "real_seed": None,
            "runs": [],
            "configs": configs,
        }
    )
    return reply, time.process_time() - started


class _Toggle:
    """evaluator.interpreter_dtypes's lookups off (Triton's own, the old `_is_bf16`) or on, so
    that a before and an after run in one process, on one warm interpreter, in turn."""

    def __init__(self):
        import triton.language as tl
        import triton.language.core as core
        from triton.runtime import interpreter

        from evaluator import interpreter_casts

        self.tl, self.core, self.interpreter = tl, core, interpreter
        self.casts = interpreter_casts
        on = (interpreter._get_np_dtype, core.block_type.__init__, interpreter_casts._is_bf16)
        self.on, self.off = on, (on[0].original, on[1].original, self._old_bf16)

    def _old_bf16(self, dtype) -> bool:
        return getattr(dtype, "scalar", dtype) == self.tl.bfloat16

    def set(self, on: bool) -> None:
        lookup, init, bf16 = self.on if on else self.off
        self.interpreter._get_np_dtype, self.core.block_type.__init__ = lookup, init
        self.casts._is_bf16 = bf16


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--problem", required=True, help="a built-in problem, e.g. activation/relu")
    parser.add_argument("--candidate", required=True, type=Path)
    parser.add_argument("--budget", type=float, default=600.0, help="the model's CPU budget (s)")
    parser.add_argument("--cpu-sizes", action="store_true", help="the CPU sizes, not the declared")
    parser.add_argument("--sizes", type=json.loads, default={}, help='sizes set, e.g. {"dim": 64}')
    parser.add_argument("--off", action="store_true", help="interpreter_dtypes off (before)")
    parser.add_argument("--profile", type=Path, help="write cProfile stats of the model here")
    args = parser.parse_args()
    if os.environ.get("TRITON_INTERPRET") != "1":
        sys.exit("run with TRITON_INTERPRET=1")
    from common.problemset import builtin_problem
    from evaluator import child

    child.prepare_process("cpu")
    problem = builtin_problem(args.problem)
    cpu, declared = _sizes(problem)
    sizes = {**(cpu if args.cpu_sizes else declared), **args.sizes}
    if args.off:
        _Toggle().set(False)
    source = args.candidate.read_text()
    profiler = cProfile.Profile() if args.profile else None
    if profiler:
        profiler.enable()
    reply, cpu_s = _one(problem, source, sizes, args.budget, not args.cpu_sizes)
    if profiler:
        profiler.disable()
        profiler.dump_stats(str(args.profile))
    summary = {k: v for k, v in reply.items() if k not in ("variants",)}
    shown = {"off": args.off, "cpu_s": round(cpu_s, 3), "sizes": sizes, "reply": summary}
    print(json.dumps(shown, default=str)[:1500], flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
