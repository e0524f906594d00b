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

Deltas: the buckets of the version the engine holds are kept (`loaded`). A pull of a
version whose `delta_base` is that version asks for deltas (`delta_from`); each delta is
XORed into the held bucket and the result checked against the full bucket's checksum
(common/buckets.py). Anything else (the first pull, versions skipped, a restart, a
rollback to another incarnation, a keyframe) pulls full buckets.

Relay (`relay` given, hub_link.relay_fanout > 0): before pulling, the actor asks the
hub which peer to pull from (RelayJoin) and serves what it receives to its own
children (actor/relay.py). A source that sends no bucket for `relay_timeout_s`, or that
that sends nothing at all for `relay_timeout_s` (dead or stopped), no bucket for three
times that (slow), or answers `unknown_version` (it abandoned the version) is reported
to the hub, which names another; the buckets already verified are kept and the requests
in flight are resent to the new source. A relay waiting on its own source answers
`busy` every relay_timeout_s / 3, so its children wait while it is routed around.
"""

from __future__ import annotations

import logging
import math
import time
from concurrent.futures import Future, ThreadPoolExecutor
from typing import Optional

import zmq

from common.buckets import Bucket, BucketError, apply_delta
from common.config import TransportConfig
from common.endpoint import Client
from common.messages import (
    BucketInfo,
    ErrorReply,
    RelayJoin,
    RelaySource,
    WeightAnnouncement,
    WeightBucket,
    WeightBucketRequest,
    new_id,
    now,
)
from common.metrics import Metrics
from common.transport import Channel, PeerUnavailable, RequestRejected, context

log = logging.getLogger(__name__)


class WeightSync:
    """Subscribes to announcements and pulls verified buckets of newer versions."""

    def __init__(
        self,
        hub_endpoint: str,
        publish_endpoint: str,
        transport: TransportConfig,
        metrics: Metrics,
        current_version: int = -1,
        pull_window: int = 4,
        relay=None,
        relay_timeout_s: float = 10.0,
        actor_id: str = "",
    ):
        ctx = context()
        self.relay = relay  # actor/relay.RelayServer, or None: pull from the hub only
        self.relay_timeout_s, self.actor_id = relay_timeout_s, actor_id or new_id()[:12]
        self._held: Optional[tuple[int, str, list[Bucket]]] = None  # the engine's, in buckets
        self._pulled: Optional[tuple[int, str, list[Bucket]]] = None  # the last pull
        self._relay_client: Optional[Client] = None  # the relay pulled from now
        self.version, self.hub_id = current_version, ""  # what the engine holds
        self.transport = transport
        self.window = pull_window
        self.sub = Channel(
            ctx, zmq.SUB, transport, metrics, connect=publish_endpoint, subscribe=True
        )
        self.client = Client(ctx, transport, metrics, hub_endpoint)
        self._latest: Optional[WeightAnnouncement] = None
        self._m_pull_s = metrics.histogram("weight_pull_seconds", "Seconds to pull one version")
        self._m_pull_b = metrics.counter(
            "weight_pulled_bytes_total", "Weight bytes received (deltas as sent)"
        )
        self._m_buckets = metrics.counter(
            "weight_buckets_total",
            "Weight buckets received, by encoding (full, or delta against the held version)",
            ["encoding"],
        )
        self._m_reroute = metrics.counter(
            "weight_relay_reroutes_total", "Relay sources routed around (silent or failed)"
        )
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
        base = self._delta_base(ann)
        state = _Pull(ann, base)
        if self.relay is not None:
            self.relay.begin(ann.version, ann.hub_id)
            if ann.complete:
                self.relay.count(ann.version, ann.hub_id, len(ann.buckets))
        source = self._source(ann, "")
        if source is None:
            return self._abandon(ann, "hub_unavailable", "no answer to RelayJoin")
        last_reply = last_bucket = time.monotonic()
        resends = 0
        with ThreadPoolExecutor(max_workers=self.window, thread_name_prefix="verify") as pool:
            while not state.done():
                if self.client.aborted:
                    return self._abandon(ann, "stopping", "the actor is stopping")
                while (
                    len(state.pending) < self.window and (index := state.next_index()) is not None
                ):
                    self._send(source, state, index, ann)
                if not state.pending:
                    return self._abandon(ann, "incomplete", "the hub named no last bucket")
                # short waits, so stop() is noticed at once; silence is judged by last_reply
                got = source.channel.recv(min(self.transport.request_timeout_s / 4, 0.5))
                # A relay is routed around when it is silent (dead or stopped), slow (alive,
                # answering `busy`, but no bucket for 3 timeouts: its own source is routed
                # around well within that), has dropped the version, or failed on a request.
                if got is not None:
                    last_reply = time.monotonic()
                relay_failed = source is not self.client and (
                    time.monotonic() - last_reply >= self.relay_timeout_s
                    or time.monotonic() - last_bucket >= 3 * self.relay_timeout_s
                    or (
                        got is not None
                        and isinstance(got.msg, ErrorReply)
                        and got.msg.code in ("unknown_version", "internal")
                        and got.msg.request_id in state.pending
                    )
                )
                if relay_failed:  # route around it: keep what arrived, resend the rest
                    source = self._reroute(ann, state, source)
                    if source is None:
                        return self._abandon(ann, "hub_unavailable", "no answer to RelayJoin")
                    last_reply = last_bucket = time.monotonic()
                    continue
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
                        self._send(source, state, index, ann, rid)
                    continue
                last_reply, resends = time.monotonic(), 0
                if isinstance(got.msg, WeightBucket):
                    last_bucket = last_reply
                    if self.relay is not None and got.msg.request_id in state.pending:
                        self.relay.offer(ann.version, ann.hub_id, got.msg)  # forward at once
                failure = state.receive(got.msg, pool, self._on_verified(ann))
                if failure is not None:
                    return self._abandon(ann, *failure)
            self._drop_relay_client()
            try:
                buckets = [state.verified[i].result() for i in range(state.limit)]
            except BucketError as exc:
                self._m_bad.labels("checksum").inc()
                if self.relay is not None:
                    self.relay.fail(ann.version, ann.hub_id)
                log.error("version %d failed verification, nothing loaded: %s", ann.version, exc)
                return None
        self._m_pull_s.observe(time.perf_counter() - t0)
        self._m_pull_b.inc(state.wire_bytes)
        for encoding, n in state.encodings.items():
            self._m_buckets.labels(encoding).inc(n)
        self._pulled = (ann.version, ann.hub_id, buckets)
        return buckets

    def _delta_base(self, ann: WeightAnnouncement) -> Optional[list[Bucket]]:
        """The buckets held, if `ann`'s deltas are against them; else None (pull in full)."""
        if self._held is None or ann.delta_base < 0:
            return None
        version, hub_id, buckets = self._held
        ok = (version, hub_id) == (ann.delta_base, ann.hub_id) == (self.version, self.hub_id)
        return buckets if ok else None

    def _on_verified(self, ann: WeightAnnouncement):
        if self.relay is None:
            return None
        return lambda index, bucket: self.relay.full(ann.version, ann.hub_id, index, bucket)

    def _source(self, ann: WeightAnnouncement, failed: str) -> Optional[Client]:
        """The client to pull from: the hub's, or a new one to the relay it names."""
        if self.relay is None:
            return self.client
        join = RelayJoin(
            request_id=new_id(),
            actor_id=self.actor_id,
            version=ann.version,
            hub_id=ann.hub_id,
            endpoint=self.relay.endpoint,
            failed=failed,
            sent_at=now(),
        )
        try:
            reply = self.client.request(join, expect=RelaySource)
        except RequestRejected as exc:  # a hub that does not relay: pull from it
            log.warning("hub refused RelayJoin (%s); pulling from the hub", exc)
            self._drop_relay_client()
            return self.client
        except PeerUnavailable as exc:
            log.warning("no relay source for version %d: %s", ann.version, exc)
            return None
        self._drop_relay_client()
        if not reply.endpoint:
            return self.client
        self._relay_client = Client(context(), self.transport, self.client.metrics, reply.endpoint)
        return self._relay_client

    def _drop_relay_client(self) -> None:
        if self._relay_client is not None:
            self._relay_client.close()
            self._relay_client = None

    def _reroute(self, ann: WeightAnnouncement, state: _Pull, failed: Client) -> Optional[Client]:
        self._m_reroute.inc()
        log.warning(
            "relay %s failed on version %d (silent %.1fs or dropped it); asking the "
            "hub for another source",
            failed.endpoint,
            ann.version,
            self.relay_timeout_s,
        )
        source = self._source(ann, failed.endpoint)
        if source is not None:
            for rid, index in list(state.pending.items()):
                self._send(source, state, index, ann, rid)
        return source

    def _send(
        self,
        source: Client,
        state: _Pull,
        index: int,
        ann: WeightAnnouncement,
        request_id: Optional[str] = None,
    ) -> None:
        rid = request_id or new_id()
        source.channel.send(
            WeightBucketRequest(
                request_id=rid,
                version=ann.version,
                index=index,
                hub_id=ann.hub_id,
                sent_at=now(),
                delta_from=state.delta_from,
            ),
            timeout_s=self.client.cfg.request_timeout_s,
        )
        state.pending[rid] = index  # unsent or unanswered: the request timeout resends it

    def _abandon(self, ann: WeightAnnouncement, reason: str, detail: str) -> None:
        self._m_bad.labels(reason).inc()
        if self.relay is not None:  # its children route around it instead of waiting
            self.relay.fail(ann.version, ann.hub_id)
        self._drop_relay_client()
        log.warning("pull of version %d abandoned (%s): %s", ann.version, reason, detail[:200])
        return None  # replies still in flight carry unknown ids and are dropped by the next pull

    def loaded(self, version: int, hub_id: str = "") -> None:
        """The engine now runs `version` as published by hub incarnation `hub_id`; the
        buckets of that pull are kept as the base of the next version's deltas."""
        self.version, self.hub_id = version, hub_id
        pulled, self._pulled = self._pulled, None
        self._held = pulled if pulled is not None and pulled[:2] == (version, hub_id) else None

    def stop(self) -> None:
        """Make a pull in progress on another thread give up within half a second (the
        actor is stopping: with the hub gone, its retry budget could hold exit for
        minutes). Call before close(), from any thread."""
        self.client.abort()

    def close(self) -> None:
        self.sub.close()
        self.client.close()
        if self.relay is not None:
            self.relay.close()


def _replaces(ann: WeightAnnouncement, than: Optional[WeightAnnouncement]) -> bool:
    same = than is not None and (ann.version, ann.hub_id) == (than.version, than.hub_id)
    return not same or ann.complete or not than.complete


class _Pull:
    """Book-keeping of one pull: which bucket indices to ask for, which are in flight,
    which arrived, and how many the version has (known from the announcement, from the
    bucket marked last, or from `no_such_bucket` just past the buckets received)."""

    def __init__(self, ann: WeightAnnouncement, base: Optional[list[Bucket]] = None):
        self.base = base  # the held buckets deltas are against
        self.delta_from = ann.delta_base if base is not None else -1
        self.wire_bytes = 0
        self.encodings: dict[str, int] = {}  # "full" / "delta" -> buckets received
        self.announced = {b.index: b for b in ann.buckets} if ann.complete else None
        self.limit = len(ann.buckets) if ann.complete else None  # the count, once known
        self.cap = math.inf  # no bucket at or past this index
        self.pending: dict[str, int] = {}  # request id -> bucket index
        self.retry: list[int] = []  # indices answered `busy`
        self.verified: dict[int, Future] = {}
        self._next = 0

    def done(self) -> bool:
        """Every bucket of the version has arrived (it may still be verifying)."""
        if (
            self.limit is None
            and self.cap < math.inf
            and all(i in self.verified for i in range(int(self.cap)))
        ):
            self.limit = int(self.cap)  # bucket cap-1 exists and cap does not
        return (
            self.limit is not None
            and len(self.verified) >= self.limit
            and all(i in self.verified for i in range(self.limit))
        )

    def next_index(self) -> Optional[int]:
        if self.retry:
            return self.retry.pop(0)
        end = min(self.cap, self.limit if self.limit is not None else math.inf)
        if self._next >= end:
            return None
        self._next += 1
        return self._next - 1

    def receive(self, msg, pool: ThreadPoolExecutor, on_verified=None) -> Optional[tuple[str, str]]:
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
        base = None
        if msg.encoding:
            if msg.base_version != self.delta_from or self.base is None or index >= len(self.base):
                return "protocol", (
                    f"bucket {index} came as a delta against version "
                    f"{msg.base_version}; this actor holds {self.delta_from}"
                )
            base = self.base[index]
        if msg.last:
            self.limit = index + 1
        if index not in self.verified:
            self.wire_bytes += msg.data.numel()
            kind = "delta" if msg.encoding else "full"
            self.encodings[kind] = self.encodings.get(kind, 0) + 1
            self.verified[index] = pool.submit(_verified, info, msg, base, on_verified)
        return None


def _verified(
    info: BucketInfo, msg: WeightBucket, base: Optional[Bucket], on_verified=None
) -> Bucket:
    """The full bucket a reply stands for (rebuilt from a delta against `base`), checked
    against the full bucket's checksum; BucketError if it does not match."""
    if msg.encoding:
        if msg.checksum != info.checksum or msg.index != info.index:
            raise BucketError(f"bucket {info.index}: delta message does not match its layout")
        bucket = apply_delta(base, msg.data, msg.encoding, info)
    else:
        bucket = Bucket.from_wire(info, msg)
    bucket.verify()
    if on_verified is not None:
        on_verified(info.index, bucket)
    return bucket
