"""Transport between real processes over real sockets: bad input never kills a server,
CurveZMQ refuses strangers, requests survive a server restart and give up cleanly."""

import os
import random
import signal
import subprocess
import sys
import threading
import time
import urllib.request
from pathlib import Path

import msgspec
import pytest
import zmq
from proc_helpers import blocked_call_ends_on_stop
from proc_helpers import free_port as _free_port

from common import curve
from common.config import TransportConfig
from common.endpoint import Client
from common.messages import PROTOCOL_VERSION, LeaseGrant, LeaseRequest, encode, new_id
from common.metrics import Metrics
from common.transport import PeerUnavailable, context

HERE = Path(__file__).parent


class ServerProc:
    def __init__(self, endpoint: str, *extra: str):
        self.proc = subprocess.Popen(
            [sys.executable, str(HERE / "echo_server.py"), endpoint, *extra],
            stdout=subprocess.PIPE,
            text=True,
        )
        line = self.proc.stdout.readline().split()
        assert line and line[0] == "READY", f"server did not start: {line}"
        self.endpoint, self.metrics_port = line[1], int(line[2])

    def metric(self, needle: str) -> float:
        body = urllib.request.urlopen(
            f"http://127.0.0.1:{self.metrics_port}/metrics", timeout=5
        ).read()
        return sum(
            float(l.rsplit(" ", 1)[1]) for l in body.decode().splitlines() if l.startswith(needle)
        )

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
            self.proc.wait(timeout=10)


@pytest.fixture
def server():
    s = ServerProc(f"tcp://127.0.0.1:{_free_port()}")
    yield s
    s.stop()


def _client(endpoint, **cfg):
    cfg.setdefault("request_timeout_s", 1.0)
    cfg.setdefault("request_retries", 2)
    return Client(context(), TransportConfig(**cfg), Metrics("test"), endpoint)


def test_request_reply(server):
    c = _client(server.endpoint)
    reply = c.request(
        LeaseRequest(request_id=new_id(), actor_id="a", max_groups=3), expect=LeaseGrant
    )
    assert reply.policy_version == 3
    c.close()


def test_flood_of_bad_messages_never_kills_the_server(server):
    raw = context().socket(zmq.DEALER)
    raw.setsockopt(zmq.LINGER, 0)
    raw.connect(server.endpoint)
    rng = random.Random(0)
    good = encode(LeaseRequest(request_id="x", actor_id="a"))
    bad = [
        [b""],
        [b"\x00"],
        [rng.randbytes(64) for _ in range(3)],
        [msgspec.msgpack.encode((PROTOCOL_VERSION + 1, "LeaseRequest")), good[1]],
        [msgspec.msgpack.encode((PROTOCOL_VERSION, "NoSuchType")), good[1]],
        [good[0], good[1][:-3]],
        [good[0], msgspec.msgpack.encode({"request_id": "r-bad", "actor_id": 7})],
    ]
    for i in range(300):
        raw.send_multipart(bad[i % len(bad)] if i % 3 else [rng.randbytes(rng.randint(0, 300))])
    # raw stays connected until the flood is counted: a ROUTER drops what it has not yet read
    # from a peer that disconnected once its own linger (1 s) runs out, which a loaded server
    # can take longer than to work through 300 messages.
    # Oversized: beyond the server's MAXMSGSIZE; libzmq drops the connection, not the process.
    big = context().socket(zmq.DEALER)
    big.setsockopt(zmq.LINGER, 0)
    big.connect(server.endpoint)
    big.send_multipart([*good, os.urandom(2 << 20)])
    time.sleep(0.5)
    big.close()
    c = _client(server.endpoint)
    assert c.request(LeaseRequest(request_id=new_id(), actor_id="a"), expect=LeaseGrant)
    assert server.proc.poll() is None
    # The router serves its peers fair-queued: the good request can be answered while the
    # flood is still being worked through. Every bad message must be counted in the end.
    deadline = time.monotonic() + 30
    while (rejected := server.metric("krl_echo_messages_rejected_total")) < 290:
        assert time.monotonic() < deadline, f"only {rejected:.0f} of the flood counted as rejected"
        assert server.proc.poll() is None
        time.sleep(0.2)
    raw.close()
    c.close()


def test_invalid_request_gets_an_error_reply_naming_it(server):
    c = _client(server.endpoint, request_retries=0)
    c.channel.sock.send_multipart(
        [
            msgspec.msgpack.encode((PROTOCOL_VERSION, "LeaseRequest")),
            msgspec.msgpack.encode({"request_id": "r42", "actor_id": 7}),
        ]
    )
    got = c.channel.recv(5)
    assert (
        got.msg.code == "invalid" and got.msg.request_id == "r42" and "actor_id" in got.msg.message
    )
    c.close()


def test_request_survives_server_restart():
    endpoint = f"tcp://127.0.0.1:{_free_port()}"
    c = _client(endpoint, request_timeout_s=1.0, request_retries=8, reconnect_max_s=0.5)
    import threading

    result = {}
    t = threading.Thread(
        target=lambda: result.setdefault(
            "reply", c.request(LeaseRequest(request_id="same-id", actor_id="a"), expect=LeaseGrant)
        )
    )
    t.start()
    time.sleep(1.5)  # the first attempts go nowhere
    s = ServerProc(endpoint)
    try:
        t.join(timeout=20)
        assert result["reply"].request_id == "same-id"
    finally:
        s.stop()
        c.close()


def test_dead_server_gives_a_clear_error_within_the_budget():
    c = _client(
        f"tcp://127.0.0.1:{_free_port()}",
        request_timeout_s=0.3,
        request_retries=2,
        reconnect_min_s=0.05,
        reconnect_max_s=0.1,
    )
    t = time.monotonic()
    with pytest.raises(PeerUnavailable, match="after 3 attempt"):
        c.request(LeaseRequest(request_id=new_id(), actor_id="a"))
    assert time.monotonic() - t < 3.0
    c.close()


def test_curve_authenticates_and_refuses_strangers(tmp_path):
    keys = tmp_path / "keys"
    curve.generate(keys, ["actor"])
    s = ServerProc(f"tcp://127.0.0.1:{_free_port()}", "--keys", str(keys))
    try:
        ok = _client(s.endpoint, curve_keys_dir=keys)
        assert ok.request(LeaseRequest(request_id=new_id(), actor_id="a"), expect=LeaseGrant)
        ok.close()
        stranger_keys = tmp_path / "stranger"
        curve.generate(stranger_keys, ["intruder"])
        (stranger_keys / "server.key").write_bytes((keys / "server.key").read_bytes())
        for kw in ({"curve_keys_dir": stranger_keys}, {}):  # wrong key pair; no encryption
            bad = _client(s.endpoint, request_timeout_s=0.5, request_retries=1, **kw)
            with pytest.raises(PeerUnavailable):
                bad.request(LeaseRequest(request_id=new_id(), actor_id="x"))
            bad.close()
        assert s.metric("krl_echo_served_total") == 1.0
    finally:
        s.stop()


def test_missing_keys_are_a_clear_error(tmp_path):
    with pytest.raises(curve.KeysError, match="krl keys"):
        _client("tcp://127.0.0.1:1", curve_keys_dir=tmp_path / "nothing")


def test_client_that_resets_its_socket_is_still_answered(server):
    """Lazy Pirate resets reconnect under the same identity; the router must hand over."""
    c = _client(server.endpoint)
    for _ in range(5):
        assert c.request(LeaseRequest(request_id=new_id(), actor_id="a"), expect=LeaseGrant)
        c.reopen()
    c.close()


def test_abort_ends_a_request_blocked_on_another_thread_at_once():
    """A process stopping while its peer is gone (an actor after the learner finished)
    must not sit out the request timeout before it can exit."""
    client = Client(
        context(),
        TransportConfig(request_timeout_s=30, request_retries=3),
        Metrics("test"),
        f"tcp://127.0.0.1:{_free_port()}",
    )
    outcome = blocked_call_ends_on_stop(
        lambda: client.request(LeaseRequest(request_id=new_id(), actor_id="a", max_groups=1)),
        client.abort,
    )
    assert isinstance(outcome.get("error"), PeerUnavailable) and "aborted" in str(outcome["error"])
    client.close()


def test_a_bind_waits_for_a_port_its_predecessor_still_holds():
    """A process restarted at once may find its old port not yet released: the bind
    retries for transport.bind_wait_s, then fails naming the endpoint."""
    from common.transport import Channel

    endpoint = f"tcp://127.0.0.1:{_free_port()}"
    holder = context().socket(zmq.ROUTER)
    holder.setsockopt(zmq.LINGER, 0)
    holder.bind(endpoint)
    try:
        t0 = time.monotonic()
        with pytest.raises(zmq.ZMQError, match="Address already in use"):
            Channel(
                context(),
                zmq.ROUTER,
                TransportConfig(bind_wait_s=0.5),
                Metrics("t1"),
                bind=endpoint,
                server=True,
            )
        assert time.monotonic() - t0 >= 0.5

        got = {}

        def bind():
            got["channel"] = Channel(
                context(),
                zmq.ROUTER,
                TransportConfig(bind_wait_s=20),
                Metrics("t2"),
                bind=endpoint,
                server=True,
            )

        waiter = threading.Thread(target=bind)
        waiter.start()
        time.sleep(0.5)
        assert waiter.is_alive(), "the bind should be waiting for the port"
        holder.close()  # the predecessor lets go
        waiter.join(timeout=10)
        assert not waiter.is_alive() and got["channel"].endpoint == endpoint
        got["channel"].close()
    finally:
        holder.close()


def test_a_hub_server_that_cannot_bind_fails_its_start(tmp_path):
    """A learner must not run on without a hub: start() raises, naming the endpoint."""
    from common.config.hub import HubConfig

    sys.path.insert(0, str(Path(__file__).parents[1] / "unit" / "learner"))
    from test_hub import make_hub

    from learner.hub_server import HubServer

    endpoint = f"tcp://127.0.0.1:{_free_port()}"
    holder = context().socket(zmq.ROUTER)
    holder.setsockopt(zmq.LINGER, 0)
    holder.bind(endpoint)
    try:
        cfg = HubConfig(endpoint=endpoint, publish_endpoint=f"tcp://127.0.0.1:{_free_port()}")
        server = HubServer(
            make_hub(tmp_path), cfg, TransportConfig(bind_wait_s=0.3), Metrics("learner")
        )
        with pytest.raises(RuntimeError, match="could not start.*Address already in use"):
            server.start()
        assert not server.healthy
    finally:
        holder.close()
