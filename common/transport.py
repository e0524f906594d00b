"""ZeroMQ plumbing every krl role uses: bounded sockets, typed send/receive, reliable
request-reply, heartbeats and reconnect backoff.

Rules this module enforces so that roles cannot forget them:
- every socket gets MAXMSGSIZE, high-water marks, linger, reconnect backoff, and
  CurveZMQ keys when `transport.curve_keys_dir` is set (see common/curve.py);
- nothing blocks on receive without a timeout (`recv(timeout_s)` polls);
- a malformed, oversized or unexpected message is logged (rate-limited), counted in
  `krl_<role>_messages_rejected_total{reason}` and, on a server, answered with an
  ErrorReply; it never raises out of `recv`;
- requests are idempotent by request_id: `RequestClient` resends the same message
  (Lazy Pirate) with capped exponential backoff and raises `PeerUnavailable` after
  `request_retries` resends; late replies to an earlier send are dropped.

Recoverable vs fatal at this boundary: `RequestRejected` (the peer answered with an
error; the caller may retry or drop) vs `PeerUnavailable` (no answer within the
retry budget; the caller decides whether that is fatal).
"""
from __future__ import annotations

import logging
import os
import random
import threading
import time
from dataclasses import dataclass, field
from typing import Optional, Sequence, Union

import zmq

from common import curve
from common.config import TransportConfig
from common.log import RateLimitedLog
from common.messages import DecodeError, ErrorReply, Heartbeat, Message, decode, encode, new_id, now
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
        cap = min(self.max_s, self.min_s * (2 ** self.attempt))
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

    def __init__(self, ctx: zmq.Context, kind: int, cfg: TransportConfig, metrics: Metrics, *,
                 bind: Union[str, Sequence[str], None] = None,
                 connect: Union[str, Sequence[str], None] = None,
                 server: bool = False, identity: Optional[bytes] = None,
                 subscribe: bool = False):
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
        self._m_bad = metrics.counter("messages_rejected_total",
                                      "Received messages rejected as invalid", ["reason"])
        self._m_bytes = metrics.counter("received_bytes_total", "Bytes received")
        self._warn = RateLimitedLog(log, interval_s=10.0)

    @property
    def endpoint(self) -> str:
        """The last bound endpoint (resolves tcp://*:0 to the real port)."""
        return self.sock.getsockopt_string(zmq.LAST_ENDPOINT)

    def send(self, msg: Message, peer: Optional[bytes] = None, *, block: bool = True,
             timeout_s: Optional[float] = None) -> bool:
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


class Server:
    """ROUTER side of request-reply: receive typed requests, answer errors for bad ones."""

    def __init__(self, ctx: zmq.Context, cfg: TransportConfig, metrics: Metrics, bind: str):
        self.channel = Channel(ctx, zmq.ROUTER, cfg, metrics, bind=bind, server=True)

    @property
    def endpoint(self) -> str:
        return self.channel.endpoint

    def recv(self, timeout_s: float) -> Optional[Received]:
        """Next valid request, or None on timeout. Invalid ones are answered and skipped."""
        got = self.channel.recv(timeout_s)
        if got is not None and got.error is not None:
            self.channel.send(ErrorReply(request_id=got.error.request_id, code=got.error.reason,
                                         message=str(got.error)[:2000], sent_at=now()),
                              got.peer, block=False)
            return None
        return got

    def reply(self, peer: bytes, msg: Message) -> bool:
        return self.channel.send(msg, peer, block=False)

    def close(self) -> None:
        self.channel.close()


class RequestClient:
    """DEALER side of request-reply with Lazy Pirate retries.

    One outstanding `request()` at a time per client; for many in flight, use
    `send()` + `recv()` directly and match request ids yourself.
    """

    def __init__(self, ctx: zmq.Context, cfg: TransportConfig, metrics: Metrics, connect: str,
                 identity: Optional[bytes] = None):
        self.ctx, self.cfg, self.metrics, self.endpoint = ctx, cfg, metrics, connect
        self.identity = identity or f"c-{new_id()[:12]}".encode()
        self.channel = self._open()
        self._m_retry = metrics.counter("request_retries_total", "Requests resent after a timeout")
        self._abort = threading.Event()

    def _open(self) -> Channel:
        return Channel(self.ctx, zmq.DEALER, self.cfg, self.metrics, connect=self.endpoint,
                       identity=self.identity)

    def reopen(self) -> None:
        """Drop queued messages and reconnect (Lazy Pirate's socket reset)."""
        self.channel.close()
        self.channel = self._open()

    def request(self, msg: Message, *, expect: Union[type, tuple, None] = None,
                timeout_s: Optional[float] = None, retries: Optional[int] = None) -> Message:
        """Send `msg` and return the reply whose request_id matches; resend on timeout."""
        rid = msg.request_id
        timeout_s = self.cfg.request_timeout_s if timeout_s is None else timeout_s
        retries = self.cfg.request_retries if retries is None else retries
        backoff = Backoff(self.cfg.reconnect_min_s, self.cfg.reconnect_max_s)
        for attempt in range(retries + 1):
            if self._abort.is_set():
                raise PeerUnavailable(f"request to {self.endpoint} aborted: the client is closing")
            if attempt:
                self._m_retry.inc()
                time.sleep(backoff.next_delay())
                self.reopen()
            t_sent = time.monotonic()
            if not self.channel.send(msg, timeout_s=timeout_s):
                continue  # not even queued: nothing to wait for; the next attempt reconnects
            reply = self._await(rid, timeout_s - (time.monotonic() - t_sent), expect)
            if reply is not None:
                return reply
        if self._abort.is_set():
            raise PeerUnavailable(f"request to {self.endpoint} aborted: the client is closing")
        raise PeerUnavailable(f"no reply from {self.endpoint} to {type(msg).__name__} "
                              f"after {retries + 1} attempt(s) of {timeout_s:.1f}s")

    def _await(self, rid: str, timeout_s: float, expect) -> Optional[Message]:
        deadline = time.monotonic() + timeout_s
        while (left := deadline - time.monotonic()) > 0 and not self._abort.is_set():
            got = self.channel.recv(min(left, 0.5))  # slices, so abort() is noticed at once
            if got is None:
                continue
            if got.msg is None or getattr(got.msg, "request_id", None) not in (rid, ""):
                continue  # invalid, or a late reply to an earlier request: dropped
            if isinstance(got.msg, ErrorReply):
                raise RequestRejected(got.msg)
            if expect is not None and not isinstance(got.msg, expect):
                raise RequestRejected(ErrorReply(request_id=rid, code="unexpected_type",
                                                 message=f"got {type(got.msg).__name__}"))
            return got.msg
        return None

    @property
    def aborted(self) -> bool:
        """Whether abort() was called (callers with their own receive loops check it)."""
        return self._abort.is_set()

    def abort(self) -> None:
        """Make a `request()` blocked on another thread give up within half a second
        (PeerUnavailable), e.g. when a process stops while its peer is gone; thread-safe.
        Call before close(), which must run on the thread that uses the socket."""
        self._abort.set()

    def close(self) -> None:
        self.channel.close()


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
    """Produces a Heartbeat when one is due; the owner's loop sends it."""

    def __init__(self, sender: str, role: str, interval_s: float):
        self.sender, self.role, self.interval_s = sender, role, interval_s
        self._next = 0.0
        self._seq = 0

    def due(self) -> Optional[Heartbeat]:
        t = time.monotonic()
        if t < self._next:
            return None
        self._next = t + self.interval_s
        self._seq += 1
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
