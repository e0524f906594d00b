"""On the device machine: evaluate built-in problems' own solutions (or a file given as
`problem=path`) one at a time (one child) and print each verdict's phase seconds, timing details
and profile (coverage's kernels), to tell a slow phase from contention or see why coverage is low.
Usage: [LIMIT_S=300] [DUMP_S=60] [LOG=INFO] [POLICY=paper] python3 scripts/device/one_eval.py \
    activation/relu attention/sdpa=tests/unit/evaluator/honest_builtin/FILE.py ..."""

from __future__ import annotations

import faulthandler
import json
import logging
import os
import sys
import time
from pathlib import Path

from common.config.evaluator import EvaluatorConfig
from common.messages import EvalSettings
from common.problemset import builtin_problem
from evaluator.pipeline import Evaluator


def main(names: list[str]) -> None:
    limit = float(os.environ.get("LIMIT_S", "300"))
    if os.environ.get("DUMP_S"):  # where the worker waits, every DUMP_S seconds
        faulthandler.dump_traceback_later(float(os.environ["DUMP_S"]), repeat=True)
    logging.basicConfig(level=os.environ.get("LOG", "WARNING"))
    config = EvaluatorConfig.model_validate(
        {
            "device": "cuda",
            "children": 1,
            "timeout_s": limit,
            "policy": {"name": os.environ.get("POLICY", "paper")},
        }
    )
    with Evaluator(config) as ev:
        for arg in names:
            name, _, path = arg.partition("=")
            problem = builtin_problem(name)
            source = Path(path).read_text() if path else problem.solution
            t0 = time.monotonic()
            v = ev.evaluate(problem, source, EvalSettings(device="cuda", timeout_s=limit, trials=2))
            print(
                f"== {name}: {v.status} {v.hacks} speedup {v.speedup} "
                f"in {time.monotonic() - t0:.1f} s",
                {k: round(x, 2) for k, x in v.phase_seconds.items()},
                flush=True,
            )
            timing = v.details.get("timing") or {}
            print(
                json.dumps(
                    {
                        k: timing.get(k)
                        for k in (
                            "runs",
                            "batch",
                            "batches",
                            "candidate",
                            "ref",
                            "ref_around_go_median_s",
                            "protocol_overhead_s",
                            "cuda_events_median_s",
                            "host_between_mean_s",
                        )
                    },
                    default=str,
                )[:1500],
                flush=True,
            )
            print("profile:", json.dumps(v.details.get("profile"), default=str)[:3000], flush=True)
            if v.status != "ok":
                print(v.feedback[:1500], flush=True)
                print("details:", json.dumps(v.details, default=str)[:4000], flush=True)


if __name__ == "__main__":
    main(sys.argv[1:])
