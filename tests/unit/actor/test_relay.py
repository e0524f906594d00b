"""The relay server answers as the hub does, from what its actor pulls: a request for a
bucket not here yet is answered when it arrives; a delta goes only to an asker holding
its base, anyone else gets the rebuilt full bucket; a failed pull answers
`unknown_version` (so the asker routes around it) until the version is pulled again."""

import pytest
import torch

from actor.relay import RelayServer
from common.buckets import Bucket
from common.config import TransportConfig
from common.endpoint import Client
from common.messages import ErrorReply, WeightBucket, WeightBucketRequest, new_id
from common.metrics import Metrics
from common.transport import context

CFG = TransportConfig(request_timeout_s=2, request_retries=0)


def _ask(client, version, index, delta_from=-1, hub_id="h"):
    client.channel.send(
        WeightBucketRequest(
            request_id=new_id(), version=version, index=index, hub_id=hub_id, delta_from=delta_from
        )
    )
    got = client.channel.recv(5)
    assert got is not None
    return got.msg


def test_relay_forwards_as_buckets_arrive_and_picks_delta_or_full():
    relay = RelayServer("tcp://127.0.0.1:0", "", CFG, Metrics("actor"), busy_after_s=0.5)
    client = Client(context(), CFG, Metrics("actor"), relay.endpoint)
    full = Bucket.pack([("w", torch.arange(64, dtype=torch.float32))])
    delta = WeightBucket(
        request_id="x",
        version=3,
        index=0,
        data=torch.zeros(8, dtype=torch.uint8),
        checksum=full.checksum,
        info=full.info(0),
        last=True,
        encoding="xor2-zstd",
        base_version=2,
    )
    try:
        relay.begin(3, "h")
        early = _ask(client, 3, 0, delta_from=2)  # not here yet: held, then `busy`
        assert isinstance(early, ErrorReply) and early.code == "busy"
        relay.offer(3, "h", delta)
        got = _ask(client, 3, 0, delta_from=2)
        assert got.encoding == "xor2-zstd" and got.base_version == 2 and got.last
        relay.full(3, "h", 0, full)
        got = _ask(client, 3, 0, delta_from=1)  # holds another version: the full bucket
        assert got.encoding == "" and torch.equal(got.data, full.data)
        assert got.checksum == full.checksum and got.last
        assert _ask(client, 3, 1).code == "no_such_bucket"
        assert _ask(client, 3, 0, hub_id="other").code == "unknown_version"  # never mixed
        relay.begin(4, "h")
        relay.fail(4, "h")
        assert _ask(client, 4, 0).code == "unknown_version"
        relay.begin(4, "h")  # pulled again: served again
        relay.offer(
            4,
            "h",
            WeightBucket(
                request_id="y",
                version=4,
                index=0,
                data=full.data,
                checksum=full.checksum,
                info=full.info(0),
                last=True,
            ),
        )
        assert torch.equal(_ask(client, 4, 0).data, full.data)
    finally:
        client.close()
        relay.close()


def test_a_failing_request_is_answered_and_the_relay_serves_on(monkeypatch):
    """One request's bug is that request's `internal` error (the asker routes around this
    relay), not the end of the relay thread."""
    metrics = Metrics("actor")
    relay = RelayServer("tcp://127.0.0.1:0", "", CFG, metrics, busy_after_s=0.5)
    client = Client(context(), CFG, Metrics("actor"), relay.endpoint)
    full = Bucket.pack([("w", torch.arange(64, dtype=torch.float32))])
    real = RelayServer._reply
    calls = []

    def buggy_once(self, req):
        calls.append(req.index)
        if len(calls) == 1:
            raise KeyError("a bug")
        return real(self, req)

    monkeypatch.setattr(RelayServer, "_reply", buggy_once)
    try:
        relay.begin(3, "h")
        relay.offer(
            3,
            "h",
            WeightBucket(
                request_id="y",
                version=3,
                index=0,
                data=full.data,
                checksum=full.checksum,
                info=full.info(0),
                last=True,
            ),
        )
        bad = _ask(client, 3, 0)
        assert isinstance(bad, ErrorReply) and bad.code == "internal" and "KeyError" in bad.message
        assert "krl_actor_relay_errors_total 1.0" in metrics.render().decode()  # counted
        assert torch.equal(_ask(client, 3, 0).data, full.data)  # served on
    finally:
        client.close()
        relay.close()


DIES = """
import sys, time
from common.config import TransportConfig
from common.metrics import Metrics
{setup}
time.sleep(30)
print("still running")
"""


def _dies_loudly(setup: str, name: str) -> None:
    import subprocess
    import sys
    from pathlib import Path

    root = Path(__file__).resolve().parents[3]
    run = subprocess.run(
        [sys.executable, "-c", DIES.format(setup=setup)],
        cwd=root,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert run.returncode == 70, (run.returncode, run.stdout, run.stderr[-2000:])
    assert f"{name} thread died" in run.stderr and "still running" not in run.stdout


def test_a_relay_thread_that_dies_takes_the_actor_down_to_be_restarted():
    _dies_loudly(
        """
from actor.relay import RelayServer
def broken(self, server):
    raise RuntimeError("the serving loop itself failed")
RelayServer._answer = broken
relay = RelayServer("tcp://127.0.0.1:0", "", TransportConfig(), Metrics("actor"))
""",
        "weight relay",
    )


def test_an_evaluator_client_thread_that_dies_takes_its_process_down():
    """Its caller would otherwise wait forever on results nothing will deliver."""
    _dies_loudly(
        """
from common.config.evaluator import BrokerConfig
from common.eval_client import EvalClient
def broken(self, channel, sent):
    raise RuntimeError("the client loop itself failed")
EvalClient._receive = broken
client = EvalClient(BrokerConfig(frontend="tcp://127.0.0.1:1"), TransportConfig())
""",
        "evaluator client",
    )


def test_an_evaluator_client_without_its_socket_fails_its_caller_at_once(tmp_path):
    """A socket that cannot be made (no CurveZMQ keys) must raise where the client is made;
    a thread dying at its start would leave every evaluation waiting forever."""
    from common.config.evaluator import BrokerConfig
    from common.curve import KeysError
    from common.eval_client import EvalClient

    with pytest.raises(KeysError, match="server.key"):
        EvalClient(
            BrokerConfig(frontend="tcp://127.0.0.1:1"), TransportConfig(curve_keys_dir=tmp_path)
        )
