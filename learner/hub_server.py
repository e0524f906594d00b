"""The hub's network side: a thread on learner rank 0 that serves actors.

One ROUTER socket (`hub.endpoint`) answers:
  LeaseRequest        -> LeaseGrant (a resent request gets the same reply: idempotent)
  TrajectoryGroup     -> Ack, sent only after Hub.receive stored the group durably
  WeightBucketRequest -> WeightBucket from the versions kept in memory, or ErrorReply
  Heartbeat           -> marks the actor alive (no reply)
One PUB socket (`hub.publish_endpoint`) broadcasts a WeightAnnouncement when a
version is published and re-broadcasts the newest every `announce_interval_s`, so a
late or restarted actor learns of it within that interval.

The trainer thread never touches these sockets: it calls `publish()`, which packs the
weights into buckets on the caller's thread and swaps them in under a lock. Bucket
requests are served from memory; a slow actor pulling an old version never blocks
training, and versions older than `keep_weight_versions` are dropped (an actor asking
for one gets `unknown_version` and moves to the newest).
"""
from __future__ import annotations

import logging
import threading
import time
from collections import OrderedDict
from typing import Iterable, Optional

import torch
import zmq

from common.buckets import Bucket, bucketize
from common.config import TransportConfig
from common.config.hub import HubConfig
from common.messages import (Ack, ErrorReply, Heartbeat, LeaseGrant, LeaseRequest,
                             TrajectoryGroup, WeightAnnouncement, WeightBucket,
                             WeightBucketRequest, now)
from common.metrics import Metrics
from common.transport import Channel, PeerTracker, Received, Server, context
from learner.hub import Hub

log = logging.getLogger(__name__)


class WeightStore:
    """Published versions, newest last, each a list of buckets."""

    def __init__(self, keep: int):
        self.keep = keep
        self._versions: "OrderedDict[int, list[Bucket]]" = OrderedDict()
        self._lock = threading.Lock()

    def put(self, version: int, buckets: list[Bucket]) -> None:
        with self._lock:
            self._versions[version] = buckets
            while len(self._versions) > self.keep:
                self._versions.popitem(last=False)

    def get(self, version: int, index: int) -> Optional[Bucket]:
        with self._lock:
            buckets = self._versions.get(version)
        return buckets[index] if buckets is not None and 0 <= index < len(buckets) else None

    def latest(self) -> Optional[WeightAnnouncement]:
        with self._lock:
            if not self._versions:
                return None
            version, buckets = next(reversed(self._versions.items()))
        return WeightAnnouncement(version=version, total_bytes=sum(b.data.numel() for b in buckets),
                                  buckets=[b.info(i) for i, b in enumerate(buckets)], sent_at=now())


class HubServer:
    """Runs the hub's sockets on a daemon thread; see the module docstring."""

    def __init__(self, hub: Hub, cfg: HubConfig, transport: TransportConfig, metrics: Metrics):
        self.hub, self.cfg, self.transport, self.metrics = hub, cfg, transport, metrics
        self.weights = WeightStore(cfg.keep_weight_versions)
        self.actors = PeerTracker(transport.heartbeat_interval_s, transport.heartbeat_misses)
        self._stop = threading.Event()
        self._ready = threading.Event()
        self._announce_now = threading.Event()
        self._last_grant: dict[str, tuple[str, LeaseGrant]] = {}
        self._thread = threading.Thread(target=self._run, name="hub-server", daemon=True)
        self._error: Optional[BaseException] = None
        self._m_publish_s = metrics.histogram("weight_publish_seconds",
                                              "Seconds to gather and pack one weight version")
        self._m_publish_b = metrics.counter("weight_published_bytes_total", "Weight bytes published")
        self._m_served_b = metrics.counter("weight_served_bytes_total", "Weight bytes sent to actors")
        self._m_actors = metrics.gauge("actors_alive", "Actors heard from within the heartbeat window")
        self.endpoint = cfg.endpoint

    def start(self) -> None:
        self._thread.start()
        if not self._ready.wait(30):
            raise RuntimeError(f"hub server did not start: {self._error!r}")

    def stop(self) -> None:
        self._stop.set()
        self._thread.join(timeout=10)

    @property
    def healthy(self) -> bool:
        return self._thread.is_alive() and self._error is None

    def publish(self, version: int, named_tensors: Iterable[tuple[str, torch.Tensor]]) -> int:
        """Pack and publish full weights as `version`; returns the bytes published."""
        t0 = time.perf_counter()
        buckets = bucketize(named_tensors, self.cfg.bucket_bytes, self.cfg.pack_threads)
        self.weights.put(version, buckets)
        nbytes = sum(b.data.numel() for b in buckets)
        self._m_publish_s.observe(time.perf_counter() - t0)
        self._m_publish_b.inc(nbytes)
        self._announce_now.set()
        return nbytes

    # ------------------------------------------------------------------ thread
    def _run(self) -> None:
        ctx = context()
        try:
            server = Server(ctx, self.transport, self.metrics, self.cfg.endpoint)
            pub = Channel(ctx, zmq.PUB, self.transport, self.metrics,
                          bind=self.cfg.publish_endpoint, server=True)
        except Exception as exc:  # reported to start(); the learner exits non-zero
            self._error = exc
            self._ready.set()
            raise
        self.endpoint = server.endpoint
        self.publish_endpoint = pub.endpoint
        self._ready.set()
        next_announce = 0.0
        try:
            while not self._stop.is_set():
                got = server.recv(0.05)
                if got is not None:
                    self._handle(server, got)
                if self._announce_now.is_set() or time.monotonic() >= next_announce:
                    self._announce_now.clear()
                    next_announce = time.monotonic() + self.cfg.announce_interval_s
                    ann = self.weights.latest()
                    if ann is not None:
                        pub.send(ann, block=False)
                    self.actors.reap()
                    self._m_actors.set(len(self.actors.last_seen))
        except BaseException as exc:
            self._error = exc
            log.exception("hub server thread died")
            raise
        finally:
            server.close()
            pub.close()

    def _handle(self, server: Server, got: Received) -> None:
        msg, peer = got.msg, got.peer
        if isinstance(msg, Heartbeat):
            self.actors.seen(msg.sender.encode())
        elif isinstance(msg, LeaseRequest):
            self.actors.seen(msg.actor_id.encode())
            server.reply(peer, self._grant(msg))
        elif isinstance(msg, TrajectoryGroup):
            self.actors.seen(msg.actor_id.encode())
            outcome, detail = self.hub.receive(msg, got.frames)
            server.reply(peer, Ack(request_id=msg.request_id, group_id=msg.group_id,
                                   outcome=outcome, detail=detail, sent_at=now()))
        elif isinstance(msg, WeightBucketRequest):
            server.reply(peer, self._bucket(msg))
        else:
            server.reply(peer, ErrorReply(request_id=getattr(msg, "request_id", ""),
                                          code="unexpected_type",
                                          message=f"the hub does not serve {type(msg).__name__}"))

    def _grant(self, req: LeaseRequest) -> LeaseGrant:
        last = self._last_grant.get(req.actor_id)
        if last is not None and last[0] == req.request_id:
            return last[1]  # a resend: same leases, not new ones
        if self.cfg.synchronous and req.policy_version < self.hub.version:
            leases, wait = [], self.cfg.retry_after_s  # lockstep: load the newest weights first
        else:
            leases, wait = self.hub.grant(req.actor_id, req.max_groups)
        reply = LeaseGrant(request_id=req.request_id, leases=leases,
                           policy_version=self.hub.version, retry_after_s=wait, sent_at=now())
        self._last_grant[req.actor_id] = (req.request_id, reply)
        return reply

    def _bucket(self, req: WeightBucketRequest):
        bucket = self.weights.get(req.version, req.index)
        if bucket is None:
            latest = self.weights.latest()
            return ErrorReply(request_id=req.request_id, code="unknown_version",
                              message=f"version {req.version} bucket {req.index} is not held; "
                                      f"newest is {latest.version if latest else None}")
        self._m_served_b.inc(bucket.data.numel())
        return WeightBucket(request_id=req.request_id, version=req.version, index=req.index,
                            data=bucket.data, checksum=bucket.checksum, sent_at=now())
