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
from typing import Optional

import zmq

from common.buckets import Bucket, BucketError
from common.config import TransportConfig
from common.messages import WeightAnnouncement, WeightBucket, WeightBucketRequest, new_id, now
from common.metrics import Metrics
from common.transport import Channel, RequestClient, RequestRejected, context

log = logging.getLogger(__name__)


class WeightSync:
    """Subscribes to announcements and pulls verified buckets of newer versions."""

    def __init__(self, hub_endpoint: str, publish_endpoint: str, transport: TransportConfig,
                 metrics: Metrics, current_version: int = -1):
        ctx = context()
        self.version = current_version
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
        """Every bucket of `ann`, verified; None if the version is gone or a bucket is bad."""
        t0 = time.perf_counter()
        buckets = []
        try:
            for info in ann.buckets:
                msg = self.client.request(
                    WeightBucketRequest(request_id=new_id(), version=ann.version, index=info.index,
                                        sent_at=now()), expect=WeightBucket)
                bucket = Bucket.from_wire(info, msg)
                bucket.verify()
                buckets.append(bucket)
        except RequestRejected as exc:
            self._m_bad.labels(exc.reply.code).inc()
            log.warning("pull of version %d abandoned: %s", ann.version, exc)
            return None
        except BucketError as exc:
            self._m_bad.labels("checksum").inc()
            log.error("version %d failed verification, nothing loaded: %s", ann.version, exc)
            return None
        self._m_pull_s.observe(time.perf_counter() - t0)
        self._m_pull_b.inc(ann.total_bytes)
        return buckets

    def loaded(self, version: int) -> None:
        """The engine now runs `version`."""
        self.version = version

    def close(self) -> None:
        self.sub.close()
        self.client.close()
