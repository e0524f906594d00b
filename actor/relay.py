"""The actor's relay server: it serves the weights it pulls to other actors, bucket by bucket
as they arrive, so N actors cost the hub about one (hub_link.relay_fanout > 0).

`RelayServer` binds a ROUTER (`actor.relay_endpoint`) on its own thread and answers
WeightBucketRequest exactly as the hub does (learner/hub_server.py), from the versions
this actor is pulling or holds: `WeightSync.pull` hands it each reply the moment it
arrives (`offer`, before verification: forwarding does not wait for the hash; every
receiver verifies the full bucket itself) and each verified full bucket (`full`, which a
delta's receiver needs when the asker does not hold the delta's base). A request for a
bucket not here yet is held and answered when it comes, `busy` after `busy_after_s`
(a third of the relay timeout: proof of life while this actor's own source is slow);
a version whose pull was abandoned answers `unknown_version`, so the asker
routes around this actor (it asks the hub for another source) and never mixes versions:
requests and replies name (version, hub_id), and the receiver checks every full bucket
against the hub's checksum.
"""

from __future__ import annotations

import logging
import threading
from collections import OrderedDict
from dataclasses import dataclass, field
from typing import Optional, Union

from common.buckets import Bucket
from common.config import TransportConfig
from common.endpoint import Held, Loop, Server, ServerThread
from common.messages import ErrorReply, WeightBucket, WeightBucketRequest, now
from common.metrics import Metrics
from common.transport import context

log = logging.getLogger(__name__)
KEEP_VERSIONS = 2  # the one being pulled and the one before (late askers finish it)


@dataclass
class _Relayed:
    """What this actor has of one version."""

    wire: dict[int, WeightBucket] = field(default_factory=dict)  # replies as received
    full: dict[int, Bucket] = field(default_factory=dict)  # verified full buckets
    limit: Optional[int] = None  # bucket count, once the last one is known
    failed: bool = False  # the pull was abandoned: nothing more will come


class RelayServer:
    """Serves pulled weights to other actors from a thread; see the module docstring."""

    def __init__(
        self,
        bind: str,
        host: str,
        transport: TransportConfig,
        metrics: Metrics,
        busy_after_s: float = 1.0,
    ):
        self.transport, self.metrics, self.busy_after_s = transport, metrics, busy_after_s
        self._bind, self._host = bind, host
        self._versions: OrderedDict[tuple[int, str], _Relayed] = OrderedDict()
        self._lock = threading.Lock()
        self._held = Held(
            lambda req: self._reply(req),
            min(busy_after_s, transport.request_timeout_s / 2),
            lambda req: (
                f"version {req.version} bucket {req.index} has not "
                "reached this relay yet; ask again"
            ),
        )
        self._m_served = metrics.counter(
            "weight_relayed_bytes_total", "Weight bytes this actor relayed to other actors"
        )
        self._m_errors = metrics.counter(
            "relay_errors_total",
            "Requests the relay failed to serve (answered `internal`; the relay serves on)",
        )
        self.endpoint = ""
        self._serving = ServerThread(
            "weight relay", "relay", self._open, lambda: self._answer(self._server)
        )
        self._waker = self._serving.waker
        try:
            error = self._serving.start(30 + 2 * transport.bind_wait_s)
        except RuntimeError as exc:
            error = exc
        if error is not None:
            raise RuntimeError(f"relay server could not start on {bind}: {error}")

    # ------------------------------------------------------------ fed by WeightSync.pull
    def begin(self, version: int, hub_id: str) -> None:
        with self._lock:
            v = self._versions.get((version, hub_id))
            if v is None or v.failed:  # a new pull, or a retry of one that failed
                self._versions[(version, hub_id)] = _Relayed()
            self._versions.move_to_end((version, hub_id))
            while len(self._versions) > KEEP_VERSIONS:
                self._versions.popitem(last=False)
        self._waker.wake()

    def offer(self, version: int, hub_id: str, msg: WeightBucket) -> None:
        """A reply as received (not yet verified): forwarded to whoever asks for it."""
        with self._lock:
            v = self._versions.get((version, hub_id))
            if v is not None:
                v.wire.setdefault(msg.index, msg)
                if msg.last:
                    v.limit = msg.index + 1
        self._waker.wake()

    def full(self, version: int, hub_id: str, index: int, bucket: Bucket) -> None:
        """A verified full bucket (thread-safe: called from the verify threads)."""
        with self._lock:
            v = self._versions.get((version, hub_id))
            if v is not None:
                v.full[index] = bucket
        self._waker.wake()

    def count(self, version: int, hub_id: str, n: int) -> None:
        """The version has n buckets (known from the announcement or the pull)."""
        with self._lock:
            v = self._versions.get((version, hub_id))
            if v is not None:
                v.limit = n

    def fail(self, version: int, hub_id: str) -> None:
        with self._lock:
            v = self._versions.get((version, hub_id))
            if v is not None:
                v.failed = True
        self._waker.wake()

    def close(self) -> None:
        self._serving.stop()

    # ------------------------------------------------------------ serving thread
    def _open(self) -> Loop:
        self._server = Server(
            context(),
            self.transport,
            self.metrics,
            self._bind,
            {WeightBucketRequest: lambda got: self._held.add(got.peer, got.msg)},
            who="the weight relay",
            fault=self._fault,
        )
        self.endpoint = _advertised(self._server.endpoint, self._host)
        return Loop(0.05, [self._server])

    def _fault(self, peer: Optional[bytes], msg, exc: Exception) -> Optional[ErrorReply]:
        """One request's bug: answered `internal` (the asker routes around this relay)."""
        self._m_errors.inc()
        return self._server.internal(peer, msg, exc)

    def _answer(self, server: Server) -> None:
        self._held.answer(server)

    def _reply(self, req: WeightBucketRequest) -> Optional[Union[WeightBucket, ErrorReply]]:
        with self._lock:
            v = self._versions.get((req.version, req.hub_id))
            wire = v.wire.get(req.index) if v is not None else None
            full = v.full.get(req.index) if v is not None else None
            limit, failed = (v.limit, v.failed) if v is not None else (None, True)
        if wire is not None and (not wire.encoding or req.delta_from == wire.base_version):
            data, encoding, base, info = wire.data, wire.encoding, wire.base_version, wire.info
        elif full is not None:
            data, encoding, base, info = full.data, "", -1, full.info(req.index)
        elif failed:
            return ErrorReply(
                request_id=req.request_id,
                code="unknown_version",
                sent_at=now(),
                message=f"this relay does not have version {req.version}",
            )
        elif limit is not None and req.index >= limit:
            return ErrorReply(
                request_id=req.request_id,
                code="no_such_bucket",
                sent_at=now(),
                message=f"version {req.version} has {limit} buckets",
            )
        else:
            return None  # not here yet: held
        self._m_served.inc(data.numel())
        return WeightBucket(
            request_id=req.request_id,
            version=req.version,
            index=req.index,
            data=data,
            checksum=info.checksum if info else "",
            sent_at=now(),
            info=info,
            last=limit is not None and req.index == limit - 1,
            encoding=encoding,
            base_version=base,
        )


def _advertised(endpoint: str, host: str) -> str:
    """The bound endpoint with the host other actors reach it at."""
    if not host:
        return endpoint
    scheme, _, rest = endpoint.partition("://")
    return f"{scheme}://{host}:{rest.rsplit(':', 1)[1]}"
