"""The actor's side of weight publishing: learn of a new version, pull it, verify it.

The hub broadcasts a WeightAnnouncement (version + bucket layouts + checksums) on its
PUB socket when a version is published and again every few seconds. `WeightSync`
subscribes; when the announced version is newer than the engine's, it pulls every
bucket with WeightBucketRequest over the hub's ROUTER (Lazy Pirate retries), verifies
each bucket's checksum against the announcement, and returns the verified buckets.
Nothing is handed to the engine until every bucket of the version has verified, so a
bad transfer loads nothing and the engine keeps its weights.

A late or restarted actor simply pulls the newest version it hears of. If the hub
dropped the version while we were pulling (`unknown_version`, it keeps only the
newest few), the pull is abandoned and the next announcement is used.
"""
from __future__ import annotations

import logging
import time
from concurrent.futures import Future, ThreadPoolExecutor
from typing import Optional

import zmq

from common.buckets import Bucket, BucketError
from common.config import TransportConfig
from common.messages import (BucketInfo, ErrorReply, WeightAnnouncement, WeightBucket,
                             WeightBucketRequest, new_id, now)
from common.metrics import Metrics
from common.transport import Channel, RequestClient, context

log = logging.getLogger(__name__)


class WeightSync:
    """Subscribes to announcements and pulls verified buckets of newer versions."""

    def __init__(self, hub_endpoint: str, publish_endpoint: str, transport: TransportConfig,
                 metrics: Metrics, current_version: int = -1, pull_window: int = 4):
        ctx = context()
        self.version = current_version
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
        """The newest announcement heard so far that is newer than our version."""
        deadline = time.monotonic() + timeout_s
        while True:
            got = self.sub.recv(max(0.0, deadline - time.monotonic()), expect=WeightAnnouncement)
            if got is None:
                break
            if got.msg is not None and (self._latest is None or got.msg.version > self._latest.version):
                self._latest = got.msg
            timeout_s, deadline = 0.0, time.monotonic()  # drain what is queued, then return
        latest = self._latest
        return latest if latest is not None and latest.version > self.version else None

    def pull(self, ann: WeightAnnouncement) -> Optional[list[Bucket]]:
        """Every bucket of `ann`, verified; None if the version is gone, the hub does not
        answer within the retry budget, or a bucket fails its checksum.

        `pull_window` requests are kept in flight on the DEALER socket and each bucket is
        verified on a thread as it arrives (sha256 releases the GIL), so the transfer is
        not serialised on round trips and hashing. When no reply at all arrives for
        `request_timeout_s`, the pending requests are resent under their own ids, at most
        `request_retries` times in a row."""
        t0 = time.perf_counter()
        todo = list(ann.buckets)
        pending: dict[str, BucketInfo] = {}  # request id -> bucket
        verified: list[Future] = []
        last_reply, resends = time.monotonic(), 0
        with ThreadPoolExecutor(max_workers=self.window, thread_name_prefix="verify") as pool:
            while todo or pending:
                while todo and len(pending) < self.window:
                    self._send(pending, todo.pop(0), ann.version)
                got = self.client.channel.recv(self.transport.request_timeout_s / 4)
                if got is None or got.msg is None:
                    # Replies queue behind each other, so the hub counts as silent only when
                    # nothing at all arrived for a whole timeout; then every pending request
                    # is resent under its own id.
                    if time.monotonic() - last_reply < self.transport.request_timeout_s:
                        continue
                    if resends >= self.transport.request_retries:
                        return self._abandon(ann, "hub_unavailable", "no answer from the hub")
                    resends, last_reply = resends + 1, time.monotonic()
                    for rid, info in list(pending.items()):
                        self._send(pending, info, ann.version, rid)
                    continue
                last_reply, resends = time.monotonic(), 0
                msg = got.msg
                if isinstance(msg, ErrorReply) and msg.request_id in pending:
                    return self._abandon(ann, msg.code, msg.message)
                if isinstance(msg, WeightBucket) and msg.request_id in pending:
                    info = pending.pop(msg.request_id)
                    verified.append(pool.submit(_verified, info, msg))
            try:
                buckets = sorted((f.result() for f in verified), key=lambda b: b[0])
            except BucketError as exc:
                self._m_bad.labels("checksum").inc()
                log.error("version %d failed verification, nothing loaded: %s", ann.version, exc)
                return None
        self._m_pull_s.observe(time.perf_counter() - t0)
        self._m_pull_b.inc(ann.total_bytes)
        return [b for _, b in buckets]

    def _send(self, pending: dict, info: BucketInfo, version: int,
              request_id: Optional[str] = None) -> None:
        rid = request_id or new_id()
        self.client.channel.send(WeightBucketRequest(request_id=rid, version=version,
                                                     index=info.index, sent_at=now()))
        pending[rid] = info

    def _abandon(self, ann: WeightAnnouncement, reason: str, detail: str) -> None:
        self._m_bad.labels(reason).inc()
        log.warning("pull of version %d abandoned (%s): %s", ann.version, reason, detail[:200])
        return None  # replies still in flight carry unknown ids and are dropped by the next pull

    def loaded(self, version: int) -> None:
        """The engine now runs `version`."""
        self.version = version

    def close(self) -> None:
        self.sub.close()
        self.client.close()


def _verified(info: BucketInfo, msg: WeightBucket) -> tuple[int, Bucket]:
    bucket = Bucket.from_wire(info, msg)
    bucket.verify()
    return info.index, bucket
