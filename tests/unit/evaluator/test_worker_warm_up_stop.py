"""A worker told to stop while it warms up stops then, not when the warm-up is done: SIGTERM only
sets its stop flag, and a warm-up (sandboxes importing torch and Triton) held every stop of the
worker, and so every `krl run` ending before it, for seconds (evaluator.worker.Worker._warm_up).
No sandbox here: an evaluator whose warm-up lasts until the pool is closed, as a real pool's
starting sandboxes fail once killed."""

from __future__ import annotations

import threading
import time

import pytest

from common.config import TransportConfig
from common.config.evaluator import EvaluatorConfig
from common.metrics import Metrics
from evaluator.pool import EvaluatorUnavailable
from evaluator.worker import Worker


class _Warming:
    """Warms up until closed (or `fail` is set: then fails at once, as a sandbox that cannot start)."""

    device = "cpu"

    def __init__(self, fail: bool = False):
        self.closed, self.fail = threading.Event(), fail

    def warm_up(self) -> None:
        if self.fail:
            raise EvaluatorUnavailable("a sandbox failed to start: test")
        if not self.closed.wait(20):
            raise AssertionError("the warm-up was never ended by a close")
        raise EvaluatorUnavailable("a sandbox failed to start: closed")

    def close(self) -> None:
        self.closed.set()


def _worker(evaluator: _Warming) -> Worker:
    return Worker(EvaluatorConfig(device="cpu"), "tcp://127.0.0.1:1", TransportConfig(),
                  Metrics("evaluator"), evaluator)


def test_a_worker_stopped_while_warming_up_exits_at_once_and_closes_its_pool():
    evaluator = _Warming()
    worker = _worker(evaluator)
    stop_at = time.monotonic() + 0.5
    t0 = time.monotonic()
    assert worker.run(lambda: time.monotonic() >= stop_at) == 0
    assert time.monotonic() - t0 < 5, "the stop waited for the warm-up"
    assert evaluator.closed.is_set() and worker.link is None  # never connected to a broker
    assert not worker.serving


def test_a_failed_warm_up_still_says_the_evaluator_is_unavailable():
    evaluator = _Warming(fail=True)
    with pytest.raises(EvaluatorUnavailable, match="failed to start"):
        _worker(evaluator).run(lambda: False)
    assert evaluator.closed.is_set()
