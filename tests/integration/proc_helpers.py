"""Small helpers the integration tests share for starting real processes."""

import os
import threading
import time
from pathlib import Path

from common.jsonfile import read_json  # noqa: F401  (tests import it from here)
from common.ports import free_port  # noqa: F401  (tests import it from here)

PROCESS_GROUP_VARS = ("RANK", "WORLD_SIZE", "LOCAL_RANK", "MASTER_ADDR", "MASTER_PORT")


def clean_env() -> dict:
    """This environment without torch.distributed's variables, so a child started here
    forms its own process group instead of joining the test runner's."""
    return {k: v for k, v in os.environ.items() if k not in PROCESS_GROUP_VARS}


def blocked_call_ends_on_stop(call, stop, within_s: float = 2.0) -> dict:
    """Run call() on a thread; it must still be blocked after 1 s, and must return
    within `within_s` of stop(). Returns {"value": ...} or {"error": the exception}."""
    outcome: dict = {}

    def run() -> None:
        try:
            outcome["value"] = call()
        except Exception as exc:  # the caller asserts on it
            outcome["error"] = exc

    worker = threading.Thread(target=run, daemon=True)
    worker.start()
    time.sleep(1.0)
    assert worker.is_alive(), "the call should still be blocked before stop()"
    t0 = time.monotonic()
    stop()
    worker.join(timeout=5)
    assert not worker.is_alive(), "the call did not return after stop()"
    assert time.monotonic() - t0 < within_s, f"took {time.monotonic() - t0:.1f}s after stop()"
    return outcome


def merge(base: dict, extra: dict) -> dict:
    """base with extra's keys laid over it, nested dicts merged key by key."""
    out = dict(base)
    for key, value in extra.items():
        out[key] = (
            merge(out[key], value)
            if isinstance(value, dict) and isinstance(out.get(key), dict)
            else value
        )
    return out


def scripted_learner_config(
    run_dir: Path, model: str, hub_endpoint: str, publish_endpoint: str, **learner
) -> dict:
    """A run config for a real learner fed by tests' ScriptedActor (1 turn, 2 samples per
    group, the built-in activation problems): MRS and PRS off, since the scripted actor's
    logprobs are made up. `learner` keys are merged into the learner section."""
    base = {
        "groups_per_step": 2,
        "max_staleness": 4,
        "checkpoint_every": 2,
        "dataset": "builtin:activation",
        "n_samples": 2,
        "max_turns": 1,
        "algorithm": {"mrs": {"enabled": False}, "prs": {"enabled": False}},
        "trainer": {"model": model, "zero_stage": 0},
    }
    return {
        "run_dir": str(run_dir),
        "seed": 1,
        "hub_link": {"endpoint": hub_endpoint, "publish_endpoint": publish_endpoint},
        "learner": merge(base, learner),
    }
