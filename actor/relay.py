"""The actor's relay server: it serves the weights it pulls to other actors, bucket by bucket
as they arrive, so N actors cost the hub about one (learner.hub.relay_fanout > 0).

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
import time
from collections import OrderedDict
from dataclasses import dataclass, field
from typing import Optional, Union

import zmq

from common.buckets import Bucket
from common.config import TransportConfig
from common.exits import die_with_thread
from common.messages import ErrorReply, WeightBucket, WeightBucketRequest, now
from common.metrics import Metrics
from common.transport import Server, Waker, context

log = logging.getLogger(__name__)
KEEP_VERSIONS = 2  # the one being pulled and the one before (late askers finish it)


@dataclass
class _Relayed:
    """What this actor has of one version."""

    wire: dict[int, WeightBucket] = field(default_factory=dict)  # replies as received
    full: dict[int, Bucket] = field(default_factory=dict)        # verified full buckets
    limit: Optional[int] = None   # bucket count, once the last one is known
    failed: bool = False          # the pull was abandoned: nothing more will come


class RelayServer:
    """Serves pulled weights to other actors from a thread; see the module docstring."""

    def __init__(self, bind: str, host: str, transport: TransportConfig, metrics: Metrics,
                 busy_after_s: float = 1.0):
        self.transport, self.metrics, self.busy_after_s = transport, metrics, busy_after_s
        self._bind, self._host = bind, host
        self._versions: OrderedDict[tuple[int, str], _Relayed] = OrderedDict()
        self._lock = threading.Lock()
        self._waker = Waker()
        self._stop = threading.Event()
        self._ready = threading.Event()
        self._held: list[tuple[bytes, WeightBucketRequest, float]] = []
        self._error: Optional[BaseException] = None
        self._m_served = metrics.counter("weight_relayed_bytes_total",
                                         "Weight bytes this actor relayed to other actors")
        self._m_errors = metrics.counter("relay_errors_total", "Requests the relay failed to "
                                         "serve (answered `internal`; the relay serves on)")
        self.endpoint = ""
        self._thread = threading.Thread(target=self._run, name="relay", daemon=True)
        self._thread.start()
        if not self._ready.wait(30 + 2 * transport.bind_wait_s) or self._error is not None:
            raise RuntimeError(f"relay server could not start on {bind}: {self._error}")

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
        self._stop.set()
        self._waker.wake()
        self._thread.join(timeout=10)
        self._waker.close()

    # ------------------------------------------------------------ serving thread
    def _run(self) -> None:
        try:
            server = Server(context(), self.transport, self.metrics, self._bind)
        except Exception as exc:  # the constructor raises it
            self._error = exc
            self._ready.set()
            return
        self.endpoint = _advertised(server.endpoint, self._host)
        self._ready.set()
        poller = zmq.Poller()
        poller.register(server.channel.sock, zmq.POLLIN)
        poller.register(self._waker.fd, zmq.POLLIN)
        try:
            while not self._stop.is_set():
                poller.poll(50)
                self._waker.drain()
                for _ in range(256):
                    got = server.recv(0)
                    if got is None:
                        break
                    if isinstance(got.msg, WeightBucketRequest):
                        self._held.append((got.peer, got.msg, time.monotonic()))
                    else:
                        server.reply(got.peer, ErrorReply(
                            request_id=getattr(got.msg, "request_id", ""), code="unexpected_type",
                            message=f"a relay serves weight buckets, not {type(got.msg).__name__}"))
                self._answer(server)
        except BaseException as exc:  # not one request's fault: the actor must restart
            self._error = exc
            if not self._stop.is_set():
                die_with_thread("weight relay", exc)
            raise
        finally:
            server.close()

    def _answer(self, server: Server) -> None:
        held, self._held = self._held, []
        patience = min(self.busy_after_s, self.transport.request_timeout_s / 2)
        for peer, req, since in held:
            try:
                reply = self._reply(req)
            except Exception as exc:  # one request's bug: answered, the relay serves on
                self._m_errors.inc()
                log.exception("relay: request for version %s bucket %s failed", req.version, req.index)
                reply = ErrorReply(request_id=req.request_id, code="internal", sent_at=now(),
                                   message=f"the relay failed on this request: {type(exc).__name__}")
            if reply is None and time.monotonic() - since >= patience:
                reply = ErrorReply(request_id=req.request_id, code="busy", sent_at=now(),
                                   message=f"version {req.version} bucket {req.index} has not "
                                           "reached this relay yet; ask again")
            if reply is None:
                self._held.append((peer, req, since))
            else:
                server.reply(peer, reply)

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
            return ErrorReply(request_id=req.request_id, code="unknown_version", sent_at=now(),
                              message=f"this relay does not have version {req.version}")
        elif limit is not None and req.index >= limit:
            return ErrorReply(request_id=req.request_id, code="no_such_bucket", sent_at=now(),
                              message=f"version {req.version} has {limit} buckets")
        else:
            return None  # not here yet: held
        self._m_served.inc(data.numel())
        return WeightBucket(request_id=req.request_id, version=req.version, index=req.index,
                            data=data, checksum=info.checksum if info else "", sent_at=now(),
                            info=info, last=limit is not None and req.index == limit - 1,
                            encoding=encoding, base_version=base)


def _advertised(endpoint: str, host: str) -> str:
    """The bound endpoint with the host other actors reach it at."""
    if not host:
        return endpoint
    scheme, _, rest = endpoint.partition("://")
    return f"{scheme}://{host}:{rest.rsplit(':', 1)[1]}"
