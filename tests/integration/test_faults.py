"""Faults that must neither hang a run nor stop it for good, with real processes:
poison groups refused before an ack, damaged checkpoints and stored groups recovered from
loudly, start errors reported once instead of restarted, a hung role killed and
restarted, a hub error answered instead of killing its thread, and a full disk."""
import os
import signal
import subprocess
import sys
import textwrap
import time
import urllib.request
from pathlib import Path

import pytest
import torch
import yaml
from proc_helpers import clean_env, scripted_learner_config
from proc_helpers import free_port as _port
from proc_helpers import read_json as _read
from scripted_actor import ScriptedActor

from common.config import TransportConfig
from common.ledger import LEDGER, read
from common.messages import (
    Ack,
    LeaseGrant,
    LeaseRequest,
    Trajectory,
    TrajectoryGroup,
    Turn,
    encode,
    new_id,
)
from common.metrics import Metrics
from common.transport import RequestClient, context

pytestmark = pytest.mark.slow
sys.path.insert(0, str(Path(__file__).parents[1] / "unit" / "learner"))
from learner_helpers import VOCAB, make_tiny_model  # noqa: E402


def _krl(*args: str, out: Path) -> subprocess.Popen:
    return subprocess.Popen([sys.executable, "-m", "common.cli", *args], stdout=open(out, "ab"),
                            stderr=subprocess.STDOUT, env=clean_env())


def _poison(lease, **bad) -> TrajectoryGroup:
    """A well-formed group for `lease` with one thing wrong (keyword: the field)."""
    n = 4
    turn = dict(prompt_ids=torch.arange(6, dtype=torch.int32),
                response_ids=torch.arange(n, dtype=torch.int32), logprobs=torch.full((n,), -2.0),
                versions=torch.zeros(n, dtype=torch.int32), reward=1.0, correct=True, status="ok")
    turn.update({k: v for k, v in bad.items() if k in turn})
    fields = dict(request_id=new_id(), group_id=new_id(), lease_id=lease.lease_id,
                  prompt_id=lease.prompt_id, problem_name=lease.problem.name, actor_id="a0")
    fields.update({k: v for k, v in bad.items() if k in fields})
    return TrajectoryGroup(**fields, trajectories=[Trajectory(sample_index=i, turns=[Turn(**turn)])
                                                   for i in range(2)])


POISON = {
    "a slash in the group id": {"group_id": "../../etc/x"},
    "a group id of 200 characters": {"group_id": "g" * 200},
    "a token id outside the vocabulary": {"response_ids": torch.tensor([1, 2, VOCAB + 5, 3],
                                                                       dtype=torch.int32)},
    "a NaN logprob": {"logprobs": torch.tensor([-1.0, float("nan"), -1.0, -1.0])},
    "a version from the future": {"versions": torch.full((4,), 999, dtype=torch.int32)},
    "fewer logprobs than tokens": {"logprobs": torch.full((3,), -1.0)},
}


def _metric(port: int, name: str) -> float:
    text = urllib.request.urlopen(f"http://127.0.0.1:{port}/metrics", timeout=5).read().decode()
    return sum(float(l.rsplit(" ", 1)[1]) for l in text.splitlines() if l.startswith(name))


def _health(port: int) -> int:
    try:
        return urllib.request.urlopen(f"http://127.0.0.1:{port}/health", timeout=5).status
    except urllib.error.HTTPError as exc:
        return exc.code


def test_poison_is_refused_and_damaged_state_falls_back(tmp_path):
    model = make_tiny_model(tmp_path / "model")
    hub, pub, mport = f"tcp://127.0.0.1:{_port()}", f"tcp://127.0.0.1:{_port()}", _port()
    run_dir = tmp_path / "run"
    cfg = scripted_learner_config(run_dir, model, hub, pub, max_steps=4,
                                  metrics={"port": mport}, trainer={"micro_batch_tokens": 256})
    cfg["supervisor"] = {"actors": 0, "evaluators": 0, "progress_interval_s": 2}
    cfg["broker"] = {"frontend": f"tcp://127.0.0.1:{_port()}",
                     "backend": f"tcp://127.0.0.1:{_port()}", "metrics": {"enabled": False}}
    cfg_path = tmp_path / "run.yaml"
    cfg_path.write_text(yaml.safe_dump(cfg))
    log = tmp_path / "learner.log"
    proc = _krl("learner", str(cfg_path), out=log)
    client = RequestClient(context(), TransportConfig(request_timeout_s=5, request_retries=20),
                           Metrics("actor"), hub)
    grant = client.request(LeaseRequest(request_id=new_id(), actor_id="a0", max_groups=1),
                           expect=LeaseGrant)
    for what, bad in POISON.items():
        ack = client.request(_poison(grant.leases[0], **bad), expect=Ack)
        assert ack.outcome == "rejected", f"{what}: {ack}"
    assert _health(mport) == 200, "the hub must keep serving after poison groups"
    assert _metric(mport, 'krl_learner_groups_received_total{outcome="rejected"}') == len(POISON)
    stored = list((run_dir / "hub" / "groups").glob("*.grp"))
    assert stored == [] and not list(run_dir.glob("hub/**/etc*")), "a poison group was stored"
    client.close()

    actor = ScriptedActor(hub, VOCAB)
    deadline = time.monotonic() + 300
    while proc.poll() is None:
        assert time.monotonic() < deadline, log.read_text()[-3000:]
        actor.work_once()
    assert proc.returncode == 0, log.read_text()[-3000:]

    # Damage: the newest checkpoint's model file gets 4 KiB of garbage; a poison group
    # written straight into the store (as by a hub without validation); a stored group
    # cut in half.
    ckpt = run_dir / "checkpoints"
    newest = sorted(ckpt.glob("step_*"))[-1]
    assert newest.name == "step_00000004"
    victim = max((p for p in (newest / "model").rglob("*") if p.is_file()),
                 key=lambda p: p.stat().st_size)
    with open(victim, "r+b") as f:
        f.seek(victim.stat().st_size // 2)
        f.write(os.urandom(4096))
    from learner.group_store import GroupStore
    store = GroupStore(run_dir / "hub" / "groups")
    lease = type("L", (), {"lease_id": "l", "prompt_id": "e0-i7",
                           "problem": type("P", (), {"name": "x"})()})()
    poison = _poison(lease, **POISON["a token id outside the vocabulary"])
    store.put(poison.group_id, encode(poison))
    torn = _poison(lease)
    store.put(torn.group_id, encode(torn))
    path = run_dir / "hub" / "groups" / f"{torn.group_id}.grp"
    path.write_bytes(path.read_bytes()[: path.stat().st_size // 2])
    store.ledger.close()

    # Resume under krl run: the damaged checkpoint is set aside, the learner falls back to
    # step 2, quarantines both groups and trains to the new budget.
    out = tmp_path / "run.out"
    sup = _krl("run", str(cfg_path), "learner.max_steps=6", out=out)
    while sup.poll() is None:
        assert time.monotonic() < deadline + 300, out.read_text()[-3000:]
        actor.work_once()
    console = out.read_text()
    assert sup.returncode == 0, console[-3000:]
    summary = _read(run_dir / "summary.json")
    assert summary["status"] == "completed_after_checkpoint_fallback"
    [event] = summary["checkpoint_fallbacks"]
    assert event["resumed_from"] == "step_00000002"
    assert event["skipped"][0]["checkpoint"] == "step_00000004"
    assert "checksum" in event["skipped"][0]["reason"]
    assert "CHECKPOINT FALLBACK" in console and "step_00000004" in console
    assert (ckpt / "damaged_step_00000004").is_dir()
    assert [h["step"] for h in summary["history"]] == [1, 2, 3, 4, 5, 6]
    books = summary["groups"]
    assert books["lost"] == 0 and books["trained_twice"] == 0 and books["quarantined"] == 2
    assert books["dropped_checkpoint_fallback"] == 4  # steps 3 and 4: generated again
    quarantined = {e["group_id"] for e in read(run_dir / "hub" / "groups" / LEDGER)
                   if e["event"] == "quarantined"}
    assert quarantined == {poison.group_id, torn.group_id}
    assert {p.stem for p in (run_dir / "hub" / "quarantine").glob("*.grp")} == quarantined
    assert "ERROR" in (run_dir / "logs" / "learner.log").read_text()
