"""The actor's main loop: leases in, episodes on one engine, groups out, weights in.

One asyncio loop runs these tasks side by side:
  leases    while fewer than `max_groups_in_flight` groups are generating (and fewer
            than that many wait for an ack), ask the hub for leases, tagged with the
            engine's policy version; each lease starts a group task
  group     n_samples episodes of one prompt, concurrently (vLLM batches them with
            every other episode in flight); the finished group goes to the outbox
  outbox    delivers groups until acked, resending while the hub is away
            (actor/hub_link.py)
  weights   waits for an announcement of other weights than the engine's, pulls and
            verifies its buckets (actor/weight_sync.py), loads them into the running
            engine (in-flight by default: answers being generated continue, their
            tokens tagged with the version that produced each)
  beats     a Heartbeat to the hub every transport.heartbeat_interval_s
  health    checks the engine process; its death is fatal

Stopping (`request_stop`, from SIGTERM/SIGINT): no new leases; running groups get
`shutdown_timeout_s` to finish, then are abandoned (their leases expire at the hub
and are handed out again); finished groups are delivered until the same deadline.

Fatal (`run` raises): the engine died (`EngineDead`) or any unexpected error in a
task. The process logs it and exits non-zero; the supervisor restarts the actor.

Learner rollback: a restarted learner's hub announces its checkpoint's version under a
new hub_id (e.g. 7 after 10) and re-publishes 8, 9, ... with other weights. The actor
loads the hub's weights even when their version is lower (the hub's latest
announcement is the truth), and every group says which weights made its tokens
(`TrajectoryGroup.weights`: per hub_id the newest version loaded while it ran), so the
new hub can count a group made in part by discarded weights stale, whenever it arrives.
"""

from __future__ import annotations

import asyncio
import logging
import time
from concurrent.futures import ThreadPoolExecutor

from actor.engine import Engine
from actor.episode import Episode, EpisodeRunner
from actor.hub_link import HubLink, Outbox
from actor.weight_sync import WeightSync
from common.buckets import BucketError
from common.config.actor import ActorConfig
from common.log import RateLimitedLog
from common.messages import Lease, Trajectory, TrajectoryGroup, new_id, now
from common.metrics import Metrics
from common.transport import Backoff, PeerUnavailable

log = logging.getLogger(__name__)


class Actor:
    """See the module docstring. `await run()` returns when stopped."""

    def __init__(
        self,
        cfg: ActorConfig,
        actor_id: str,
        engine: Engine,
        runner: EpisodeRunner,
        link: HubLink,
        sync: WeightSync,
        metrics: Metrics,
        heartbeat_s: float = 1.0,
    ):
        self.cfg, self.actor_id, self.engine, self.runner = cfg, actor_id, engine, runner
        self.link, self.sync, self.heartbeat_s, self.metrics = link, sync, heartbeat_s, metrics
        self.outbox = Outbox(link, metrics, cfg.hub_retry_min_s, cfg.hub_retry_max_s)
        self.groups: set[asyncio.Task] = set()
        self.hub_reachable = False
        self._stop = asyncio.Event()
        self._changed = asyncio.Event()
        self._fatal: BaseException | None = None
        self._sync_thread = ThreadPoolExecutor(1, thread_name_prefix="weight-sync")
        self._bad_versions: set[tuple[int, str]] = set()  # (version, hub_id)
        self._made_by: dict[str, dict[str, int]] = {}  # lease id -> TrajectoryGroup.weights
        self._warn = RateLimitedLog(log, interval_s=30.0)
        self._m_leases = metrics.counter("leases_total", "Leases received from the hub")
        self._m_inflight = metrics.gauge("groups_in_flight", "Prompt groups being generated")
        self._m_version = metrics.gauge("weight_version", "Policy version loaded in the engine")
        self._m_load_s = metrics.histogram(
            "weight_load_seconds",
            "Seconds to stage and load one version (engine paused for part of it)",
            buckets=(0.01, 0.03, 0.1, 0.3, 1, 3, 10, 30, 100, 300),
        )
        self._m_version.set(engine.version)

    # ------------------------------------------------------------------ control
    def request_stop(self) -> None:
        """Finish and flush, then return from run() (signal-safe via loop callbacks)."""
        self._stop.set()
        self._changed.set()

    @property
    def stopping(self) -> bool:
        return self._stop.is_set()

    def health(self) -> tuple[bool, dict]:
        """For /health (called from the metrics thread: reads plain attributes only)."""
        ok = self._fatal is None and self.engine.alive
        return ok, {
            "version": self.engine.version,
            "groups_in_flight": len(self.groups),
            "unacked_groups": len(self.outbox),
            "hub_reachable": self.hub_reachable,
        }

    async def run(self) -> None:
        """Run until request_stop(); raises the fatal error if a task died."""
        log.info(
            "actor %s running: weights v%d, up to %d groups in flight",
            self.actor_id,
            self.engine.version,
            self.cfg.max_groups_in_flight,
        )
        outbox = asyncio.create_task(self.outbox.run(), name="outbox")
        tasks = [
            asyncio.create_task(coro, name=name)
            for name, coro in (
                ("leases", self._lease_loop()),
                ("weights", self._weight_loop()),
                ("beats", self._beat_loop()),
                ("health", self._health_loop()),
            )
        ]
        for t in [outbox, *tasks]:
            t.add_done_callback(self._on_done)
        try:
            await self._stop.wait()
            await _cancel(tasks)
            if self._fatal is None:
                await self._shutdown()  # the outbox keeps delivering meanwhile
        finally:
            await _cancel([outbox, *tasks, *self.groups])
            self.sync.stop()  # a pull still running gives up; its thread ends before close()
            self._sync_thread.shutdown(wait=True, cancel_futures=True)
        if self._fatal is not None:
            raise self._fatal

    def _on_done(self, task: asyncio.Task) -> None:
        self.groups.discard(task)
        self._m_inflight.set(len(self.groups))
        self._changed.set()
        if not task.cancelled() and task.exception() is not None and self._fatal is None:
            self._fatal = task.exception()
            self._stop.set()

    async def _shutdown(self) -> None:
        deadline = time.monotonic() + self.cfg.shutdown_timeout_s
        if self.groups:
            log.info(
                "stopping: waiting up to %.0fs for %d running group(s)",
                self.cfg.shutdown_timeout_s,
                len(self.groups),
            )
            await asyncio.wait(set(self.groups), timeout=max(0.0, deadline - time.monotonic()))
        if self.groups:
            log.warning(
                "stopping: abandoned %d unfinished group(s); their leases will be handed out again",
                len(self.groups),
            )
        if not await self.outbox.drained(max(0.0, deadline - time.monotonic())):
            log.error(
                "stopping: %d finished group(s) were not acked by the hub and are lost",
                len(self.outbox),
            )
        log.info("actor %s stopped", self.actor_id)

    # ------------------------------------------------------------------ leases and groups
    async def _lease_loop(self) -> None:
        backoff = Backoff(self.cfg.hub_retry_min_s, self.cfg.hub_retry_max_s)
        while True:
            room = self.cfg.max_groups_in_flight - len(self.groups)
            if room <= 0 or len(self.outbox) >= self.cfg.max_groups_in_flight:
                await self._wait_changed(1.0)
                continue
            version = self.engine.version
            try:
                grant = await self.link.lease(room, version)
            except PeerUnavailable as exc:
                self.hub_reachable = False
                self._warn.warning("lease", "hub unreachable for leases, retrying: %s", exc)
                await asyncio.sleep(backoff.next_delay())
                continue
            self.hub_reachable = True
            backoff.reset()
            for lease in grant.leases:
                self._start_group(lease)
            if not grant.leases:
                await self._wait_for_admission(grant.retry_after_s, version)

    async def _wait_for_admission(self, retry_after_s: float, version: int) -> None:
        """The hub's retry_after_s, cut short when newer weights load: a new version is
        when admission opens (and, with learner.hub.synchronous, the only way it does)."""
        deadline = time.monotonic() + max(retry_after_s, 0.05)
        while time.monotonic() < deadline and self.engine.version == version and not self.stopping:
            await asyncio.sleep(0.02)

    async def _wait_changed(self, timeout_s: float) -> None:
        """Until a group finishes or stop is requested, at most timeout_s. Polls: on
        Python 3.11, cancelling a wait_for(event.wait()) can hang (seen in tests)."""
        self._changed.clear()
        deadline = time.monotonic() + timeout_s
        while not self._changed.is_set() and time.monotonic() < deadline:
            await asyncio.sleep(0.05)

    def _start_group(self, lease: Lease) -> None:
        self._m_leases.inc()
        self._made_by[lease.lease_id] = {self.sync.hub_id: self.engine.version}
        task = asyncio.create_task(self._group(lease), name=f"group-{lease.lease_id[:8]}")
        self.groups.add(task)
        self._m_inflight.set(len(self.groups))
        task.add_done_callback(self._on_done)

    async def _group(self, lease: Lease) -> None:
        episodes: list[Episode] = await asyncio.gather(
            *(
                self.runner.run(lease.problem, i, lease.max_turns, f"{lease.lease_id}-s{i}")
                for i in range(lease.n_samples)
            )
        )
        if any(e.end == "prompt_too_long" for e in episodes):
            log.warning(
                "problem %s does not fit engine.max_model_len=%d with room to answer; "
                "its group is sent without turns",
                lease.problem.name,
                self.engine.cfg.max_model_len,
            )
        self.outbox.put(
            TrajectoryGroup(
                request_id=new_id(),
                group_id=new_id(),
                lease_id=lease.lease_id,
                prompt_id=lease.prompt_id,
                problem_name=lease.problem.name,
                actor_id=self.actor_id,
                trajectories=[
                    Trajectory(sample_index=e.sample_index, turns=[t.turn for t in e.turns])
                    for e in episodes
                ],
                sent_at=now(),
                evaluations=sum(
                    t.code is not None and t.verdict.judged for e in episodes for t in e.turns
                ),
                weights=self._made_by.pop(lease.lease_id, {}),
            )
        )

    # ------------------------------------------------------------------ weights, beats, health
    async def _weight_loop(self) -> None:
        loop = asyncio.get_running_loop()
        backoff = Backoff(self.cfg.hub_retry_min_s, self.cfg.hub_retry_max_s)
        while True:
            ann = await loop.run_in_executor(
                self._sync_thread, self.sync.poll, self.cfg.weight_poll_s
            )
            if ann is None or (ann.version, ann.hub_id) in self._bad_versions:
                continue
            buckets = await loop.run_in_executor(self._sync_thread, self.sync.pull, ann)
            if buckets is None:
                # Hub silent, version dropped meanwhile, or a bad checksum (WeightSync logged
                # which): try again later, with the newest version heard of by then.
                await asyncio.sleep(backoff.next_delay())
                continue
            try:
                # Shielded: a stop request must not interrupt a load between two buckets.
                report = await asyncio.shield(
                    self.engine.load_weights(
                        ann.version,
                        buckets,
                        verified=True,
                        rollback=ann.version <= self.engine.version,
                    )
                )
            except BucketError as exc:
                # The version does not fit this model: never retry it; the old weights stay.
                log.error("weight version %d not loaded: %s", ann.version, exc)
                self._bad_versions.add((ann.version, ann.hub_id))
                continue
            backoff.reset()
            self.sync.loaded(ann.version, ann.hub_id)
            for made_by in self._made_by.values():  # the running groups' later tokens
                made_by[ann.hub_id] = max(made_by.get(ann.hub_id, -1), ann.version)
            self._m_version.set(ann.version)
            self._m_load_s.observe(report.total_s)

    async def _beat_loop(self) -> None:
        while True:
            await self.link.heartbeat()
            await asyncio.sleep(self.heartbeat_s)

    async def _health_loop(self) -> None:
        while True:
            await self.engine.check_health()  # EngineDead ends the actor
            await asyncio.sleep(1.0)


async def _cancel(tasks) -> None:
    tasks = list(tasks)
    for t in tasks:
        t.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)
