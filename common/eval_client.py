"""The client of the evaluator service: what an actor (or a benchmark) evaluates kernels with.

It lives in common/ because two roles' code uses it (the actor, and benchmarks driving the
service) and roles never import each other (tests/unit/test_layout.py): it is common/ (wire
types, endpoint, config) and the standard library only, so an actor loads no evaluator module:
no sandbox, no checks, no triton (torch comes only through common/messages.py's tensor
frames). Asynchronous, many requests in flight:

    client = EvalClient(cfg.broker, cfg.transport, metrics)     # starts its I/O thread
    result = await client.evaluate(problem_payload, candidate, settings)
    rid = client.submit(problem_payload, candidate, settings)   # any thread, never blocks
    result = await client.result(rid)
    client.close()

One background thread owns the DEALER socket (a `common.endpoint.Client` its `Loop`
drives; ZeroMQ sockets never cross threads);
callers get `concurrent.futures.Future`s, awaited through `asyncio.wrap_future`, so
any event loop (or plain threads, through `future(rid)`) can use one client.

What the client guarantees:
  - each request id resolves exactly once: a duplicate or late result is dropped;
  - an unanswered request is resent with the same id after `resend_interval_s`,
    doubling to `resend_max_s`, so a restarted broker relearns it (the broker
    dedupes ids and caches each result for the requests that waited on it);
  - at most `max_in_flight` requests are sent and unanswered; more wait here, and a
    `busy` reply holds a request back for the broker's `retry_after_s`;
  - a request not answered within its deadline fails with `EvaluationTimeout`;
  - a broker silent for `unavailable_after_s` (it answers the client's heartbeat
    pings, so a long evaluation is not silence) fails every waiting request with
    `EvaluatorUnavailable`, and new ones at once, until it answers again.

Recoverable vs fatal: `EvaluationFailed` (this request: timeout, rejected as
invalid) vs `EvaluatorUnavailable` (the service is gone; the caller decides).
A result whose verdict is not `judged` (common/verdict.py: the service or the problem
failed on it) is no verdict on the candidate: do not train on it.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import logging
import queue
import random
import threading
import time
import uuid

from common.config import TransportConfig
from common.config.evaluator import BrokerConfig
from common.endpoint import Client, Loop, Pending, Window
from common.exits import die_with_thread
from common.log import RateLimitedLog
from common.messages import (
    ErrorReply,
    EvalRequest,
    EvalResult,
    EvalSettings,
    Heartbeat,
    ProblemPayload,
    new_id,
    now,
)
from common.metrics import Metrics
from common.transport import Backoff, HeartbeatSender, Received, Waker, context

log = logging.getLogger(__name__)


class EvaluationFailed(RuntimeError):
    """One request failed (recoverable: the service is up)."""


class EvaluationTimeout(EvaluationFailed):
    """No result within the request's deadline."""


class EvaluationRejected(EvaluationFailed):
    """The broker refused the request (e.g. invalid); `code` says why."""

    def __init__(self, reply: ErrorReply):
        super().__init__(f"{reply.code}: {reply.message}")
        self.code = reply.code


class EvaluatorUnavailable(RuntimeError):
    """The broker has not answered for `unavailable_after_s` (fatal for this client's work)."""


class EvalClient:
    """See the module docstring."""

    def __init__(
        self,
        cfg: BrokerConfig,
        transport: TransportConfig,
        metrics: Metrics | None = None,
        client_id: str = "",
    ):
        self.cfg, self.ccfg, self.transport = cfg, cfg.client, transport
        self.metrics = metrics or Metrics("eval_client")
        self.identity = f"c-{client_id or new_id()[:8]}-{uuid.uuid4().hex[:6]}".encode()
        m = self.metrics
        self._m_requests = m.counter(
            "eval_requests_total",
            "Evaluation requests by outcome (result, timeout, rejected, unavailable)",
            ["outcome"],
        )
        self._m_resends = m.counter("eval_resends_total", "Evaluation requests resent (same id)")
        self._m_busy = m.counter("eval_busy_total", "Busy replies from the broker")
        self._m_dupes = m.counter(
            "eval_duplicate_results_total", "Results dropped as duplicate or late"
        )
        self._m_in_flight = m.gauge("eval_in_flight", "Evaluation requests sent and unanswered")
        self._m_latency = m.histogram(
            "eval_latency_seconds",
            "Submit to result",
            buckets=(0.1, 0.3, 1, 2, 5, 10, 20, 60, 120, 300, 900),
        )
        self._futures: dict[str, concurrent.futures.Future] = {}
        self._inbox: queue.SimpleQueue[Pending] = queue.SimpleQueue()
        self._waker = Waker()
        self._closed = threading.Event()
        self.available = True
        self._warn = RateLimitedLog(log)
        # Made here, so that a socket that cannot be made (missing CurveZMQ keys) raises to
        # the caller instead of killing the thread before anything watches it; used only by
        # the I/O thread from its start on (a thread start is the barrier ZeroMQ asks for).
        self._window = Window(self.ccfg.max_in_flight, self._m_resends.inc)  # the I/O thread's
        self._link = Client(
            context(),
            transport,
            self.metrics,
            cfg.frontend,
            self.identity,
            handlers={
                EvalResult: self._on_result,
                ErrorReply: self._on_error,
                Heartbeat: lambda got: None,
            },  # a ping's answer
            who="the evaluator client",
            seen=self._heard,
            batch=1024,
            beats=HeartbeatSender(
                self.identity.decode(), "eval_client", transport.heartbeat_interval_s
            ),
        )
        self._thread = threading.Thread(target=self._io, name="eval-client", daemon=True)
        self._thread.start()

    # ------------------------------------------------------------------ caller side
    def submit(
        self,
        problem: ProblemPayload,
        candidate: str,
        settings: EvalSettings | None = None,
        *,
        deadline_s: float | None = None,
        request_id: str | None = None,
    ) -> str:
        """Queue one evaluation; returns its request id. Thread-safe, never blocks."""
        if self._closed.is_set():
            raise RuntimeError("EvalClient is closed")
        if not self.available:
            self._m_requests.labels("unavailable").inc()
            raise EvaluatorUnavailable(
                f"the evaluator broker at {self.cfg.frontend} is not answering"
            )
        deadline_s = self.ccfg.request_deadline_s if deadline_s is None else deadline_s
        rid = request_id or new_id()
        req = EvalRequest(
            request_id=rid,
            problem=problem,
            candidate=candidate,
            settings=settings or EvalSettings(),
            deadline_s=deadline_s,
            sent_at=now(),
        )
        fut: concurrent.futures.Future = concurrent.futures.Future()
        t = time.monotonic()
        self._futures[rid] = fut
        self._inbox.put(
            Pending(
                req,
                Backoff(self.ccfg.resend_interval_s, self.ccfg.resend_max_s),
                t + deadline_s,
                data=fut,
                submitted=t,
            )
        )
        self._waker.wake()
        return rid

    def future(self, request_id: str) -> concurrent.futures.Future:
        """The future of a submitted request (for threads); forgets it here."""
        return self._futures.pop(request_id)

    async def result(self, request_id: str) -> EvalResult:
        """The result of a submitted request; raises EvaluationFailed or EvaluatorUnavailable."""
        return await asyncio.wrap_future(self.future(request_id))

    async def evaluate(
        self,
        problem: ProblemPayload,
        candidate: str,
        settings: EvalSettings | None = None,
        *,
        deadline_s: float | None = None,
    ) -> EvalResult:
        """Submit and await one evaluation."""
        return await self.result(self.submit(problem, candidate, settings, deadline_s=deadline_s))

    def close(self) -> None:
        """Stop the I/O thread; requests still waiting are cancelled."""
        if self._closed.is_set():
            return
        self._closed.set()
        self._waker.wake()
        self._thread.join(timeout=10)
        self._waker.close()

    def __enter__(self) -> EvalClient:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    async def __aenter__(self) -> EvalClient:
        return self

    async def __aexit__(self, *exc: object) -> None:
        self.close()

    # ------------------------------------------------------------------ the I/O thread
    def _io(self) -> None:
        link, window = self._link, self._window
        loop = Loop(0.1, [link], self._waker)
        try:
            while not self._closed.is_set():
                loop.poll()
                while True:
                    try:
                        window.add(self._inbox.get_nowait())
                    except queue.Empty:
                        break
                self._receive(link, window.sent)
                t = time.monotonic()
                self._expire(t)
                window.send_due(link, t)
                link.tick()  # the ping the broker answers: its silence is unavailability
                self._m_in_flight.set(len(window.sent))
        except BaseException as exc:  # its caller would wait on futures nothing resolves
            if not self._closed.is_set():
                die_with_thread("evaluator client", exc)
            raise
        finally:
            for p in [*window.waiting, *window.sent.values()]:
                p.data.cancel()
            link.close()

    def _receive(self, link: Client, sent: dict[str, Pending]) -> None:
        link.drain()  # at most `batch` messages, each through the handler table

    def _heard(self, got: Received) -> None:
        if not self.available:
            log.info("the evaluator broker answers again")
            self.available = True

    def _on_result(self, got: Received) -> None:
        p = self._window.answered(got.msg.request_id)
        if p is None:
            self._m_dupes.inc()
            return
        self._m_latency.observe(time.monotonic() - p.submitted)
        self._resolve(p, "result", result=got.msg)

    def _on_error(self, got: Received) -> None:
        msg: ErrorReply = got.msg
        if msg.code == "busy":  # hold it back as asked; it stays in the window
            if self._window.hold(
                msg.request_id, max(msg.retry_after_s, 0.05) * random.uniform(1.0, 1.5)
            ):
                self._m_busy.inc()
        elif (p := self._window.answered(msg.request_id)) is not None:
            self._resolve(p, "rejected", error=EvaluationRejected(msg))

    def _expire(self, t: float) -> None:
        silent = t - self._link.last_heard > self.ccfg.unavailable_after_s
        if silent and self.available:
            self._warn.error(
                "unavailable",
                "the evaluator broker at %s has not answered for %.0fs",
                self.cfg.frontend,
                t - self._link.last_heard,
            )
            self.available = False

        def why(p: Pending):
            if p.data.cancelled():
                return "cancelled", None
            if t >= p.deadline:
                return "timeout", EvaluationTimeout(
                    f"no result for request {p.request.request_id} within {p.request.deadline_s:g}s"
                )
            if silent:
                return "unavailable", EvaluatorUnavailable(
                    f"the evaluator broker at {self.cfg.frontend} has not answered for "
                    f"{self.ccfg.unavailable_after_s:g}s"
                )
            return None

        for p, (outcome, error) in self._window.settle(why):
            self._resolve(p, outcome, error=error)

    def _resolve(
        self,
        p: Pending,
        outcome: str,
        result: EvalResult | None = None,
        error: BaseException | None = None,
    ) -> None:
        self._m_requests.labels(outcome).inc()
        if p.data.done():
            return
        try:
            if error is not None:
                p.data.set_exception(error)
            else:
                p.data.set_result(result)
        except concurrent.futures.InvalidStateError:
            pass  # cancelled by its caller meanwhile
