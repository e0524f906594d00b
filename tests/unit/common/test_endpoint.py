"""common/endpoint.py: a handler table answers what it serves; bad input, an unserved type
and a handler's bug are each answered and the endpoint serves on; a held request is
answered when ready or `busy` after its patience; a client whose peer falls silent gets
a fresh socket and resends; a server thread stops on its flag."""

import threading
import time

import msgspec
import pytest

from common.config import TransportConfig
from common.endpoint import Client, Held, Loop, Pending, Server, ServerThread, Window
from common.messages import (
    PROTOCOL_VERSION,
    ErrorReply,
    Heartbeat,
    LeaseGrant,
    LeaseRequest,
    WeightBucketRequest,
    new_id,
)
from common.metrics import Metrics
from common.transport import Backoff, HeartbeatSender, PeerUnavailable, RequestRejected, context

CFG = TransportConfig(
    request_timeout_s=2.0,
    request_retries=1,
    heartbeat_interval_s=0.05,
    reconnect_min_s=0.01,
    reconnect_max_s=0.05,
)


def _lease(max_groups: int = 1) -> LeaseRequest:
    return LeaseRequest(request_id=new_id(), actor_id="a", max_groups=max_groups)


@pytest.fixture
def served():
    """A server thread whose LeaseRequest handler raises on max_groups=13."""
    state: dict = {"server": None}

    def lease(got):
        if got.msg.max_groups == 13:
            raise KeyError("a bug")
        state["server"].reply(
            got.peer, LeaseGrant(request_id=got.msg.request_id, policy_version=got.msg.max_groups)
        )

    def open_():
        state["server"] = Server(
            context(),
            CFG,
            Metrics("t"),
            "tcp://127.0.0.1:0",
            {LeaseRequest: lease},
            who="the test server",
        )
        return Loop(0.02, [state["server"]])

    thread = ServerThread("test server", "test-server", open_)
    assert thread.start(10) is None
    client = Client(context(), CFG, Metrics("t"), state["server"].endpoint)
    yield thread, client
    client.close()
    thread.stop()
    assert not thread.alive


def test_a_handler_table_answers_and_bad_input_never_stops_it(served):
    _, client = served
    assert client.request(_lease(3), expect=LeaseGrant).policy_version == 3
    with pytest.raises(
        RequestRejected, match="internal: the test server failed on this message: KeyError"
    ):
        client.request(_lease(13), expect=LeaseGrant)
    with pytest.raises(RequestRejected, match="unexpected_type"):
        client.request(
            WeightBucketRequest(request_id=new_id(), version=1, index=0), expect=LeaseGrant
        )
    client.channel.sock.send_multipart(
        [
            msgspec.msgpack.encode((PROTOCOL_VERSION, "LeaseRequest")),
            msgspec.msgpack.encode({"request_id": "r1", "actor_id": 7}),
        ]
    )
    got = client.channel.recv(5)
    assert (
        isinstance(got.msg, ErrorReply) and got.msg.code == "invalid" and got.msg.request_id == "r1"
    )
    assert client.request(_lease(4), expect=LeaseGrant).policy_version == 4  # served on


def test_a_held_request_is_answered_when_ready_or_busy_after_its_patience():
    ready: dict = {}
    held = Held(lambda msg: ready.get(msg.max_groups), 0.2, lambda msg: f"{msg.max_groups} not yet")
    server = Server(
        context(),
        CFG,
        Metrics("t"),
        "tcp://127.0.0.1:0",
        {LeaseRequest: lambda got: held.add(got.peer, got.msg)},
    )
    client = Client(context(), CFG, Metrics("t"), server.endpoint)
    loop = Loop(0.01, [server])
    try:
        a, b = _lease(1), _lease(2)
        client.send(a)
        client.send(b)
        for _ in range(5):
            loop.once()
            held.answer(server)
        assert len(held.items) == 2 and client.channel.recv(0) is None
        ready[1] = LeaseGrant(request_id=a.request_id, policy_version=1)
        held.answer(server)
        assert client.channel.recv(2).msg.request_id == a.request_id
        time.sleep(0.25)
        held.answer(server)
        busy = client.channel.recv(2).msg
        assert busy.code == "busy" and busy.request_id == b.request_id and not held.items
    finally:
        client.close()
        server.close()


def test_a_silent_peer_gets_a_fresh_socket_and_the_owner_resends():
    """Paranoid Pirate: no answer for reconnect_after_s -> a new socket (new identity), the
    heartbeat at once, then on_reconnect; an answer resets it."""
    server = Server(context(), CFG, Metrics("t"), "tcp://127.0.0.1:0")
    beats_seen: list[bytes] = []
    server.handlers[Heartbeat] = lambda got: beats_seen.append(got.peer)
    reconnects: list[float] = []
    n = iter(range(100))
    client = Client(
        context(),
        CFG,
        Metrics("t"),
        server.endpoint,
        lambda: f"c-{next(n)}".encode(),
        beats=HeartbeatSender("c", "test", 0.05),
        reconnect_after_s=0.15,
        on_reconnect=reconnects.append,
    )
    try:
        first = client.identity
        deadline = time.monotonic() + 3
        while not reconnects and time.monotonic() < deadline:
            client.tick()
            server.drain()
            time.sleep(0.02)
        assert reconnects and client.identity != first
        server.drain()
        time.sleep(0.05)
        server.drain()
        assert beats_seen and beats_seen[-1] == client.identity  # announced on the new socket
    finally:
        client.close()
        server.close()


def test_abort_ends_a_blocked_request_and_a_dead_peer_is_a_clear_error():
    client = Client(
        context(),
        TransportConfig(
            request_timeout_s=0.2, request_retries=1, reconnect_min_s=0.01, reconnect_max_s=0.02
        ),
        Metrics("t"),
        "tcp://127.0.0.1:1",
    )
    try:
        with pytest.raises(PeerUnavailable, match="after 2 attempt"):
            client.request(_lease())
        threading.Timer(0.1, client.abort).start()
        with pytest.raises(PeerUnavailable, match="aborted"):
            client.request(_lease(), timeout_s=30)
    finally:
        client.close()


def test_a_window_sends_at_most_its_size_and_resends_the_same_id_until_answered():
    server = Server(context(), CFG, Metrics("t"), "tcp://127.0.0.1:0")
    got: list[str] = []
    server.handlers[LeaseRequest] = lambda r: got.append(r.msg.request_id)
    client = Client(context(), CFG, Metrics("t"), server.endpoint)
    resends: list[int] = []
    window = Window(2, lambda: resends.append(1))
    reqs = [_lease(i + 1) for i in range(3)]
    try:
        for r in reqs:
            window.add(Pending(r, Backoff(0.2, 0.4)))
        window.send_due(client, time.monotonic())
        assert list(window.sent) == [r.request_id for r in reqs[:2]] and len(window.waiting) == 1
        assert window.answered(reqs[0].request_id) is not None
        assert window.answered(reqs[0].request_id) is None  # a duplicate reply
        assert window.hold(reqs[1].request_id, 60)
        time.sleep(0.25)
        window.send_due(client, time.monotonic())  # reqs[2] enters; reqs[1] is held, not resent
        assert list(window.sent) == [reqs[1].request_id, reqs[2].request_id] and not resends
        time.sleep(0.45)
        window.send_due(client, time.monotonic())  # reqs[2] unanswered past its backoff: resent
        assert resends == [1]
        time.sleep(0.1)
        server.drain()
        assert got == [
            reqs[0].request_id,
            reqs[1].request_id,
            reqs[2].request_id,
            reqs[2].request_id,
        ]
        settled = window.settle(lambda p: "gone" if p.request is reqs[1] else None)
        assert [(p.request, why) for p, why in settled] == [(reqs[1], "gone")]
        assert list(window.sent) == [reqs[2].request_id]
    finally:
        client.close()
        server.close()
