"""One endpoint abstraction for every ZeroMQ peer of krl: the broker, the evaluator workers,
the evaluator client, the hub server, the actors' relays and hub links all use it.

- `Server` (ROUTER) and `Client` (DEALER) are an `Endpoint`: one socket (common/transport.py
  `Channel`: limits, CurveZMQ, bounded receive) and a table of handlers keyed by message
  type. `drain()` dispatches what is queued, bounded, so no socket starves another.
- Bad input never raises out of an endpoint: a message that does not decode is counted
  by the channel and, on a server, answered `ErrorReply(<reason>)`; one of a type missing
  from the table gets `unexpected` (a server answers `unexpected_type`, a client logs);
  one whose handler raises gets the `fault` policy (default: logged, and a server answers
  `ErrorReply(internal)`), and the endpoint serves the next message.
- `Held`: requests that cannot be answered yet (a bucket still being packed or relayed)
  are retried every pass under the same fault policy and answered `busy` after their
  patience, so the asker resends rather than take a slow peer for a dead one.
- `Loop`: one thread's poll over its endpoints and a `Waker` (other threads' work done),
  then the owner's `tick`; `run(stop, tick)` until the stop flag (common/stop.py).
- `ServerThread`: a Loop on a daemon thread; `start()` raises what binding raised, and a
  fault outside any one message ends the process (exit 70, common/exits.py), since its
  callers would otherwise wait on a peer that looks alive.
- `Client` reliability, one model for every link: request ids; `request()` blocks for
  the reply with that id and resends it with capped exponential backoff on a fresh
  socket (Lazy Pirate, the ZeroMQ guide's); driven by a Loop, `tick()` sends the link's
  heartbeat when due and, with `reconnect_after_s`, gives a peer silent that long a
  fresh socket after a capped backoff (Paranoid Pirate) and calls `on_reconnect` so the
  owner resends what the peer may have missed. With many requests in flight (the
  evaluator client), a `Window` holds them by id and resends each unanswered one with its
  own capped backoff on the same socket, holding one back as long as a `busy` reply asks.
  A restarted peer therefore loses nothing: every request is idempotent by id and resent
  until answered.

Recoverable vs fatal at this boundary: `RequestRejected` (the peer answered with an error;
the caller may retry or drop) vs `PeerUnavailable` (no answer within the retry budget).
"""

from __future__ import annotations

import logging
import math
import threading
import time
import traceback
from collections import deque
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any, Optional, Union

import zmq

from common.config import TransportConfig
from common.exits import die_with_thread
from common.log import RateLimitedLog
from common.messages import ErrorReply, Message, new_id, now
from common.metrics import Metrics
from common.transport import (
    Backoff,
    Channel,
    HeartbeatSender,
    PeerUnavailable,
    Received,
    RequestRejected,
    Waker,
)

log = logging.getLogger(__name__)

Handler = Callable[[Received], None]
# (peer, message, exception) -> the reply to send (a server), or None
Fault = Callable[[Optional[bytes], Any, Exception], Optional[Message]]


def error_reply(msg: Any, code: str, text: str, retry_after_s: float = 0.0) -> ErrorReply:
    """An ErrorReply to `msg` (its request id, if it has one)."""
    return ErrorReply(
        request_id=getattr(msg, "request_id", "") or "",
        code=code,
        message=text[:2000],
        retry_after_s=retry_after_s,
        sent_at=now(),
    )


class Endpoint:
    """One socket and its handler table; see the module docstring."""

    def __init__(
        self,
        channel: Channel,
        handlers: Optional[Mapping[type, Handler]] = None,
        *,
        who: str = "this endpoint",
        unexpected: Optional[Handler] = None,
        fault: Optional[Fault] = None,
        seen: Optional[Handler] = None,
        invalid: Optional[Handler] = None,
        served: Optional[Callable[[Any], None]] = None,
        batch: int = 256,
    ):
        self.channel = channel
        self.handlers: dict[type, Handler] = dict(handlers or {})
        self.who, self.batch = who, batch
        self.unexpected, self.fault, self.seen = unexpected, fault, seen
        self.invalid, self.served = invalid, served
        self._warn = RateLimitedLog(log, interval_s=10.0)

    @property
    def endpoint(self) -> str:
        return self.channel.endpoint

    @property
    def answers(self) -> bool:
        """Whether this endpoint answers its peers (a ROUTER) rather than one peer's link."""
        return self.channel.kind == zmq.ROUTER

    def reply(self, peer: Optional[bytes], msg: Message) -> bool:
        """Send `msg` to `peer` (a ROUTER) or to the one peer (a DEALER); never blocks."""
        return self.channel.send(msg, peer if self.answers else None, block=False)

    def send(self, msg: Message) -> bool:
        return self.channel.send(msg, block=False)

    def drain(self) -> int:
        """Dispatch what is queued, at most `batch` messages; returns how many."""
        for i in range(self.batch):
            got = self.channel.recv(0)
            if got is None:
                return i
            self.dispatch(got)
        return self.batch

    def dispatch(self, got: Received) -> None:
        """One received message through the table (see the module docstring)."""
        if got.error is not None:  # logged and counted by the channel
            if self.invalid is not None:
                self.invalid(got)
            if self.answers:
                self.reply(got.peer, error_reply(got.error, got.error.reason, str(got.error)))
            return
        if self.seen is not None:
            self.seen(got)
        handler = self.handlers.get(type(got.msg)) or self.unexpected or self._unexpected
        self.guard(got.peer, got.msg, handler, got)

    def guard(self, peer: Optional[bytes], msg: Any, fn: Callable[..., None], *args: Any) -> None:
        """Run `fn(*args)` for `msg` from `peer`; what it raises goes to the fault policy."""
        try:
            fn(*args)
        except Exception as exc:  # noqa: BLE001 (one message's fault: answered, never fatal)
            reply = (self.fault or self.internal)(peer, msg, exc)
            if reply is not None and self.answers:
                self.reply(peer, reply)
            return
        if self.served is not None:
            self.served(msg)

    def internal(self, peer: Optional[bytes], msg: Any, exc: Exception) -> Optional[Message]:
        """The default fault policy: log it; a server answers ErrorReply(internal)."""
        self._warn.error(
            f"fault_{type(msg).__name__}",
            "%s failed on a %s from %r; served on:\n%s",
            self.who,
            type(msg).__name__,
            (peer or b"")[:40],
            traceback.format_exc(),
        )
        return error_reply(
            msg, "internal", f"{self.who} failed on this message: {type(exc).__name__}: {exc}"
        )

    def _unexpected(self, got: Received) -> None:
        if self.answers:
            self.reply(
                got.peer,
                error_reply(
                    got.msg,
                    "unexpected_type",
                    f"{self.who} does not serve {type(got.msg).__name__}",
                ),
            )
        else:
            self._warn.warning("unexpected", "%s ignores %s", self.who, type(got.msg).__name__)

    def close(self) -> None:
        self.channel.close()


class Server(Endpoint):
    """A ROUTER bound at `bind` serving a handler table."""

    def __init__(
        self,
        ctx: zmq.Context,
        cfg: TransportConfig,
        metrics: Metrics,
        bind: str,
        handlers: Optional[Mapping[type, Handler]] = None,
        **kw: Any,
    ):
        super().__init__(
            Channel(ctx, zmq.ROUTER, cfg, metrics, bind=bind, server=True), handlers, **kw
        )


class Held:
    """Requests waiting for what answers them; see the module docstring. `answer(msg)`
    returns the reply, or None while it is not ready; `busy(msg)` the text of a `busy`."""

    def __init__(
        self,
        answer: Callable[[Any], Optional[Message]],
        patience_s: float,
        busy: Callable[[Any], str],
    ):
        self._answer, self.patience_s, self._busy = answer, patience_s, busy
        self.items: list[tuple[Optional[bytes], Any, float]] = []

    def add(self, peer: Optional[bytes], msg: Any) -> None:
        self.items.append((peer, msg, time.monotonic()))

    def answer(self, server: Endpoint) -> None:
        """Answer each held request that is ready (or past its patience); keep the rest."""
        held, self.items = self.items, []
        for peer, msg, since in held:
            server.guard(peer, msg, self._one, server, peer, msg, since)

    def _one(self, server: Endpoint, peer: Optional[bytes], msg: Any, since: float) -> None:
        reply = self._answer(msg)
        if reply is None and time.monotonic() - since >= self.patience_s:
            reply = error_reply(msg, "busy", self._busy(msg))
        if reply is None:
            self.items.append((peer, msg, since))
        else:
            server.reply(peer, reply)


class Loop:
    """One thread's poll over its endpoints (and a Waker): see the module docstring."""

    def __init__(
        self,
        poll_s: float,
        endpoints: Iterable[Endpoint] = (),
        waker: Optional[Waker] = None,
        closing: Iterable[Any] = (),
    ):
        self.poll_s, self.endpoints, self.waker = poll_s, list(endpoints), waker
        self.closing = list(closing)  # other sockets this thread owns (a PUB), closed with it
        self._poller: Optional[zmq.Poller] = None
        self._socks: tuple = ()

    def poll(self, timeout_s: Optional[float] = None) -> None:
        """Wait until a socket is readable, the waker is woken, or the timeout passes."""
        socks = tuple(ep.channel.sock for ep in self.endpoints)
        if self._poller is None or socks != self._socks:  # a client reconnected: a new socket
            self._poller, self._socks = zmq.Poller(), socks
            for s in socks:
                self._poller.register(s, zmq.POLLIN)
            if self.waker is not None:
                self._poller.register(self.waker.fd, zmq.POLLIN)
        self._poller.poll(int((self.poll_s if timeout_s is None else timeout_s) * 1000))
        if self.waker is not None:
            self.waker.drain()

    def once(self, timeout_s: Optional[float] = None) -> None:
        self.poll(timeout_s)
        for ep in self.endpoints:
            ep.drain()

    def run(self, stop: Callable[[], bool], tick: Optional[Callable[[], None]] = None) -> None:
        """Poll, dispatch, then `tick()`, until `stop()`."""
        while not stop():
            self.once()
            if tick is not None:
                tick()

    def close(self) -> None:
        for ep in [*self.endpoints, *self.closing]:
            ep.close()


class ServerThread:
    """A Loop on a daemon thread; see the module docstring. `open()` makes the endpoints
    (binding them) and returns the Loop; `tick` runs after each pass."""

    def __init__(
        self,
        what: str,
        name: str,
        open: Callable[[], Loop],
        tick: Optional[Callable[[], None]] = None,
    ):
        self.what, self._open, self._tick = what, open, tick
        self.waker = Waker()
        self.stopping = threading.Event()
        self.error: Optional[BaseException] = None
        self._ready = threading.Event()
        self._thread = threading.Thread(target=self._run, name=name, daemon=True)

    def start(self, wait_s: float) -> Optional[BaseException]:
        """Start and wait until bound; returns what binding raised (None: serving)."""
        self._thread.start()
        if not self._ready.wait(wait_s):
            raise RuntimeError(f"{self.what} did not start within {wait_s:.0f}s")
        return self.error

    def _run(self) -> None:
        try:
            loop = self._open()
            loop.waker = self.waker
        except Exception as exc:  # start() returns it; the owner raises it
            self.error = exc
            self._ready.set()
            return
        self._ready.set()
        try:
            loop.run(self.stopping.is_set, self._tick)
        except BaseException as exc:  # not one message's fault: the process must restart
            self.error = exc
            if not self.stopping.is_set():
                die_with_thread(self.what, exc)
            raise
        finally:
            loop.close()

    def wake(self) -> None:
        self.waker.wake()

    @property
    def alive(self) -> bool:
        return self._thread.is_alive()

    def stop(self) -> None:
        self.stopping.set()
        self.waker.wake()
        self._thread.join(timeout=10)
        self.waker.close()


class Client(Endpoint):
    """A DEALER link to one peer; see the module docstring. For `request()`, one outstanding
    request at a time per client; driven by a Loop, any number (the owner matches ids)."""

    def __init__(
        self,
        ctx: zmq.Context,
        cfg: TransportConfig,
        metrics: Metrics,
        connect: str,
        identity: Union[bytes, Callable[[], bytes], None] = None,
        *,
        handlers: Optional[Mapping[type, Handler]] = None,
        beats: Optional[HeartbeatSender] = None,
        reconnect_after_s: Optional[float] = None,
        on_reconnect: Optional[Callable[[float], None]] = None,
        **kw: Any,
    ):
        self.ctx, self.cfg, self.metrics, self.endpoint = ctx, cfg, metrics, connect
        self._identity = identity if callable(identity) else None
        self.identity = b"" if callable(identity) else identity or f"c-{new_id()[:12]}".encode()
        super().__init__(self._open(), handlers, **kw)
        self.beats, self.reconnect_after_s, self.on_reconnect = (
            beats,
            reconnect_after_s,
            on_reconnect,
        )
        self.last_heard = time.monotonic()
        self.backoff = Backoff(cfg.reconnect_min_s, cfg.reconnect_max_s)
        self._reconnect_at = 0.0
        self._abort = threading.Event()
        self._m_retry = metrics.counter("request_retries_total", "Requests resent after a timeout")

    @property
    def endpoint(self) -> str:  # the peer's, not the socket's
        return self._peer

    @endpoint.setter
    def endpoint(self, value: str) -> None:
        self._peer = value

    def _open(self) -> Channel:
        if self._identity is not None:  # a fresh identity per socket
            self.identity = self._identity()
        return Channel(
            self.ctx,
            zmq.DEALER,
            self.cfg,
            self.metrics,
            connect=self.endpoint,
            identity=self.identity,
        )

    def reopen(self) -> None:
        """Drop queued messages and reconnect (the Pirates' socket reset)."""
        self.channel.close()
        self.channel = self._open()

    def dispatch(self, got: Received) -> None:
        self.last_heard = time.monotonic()  # anything the peer sends is proof of life
        super().dispatch(got)

    # ------------------------------------------------------------ driven by a Loop
    def tick(self) -> None:
        """The link's heartbeat when due; a silent peer's fresh socket (Paranoid Pirate)."""
        t = time.monotonic()
        if self.beats is not None and (beat := self.beats.due()) is not None:
            self.send(beat)
        if self.reconnect_after_s is None:
            return
        silent = t - self.last_heard
        if silent <= self.reconnect_after_s:
            self.backoff.reset()
            return
        if t < self._reconnect_at:
            return
        self._warn.warning("silent", "%s silent for %.1fs; reconnecting", self.endpoint, silent)
        self.reopen()
        if self.beats is not None:  # announce ourselves on the new socket at once
            self.beats.reset()
            self.send(self.beats.due())
        if self.on_reconnect is not None:
            self.on_reconnect(self.last_heard)
        self._reconnect_at = t + self.reconnect_after_s + self.backoff.next_delay()

    # ------------------------------------------------------------ blocking requests
    def request(
        self,
        msg: Message,
        *,
        expect: Union[type, tuple, None] = None,
        timeout_s: Optional[float] = None,
        retries: Optional[int] = None,
    ) -> Message:
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
        raise PeerUnavailable(
            f"no reply from {self.endpoint} to {type(msg).__name__} "
            f"after {retries + 1} attempt(s) of {timeout_s:.1f}s"
        )

    def _await(self, rid: str, timeout_s: float, expect) -> Optional[Message]:
        deadline = time.monotonic() + timeout_s
        while (left := deadline - time.monotonic()) > 0 and not self._abort.is_set():
            got = self.channel.recv(min(left, 0.5))  # slices, so abort() is noticed at once
            if got is None:
                continue
            self.last_heard = time.monotonic()
            if got.msg is None or getattr(got.msg, "request_id", None) not in (rid, ""):
                continue  # invalid, or a late reply to an earlier request: dropped
            if isinstance(got.msg, ErrorReply):
                raise RequestRejected(got.msg)
            if expect is not None and not isinstance(got.msg, expect):
                raise RequestRejected(
                    error_reply(got.msg, "unexpected_type", f"got {type(got.msg).__name__}")
                )
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


@dataclass
class Pending:
    """One request in a Window; `data` is the owner's (a future)."""

    request: Any
    backoff: Backoff
    deadline: float = math.inf  # monotonic
    data: Any = None
    submitted: float = field(default_factory=time.monotonic)
    next_send: float = 0.0  # monotonic; 0: not sent yet
    sends: int = 0


class Window:
    """Requests in flight by id on a Loop-driven Client (see the module docstring): at most
    `size` sent and unanswered, the rest wait in order; each unanswered one is resent with
    the same id after its own backoff (the peer dedupes ids)."""

    def __init__(self, size: int, on_resend: Optional[Callable[[], None]] = None):
        self.size, self.on_resend = size, on_resend
        self.waiting: deque[Pending] = deque()  # not sent yet (window full)
        self.sent: dict[str, Pending] = {}  # sent, unanswered

    def add(self, p: Pending) -> None:
        self.waiting.append(p)

    def answered(self, rid: str) -> Optional[Pending]:
        """The request `rid` answers, now out of the window; None: a duplicate or late reply."""
        return self.sent.pop(rid, None) if rid else None

    def hold(self, rid: str, seconds: float) -> bool:
        """Resend `rid` no sooner than `seconds` from now (a `busy` reply); it stays sent."""
        p = self.sent.get(rid) if rid else None
        if p is not None:
            p.next_send = time.monotonic() + seconds
        return p is not None

    def settle(self, why: Callable[[Pending], Any]) -> list[tuple[Pending, Any]]:
        """Take out each request, waiting or sent, for which `why(p)` is not None."""
        out = []
        for p in list(self.waiting):
            if (r := why(p)) is not None:
                self.waiting.remove(p)
                out.append((p, r))
        for rid, p in list(self.sent.items()):
            if (r := why(p)) is not None:
                del self.sent[rid]
                out.append((p, r))
        return out

    def send_due(self, client: Client, t: float) -> None:
        """Resend what is due, then send waiting requests while the window has room."""
        for p in self.sent.values():
            if p.next_send <= t:
                if self.on_resend is not None:
                    self.on_resend()
                self._send(client, p, t)
        while self.waiting and len(self.sent) < self.size:
            p = self.waiting.popleft()
            self.sent[p.request.request_id] = p
            self._send(client, p, t)

    @staticmethod
    def _send(client: Client, p: Pending, t: float) -> None:
        p.sends += 1
        p.next_send = t + p.backoff.next_delay()
        if not client.send(p.request):  # queue full while the peer is away
            client._warn.warning(
                "send_blocked", "%s: a request not sent now; will resend", client.who
            )
