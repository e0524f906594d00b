"""`krl broker`: routes evaluation requests from clients to evaluator workers and back.

Two ROUTER sockets on one thread:
  frontend  clients (actors, benchmarks) send EvalRequest and Heartbeat; they get
            EvalResult, Heartbeat (a ping's answer) or ErrorReply (invalid, busy)
  backend   workers send WorkerStatus (their heartbeat), EvalResult and Heartbeat;
            they get EvalRequest (request id = the job's id: its content key and a
            nonce, evaluator.result_cache.job_id) and Heartbeat

State is soft and rebuilt by the peers after a restart: jobs (one per content key,
with every request waiting on it), the queue of jobs no worker holds yet, workers
(capacity, what the broker sent them, what their last status listed), a result cache.
  - a request a cached result answers (a resend of one that waited on it) is answered at
    once; one whose key is queued or running joins that job; a resent request id only
    refreshes its route;
  - a new job beyond `max_queued` (or a request beyond `max_waiting_requests`) gets
    ErrorReply(code="busy", retry_after_s): backpressure instead of unbounded growth;
  - jobs go to the live worker of the right device with the most free slots;
  - a worker silent for `heartbeat_misses` intervals is dead: its jobs go back to the
    front of the queue; after `max_attempts` deaths a job is answered `crashed`;
  - a result is sent once to each request waiting on it and cached for their resends
    only (evaluator.result_cache.Answered): a later request of the same content is a new
    evaluation, since a verdict is one draw of the evaluator's randomised checks and is
    paid once per request that waited on it (red team s60e); a result nobody waits for
    (e.g. from before a broker restart) is only cached, so the client's resend (a request
    of its content) is answered from the cache, once.
A restarted broker loses nothing: clients resend what is unanswered, workers announce
what they hold, and the workers' own caches answer keys they already evaluated.
"""
from __future__ import annotations

import logging
import math
import time
import traceback
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

import msgspec

from common.config import TransportConfig
from common.config.evaluator import BrokerConfig
from common.endpoint import Loop, Server
from common.log import RateLimitedLog
from common.messages import ErrorReply, EvalRequest, EvalResult, Heartbeat, WorkerStatus, now
from common.metrics import Metrics
from common.transport import PeerTracker, Received, context
from common.verdict import no_verdict
from evaluator.result_cache import Answered, ResultCache, cacheable, job_id, key_of, request_key

if TYPE_CHECKING:
    from common.config import RunConfig

log = logging.getLogger(__name__)
LATENCY_BUCKETS = (0.01, 0.03, 0.1, 0.3, 1, 2, 5, 10, 20, 60, 120, 300, 900)


@dataclass
class Waiter:
    """One request waiting for a job's result."""

    peer: bytes
    received_at: float
    expires_at: float = math.inf


@dataclass
class Job:
    """One distinct evaluation (content key) and every request waiting on it."""

    key: str
    request: EvalRequest  # as sent to workers: request_id = the job's id (result_cache.job_id)
    created_at: float
    waiters: dict[str, Waiter] = field(default_factory=dict)
    worker: bytes | None = None
    dispatched_at: float = 0.0
    attempts: int = 0  # workers that died holding it


@dataclass
class WorkerState:
    identity: bytes
    worker_id: str
    device: str
    slots: int
    assigned: set[str] = field(default_factory=set)  # job ids sent to it, no result yet
    reported: set[str] = field(default_factory=set)  # job ids its last status listed

    @property
    def free(self) -> int:
        return self.slots - len(self.assigned | self.reported)


class _Metrics:
    def __init__(self, m: Metrics):
        self.requests = m.counter("requests_total", "Evaluation requests by outcome (queued, joined, "
                                  "cached, resent, busy, invalid, expired)", ["outcome"])
        self.cache_hits = m.counter("cache_hits_total", "Requests answered from the result cache")
        self.results = m.counter("results_total", "Results delivered to clients by status", ["status"])
        self.unclaimed = m.counter("unclaimed_results_total", "Results nobody waited for (cached only)")
        self.latency = m.histogram("request_latency_seconds", "Request received to result sent",
                                   buckets=LATENCY_BUCKETS)
        self.queue_wait = m.histogram("queue_wait_seconds", "Job created to first dispatch",
                                      buckets=LATENCY_BUCKETS)
        self.phase = m.histogram("phase_seconds", "Evaluator pipeline phases of delivered results",
                                 ["phase"], LATENCY_BUCKETS)
        self.queue_depth = m.gauge("queue_depth", "Jobs waiting for a worker slot")
        self.running = m.gauge("running", "Jobs held by workers")
        self.waiting = m.gauge("waiting_requests", "Requests waiting for a result")
        self.workers = m.gauge("workers", "Live workers")
        self.free_slots = m.gauge("free_slots", "Free worker slots")
        self.cache_entries = m.gauge("cache_entries", "Results in the cache")
        self.registrations = m.counter("worker_registrations_total", "Worker connections seen")
        self.restarts = m.counter("worker_restarts_total", "Workers that came back under a known id")
        self.deaths = m.counter("worker_deaths_total", "Workers declared dead (missed heartbeats)")
        self.requeued = m.counter("requeued_total", "Jobs put back in the queue (worker death, lost send)")


class Broker:
    """The broker's loop; see the module docstring."""

    def __init__(self, cfg: BrokerConfig, transport: TransportConfig, metrics: Metrics):
        self.cfg, self.transport, self.m = cfg, transport, _Metrics(metrics)
        ctx = context()
        # Backend first in the loop: results and statuses before new requests. A message
        # that trips a bug is dropped (logged), never fatal; an invalid one is answered.
        self.frontend = Server(ctx, transport, metrics, cfg.frontend, {
            EvalRequest: lambda got: self._on_request(got.peer, got.msg),
            Heartbeat: self._on_ping,
        }, who="the broker", unexpected=self._unexpected, invalid=self._invalid,
            fault=self._fault, batch=512)
        self.backend = Server(ctx, transport, metrics, cfg.backend, {
            WorkerStatus: lambda got: self._on_status(got.peer, got.msg),
            EvalResult: lambda got: self._on_result(got.peer, got.msg),
            Heartbeat: lambda got: None,
        }, who="the broker's backend", seen=lambda got: self.tracker.seen(got.peer),
            invalid=self._invalid, fault=self._fault, batch=512)
        self.jobs: dict[str, Job] = {}
        self.queue: OrderedDict[str, None] = OrderedDict()  # keys of undispatched jobs, in order
        self.by_rid: dict[str, str] = {}                    # request id -> key
        self.workers: dict[bytes, WorkerState] = {}
        self.known_ids: set[str] = set()
        self.tracker = PeerTracker(transport.heartbeat_interval_s, transport.heartbeat_misses)
        self.cache: ResultCache[Answered] = ResultCache(cfg.cache_entries)
        self._warn = RateLimitedLog(log)
        self._next_beat = 0.0
        self.loop_at = time.monotonic()

    @property
    def endpoints(self) -> tuple[str, str]:
        return self.frontend.endpoint, self.backend.endpoint

    def health(self) -> tuple[bool, dict]:
        ok = time.monotonic() - self.loop_at < 10 * self.transport.heartbeat_interval_s
        return ok, {"workers": len(self.workers), "queued": len(self.queue),
                    "waiting": len(self.by_rid), "cached": len(self.cache)}

    def run(self, stop: Callable[[], bool]) -> int:
        log.info("broker: clients on %s, workers on %s", *self.endpoints)
        loop = Loop(self.transport.heartbeat_interval_s / 4, [self.backend, self.frontend])
        try:
            loop.run(stop, self.step)
        finally:
            loop.close()
        log.info("broker stopped (%d requests were waiting; clients resend them)", len(self.by_rid))
        return 0

    def step(self) -> None:
        """After each pass over both sockets: timers and dispatch."""
        self.loop_at = time.monotonic()
        self._timers()
        self._dispatch()
        self._gauges()

    def _invalid(self, got: Received) -> None:
        self.m.requests.labels("invalid").inc()  # answered by the endpoint

    def _fault(self, peer: bytes | None, msg, exc: Exception) -> None:
        self.m.requests.labels("invalid").inc()
        self._warn.error("handler", "broker failed on a %s; dropped it:\n%s",
                         type(msg).__name__, traceback.format_exc())

    # ------------------------------------------------------------------ clients
    def _on_ping(self, got: Received) -> None:
        """A client's ping: answer so it knows we are here."""
        self.frontend.reply(got.peer, Heartbeat(sender="broker", role="broker", seq=got.msg.seq,
                                                sent_at=now()))

    def _unexpected(self, got: Received) -> None:
        self.m.requests.labels("invalid").inc()
        self.frontend.reply(got.peer, ErrorReply(request_id=getattr(got.msg, "request_id", ""),
                                                 code="unexpected_type", sent_at=now(),
                                                 message=f"the broker does not take {type(got.msg).__name__}"))

    def _on_request(self, peer: bytes, req: EvalRequest) -> None:
        t, rid = time.monotonic(), req.request_id
        key = self.by_rid.get(rid)
        if key is not None and key in self.jobs:  # a resend: only its route may have changed
            self.jobs[key].waiters[rid].peer = peer
            self.m.requests.labels("resent").inc()
            return
        key = request_key(req)
        cached = self.cache.get(key)
        if cached is not None and cached.answers(rid):  # a resend of a request it answered
            self.m.requests.labels("cached").inc()
            self.m.cache_hits.inc()
            self.frontend.reply(peer, msgspec.structs.replace(cached.result, request_id=rid, cached=True,
                                                              sent_at=now()))
            return
        job = self.jobs.get(key)
        if (job is None and len(self.queue) >= self.cfg.max_queued) \
                or len(self.by_rid) >= self.cfg.max_waiting_requests:
            self.m.requests.labels("busy").inc()
            self.frontend.reply(peer, ErrorReply(request_id=rid, code="busy", sent_at=now(),
                                                 retry_after_s=self.cfg.busy_retry_after_s,
                                                 message="the evaluator pool is saturated; resend later"))
            return
        if job is None:
            job = self._new_job(key, req, t)
            self.m.requests.labels("queued").inc()
        else:
            self.m.requests.labels("joined").inc()
        expires = t + req.deadline_s if req.deadline_s > 0 else math.inf
        job.waiters[rid] = Waiter(peer=peer, received_at=t, expires_at=expires)
        self.by_rid[rid] = key

    def _new_job(self, key: str, req: EvalRequest, t: float) -> Job:
        held = next(((w, j) for w in self.workers.values() for j in w.reported if key_of(j) == key), None)
        job = Job(key=key, created_at=t,
                  request=msgspec.structs.replace(req, request_id=held[1] if held else job_id(key),
                                                  deadline_s=0.0))
        self.jobs[key] = job
        if held is not None:  # a worker already runs it (it told us after our restart)
            job.worker, job.dispatched_at = held[0].identity, t
            held[0].assigned.add(held[1])
        else:
            self.queue[key] = None
        return job

    # ------------------------------------------------------------------ workers
    def _on_status(self, peer: bytes, st: WorkerStatus) -> None:
        w = self.workers.get(peer)
        if w is None:
            w = self.workers[peer] = WorkerState(peer, st.worker_id, st.device, st.slots)
            self.m.registrations.inc()
            if st.worker_id in self.known_ids:
                self.m.restarts.inc()
            self.known_ids.add(st.worker_id)
            log.info("worker %s joined (%s, %d slots, %d in flight)", st.worker_id, st.device,
                     st.slots, len(st.in_flight))
            self.backend.reply(peer, Heartbeat(sender="broker", role="broker", sent_at=now()))
        w.slots, w.reported = st.slots, set(st.in_flight)
        # A job sent well before this status but not listed in it never arrived: resend it.
        # (Results travel before later statuses on the same connection, so a finished
        # job is never mistaken for a lost one.)
        grace = time.monotonic() - self.transport.heartbeat_interval_s
        for jid in list(w.assigned - w.reported):
            job = self.jobs.get(key_of(jid))
            if job is None or job.worker != peer or job.request.request_id != jid:  # done, or an older job's
                w.assigned.discard(jid)
            elif job.dispatched_at < grace:
                w.assigned.discard(jid)
                self._requeue(job, "lost send")

    def _on_result(self, peer: bytes, res: EvalResult) -> None:
        jid = res.request_id
        key = key_of(jid)
        w = self.workers.get(peer)
        if w is not None:
            w.assigned.discard(jid)
            w.reported.discard(jid)
        job = self.jobs.pop(key, None)
        if job is None:
            self.m.unclaimed.inc()
            self._keep_unclaimed(key, jid, res)
            return
        if cacheable(res):  # for the resends of the requests that waited on it, not for others
            self.cache.put(key, Answered(res, rids=set(job.waiters), jobs={jid}))
        self.queue.pop(key, None)
        if job.worker is not None and job.worker != peer and job.worker in self.workers:
            self.workers[job.worker].assigned.discard(key)
        for phase, seconds in res.verdict.phase_seconds.items():
            self.m.phase.labels(phase).observe(seconds)
        self._deliver(job, res)

    def _keep_unclaimed(self, key: str, jid: str, res: EvalResult) -> None:
        """A result no job waits for: made for a request the broker no longer holds (it
        restarted; the client resends), so it answers one request of its content. A job's
        result seen before (a reconnected worker's resend of one delivered) answers no one new."""
        seen = self.cache.get(key)
        if not cacheable(res) or (seen is not None and jid in seen.jobs):
            return
        self.cache.put(key, Answered(res, jobs={jid}, spare=1))

    def _deliver(self, job: Job, res: EvalResult) -> None:
        t = time.monotonic()
        for rid, waiter in job.waiters.items():
            self.by_rid.pop(rid, None)
            if waiter.expires_at < t:
                self.m.requests.labels("expired").inc()
                continue
            self.frontend.reply(waiter.peer, msgspec.structs.replace(res, request_id=rid, sent_at=now()))
            self.m.results.labels(res.verdict.status).inc()
            self.m.latency.observe(t - waiter.received_at)

    def _requeue(self, job: Job, why: str) -> None:
        job.worker = None
        self.queue[job.key] = None
        self.queue.move_to_end(job.key, last=False)  # it has waited longest
        self.m.requeued.inc()
        self._warn.warning(f"requeue_{why}", "job re-queued (%s)", why)

    def _worker_dead(self, w: WorkerState) -> None:
        self.workers.pop(w.identity, None)
        self.m.deaths.inc()
        log.warning("worker %s is dead; re-queueing %d job(s)", w.worker_id, len(w.assigned))
        for jid in w.assigned:
            job = self.jobs.get(key_of(jid))
            if job is None or job.worker != w.identity or job.request.request_id != jid:
                continue
            job.attempts += 1
            if job.attempts >= self.cfg.max_attempts:
                self._give_up(job)
            else:
                self._requeue(job, "worker death")

    def _give_up(self, job: Job) -> None:
        self.jobs.pop(job.key, None)
        self.queue.pop(job.key, None)
        text = (f"The evaluation was lost: {job.attempts} evaluator workers died while running it "
                "(not a verdict on the kernel's output).")
        self._deliver(job, EvalResult(request_id=job.request.request_id, verdict=no_verdict("broker", text),
                                      sent_at=now()))

    # ------------------------------------------------------------------ timers and dispatch
    def _timers(self) -> None:
        t = time.monotonic()
        if t < self._next_beat:
            return
        self._next_beat = t + self.transport.heartbeat_interval_s
        for peer in self.tracker.reap():
            if peer in self.workers:
                self._worker_dead(self.workers[peer])
        for peer in list(self.workers):
            self.backend.reply(peer, Heartbeat(sender="broker", role="broker", sent_at=now()))
        for key in list(self.queue):  # nobody waits any more: do not evaluate it
            job = self.jobs[key]
            if all(w.expires_at < t for w in job.waiters.values()):
                self.queue.pop(key)
                self.jobs.pop(key)
                for rid in job.waiters:
                    self.by_rid.pop(rid, None)
                    self.m.requests.labels("expired").inc()

    def _dispatch(self) -> None:
        if not self.queue:
            return
        free = {p: w.free for p, w in self.workers.items() if w.free > 0}
        t = time.monotonic()
        for key in list(self.queue):
            if not free:
                return
            job = self.jobs[key]
            device = job.request.settings.device
            fits = [p for p in free if device in ("auto", self.workers[p].device)]
            if not fits:
                continue
            peer = max(fits, key=lambda p: free[p])
            if not self.backend.reply(peer, job.request):  # the worker is gone
                free.pop(peer)
                self._worker_dead(self.workers[peer])
                continue
            del self.queue[key]
            if job.dispatched_at == 0.0:
                self.m.queue_wait.observe(t - job.created_at)
            job.worker, job.dispatched_at = peer, t
            self.workers[peer].assigned.add(job.request.request_id)
            free[peer] -= 1
            if free[peer] <= 0:
                free.pop(peer)

    def _gauges(self) -> None:
        self.m.queue_depth.set(len(self.queue))
        self.m.running.set(len(self.jobs) - len(self.queue))
        self.m.waiting.set(len(self.by_rid))
        self.m.workers.set(len(self.workers))
        self.m.free_slots.set(sum(max(0, w.free) for w in self.workers.values()))
        self.m.cache_entries.set(len(self.cache))


def serve(cfg: RunConfig) -> int:
    """The `krl broker` process: logging, metrics, signals, then the loop."""
    from common.config import dump
    from common.log import setup
    from common.stop import StopFlag

    setup("broker", 0, cfg.log)
    log.info("resolved config:\n%s", dump(cfg))
    stop = StopFlag()
    metrics = Metrics("broker", cfg.broker.metrics)
    broker = Broker(cfg.broker, cfg.transport, metrics)
    metrics.health = broker.health
    metrics.start()
    try:
        return broker.run(stop)
    finally:
        metrics.stop()
