"""The actor's link to the hub: leases, finished groups until acked, heartbeats.

`HubLink` owns one DEALER socket (`common.endpoint.Client`) and uses it only
from one dedicated thread, so the asyncio loop never blocks on the network. Each
request is one Lazy Pirate attempt of `transport.request_timeout_s`; on silence the
socket is reset and `PeerUnavailable` goes to the caller, which backs off.

`Outbox` holds every finished `TrajectoryGroup` until the hub acks it. Any ack
outcome (accepted, duplicate, stale, rejected) settles a group: the hub has
decided. While the hub is unreachable groups stay in memory and are resent, in
order, with capped exponential backoff: nothing is dropped. A `busy` ErrorReply (the hub
could not store the group, e.g. its disk is full) is handled the same way. The same group id is
resent each time, so a group whose ack was lost is counted once (`duplicate`).
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections import OrderedDict
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from common.config import TransportConfig
from common.endpoint import Client
from common.log import RateLimitedLog
from common.messages import Ack, LeaseGrant, LeaseRequest, TrajectoryGroup, new_id, now
from common.metrics import Metrics
from common.transport import Backoff, HeartbeatSender, PeerUnavailable, RequestRejected, context

log = logging.getLogger(__name__)
KEEP_OUTCOMES = 10_000  # recent ack outcomes kept for inspection; older ones are forgotten


class HubLink:
    """Request-reply with the hub from a dedicated thread (see module doc)."""

    def __init__(self, endpoint: str, transport: TransportConfig, metrics: Metrics, actor_id: str):
        self.endpoint, self.transport, self.actor_id = endpoint, transport, actor_id
        self._thread = ThreadPoolExecutor(1, thread_name_prefix="hub-link")
        beats = HeartbeatSender(actor_id, "actor", transport.heartbeat_interval_s)
        self._client: Client = self._thread.submit(
            Client,
            context(),
            transport,
            metrics,
            endpoint,
            f"actor-{actor_id}".encode(),
            beats=beats,
        ).result()

    async def _call(self, fn: Callable[..., Any], *args: Any) -> Any:
        return await asyncio.get_running_loop().run_in_executor(self._thread, fn, *args)

    def _request(self, msg: Any, expect: type) -> Any:
        try:
            return self._client.request(msg, expect=expect, retries=0)
        except PeerUnavailable:
            self._client.reopen()  # Lazy Pirate: a fresh socket for the next attempt
            raise

    async def lease(self, max_groups: int, version: int) -> LeaseGrant:
        req = LeaseRequest(
            request_id=new_id(),
            actor_id=self.actor_id,
            max_groups=min(max_groups, 1024),
            policy_version=version,
            sent_at=now(),
        )
        return await self._call(self._request, req, LeaseGrant)

    async def deliver(self, group: TrajectoryGroup) -> Ack:
        group.sent_at = now()
        return await self._call(self._request, group, Ack)

    async def heartbeat(self) -> None:
        """Send a heartbeat if one is due (no reply)."""
        await self._call(self._client.tick)

    def close(self) -> None:
        self._client.abort()  # a delivery to a hub that is gone must not hold the exit
        self._thread.submit(self._client.close).result()
        self._thread.shutdown(wait=True)


class Outbox:
    """Finished groups waiting for their ack; `run()` delivers them (see module doc)."""

    def __init__(self, link: HubLink, metrics: Metrics, retry_min_s: float, retry_max_s: float):
        self.link = link
        self.groups: OrderedDict[str, TrajectoryGroup] = OrderedDict()
        self.outcomes: OrderedDict[str, str] = OrderedDict()  # recent group id -> ack outcome
        self._backoff = Backoff(retry_min_s, retry_max_s)
        self._added = asyncio.Event()
        self._warn = RateLimitedLog(log, interval_s=30.0)
        self._m_sent = metrics.counter("groups_sent_total", "Group sends, resends included")
        self._m_acked = metrics.counter(
            "groups_acked_total", "Groups acked, by outcome", ["outcome"]
        )
        self._m_unacked = metrics.gauge("unacked_groups", "Finished groups not yet acked")

    def __len__(self) -> int:
        return len(self.groups)

    def put(self, group: TrajectoryGroup) -> None:
        self.groups[group.group_id] = group
        self._m_unacked.set(len(self.groups))
        self._added.set()

    async def run(self) -> None:
        """Deliver groups as they come, forever (cancel to stop)."""
        while True:
            if not self.groups:
                self._added.clear()
                await self._added.wait()
            if not await self.deliver_one():
                await asyncio.sleep(self._backoff.next_delay())

    async def drained(self, timeout_s: float) -> bool:
        """Wait (while run() delivers) until nothing is left, at most timeout_s."""
        t_end = time.monotonic() + timeout_s
        while self.groups and time.monotonic() < t_end:
            await asyncio.sleep(0.05)
        return not self.groups

    async def deliver_one(self) -> bool:
        """Send the oldest group once; False if the hub did not answer."""
        group = next(iter(self.groups.values()))
        self._m_sent.inc()
        try:
            ack = await self.link.deliver(group)
        except PeerUnavailable as exc:
            self._warn.warning(
                "unreachable",
                "hub unreachable; %d group(s) kept for resending: %s",
                len(self.groups),
                exc,
            )
            return False
        except RequestRejected as exc:
            if exc.reply.code == "busy":  # e.g. its disk is full: keep the group, resend later
                self._warn.warning(
                    "busy", "hub busy; %d group(s) kept for resending: %s", len(self.groups), exc
                )
                return False
            # The hub refused the message itself (malformed or oversized): resending the
            # same bytes cannot succeed, and keeping it would block every later group.
            log.error("hub refused group %s (%s); dropped", group.group_id, exc)
            self._settle(group, "refused")
            return True
        self._backoff.reset()
        if ack.outcome == "rejected":
            log.error(
                "hub rejected group %s of %s: %s", group.group_id, group.problem_name, ack.detail
            )
        self._settle(group, ack.outcome)
        return True

    def _settle(self, group: TrajectoryGroup, outcome: str) -> None:
        self.groups.pop(group.group_id, None)
        self.outcomes[group.group_id] = outcome
        while len(self.outcomes) > KEEP_OUTCOMES:
            self.outcomes.popitem(last=False)
        self._m_acked.labels(outcome).inc()
        self._m_unacked.set(len(self.groups))
