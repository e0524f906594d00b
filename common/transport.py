"""ZeroMQ plumbing under common/endpoint.py (the one endpoint every krl peer is): bounded
sockets, typed send/receive, heartbeats, liveness and reconnect backoff.

Rules this module enforces so that roles cannot forget them:
- every socket gets MAXMSGSIZE, high-water marks, linger, reconnect backoff, and
  CurveZMQ keys when `transport.curve_keys_dir` is set (see common/curve.py);
- nothing blocks on receive without a timeout (`recv(timeout_s)` polls);
- a malformed, oversized or unexpected message is logged (rate-limited), counted in
  `krl_<role>_messages_rejected_total{reason}` and, on a server, answered with an
  ErrorReply; it never raises out of `recv`;
- requests are idempotent by request_id: `common.endpoint.Client` resends the same
  message (Lazy Pirate) with capped exponential backoff and raises `PeerUnavailable`
  after `request_retries` resends; late replies to an earlier send are dropped.

Recoverable vs fatal at this boundary: `RequestRejected` (the peer answered with an
error; the caller may retry or drop) vs `PeerUnavailable` (no answer within the
retry budget; the caller decides whether that is fatal).
"""

from __future__ import annotations

import logging
import os
import random
import time
from dataclasses import dataclass, field
from typing import Callable, Optional, Sequence, Union

import zmq

from common import curve
from common.config import TransportConfig
from common.log import RateLimitedLog
from common.messages import DecodeError, ErrorReply, Heartbeat, Message, decode, encode, now
from common.metrics import Metrics

log = logging.getLogger(__name__)


class PeerUnavailable(RuntimeError):
    """No reply within the retry budget: the peer is down or unreachable."""


class RequestRejected(RuntimeError):
    """The peer answered a request with an ErrorReply."""

    def __init__(self, reply: ErrorReply):
        super().__init__(f"{reply.code}: {reply.message}")
        self.reply = reply


class Backoff:
    """Capped exponential backoff with full jitter: reconnects and resends use it."""

    def __init__(self, min_s: float, max_s: float, rng: Optional[random.Random] = None):
        self.min_s, self.max_s = min_s, max_s
        self.attempt = 0
        self._rng = rng or random.Random()

    def next_delay(self) -> float:
        cap = min(self.max_s, self.min_s * (2**self.attempt))
        self.attempt += 1
        return self._rng.uniform(cap / 2, cap)

    def reset(self) -> None:
        self.attempt = 0


@dataclass
class Received:
    """One received message: `peer` is the ROUTER identity (None on other sockets)."""

    msg: Optional[Message]
    peer: Optional[bytes] = None
    error: Optional[DecodeError] = None
    frames: Sequence = ()  # the raw frames (decoded tensors alias them), for persisting as-is


def _bind(sock: zmq.Socket, endpoint: str, wait_s: float) -> None:
    """Bind, retrying while the address is in use for up to wait_s (a predecessor's port
    not yet released); then the ZMQError propagates with the endpoint in its message."""
    deadline, delay, warned = time.monotonic() + wait_s, 0.05, False
    while True:
        try:
            sock.bind(endpoint)
            return
        except zmq.ZMQError as exc:
            if exc.errno != zmq.EADDRINUSE or time.monotonic() >= deadline:
                raise
            if not warned:
                log.warning("%s is in use; retrying the bind for up to %.0fs", endpoint, wait_s)
                warned = True
            time.sleep(delay)
            delay = min(delay * 2, 1.0)


class Channel:
    """One ZeroMQ socket with krl's limits, typed send and bounded receive."""

    def __init__(
        self,
        ctx: zmq.Context,
        kind: int,
        cfg: TransportConfig,
        metrics: Metrics,
        *,
        bind: Union[str, Sequence[str], None] = None,
        connect: Union[str, Sequence[str], None] = None,
        server: bool = False,
        identity: Optional[bytes] = None,
        subscribe: bool = False,
    ):
        self.cfg, self.kind = cfg, kind
        self.sock = ctx.socket(kind)
        s = self.sock
        s.setsockopt(zmq.MAXMSGSIZE, cfg.max_message_bytes)
        s.setsockopt(zmq.SNDHWM, cfg.send_hwm)
        s.setsockopt(zmq.RCVHWM, cfg.recv_hwm)
        s.setsockopt(zmq.LINGER, int(cfg.linger_s * 1000))
        s.setsockopt(zmq.RECONNECT_IVL, int(cfg.reconnect_min_s * 1000))
        s.setsockopt(zmq.RECONNECT_IVL_MAX, int(cfg.reconnect_max_s * 1000))
        if kind == zmq.ROUTER:
            s.setsockopt(zmq.ROUTER_MANDATORY, 1)  # unroutable replies raise instead of vanishing
            # A client that resets its socket (Lazy Pirate) reconnects under the same
            # identity; without handover the router may keep the stale pipe and ignore it.
            s.setsockopt(zmq.ROUTER_HANDOVER, 1)
        if identity is not None:
            s.setsockopt(zmq.IDENTITY, identity)
        if cfg.curve_keys_dir is not None:
            curve.configure(s, cfg.curve_keys_dir, server=server)
        if subscribe:
            s.setsockopt(zmq.SUBSCRIBE, b"")
        for ep in _as_list(bind):
            _bind(s, ep, cfg.bind_wait_s)
        for ep in _as_list(connect):
            s.connect(ep)
        self._m_in = metrics.counter("messages_received_total", "Messages received", ["type"])
        self._m_out = metrics.counter("messages_sent_total", "Messages sent", ["type"])
        self._m_bad = metrics.counter(
            "messages_rejected_total", "Received messages rejected as invalid", ["reason"]
        )
        self._m_bytes = metrics.counter("received_bytes_total", "Bytes received")
        self._warn = RateLimitedLog(log, interval_s=10.0)

    @property
    def endpoint(self) -> str:
        """The last bound endpoint (resolves tcp://*:0 to the real port)."""
        return self.sock.getsockopt_string(zmq.LAST_ENDPOINT)

    def send(
        self,
        msg: Message,
        peer: Optional[bytes] = None,
        *,
        block: bool = True,
        timeout_s: Optional[float] = None,
    ) -> bool:
        """Send `msg` (to `peer` on a ROUTER). Returns False if it would block and block=False,
        if it could not be queued within `timeout_s`, or if a ROUTER peer is gone.

        A DEALER with no usable connection (peer down, or a CURVE handshake that keeps
        failing) blocks a plain send forever; request-reply callers pass a timeout."""
        frames = encode(msg)
        if peer is not None:
            frames.insert(0, peer)
        if block and timeout_s is not None:
            if not self.sock.poll(max(0, int(timeout_s * 1000)), zmq.POLLOUT):
                return False
            block = False
        flags = 0 if block else zmq.NOBLOCK
        try:
            self.sock.send_multipart(frames, flags=flags, copy=False)
        except zmq.Again:
            return False
        except zmq.ZMQError as exc:
            if exc.errno == zmq.EHOSTUNREACH:  # ROUTER peer disconnected
                self._warn.warning("peer_gone", "reply to a disconnected peer dropped")
                return False
            raise
        self._m_out.labels(type(msg).__name__).inc()
        return True

    def poll(self, timeout_s: float) -> bool:
        return bool(self.sock.poll(max(0, int(timeout_s * 1000)), zmq.POLLIN))

    def recv(self, timeout_s: float, expect: Union[type, tuple, None] = None) -> Optional[Received]:
        """Next message within timeout_s, or None. Invalid messages come back as
        Received(msg=None, error=...) after being logged and counted."""
        try:  # a queued message needs no poll (the poll costs ~20 us per message)
            frames = self.sock.recv_multipart(zmq.NOBLOCK, copy=False)
        except zmq.Again:
            if not self.poll(timeout_s):
                return None
            frames = self.sock.recv_multipart(copy=False)
        peer = None
        if self.kind == zmq.ROUTER:
            peer = bytes(frames[0].bytes)
            frames = frames[1:]
        self._m_bytes.inc(sum(len(f) for f in frames))
        try:
            msg = decode(frames, expect=expect, max_bytes=self.cfg.max_message_bytes)
        except DecodeError as exc:
            self._m_bad.labels(exc.reason).inc()
            self._warn.warning(exc.reason, "rejected message: %s", exc)
            return Received(msg=None, peer=peer, error=exc)
        self._m_in.labels(type(msg).__name__).inc()
        return Received(msg=msg, peer=peer, frames=frames)

    def close(self) -> None:
        self.sock.close(linger=int(self.cfg.linger_s * 1000))


def _as_list(x: Union[str, Sequence[str], None]) -> list[str]:
    if x is None:
        return []
    return [x] if isinstance(x, str) else list(x)


@dataclass
class PeerTracker:
    """Liveness of peers by their last heartbeat (or any message): a peer that has been
    silent for `misses` intervals is dead."""

    interval_s: float
    misses: int
    last_seen: dict[bytes, float] = field(default_factory=dict)

    def seen(self, peer: bytes) -> None:
        self.last_seen[peer] = time.monotonic()

    def alive(self, peer: bytes) -> bool:
        t = self.last_seen.get(peer)
        return t is not None and time.monotonic() - t <= self.interval_s * self.misses

    def reap(self) -> list[bytes]:
        """Forget and return the peers that are dead now."""
        dead = [p for p in self.last_seen if not self.alive(p)]
        for p in dead:
            del self.last_seen[p]
        return dead


class HeartbeatSender:
    """Produces a Heartbeat when one is due; the owner's loop sends it. `make(seq)`, if
    given, makes the link's own heartbeat instead (a worker's WorkerStatus)."""

    def __init__(
        self,
        sender: str,
        role: str,
        interval_s: float,
        make: Optional[Callable[[int], Message]] = None,
    ):
        self.sender, self.role, self.interval_s, self.make = sender, role, interval_s, make
        self._next = 0.0
        self._seq = 0

    def reset(self) -> None:
        """The next `due()` produces one (a fresh connection announces itself at once)."""
        self._next = 0.0

    def due(self) -> Optional[Message]:
        t = time.monotonic()
        if t < self._next:
            return None
        self._next = t + self.interval_s
        self._seq += 1
        if self.make is not None:
            return self.make(self._seq)
        return Heartbeat(sender=self.sender, role=self.role, seq=self._seq, sent_at=now())


class Waker:
    """Wakes a thread blocked in zmq polling from another thread: register `fd` with a
    zmq.Poller (POLLIN); `wake()` is thread-safe, `drain()` runs on the polling thread."""

    def __init__(self) -> None:
        self.fd, self._w = os.pipe()
        os.set_blocking(self.fd, False)
        os.set_blocking(self._w, False)

    def wake(self) -> None:
        try:
            os.write(self._w, b"x")
        except BlockingIOError:
            pass  # the pipe is full: a wake-up is pending anyway

    def drain(self) -> None:
        try:
            while os.read(self.fd, 4096):
                pass
        except BlockingIOError:
            pass

    def close(self) -> None:
        for fd in (self.fd, self._w):
            try:
                os.close(fd)
            except OSError:
                pass


def context() -> zmq.Context:
    """The process's ZeroMQ context (one per process; IO threads sized for bulk weights)."""
    ctx = zmq.Context.instance()
    return ctx
