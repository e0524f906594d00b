"""The hub's network side: a thread on learner rank 0 that serves actors.

One ROUTER socket (`hub_link.endpoint`) answers:
  LeaseRequest        -> LeaseGrant (a resent request gets the same reply: idempotent;
                         Hub.grant decides, from the request's policy_version too)
  TrajectoryGroup     -> Ack, sent only after Hub.receive stored the group durably
  WeightBucketRequest -> WeightBucket from the versions kept in memory (a delta when the
                         actor holds the version it is against), or ErrorReply
  RelayJoin           -> RelaySource: which actor to pull a version from (relaying on)
  Heartbeat           -> marks the actor alive (no reply)
One PUB socket (`hub_link.publish_endpoint`) broadcasts a WeightAnnouncement when a
version starts publishing (complete=False), when it is complete, and the newest every
`announce_interval_s`, so a late or restarted actor learns of it within that interval.

Publishing streams: the trainer thread calls `publish()`, which cuts the weights into
buckets and packs and checksums them on `pack_threads` threads (common/buckets.py)
while the version is already announced. A request for a bucket that is still being
packed is held and answered the moment it is ready, so an actor's transfer overlaps
the packing; a request held for half a request timeout is answered `busy` and resent.
Each reply carries the bucket's layout and checksum and whether it is the version's
last, so the actor knows when it holds the whole version; if publishing fails midway
the version is dropped and held requests get `unknown_version`: a partial version is
never loaded. Bucket requests are served from memory; a slow actor pulling an old
version never blocks training, and versions older than `keep_weight_versions` are
dropped (an actor asking for one gets `unknown_version` and moves to the newest).

Deltas: each version other than a keyframe (the incarnation's first, then every
`keyframe_every`-th) names the version published before it as `delta_base`, and each
of its buckets is also kept as the compressed XOR with that version's bucket
(common/buckets.py), computed on the pack threads right after the bucket is packed. A
request saying it holds `delta_base` (`delta_from`) gets the delta; any other gets the
full bucket. Both carry the full bucket's layout and checksum, which the actor checks
after rebuilding it.

Relay (`hub_link.relay_fanout` > 0): an actor about to pull a version asks which peer to pull it
from (RelayJoin); `RelayTree` hands the first `relay_fanout` actors the hub and each
later one the earliest actor with fewer than `relay_fanout` children, so actors form a
tree (a chain at 1); a source is never one that pulls through the asker, so no cycle
forms. Each actor forwards buckets as they arrive (actor/relay.py). An actor whose
source fails asks again naming it; the hub marks it dead for that version and picks
another source (itself if it has room, else another actor). Only the newest version
has a tree: an actor still pulling an older one pulls it from the hub.

Identity: every HubServer is a new incarnation (`hub_id`), and its announcements carry
that id and `base_version`, the first version it published (a resumed learner publishes
its checkpoint's). A learner restart therefore rolls the announced version back (10 ->
7) and re-publishes 8, 9, ... with other weights under the new id; actors take the
newest announcement as the truth and reload whenever (version, hub_id) differs from
what they hold. Bucket requests naming another incarnation get `unknown_version`, so a
pull never mixes the buckets of two different version 8s. A group whose tokens came
from another incarnation's version that did not survive into this one
(TrajectoryGroup.weights; `learner.hub.made_by_discarded_weights`: an ancestor's versions
survive up to where the lineage left it, recorded in the checkpoints; an unknown
incarnation's up to this one's base_version) was made by weights a restart discarded: it
is marked rolled_back and the hub acks it `stale` and re-issues its prompt, whenever it
arrives.
"""

from __future__ import annotations

import logging
import threading
import time
from collections import OrderedDict
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Iterable, Optional, Union

import torch
import zmq

from common.buckets import Bucket, encode_delta, pack_stream, same_layout
from common.config import TransportConfig
from common.config.hub import HubConfig
from common.endpoint import Held, Loop, Server, ServerThread, error_reply
from common.exits import StartError, die_with_thread
from common.log import RateLimitedLog
from common.messages import (
    Ack,
    ErrorReply,
    Heartbeat,
    LeaseGrant,
    LeaseRequest,
    RelayJoin,
    RelaySource,
    TrajectoryGroup,
    WeightAnnouncement,
    WeightBucket,
    WeightBucketRequest,
    new_id,
    now,
)
from common.metrics import Metrics
from common.transport import Channel, PeerTracker, Received, context
from learner.hub import Hub, made_by_discarded_weights

log = logging.getLogger(__name__)


@dataclass
class _Version:
    """One version's buckets, possibly still being packed."""

    packing: list[Future] = field(default_factory=list)  # Bucket futures, in order
    sealed: bool = False  # every bucket is cut: len(packing) is the count
    delta_base: int = -1  # the version deltas are against; -1: a keyframe
    deltas: list[Optional[Future]] = field(default_factory=list)  # delta tensors (or None)

    def ready(self) -> bool:
        return self.sealed and all(f.done() and f.exception() is None for f in self.packing)


class WeightStore:
    """Published versions, newest last; the newest may still be being packed."""

    def __init__(self, keep: int, hub_id: str = "", keyframe_every: int = 1):
        self.keep, self.hub_id, self.keyframe_every = keep, hub_id, keyframe_every
        self.base_version: int | None = None  # the first version published
        self._versions: OrderedDict[int, _Version] = OrderedDict()
        self._lock = threading.Lock()

    def begin(self, version: int, deltas: bool = False) -> Optional[list[Bucket]]:
        """A version starts publishing; the oldest beyond `keep` are dropped. Returns the
        buckets of the version its deltas are against (with `deltas`, unless a keyframe
        is due or the version before is not complete), else None."""
        with self._lock:
            if self.base_version is None:
                self.base_version = version
            prev = next(reversed(self._versions.items()), None)
            self._versions.pop(version, None)
            entry = self._versions[version] = _Version()
            while len(self._versions) > self.keep:
                self._versions.popitem(last=False)
            keyframe = (version - self.base_version) % self.keyframe_every == 0
            if not deltas or keyframe or prev is None or prev[0] == version or not prev[1].ready():
                return None
            entry.delta_base = prev[0]
            return [f.result() for f in prev[1].packing]

    def add(self, version: int, bucket: Future, last: bool, delta: Optional[Future] = None) -> None:
        """The next bucket of `version` (being packed) and its delta against the version's
        delta_base (being computed; None: none); `last` seals the version."""
        with self._lock:
            v = self._versions.get(version)
            if v is not None:
                v.packing.append(bucket)
                v.deltas.append(delta)
                v.sealed = last

    def drop(self, version: int) -> None:
        with self._lock:
            self._versions.pop(version, None)

    def lookup(
        self, version: int, index: int, delta_from: int = -1
    ) -> Union[str, tuple[Bucket, bool, Optional[tuple[torch.Tensor, str]], int]]:
        """(bucket, is last, (delta, encoding) or None, its base version) if packed (and, for
        an asker holding the delta base, the delta computed); else "pending", "past_end" or
        "unknown_version"."""
        with self._lock:
            v = self._versions.get(version)
            if v is None:
                return "unknown_version"
            n, sealed, base = len(v.packing), v.sealed, v.delta_base
            f = v.packing[index] if index < n else None
            d = v.deltas[index] if index < n and delta_from >= 0 and delta_from == base else None
        if f is None:
            return "past_end" if sealed else "pending"
        if not f.done() or f.exception() is not None:  # a failed pack: publish drops it
            return "pending"
        if d is not None and not d.done():
            return "pending"
        delta = d.result() if d is not None and d.exception() is None else None
        return f.result(), sealed and index == n - 1, delta, base

    def get(self, version: int, index: int) -> Optional[Bucket]:
        got = self.lookup(version, index)
        return got[0] if isinstance(got, tuple) else None

    def latest(self) -> Optional[WeightAnnouncement]:
        with self._lock:
            if not self._versions:
                return None
            version, v = next(reversed(self._versions.items()))
        ident = {
            "hub_id": self.hub_id,
            "base_version": self.base_version,
            "delta_base": v.delta_base,
        }
        if not v.ready():
            return WeightAnnouncement(
                version=version, total_bytes=0, buckets=[], sent_at=now(), complete=False, **ident
            )
        buckets = [f.result() for f in v.packing]
        return WeightAnnouncement(
            version=version,
            total_bytes=sum(b.data.numel() for b in buckets),
            buckets=[b.info(i) for i, b in enumerate(buckets)],
            sent_at=now(),
            **ident,
        )


class HubServer:
    """Runs the hub's sockets on a daemon thread; see the module docstring."""

    def __init__(self, hub: Hub, cfg: HubConfig, transport: TransportConfig, metrics: Metrics):
        self.hub, self.cfg, self.transport, self.metrics = hub, cfg, transport, metrics
        self.hub_id = new_id()  # this incarnation: see the module docstring
        hub.hub_id = self.hub_id  # checkpoints record it, so successors know their lineage
        self.weights = WeightStore(cfg.keep_weight_versions, self.hub_id, cfg.keyframe_every)
        self._trees: dict[int, RelayTree] = {}  # version -> who relays to whom
        self.actors = PeerTracker(transport.heartbeat_interval_s, transport.heartbeat_misses)
        self._announce_now = threading.Event()
        self._next_announce = 0.0
        self._last_grant: dict[str, tuple[str, LeaseGrant]] = {}
        # bucket requests whose bucket is being packed: answered when it is, `busy` after
        # half a request timeout, so the actor resends instead of taking a long publish for
        # a dead hub
        self._held = Held(
            lambda req: self._bucket(req),
            transport.request_timeout_s / 2,
            lambda req: (
                f"version {req.version} bucket {req.index} is still being packed; ask again"
            ),
        )
        self._serving = ServerThread("hub server", "hub-server", self._open, self._tick)
        self._waker = self._serving.waker  # pack threads and publish() wake the server thread
        self._m_publish_s = metrics.histogram(
            "weight_publish_seconds", "Seconds to gather and pack one weight version"
        )
        self._m_publish_b = metrics.counter(
            "weight_published_bytes_total", "Weight bytes published"
        )
        self._m_served_b = metrics.counter(
            "weight_served_bytes_total", "Weight bytes sent to actors"
        )
        self._m_delta_b = metrics.counter(
            "weight_delta_bytes_total", "Bytes of the deltas of published versions"
        )
        self._m_actors = metrics.gauge(
            "actors_alive", "Actors heard from within the heartbeat window"
        )
        self._m_errors = metrics.counter(
            "hub_errors_total",
            "Messages the hub failed to serve (answered with an error; the hub serves on)",
            ["kind"],
        )
        self._warn = RateLimitedLog(log, interval_s=10.0)
        self._failing_since: float | None = None  # first of the current run of failed writes
        self._failing_kind: type | None = None
        self.endpoint = cfg.endpoint

    def start(self) -> None:
        """Start the server thread; RuntimeError if its sockets could not be bound (the
        learner then exits non-zero rather than run without a hub)."""
        error = self._serving.start(30 + 2 * self.transport.bind_wait_s)
        if isinstance(error, StartError):  # missing keys: not restarted (common/exits)
            raise error
        if error is not None:
            raise RuntimeError(f"hub server could not start: {error}") from error

    def stop(self) -> None:
        self._serving.stop()

    @property
    def healthy(self) -> bool:
        return self._serving.alive and self._serving.error is None

    def publish(self, version: int, named_tensors: Iterable[tuple[str, torch.Tensor]]) -> int:
        """Publish full weights as `version`, streaming: the version is announced at once
        and each bucket is served as soon as it is packed. Returns the bytes published
        once every bucket is packed. If the tensors or a pack fail, the version is
        dropped (actors pulling it get `unknown_version`) and the error propagates."""
        t0 = time.perf_counter()
        base = self.weights.begin(version, deltas=self.cfg.delta_codec != "none")
        self._announce()
        try:
            # Not a `with`: leaving would wait for the deltas, which nothing here needs
            # (a request for a delta not yet computed is held until it is).
            pool = ThreadPoolExecutor(max_workers=self.cfg.pack_threads, thread_name_prefix="pack")
            try:
                futures = []
                for i, (bucket, last) in enumerate(
                    pack_stream(named_tensors, self.cfg.bucket_bytes, pool, self.cfg.checksum)
                ):
                    # Submitted after its bucket's pack (FIFO), so it never waits on a
                    # pack still queued behind it.
                    delta = (
                        pool.submit(_delta, bucket, base[i], self.cfg.delta_codec)
                        if base is not None and i < len(base)
                        else None
                    )
                    self.weights.add(version, bucket, last, delta)
                    bucket.add_done_callback(lambda _: self._waker.wake())
                    if delta is not None:
                        delta.add_done_callback(self._delta_done)
                    futures.append(bucket)
                if not futures:
                    raise ValueError(f"version {version}: no tensors to publish")
                nbytes = sum(f.result().data.numel() for f in futures)
            finally:
                pool.shutdown(wait=False)
        except BaseException:
            self.weights.drop(version)
            self._waker.wake()
            raise
        self._m_publish_s.observe(time.perf_counter() - t0)
        self._m_publish_b.inc(nbytes)
        self._announce()
        return nbytes

    def _delta_done(self, delta: Future) -> None:
        if delta.exception() is None and delta.result() is not None:
            self._m_delta_b.inc(delta.result()[0].numel())
        self._waker.wake()

    def _announce(self) -> None:
        self._announce_now.set()
        self._waker.wake()

    # ------------------------------------------------------------------ thread
    def _open(self) -> Loop:
        ctx = context()
        self._server = server = Server(
            ctx,
            self.transport,
            self.metrics,
            self.cfg.endpoint,
            {
                Heartbeat: lambda got: self.actors.seen(got.msg.sender.encode()),
                LeaseRequest: self._on_lease,
                TrajectoryGroup: self._on_group,
                RelayJoin: self._on_relay_join,
                WeightBucketRequest: self._on_bucket_request,
            },
            who="the hub",
            fault=self._fault,
            served=self._served,
        )
        try:
            self._pub = Channel(
                ctx,
                zmq.PUB,
                self.transport,
                self.metrics,
                bind=self.cfg.publish_endpoint,
                server=True,
            )
        except BaseException:
            server.close()
            raise
        self.endpoint = server.endpoint
        self.publish_endpoint = self._pub.endpoint
        return Loop(0.05, [server], closing=[self._pub])

    def _tick(self) -> None:
        self._answer_held(self._server)
        if self._announce_now.is_set() or time.monotonic() >= self._next_announce:
            self._announce_now.clear()
            self._next_announce = time.monotonic() + self.cfg.announce_interval_s
            ann = self.weights.latest()
            if ann is not None:
                self._pub.send(ann, block=False)
            self.actors.reap()
            self._m_actors.set(len(self.actors.last_seen))

    def _fault(self, peer: Optional[bytes], msg, exc: Exception) -> ErrorReply:
        """One message's fault, arrived or held: answered and counted, and the thread serves
        the next (a thread that died here would leave every actor waiting on a learner that
        looks alive). A store that cannot write (a full disk) answers `busy`: the actor keeps
        the group and resends it; after `storage_give_up_s` of that the learner exits."""
        if not isinstance(exc, OSError):
            self._m_errors.labels("internal").inc()
            return self._server.internal(peer, msg, exc)
        self._m_errors.labels("storage").inc()
        self._warn.warning(
            "storage",
            "hub could not store a message from %r, answered busy: %s",
            (peer or b"")[:40],
            exc,
        )
        if self._failing_since is None:
            self._failing_since, self._failing_kind = time.monotonic(), type(msg)
        elif time.monotonic() - self._failing_since > self.cfg.storage_give_up_s:
            die_with_thread(
                "hub server",
                OSError(
                    exc.errno,
                    f"storage has failed for {time.monotonic() - self._failing_since:.0f} s "
                    f"(hub.storage_give_up_s): {exc}",
                ),
            )
        return error_reply(msg, "busy", f"hub storage failed: {exc}", self.cfg.retry_after_s)

    def _served(self, msg) -> None:
        if type(msg) is self._failing_kind:
            self._failing_since, self._failing_kind = None, None  # writes work again

    def _on_lease(self, got: Received) -> None:
        self.actors.seen(got.msg.actor_id.encode())
        self._server.reply(got.peer, self._grant(got.msg))

    def _on_group(self, got: Received) -> None:
        msg = got.msg
        self.actors.seen(msg.actor_id.encode())
        msg.rolled_back = self._discarded(msg)
        outcome, detail = self.hub.receive(msg, got.frames)
        self._server.reply(
            got.peer,
            Ack(
                request_id=msg.request_id,
                group_id=msg.group_id,
                outcome=outcome,
                detail=detail,
                sent_at=now(),
            ),
        )

    def _on_relay_join(self, got: Received) -> None:
        self.actors.seen(got.msg.actor_id.encode())
        self._server.reply(got.peer, self._relay_source(got.msg))

    def _on_bucket_request(self, got: Received) -> None:
        reply = self._bucket(got.msg)
        if reply is None:  # still being packed: answered by _answer_held
            self._held.add(got.peer, got.msg)
        else:
            self._server.reply(got.peer, reply)

    def _discarded(self, group: TrajectoryGroup) -> bool:
        """Whether weights a learner restart discarded made some of the group's tokens."""
        return made_by_discarded_weights(
            group.weights, self.hub_id, self.weights.base_version, self.hub.lineage
        )

    def _grant(self, req: LeaseRequest) -> LeaseGrant:
        last = self._last_grant.get(req.actor_id)
        if last is not None and last[0] == req.request_id:
            return last[1]  # a resend: same leases, not new ones
        leases, wait = self.hub.grant(req.actor_id, req.max_groups, req.policy_version)
        reply = LeaseGrant(
            request_id=req.request_id,
            leases=leases,
            policy_version=self.hub.version,
            retry_after_s=wait,
            sent_at=now(),
        )
        self._last_grant[req.actor_id] = (req.request_id, reply)
        return reply

    def _relay_source(self, req: RelayJoin) -> RelaySource:
        """Where the asker pulls `req.version` from: the hub ("") when relaying is off, the
        version is not this incarnation's current one, or the tree says so."""
        endpoint = ""
        latest = self.weights.latest()
        if (
            self.cfg.relay_fanout > 0
            and req.hub_id == self.hub_id
            and latest is not None
            and latest.version == req.version
        ):
            tree = self._trees.get(req.version)
            if tree is None:  # a new version: a new tree, the old ones are forgotten
                self._trees = {req.version: RelayTree(self.cfg.relay_fanout)}
                tree = self._trees[req.version]
            endpoint = tree.join(req.endpoint, req.failed)
            if req.failed:
                log.warning(
                    "relay %s failed %s on version %d; now pulls from %s",
                    req.failed,
                    req.actor_id,
                    req.version,
                    endpoint or "the hub",
                )
        return RelaySource(request_id=req.request_id, endpoint=endpoint, sent_at=now())

    def _answer_held(self, server: Server) -> None:
        """Answer held bucket requests whose bucket is packed (or whose version is gone)."""
        self._held.answer(server)

    def _bucket(self, req: WeightBucketRequest) -> Optional[Union[WeightBucket, ErrorReply]]:
        """The reply to a bucket request, or None while the bucket is being packed."""
        got = self.weights.lookup(req.version, req.index, req.delta_from)
        if req.hub_id and req.hub_id != self.hub_id:
            got = "unknown_version"  # that incarnation's version is gone with it
        if got == "pending":
            return None
        if got == "unknown_version":
            latest = self.weights.latest()
            return ErrorReply(
                request_id=req.request_id,
                code="unknown_version",
                message=f"version {req.version} bucket {req.index} is not held; "
                f"newest is {latest.version if latest else None}",
            )
        if got == "past_end":
            return ErrorReply(
                request_id=req.request_id,
                code="no_such_bucket",
                message=f"version {req.version} has fewer than {req.index + 1} buckets",
            )
        bucket, last, delta, base = got
        data, encoding = (bucket.data, "") if delta is None else delta
        self._m_served_b.inc(data.numel())
        return WeightBucket(
            request_id=req.request_id,
            version=req.version,
            index=req.index,
            data=data,
            checksum=bucket.checksum,
            sent_at=now(),
            info=bucket.info(req.index),
            last=last,
            encoding=encoding,
            base_version=base if delta is not None else -1,
        )


def _delta(packed: Future, base: Bucket, codec: str) -> Optional[tuple[torch.Tensor, str]]:
    """The delta of a bucket being packed against its base and its encoding; None when the
    layouts differ (the tensors were cut differently): that bucket then travels in full."""
    bucket = packed.result()
    return encode_delta(bucket, base, codec) if same_layout(bucket, base) else None


class RelayTree:
    """Who pulls one version from whom (see the module docstring). Sources are relay
    endpoints, "" the hub. A node is only ever given a source that does not pull through
    it, so no cycle forms however nodes fail and come back; the hub serves more than
    `fanout` live actors only if every other live actor pulls through the asker."""

    def __init__(self, fanout: int):
        self.fanout = fanout
        self.order: list[str] = []  # endpoints in the order they joined
        self.source: dict[str, str] = {}  # endpoint -> where it pulls from
        self.dead: set[str] = set()

    def join(self, endpoint: str, failed: str = "") -> str:
        if failed and failed != endpoint:
            self.dead.add(failed)
        was_dead = endpoint in self.dead
        self.dead.discard(endpoint)  # it is asking, so it is alive
        current = self.source.get(endpoint)
        if current is not None and not was_dead and current not in self.dead and current != failed:
            return current  # a resend, or a failure report about an old source
        if endpoint not in self.order:
            self.order.append(endpoint)
        below = self._pulling_through(endpoint)
        nodes = [e for e in self.order if e != endpoint and e not in self.dead and e not in below]
        load = {e: 0 for e in [""] + nodes}
        for node, src in self.source.items():
            if node not in self.dead and node != endpoint and src in load:
                load[src] += 1
        # the hub first, then in join order: breadth first, a tree (a chain at fanout 1)
        choice = next((e for e in [""] + nodes if load[e] < self.fanout), None)
        if choice is None:  # every source is full: the least loaded actor
            choice = min(nodes, key=lambda e: load[e]) if nodes else ""
        self.source[endpoint] = choice
        return choice

    def _pulling_through(self, endpoint: str) -> set[str]:
        below: set[str] = set()
        grew = True
        while grew:
            grew = False
            for node, src in self.source.items():
                if node not in below and (src == endpoint or src in below):
                    below.add(node)
                    grew = True
        return below
