"""The actor's side of weight publishing: learn of a new version, pull it, verify it.

The hub broadcasts a WeightAnnouncement on its PUB socket when a version starts
publishing (complete=False: its buckets are still being packed), when it is complete
(bucket layouts + checksums), and the newest again every few seconds. `WeightSync`
subscribes; when the announced version is not the one the engine holds, it pulls the
buckets with WeightBucketRequest over the hub's ROUTER, a window of them in flight,
and verifies each bucket's checksum on a thread while the next ones arrive. A pull of
an incomplete version streams: the hub answers each request as soon as that bucket
is packed, with its layout, checksum and whether it is the last, so the transfer
overlaps the hub's packing. Nothing is handed to the engine until every bucket of the
version, up to the last, has verified, so a bad transfer or a version whose publishing
failed loads nothing and the engine keeps its weights.

A late or restarted actor simply pulls the newest version it hears of. If the hub
dropped the version while we were pulling (`unknown_version`, it keeps only the
newest few), the pull is abandoned and the next announcement is used.

The hub's latest announcement is the truth, even when its version is lower: a learner
restart rolls the hub back to its checkpoint (10 -> 7) under a new `hub_id` and then
re-publishes 8, 9, ... with other weights. Weights are known by (version, hub_id);
whenever the announced pair differs from the one held, it is pulled (from that
incarnation only) and loaded. Weights the engine started with (from the model
directory, hub_id "") count as the hub's version of the same number.
"""
from __future__ import annotations

import logging
import math
import time
from concurrent.futures import Future, ThreadPoolExecutor
from typing import Optional

import zmq

from common.buckets import Bucket, BucketError
from common.config import TransportConfig
from common.messages import (
    BucketInfo,
    ErrorReply,
    WeightAnnouncement,
    WeightBucket,
    WeightBucketRequest,
    new_id,
    now,
)
from common.metrics import Metrics
from common.transport import Channel, RequestClient, context

log = logging.getLogger(__name__)


class WeightSync:
    """Subscribes to announcements and pulls verified buckets of newer versions."""

    def __init__(self, hub_endpoint: str, publish_endpoint: str, transport: TransportConfig,
                 metrics: Metrics, current_version: int = -1, pull_window: int = 4):
        ctx = context()
        self.version, self.hub_id = current_version, ""  # what the engine holds
        self.transport = transport
        self.window = pull_window
        self.sub = Channel(ctx, zmq.SUB, transport, metrics, connect=publish_endpoint,
                           subscribe=True)
        self.client = RequestClient(ctx, transport, metrics, hub_endpoint)
        self._latest: Optional[WeightAnnouncement] = None
        self._m_pull_s = metrics.histogram("weight_pull_seconds", "Seconds to pull one version")
        self._m_pull_b = metrics.counter("weight_pulled_bytes_total", "Weight bytes pulled")
        self._m_bad = metrics.counter("weight_pulls_failed_total", "Pulls abandoned", ["reason"])

    def poll(self, timeout_s: float = 0.0) -> Optional[WeightAnnouncement]:
        """The hub's latest announcement if it names other weights than ours (see the
        module docstring), else None. The last one heard wins, lower versions included;
        only an incomplete announcement of weights already announced complete is ignored."""
        deadline = time.monotonic() + timeout_s
        while True:
            got = self.sub.recv(max(0.0, deadline - time.monotonic()), expect=WeightAnnouncement)
            if got is None:
                break
            if got.msg is not None and _replaces(got.msg, self._latest):
                self._latest = got.msg
            timeout_s, deadline = 0.0, time.monotonic()  # drain what is queued, then return
        latest = self._latest
        return latest if latest is not None and not self.holds(latest) else None

    def holds(self, ann: WeightAnnouncement) -> bool:
        """Whether the engine already runs the weights `ann` names."""
        return ann.version == self.version and self.hub_id in ("", ann.hub_id)

    def pull(self, ann: WeightAnnouncement) -> Optional[list[Bucket]]:
        """Every bucket of `ann`, verified; None if the version is gone (or its publishing
        failed), the hub does not answer within the retry budget, or a bucket fails its
        checksum.

        `pull_window` requests are kept in flight on the DEALER socket and each bucket is
        verified on a thread as it arrives (hashing releases the GIL), so the pull is
        bound by the transfer, not by round trips and hashing. When no reply at all
        arrives for `request_timeout_s`, the pending requests are resent under their own
        ids, at most `request_retries` times in a row; a `busy` reply (bucket still being
        packed) is proof of life and is resent at once."""
        t0 = time.perf_counter()
        state = _Pull(ann)
        last_reply, resends = time.monotonic(), 0
        with ThreadPoolExecutor(max_workers=self.window, thread_name_prefix="verify") as pool:
            while not state.done():
                if self.client.aborted:
                    return self._abandon(ann, "stopping", "the actor is stopping")
                while len(state.pending) < self.window and (index := state.next_index()) is not None:
                    self._send(state, index, ann)
                if not state.pending:
                    return self._abandon(ann, "incomplete", "the hub named no last bucket")
                # short waits, so stop() is noticed at once; silence is judged by last_reply
                got = self.client.channel.recv(min(self.transport.request_timeout_s / 4, 0.5))
                if got is None or got.msg is None:
                    # Replies queue behind each other, so the hub counts as silent only when
                    # nothing at all arrived for a whole timeout; then every pending request
                    # is resent under its own id.
                    if time.monotonic() - last_reply < self.transport.request_timeout_s:
                        continue
                    if resends >= self.transport.request_retries:
                        return self._abandon(ann, "hub_unavailable", "no answer from the hub")
                    resends, last_reply = resends + 1, time.monotonic()
                    for rid, index in list(state.pending.items()):
                        self._send(state, index, ann, rid)
                    continue
                last_reply, resends = time.monotonic(), 0
                failure = state.receive(got.msg, pool)
                if failure is not None:
                    return self._abandon(ann, *failure)
            try:
                buckets = [state.verified[i].result() for i in range(state.limit)]
            except BucketError as exc:
                self._m_bad.labels("checksum").inc()
                log.error("version %d failed verification, nothing loaded: %s", ann.version, exc)
                return None
        self._m_pull_s.observe(time.perf_counter() - t0)
        self._m_pull_b.inc(sum(b.data.numel() for b in buckets))
        return buckets

    def _send(self, state: _Pull, index: int, ann: WeightAnnouncement,
              request_id: Optional[str] = None) -> None:
        rid = request_id or new_id()
        self.client.channel.send(WeightBucketRequest(request_id=rid, version=ann.version,
                                                     index=index, hub_id=ann.hub_id,
                                                     sent_at=now()),
                                 timeout_s=self.client.cfg.request_timeout_s)
        state.pending[rid] = index  # unsent or unanswered: the request timeout resends it

    def _abandon(self, ann: WeightAnnouncement, reason: str, detail: str) -> None:
        self._m_bad.labels(reason).inc()
        log.warning("pull of version %d abandoned (%s): %s", ann.version, reason, detail[:200])
        return None  # replies still in flight carry unknown ids and are dropped by the next pull

    def loaded(self, version: int, hub_id: str = "") -> None:
        """The engine now runs `version` as published by hub incarnation `hub_id`."""
        self.version, self.hub_id = version, hub_id

    def stop(self) -> None:
        """Make a pull in progress on another thread give up within half a second (the
        actor is stopping: with the hub gone, its retry budget could hold exit for
        minutes). Call before close(), from any thread."""
        self.client.abort()

    def close(self) -> None:
        self.sub.close()
        self.client.close()


def _replaces(ann: WeightAnnouncement, than: Optional[WeightAnnouncement]) -> bool:
    same = than is not None and (ann.version, ann.hub_id) == (than.version, than.hub_id)
    return not same or ann.complete or not than.complete


class _Pull:
    """Book-keeping of one pull: which bucket indices to ask for, which are in flight,
    which arrived, and how many the version has (known from the announcement, from the
    bucket marked last, or from `no_such_bucket` just past the buckets received)."""

    def __init__(self, ann: WeightAnnouncement):
        self.announced = {b.index: b for b in ann.buckets} if ann.complete else None
        self.limit = len(ann.buckets) if ann.complete else None  # the count, once known
        self.cap = math.inf           # no bucket at or past this index
        self.pending: dict[str, int] = {}  # request id -> bucket index
        self.retry: list[int] = []    # indices answered `busy`
        self.verified: dict[int, Future] = {}
        self._next = 0

    def done(self) -> bool:
        """Every bucket of the version has arrived (it may still be verifying)."""
        if self.limit is None and self.cap < math.inf and all(i in self.verified
                                                              for i in range(int(self.cap))):
            self.limit = int(self.cap)  # bucket cap-1 exists and cap does not
        return self.limit is not None and len(self.verified) >= self.limit and all(
            i in self.verified for i in range(self.limit))

    def next_index(self) -> Optional[int]:
        if self.retry:
            return self.retry.pop(0)
        end = min(self.cap, self.limit if self.limit is not None else math.inf)
        if self._next >= end:
            return None
        self._next += 1
        return self._next - 1

    def receive(self, msg, pool: ThreadPoolExecutor) -> Optional[tuple[str, str]]:
        """Take one reply; (reason, detail) if the pull must be abandoned."""
        index = self.pending.pop(getattr(msg, "request_id", ""), None)
        if index is None:
            return None  # a late reply to an earlier pull or a resent request
        if isinstance(msg, ErrorReply):
            if msg.code == "busy":
                self.retry.append(index)
            elif msg.code == "no_such_bucket":
                self.cap = min(self.cap, index)
            else:
                return msg.code, msg.message
            return None
        if not isinstance(msg, WeightBucket) or msg.index != index:
            return "protocol", f"unexpected reply {type(msg).__name__} to bucket {index}"
        info = self.announced.get(index) if self.announced is not None else msg.info
        if info is None:
            return "protocol", f"bucket {index} came without a layout"
        if msg.last:
            self.limit = index + 1
        if index not in self.verified:
            self.verified[index] = pool.submit(_verified, info, msg)
        return None


def _verified(info: BucketInfo, msg: WeightBucket) -> Bucket:
    bucket = Bucket.from_wire(info, msg)
    bucket.verify()
    return bucket
