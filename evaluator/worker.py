"""`krl evaluator`: one worker process per GPU (or per CPU slot under the interpreter).

The worker owns one `Evaluator` (K warm sandboxed children; compile and correctness
of several candidates at once, timing and profiling one at a time behind the
Evaluator's lock) and a DEALER socket to the broker's backend. Its main thread owns
the socket; evaluations run on a pool of `slots` threads and hand their results
back through a queue plus a `Waker`, so the socket never crosses threads.

Link to the broker (a `common.endpoint.Client`: Paranoid Pirate, worker side):
  - a `WorkerStatus` every heartbeat interval is the worker's heartbeat; it carries
    capacity and the jobs being evaluated, so a restarted broker relearns them;
  - the broker heartbeats back; silent for `heartbeat_misses` intervals, the worker
    opens a fresh socket, announces itself again and resends the results it finished
    since it last heard from the broker (the broker caches a result it does not wait
    for, so a client's resend finds it);
  - requests arrive with the broker's job id as request id (its content key and a
    nonce: evaluator.result_cache.job_id); a job already evaluated is answered from the
    worker's result cache, a job already running is not started twice. A later job of
    the same content is evaluated anew (a verdict is one draw: red team s60e).

Nothing a request carries can stop the worker: a bad problem, a bad candidate or a
bug in the pipeline becomes an error result. Only `EvaluatorUnavailable` (children
cannot start at all) is fatal: the worker exits 1 and the broker re-queues its work.
"""
from __future__ import annotations

import logging
import os
import queue
import socket
import threading
import time
import uuid
from collections import deque
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import TYPE_CHECKING

import msgspec

from common.config import TransportConfig
from common.config.evaluator import EvaluatorConfig
from common.endpoint import Client, Loop
from common.exits import StartError
from common.log import RateLimitedLog
from common.messages import EvalRequest, EvalResult, Heartbeat, WorkerStatus, now
from common.metrics import Metrics
from common.problemset import ProblemError, from_payload
from common.transport import HeartbeatSender, Waker, context
from common.verdict import no_verdict
from evaluator.pipeline import Evaluator
from evaluator.pool import EvaluatorUnavailable
from evaluator.result_cache import ResultCache, cacheable, request_key
from evaluator.verdict import Verdict

if TYPE_CHECKING:
    from common.config import RunConfig

log = logging.getLogger(__name__)
PHASE_BUCKETS = (0.01, 0.03, 0.1, 0.3, 1, 2, 5, 10, 20, 60, 120, 300)


def default_worker_id() -> str:
    return f"{socket.gethostname()}-{os.getpid()}"


def to_result(verdict: Verdict, request_id: str, worker_id: str) -> EvalResult:
    """The wire form of a verdict."""
    return EvalResult(request_id=request_id, verdict=verdict.to_wire(), worker_id=worker_id,
                      sent_at=now())


def error_result(request_id: str, worker_id: str, status: str, source: str, text: str) -> EvalResult:
    """A result that is no verdict on the candidate (`source` says whose failure)."""
    return EvalResult(request_id=request_id, verdict=no_verdict(source, text[:4000], status),
                      worker_id=worker_id, sent_at=now())


class _Metrics:
    def __init__(self, m: Metrics):
        self.requests = m.counter("requests_total", "Evaluation requests by outcome "
                                  "(evaluated, cached, duplicate)", ["outcome"])
        self.evaluations = m.counter("evaluations_total", "Evaluations actually run")
        self.results = m.counter("results_total", "Results sent by verdict status", ["status"])
        self.phase = m.histogram("phase_seconds", "Time per pipeline phase", ["phase"], PHASE_BUCKETS)
        self.busy_slots = m.gauge("busy_slots", "Evaluations accepted and not yet answered")
        self.slots = m.gauge("slots", "Evaluations this worker accepts at once")
        self.busy_seconds = m.counter("device_busy_seconds_total",
                                      "Wall time with at least one evaluation in progress")
        self.busy_ratio = m.gauge("gpu_busy_ratio", "Share of the last minute with at least one "
                                  "evaluation in progress on this worker's device")
        self.restarts = m.counter("sandbox_restarts_total", "Sandboxes killed and replaced (failed start, "
                                  "a job that could not be cleaned up, a dead zygote)")
        self.children = m.counter("children_total", "Fresh sandboxed processes forked (one per candidate, "
                                  "plus reference children)")
        self.ref_hits = m.counter("reference_cache_hits_total", "Reference outputs served from cache")
        self.reconnects = m.counter("broker_reconnects_total", "Fresh sockets after a silent broker")


class Worker:
    """The worker's loop; see the module docstring."""

    def __init__(self, cfg: EvaluatorConfig, backend: str, transport: TransportConfig,
                 metrics: Metrics, evaluator: Evaluator | None = None):
        self.cfg, self.backend, self.transport = cfg, backend, transport
        self.worker_id = cfg.worker.worker_id or default_worker_id()
        self.slots = cfg.worker.slots or cfg.children
        self.metrics, self.m = metrics, _Metrics(metrics)
        self.evaluator = evaluator or Evaluator(cfg)
        self.cache: ResultCache[EvalResult] = ResultCache(cfg.worker.cache_entries)
        self.in_flight: dict[str, str] = {}          # job id -> request id the broker used
        self.recent: deque[tuple[float, EvalResult]] = deque(maxlen=4 * self.slots + 64)
        self.done: queue.SimpleQueue[tuple[str, EvalResult]] = queue.SimpleQueue()
        self.waker = Waker()
        self.threads = ThreadPoolExecutor(self.slots, thread_name_prefix="eval")
        self.fatal: BaseException | None = None
        self.evaluations = 0
        self._count_lock = threading.Lock()
        self.link: Client | None = None  # made once warm (run)
        self._started = time.monotonic()
        self._warn = RateLimitedLog(log)
        self._busy_since: float | None = None
        self._busy_samples: deque[tuple[float, float]] = deque()
        self._busy_total = 0.0
        self._pool_seen = (0, 0, 0)
        self.m.slots.set(self.slots)
        self.loop_at = time.monotonic()
        self.serving = False  # warming up until the first connect

    # ------------------------------------------------------------------ lifecycle
    def health(self) -> tuple[bool, dict]:
        t = time.monotonic()
        stalled = self.serving and t - self.loop_at > 10 * self.transport.heartbeat_interval_s
        return self.fatal is None and not stalled, {
            "worker_id": self.worker_id, "device": self.evaluator.device, "serving": self.serving,
            "in_flight": len(self.in_flight), "evaluations": self.evaluations,
            "broker_silent_s": round(t - self.last_heard, 3)}

    @property
    def last_heard(self) -> float:
        return self.link.last_heard if self.link is not None else self._started

    def run(self, stop: Callable[[], bool]) -> int:
        """Serve until `stop()` or a fatal error; returns the exit status."""
        try:
            if self.cfg.worker.warm_up and not self._warm_up(stop):
                log.info("worker %s stopped while warming up", self.worker_id)
                return 0
            self._connect()
            self.serving = True
            log.info("worker %s serving on %s (%d slots, %s)", self.worker_id, self.evaluator.device,
                     self.slots, self.backend)
            while not stop() and self.fatal is None:
                self.loop_at = time.monotonic()
                self._step()
        finally:
            self._shutdown()
        if self.fatal is not None:
            log.error("worker %s: the evaluator is unavailable: %s", self.worker_id, self.fatal)
            return 1
        log.info("worker %s stopped after %d evaluations", self.worker_id, self.evaluations)
        return 0

    def _warm_up(self, stop: Callable[[], bool]) -> bool:
        """Warm the evaluator up on a thread of its own while watching `stop`; False when told to
        stop first. SIGTERM only sets the flag, and a warm-up (sandboxes importing torch and
        Triton, tens of seconds on a loaded CPU) held every stop of the worker, and so every
        `krl run` ending before it, until it was done; the pool's close (_shutdown) ends the
        starts it leaves. EvaluatorUnavailable from the warm-up propagates: nothing to serve with.
        Sandboxes are started by the pool's own long-lived thread (pool._new_sandbox), so their
        die-with-parent does not follow this short-lived one."""
        failed: list[BaseException] = []

        def warm() -> None:
            try:
                self.evaluator.warm_up()
            except BaseException as exc:  # noqa: BLE001 (re-raised on run's thread)
                failed.append(exc)

        thread = threading.Thread(target=warm, name="warm-up", daemon=True)
        thread.start()
        while thread.is_alive():
            if stop():
                return False
            thread.join(0.1)
        if failed:
            raise failed[0]
        return True

    def _step(self) -> None:
        self._loop.once()  # bounded per socket, so results and heartbeats are never starved
        self._send_done()
        self.link.tick()   # the WorkerStatus heartbeat; a silent broker's fresh socket
        self._account()

    def _shutdown(self) -> None:
        deadline = time.monotonic() + 10.0
        while self.in_flight and time.monotonic() < deadline and self.fatal is None:
            time.sleep(0.05)
            self._send_done()  # finish what is running; the broker re-queues the rest
        self.threads.shutdown(wait=False, cancel_futures=True)
        if self.link is not None:
            self.link.close()
        self.evaluator.close()
        self.waker.close()

    # ------------------------------------------------------------------ broker link
    def _connect(self) -> None:
        t = self.transport
        self.link = Client(
            context(), t, self.metrics, self.backend,
            lambda: f"w-{self.worker_id}-{uuid.uuid4().hex[:8]}".encode(),  # fresh per socket
            handlers={EvalRequest: lambda got: self._accept(got.msg), Heartbeat: lambda got: None},
            who=f"worker {self.worker_id}",
            beats=HeartbeatSender(self.worker_id, "evaluator", t.heartbeat_interval_s, self._status),
            reconnect_after_s=t.heartbeat_interval_s * t.heartbeat_misses,
            on_reconnect=self._reconnected)
        self._loop = Loop(t.heartbeat_interval_s / 4, [self.link], self.waker)
        self.link.tick()  # announce ourselves at once

    def _status(self, seq: int) -> WorkerStatus:
        """The worker's heartbeat: capacity and the jobs it holds."""
        return WorkerStatus(worker_id=self.worker_id, device=self.evaluator.device,
                            slots=self.slots, in_flight=list(self.in_flight),
                            evaluations=self.evaluations, sent_at=now())

    def _reconnected(self, last_heard: float) -> None:
        """A broker silent past its misses got a fresh socket: resend the results it may
        have missed (it caches a result nobody waits for, so a client's resend finds it)."""
        self.m.reconnects.inc()
        lost_since = last_heard - self.transport.heartbeat_interval_s
        for finished_at, result in self.recent:
            if finished_at >= lost_since:
                self.link.send(result)

    # ------------------------------------------------------------------ requests
    def _accept(self, req: EvalRequest) -> None:
        try:
            request_key(req)  # a request we can key, held to its job (the broker's id), not its content
            key = req.request_id
        except Exception as exc:  # noqa: BLE001 (a request we cannot key is answered, never fatal)
            self._send(error_result(req.request_id, self.worker_id, "runtime_error", "evaluator",
                                    f"The evaluator could not read this request: {exc!r}"))
            return
        cached = self.cache.get(key)
        if cached is not None:
            self.m.requests.labels("cached").inc()
            self._send(msgspec.structs.replace(cached, request_id=req.request_id, cached=True,
                                               sent_at=now()))
        elif key in self.in_flight:
            self.m.requests.labels("duplicate").inc()  # its result goes out when it is done
        else:
            self.m.requests.labels("evaluated").inc()
            self.in_flight[key] = req.request_id
            self._busy_changed()
            self.threads.submit(self._evaluate, key, req)

    def _evaluate(self, key: str, req: EvalRequest) -> None:
        """Runs on a pool thread: one request to one result, whatever happens."""
        try:
            result = self._verdict(req)
        except EvaluatorUnavailable as exc:
            self.fatal = exc
            result = error_result(req.request_id, self.worker_id, "crashed", "evaluator",
                                  f"The evaluator worker cannot start sandboxes: {exc}")
        except Exception as exc:  # a pipeline bug must not kill the worker: answer and log it
            log.exception("evaluation of %s failed inside the evaluator", req.problem.name)
            result = error_result(req.request_id, self.worker_id, "crashed", "evaluator",
                                  f"The evaluator failed on this request (not your kernel): {exc!r}")
        self.done.put((key, result))
        self.waker.wake()

    def _verdict(self, req: EvalRequest) -> EvalResult:
        try:
            problem = from_payload(req.problem)
        except ProblemError as exc:
            return error_result(req.request_id, self.worker_id, "runtime_error", "problem",
                                f"The problem is unusable (not your kernel): {exc}")
        with self._count_lock:
            self.evaluations += 1
        self.m.evaluations.inc()
        verdict = self.evaluator.evaluate(problem, req.candidate, req.settings)
        for phase, seconds in verdict.phase_seconds.items():
            self.m.phase.labels(phase).observe(seconds)
        return to_result(verdict, req.request_id, self.worker_id)

    def _send_done(self) -> None:
        while True:
            try:
                key, result = self.done.get_nowait()
            except queue.Empty:
                return
            self.in_flight.pop(key, None)
            self._busy_changed()
            if cacheable(result):
                self.cache.put(key, result)
            self.recent.append((time.monotonic(), result))
            self._send(result)

    def _send(self, result: EvalResult) -> None:
        self.m.results.labels(result.verdict.status).inc()
        if not self.link.send(result):
            self._warn.warning("send_failed", "result not sent (broker unreachable); "
                               "kept for the broker's resend")

    # ------------------------------------------------------------------ accounting
    def _busy_changed(self) -> None:
        t = time.monotonic()
        if self.in_flight and self._busy_since is None:
            self._busy_since = t
        elif not self.in_flight and self._busy_since is not None:
            self._busy_total += t - self._busy_since
            self.m.busy_seconds.inc(t - self._busy_since)
            self._busy_since = None
        self.m.busy_slots.set(len(self.in_flight))

    def _account(self) -> None:
        t = time.monotonic()
        busy = self._busy_total + (t - self._busy_since if self._busy_since is not None else 0.0)
        self._busy_samples.append((t, busy))
        while self._busy_samples and t - self._busy_samples[0][0] > 60.0:
            self._busy_samples.popleft()
        t0, b0 = self._busy_samples[0]
        if t > t0:
            self.m.busy_ratio.set((busy - b0) / (t - t0))
        pool = self.evaluator.pool
        retired, hits, forked = pool.retired, self.evaluator.references.hits, pool.children
        self.m.restarts.inc(max(0, retired - self._pool_seen[0]))
        self.m.ref_hits.inc(max(0, hits - self._pool_seen[1]))
        self.m.children.inc(max(0, forked - self._pool_seen[2]))
        self._pool_seen = (retired, hits, forked)


def serve(cfg: RunConfig) -> int:
    """The `krl evaluator` process: logging, metrics, signals, then the worker loop."""
    from common.config import dump
    from common.log import setup
    from common.stop import StopFlag

    setup("evaluator", 0, cfg.log)
    log.info("resolved config:\n%s", dump(cfg))
    stop = StopFlag()
    metrics = Metrics("evaluator", cfg.evaluator.metrics)
    try:
        simulated = None
        if cfg.evaluator.simulate.enabled:  # pipeline benchmarks: verdicts without evaluating
            from evaluator.simulate import SimulatedEvaluator
            simulated = SimulatedEvaluator(cfg.evaluator)
        worker = Worker(cfg.evaluator, cfg.broker.backend, cfg.transport, metrics, simulated)
    except EvaluatorUnavailable as exc:  # this host or config cannot sandbox: a restart cannot fix it
        raise StartError(f"the evaluator's sandbox: {exc}") from None
    metrics.health = worker.health
    metrics.start()
    try:
        return worker.run(stop)
    except EvaluatorUnavailable as exc:
        log.error("sandboxed children cannot start; exiting: %s", exc)
        return 1
    finally:
        metrics.stop()

