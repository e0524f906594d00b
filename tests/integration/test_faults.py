"""Faults that must neither hang a run nor stop it for good, with real processes:
poison groups refused before an ack, damaged checkpoints and stored groups recovered from
loudly, start errors reported once instead of restarted, a hung role killed and
restarted, a hub error answered instead of killing its thread, and a full disk."""

import os
import re
import signal
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest
import torch
import yaml
from proc_helpers import clean_env, merge, scripted_learner_config
from proc_helpers import free_port as _port
from proc_helpers import read_json as _read
from scripted_actor import ScriptedActor

from common.config import TransportConfig
from common.endpoint import Client
from common.messages import (
    Ack,
    LeaseGrant,
    LeaseRequest,
    Trajectory,
    TrajectoryGroup,
    Turn,
    WeightBucketRequest,
    encode,
    new_id,
)
from common.metrics import Metrics
from common.transport import RequestRejected, context
from common.verdict import Verdict
from learner.ledger import LEDGER, read

pytestmark = pytest.mark.slow
sys.path.insert(0, str(Path(__file__).parents[1] / "unit" / "learner"))
from learner_helpers import VOCAB, make_tiny_model  # noqa: E402

_STARTED: list[subprocess.Popen] = []


@pytest.fixture(autouse=True)
def _stop_what_a_failed_test_left():
    """A test that fails mid-run must not leave its krl run (and roles) running."""
    yield
    while _STARTED:
        p = _STARTED.pop()
        if p.poll() is None:
            p.terminate()  # krl run stops its roles on SIGTERM; a learner checkpoints
            try:
                p.wait(60)
            except subprocess.TimeoutExpired:
                p.kill()
                p.wait()


def _krl(*args: str, out: Path, env: dict | None = None) -> subprocess.Popen:
    proc = subprocess.Popen(
        [sys.executable, "-m", "launcher.cli", *args],
        stdout=open(out, "ab"),
        stderr=subprocess.STDOUT,
        env={**clean_env(), **(env or {})},
    )
    _STARTED.append(proc)
    return proc


def _poison(lease, **bad) -> TrajectoryGroup:
    """A well-formed group for `lease` with one thing wrong (keyword: the field)."""
    n = 4
    turn = dict(
        prompt_ids=torch.arange(6, dtype=torch.int32),
        response_ids=torch.arange(n, dtype=torch.int32),
        logprobs=torch.full((n,), -2.0),
        versions=torch.zeros(n, dtype=torch.int32),
        verdict=Verdict("ok", correct=True, reward=1.0),
    )
    turn.update({k: v for k, v in bad.items() if k in turn})
    fields = dict(
        request_id=new_id(),
        group_id=new_id(),
        lease_id=lease.lease_id,
        prompt_id=lease.prompt_id,
        problem_name=lease.problem.name,
        actor_id="a0",
    )
    fields.update({k: v for k, v in bad.items() if k in fields})
    return TrajectoryGroup(
        **fields, trajectories=[Trajectory(sample_index=i, turns=[Turn(**turn)]) for i in range(2)]
    )


POISON = {
    "a slash in the group id": {"group_id": "../../etc/x"},
    "a token id outside the vocabulary": {
        "response_ids": torch.tensor([1, 2, VOCAB + 5, 3], dtype=torch.int32)
    },
    "a NaN logprob": {"logprobs": torch.tensor([-1.0, float("nan"), -1.0, -1.0])},
    "a version from the future": {"versions": torch.full((4,), 999, dtype=torch.int32)},
    "fewer logprobs than tokens": {"logprobs": torch.full((3,), -1.0)},
    "logprobs in two dimensions": {"logprobs": torch.full((2, 2), -1.0)},
    "an empty prompt": {"prompt_ids": torch.zeros(0, dtype=torch.int32)},
}


def _metric(port: int, name: str) -> float:
    text = urllib.request.urlopen(f"http://127.0.0.1:{port}/metrics", timeout=5).read().decode()
    return sum(float(l.rsplit(" ", 1)[1]) for l in text.splitlines() if l.startswith(name))


def _health(port: int) -> int:
    """/health's status code, 0 while nothing answers."""
    try:
        return urllib.request.urlopen(f"http://127.0.0.1:{port}/health", timeout=5).status
    except urllib.error.HTTPError as exc:
        return exc.code
    except OSError:
        return 0


def test_poison_is_refused_and_damaged_state_falls_back(tmp_path):
    model = make_tiny_model(tmp_path / "model")
    hub, pub, mport = f"tcp://127.0.0.1:{_port()}", f"tcp://127.0.0.1:{_port()}", _port()
    run_dir = tmp_path / "run"
    cfg = scripted_learner_config(
        run_dir,
        model,
        hub,
        pub,
        max_steps=4,
        metrics={"port": mport},
        trainer={"micro_batch_tokens": 256},
    )
    cfg["supervisor"] = {"actors": 0, "evaluators": 0, "progress_interval_s": 2}
    cfg["broker"] = {
        "frontend": f"tcp://127.0.0.1:{_port()}",
        "backend": f"tcp://127.0.0.1:{_port()}",
        "metrics": {"enabled": False},
    }
    cfg_path = tmp_path / "run.yaml"
    cfg_path.write_text(yaml.safe_dump(cfg))
    log = tmp_path / "learner.log"
    proc = _krl("learner", str(cfg_path), out=log)
    client = Client(
        context(), TransportConfig(request_timeout_s=5, request_retries=20), Metrics("actor"), hub
    )
    grant = client.request(
        LeaseRequest(request_id=new_id(), actor_id="a0", max_groups=1), expect=LeaseGrant
    )
    for what, bad in POISON.items():
        ack = client.request(_poison(grant.leases[0], **bad), expect=Ack)
        assert ack.outcome == "rejected", f"{what}: {ack}"
    with pytest.raises(RequestRejected, match="length <= 128"):  # the store's limit, on the wire
        client.request(_poison(grant.leases[0], group_id="g" * 200), expect=Ack)
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
    victim = max(
        (p for p in (newest / "model").rglob("*") if p.is_file()), key=lambda p: p.stat().st_size
    )
    with open(victim, "r+b") as f:
        f.seek(victim.stat().st_size // 2)
        f.write(os.urandom(4096))
    from learner.group_store import GroupStore

    store = GroupStore(run_dir / "hub" / "groups")
    lease = type(
        "L", (), {"lease_id": "l", "prompt_id": "e0-i7", "problem": type("P", (), {"name": "x"})()}
    )()
    poison = _poison(lease, **POISON["a token id outside the vocabulary"])
    store.put(poison.group_id, encode(poison))
    torn = _poison(lease)
    store.put(torn.group_id, encode(torn))
    path = run_dir / "hub" / "groups" / f"{torn.group_id}.grp"
    path.write_bytes(path.read_bytes()[: path.stat().st_size // 2])
    # A good group whose step (says learner/training.json) killed the learner twice.
    crasher = _poison(
        type(
            "L",
            (),
            {"lease_id": "l", "prompt_id": "e9-i1", "problem": type("P", (), {"name": "x"})()},
        )()
    )
    store.put(crasher.group_id, encode(crasher))
    (run_dir / "learner" / "training.json").write_text(
        f'{{"groups": ["{crasher.group_id}"], "attempts": 2, "step": 5}}'
    )
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
    assert books["lost"] == 0 and books["trained_twice"] == 0 and books["quarantined"] == 3
    assert books["dropped_checkpoint_fallback"] == 4  # steps 3 and 4: generated again
    quarantined = {
        e["group_id"]: e["reason"]
        for e in read(run_dir / "hub" / "groups" / LEDGER)
        if e["event"] == "quarantined"
    }
    assert set(quarantined) == {poison.group_id, torn.group_id, crasher.group_id}
    assert "died 2 times" in quarantined[crasher.group_id]
    assert "vocabulary" in quarantined[poison.group_id]
    assert {p.stem for p in (run_dir / "hub" / "quarantine").glob("*.grp")} == set(quarantined)
    assert "ERROR" in (run_dir / "logs" / "learner.log").read_text()


def _run_to_end(sup: subprocess.Popen, out: Path, within_s: float, actor=None) -> str:
    deadline = time.monotonic() + within_s
    while sup.poll() is None:
        assert time.monotonic() < deadline, out.read_text()[-3000:]
        if actor is not None:
            actor.work_once()
        else:
            time.sleep(0.2)
    return out.read_text()


def _run_config(tmp_path: Path, **learner) -> tuple[dict, str]:
    hub = f"tcp://127.0.0.1:{_port()}"
    model = learner.pop("model", None) or make_tiny_model(tmp_path / "model")
    cfg = scripted_learner_config(
        tmp_path / "run", model, hub, f"tcp://127.0.0.1:{_port()}", **learner
    )
    cfg["supervisor"] = {
        "actors": 0,
        "evaluators": 0,
        "progress_interval_s": 2,
        "restart_backoff_min_s": 0.5,
        "stop_timeout_s": 20,
    }
    cfg["broker"] = {
        "frontend": f"tcp://127.0.0.1:{_port()}",
        "backend": f"tcp://127.0.0.1:{_port()}",
    }
    return cfg, hub


def test_start_errors_fail_the_run_at_once_with_the_reason(tmp_path):
    bad_problem = tmp_path / "broken.py"
    bad_problem.write_text("class Model(nn.Module:\n    pass\n")
    (tmp_path / "empty.jsonl").write_text("")
    (tmp_path / "not-a-model").mkdir()
    # what: (config changes, the process that cannot start, what its reason says)
    cases = {
        "missing data set": (
            {"learner": {"dataset": str(tmp_path / "no-such-set.jsonl")}},
            "learner",
            "no-such-set",
        ),
        "problem with a syntax error": (
            {"learner": {"dataset": str(bad_problem)}},
            "learner",
            "broken.py",
        ),
        "missing model directory": (
            {"learner": {"trainer": {"model": str(tmp_path / "none")}}},
            "learner",
            "model directory does not exist",
        ),
        "missing actor model directory": (
            {"actor": {"model": str(tmp_path / "none")}, "supervisor": {"actors": 1}},
            "actor-0",
            "actor.model",
        ),
        "empty data set": (
            {"learner": {"dataset": str(tmp_path / "empty.jsonl")}},
            "learner",
            "empty.jsonl: holds no rows",
        ),
        "model directory without a model": (
            {"learner": {"trainer": {"model": str(tmp_path / "not-a-model")}}},
            "learner",
            "no config.json",
        ),
        # Relative, so it could be a Hugging Face repo id; the Hub is out of reach (offline).
        "model directory nowhere": (
            {"learner": {"trainer": {"model": "models/none"}}},
            "learner",
            "'models/none': model directory does not exist",
        ),
        "missing CurveZMQ keys": (
            {"transport": {"curve_keys_dir": str(tmp_path / "keys")}},
            "broker",
            "server.key_secret is missing",
        ),
    }
    model = make_tiny_model(tmp_path / "model")
    runs = {}
    for what, (change, _, _) in cases.items():  # all at once: each fails in seconds
        case = tmp_path / what.replace(" ", "-")
        case.mkdir()
        cfg, _ = _run_config(case, model=model, max_steps=2)
        (case / "run.yaml").write_text(yaml.safe_dump(merge(cfg, change)))
        runs[what] = (
            case,
            _krl("run", str(case / "run.yaml"), out=case / "run.out", env={"HF_HUB_OFFLINE": "1"}),
        )
    t0 = time.monotonic()
    for what, (case, sup) in runs.items():
        console = _run_to_end(sup, case / "run.out", 120)
        _, proc, reason = cases[what]
        summary = _read(case / "run" / "summary.json")
        assert sup.returncode == 1, f"{what}: {console[-2000:]}"
        assert summary["status"] == "failed" and reason in summary["reason"], (what, summary)
        assert summary["restarts"][proc] == 0 and summary["exit_codes"][proc] == [78]
        failed = [l for l in console.splitlines() if "FAILED" in l]
        assert len(failed) == 1 and "cannot start" in failed[0] and reason in failed[0], console
        assert failed[0].startswith(f"krl run: FAILED: {proc} ") and "Traceback" not in console
    assert time.monotonic() - t0 < 100, "start errors must fail the run at once"


def test_a_hung_role_is_killed_and_restarted(tmp_path):
    cfg, hub = _run_config(tmp_path, max_steps=3)
    cfg["supervisor"].update(hang_after_s=10, health_interval_s=0.5, startup_grace_s=60)
    # Only the broker is watched: on this shared 2-core machine under load a learner's
    # /health has gone unanswered for 11 s while it trained (the default is 180 s).
    cfg["learner"]["metrics"] = {"enabled": False}
    (tmp_path / "run.yaml").write_text(yaml.safe_dump(cfg))
    out, run_dir = tmp_path / "run.out", tmp_path / "run"
    sup = _krl("run", str(tmp_path / "run.yaml"), out=out)
    deadline, stopped = time.monotonic() + 120, None
    while stopped is None:  # SIGSTOP the broker once krl run has seen it healthy
        assert time.monotonic() < deadline and sup.poll() is None, out.read_text()[-3000:]
        broker = _read(run_dir / "supervisor.json").get("processes", {}).get("broker", {})
        if broker.get("health") == "healthy":
            stopped = broker["pid"]
            os.kill(stopped, signal.SIGSTOP)
        time.sleep(0.2)
    t0 = time.monotonic()
    while _read(run_dir / "supervisor.json")["processes"]["broker"]["restarts"] < 1:
        assert time.monotonic() - t0 < 60, out.read_text()[-3000:]
        time.sleep(0.2)
    console = _run_to_end(sup, out, 300, ScriptedActor(hub, VOCAB))
    summary = _read(run_dir / "summary.json")
    assert sup.returncode == 0 and summary["status"] == "completed", console[-3000:]
    assert summary["hung"] == {"broker": 1} and summary["exit_codes"]["broker"][0] == -9
    assert re.search(r"broker hung \(/health silent \(no answer\) for 1\ds\)", console)
    assert not os.path.exists(f"/proc/{stopped}"), "the stopped broker was left behind"


def _filled(mount: Path) -> Path:
    """Fill the file system at `mount` to the last byte; the filler file's path."""
    filler = mount / "filler"
    fd = os.open(filler, os.O_WRONLY | os.O_CREAT, 0o644)
    try:
        for size in (1 << 20, 4096, 1):
            try:
                while os.write(fd, b"\0" * size):
                    pass
            except OSError:
                pass
    finally:
        os.close(fd)
    return filler


@pytest.fixture
def tmpfs(tmp_path):
    """A small tmpfs (root only): a disk that can be filled."""
    mount = tmp_path / "tmpfs"
    mount.mkdir()
    if (
        subprocess.run(
            ["mount", "-t", "tmpfs", "-o", "size=24m", "tmpfs", str(mount)], capture_output=True
        ).returncode
        != 0
    ):
        pytest.skip("cannot mount a tmpfs here (needs root)")
    yield mount
    subprocess.run(["umount", "-l", str(mount)], check=False)


def test_hub_answers_errors_and_full_disk_and_dies_loudly(tmp_path, tmpfs):
    flags, hub = tmp_path / "flags", f"tcp://127.0.0.1:{_port()}"
    flags.mkdir()
    log = tmp_path / "hub.log"
    proc = subprocess.Popen(
        [
            sys.executable,
            str(Path(__file__).with_name("hub_fault_server.py")),
            str(tmpfs / "groups"),
            hub,
            str(flags),
        ],
        stdout=open(log, "wb"),
        stderr=subprocess.STDOUT,
        env=clean_env(),
        cwd=Path(__file__).parents[2],
    )
    client = Client(
        context(), TransportConfig(request_timeout_s=5, request_retries=10), Metrics("actor"), hub
    )
    try:
        grant = client.request(
            LeaseRequest(request_id=new_id(), actor_id="a0", max_groups=2), expect=LeaseGrant
        )
        group = _poison(grant.leases[0])  # a good one
        (flags / "bug").touch()  # a bug met by one message: answered, the hub serves on
        with pytest.raises(RequestRejected, match="internal.*KeyError"):
            client.request(group, expect=Ack)
        (flags / "bug").unlink()
        filler = _filled(tmpfs)  # a full disk: busy, resent later, then accepted
        with pytest.raises(RequestRejected) as busy:
            client.request(group, expect=Ack)
        assert busy.value.reply.code == "busy" and "disk full" in busy.value.reply.message
        assert str(tmpfs / "groups") in busy.value.reply.message
        assert not list((tmpfs / "groups").glob("*.tmp")) and not list(
            (tmpfs / "groups").glob("*.grp")
        )
        filler.unlink()
        assert client.request(group, expect=Ack).outcome == "accepted"
        assert (tmpfs / "groups" / f"{group.group_id}.grp").exists()
        (flags / "die").touch()  # the thread itself fails: the process exits, loudly
        assert proc.wait(timeout=20) == 70, log.read_text()[-3000:]
        assert "hub server thread died" in log.read_text()
    finally:
        client.close()
        if proc.poll() is None:
            proc.kill()
            proc.wait()


def test_a_held_request_that_fails_is_answered_and_the_hub_serves_on(tmp_path):
    """A bucket request held while its bucket is packed is served outside the message loop
    proper; one that fails there is answered `internal` and counted like any other."""
    flags, hub = tmp_path / "flags", f"tcp://127.0.0.1:{_port()}"
    flags.mkdir()
    (flags / "held_bug").touch()
    log = tmp_path / "hub.log"
    proc = subprocess.Popen(
        [
            sys.executable,
            str(Path(__file__).with_name("hub_fault_server.py")),
            str(tmp_path / "groups"),
            hub,
            str(flags),
        ],
        stdout=open(log, "wb"),
        stderr=subprocess.STDOUT,
        env=clean_env(),
        cwd=Path(__file__).parents[2],
    )
    client = Client(
        context(), TransportConfig(request_timeout_s=5, request_retries=10), Metrics("actor"), hub
    )
    try:
        grant = client.request(
            LeaseRequest(request_id=new_id(), actor_id="a0", max_groups=1), expect=LeaseGrant
        )  # resent until the hub is up
        with pytest.raises(RequestRejected, match="internal.*KeyError"):
            client.request(WeightBucketRequest(request_id=new_id(), version=0, index=0), retries=0)
        assert proc.poll() is None, log.read_text()[-3000:]
        assert client.request(_poison(grant.leases[0]), expect=Ack).outcome == "accepted"
    finally:
        client.close()
        proc.kill()
        proc.wait()


def test_full_disk_fails_the_run_with_a_summary_and_no_traceback(tmp_path, tmpfs):
    cfg, hub = _run_config(tmp_path, max_steps=50)
    cfg["run_dir"] = str(tmpfs / "run")
    cfg["supervisor"].update(max_restarts=1)
    # the actor is told busy meanwhile, then the learner gives up (exit 70) after a few seconds,
    # not the 20 s this waited out before; where a checkpoint's write fails first it exits 1
    # at once: either way the run fails, which is what is asserted
    cfg["learner"]["hub"] = {"storage_give_up_s": 3}
    (tmp_path / "run.yaml").write_text(yaml.safe_dump(cfg))
    out = tmp_path / "run.out"
    sup = _krl("run", str(tmp_path / "run.yaml"), out=out)
    actor = ScriptedActor(hub, VOCAB)
    deadline = time.monotonic() + 200
    while _read(tmpfs / "run" / "learner" / "progress.json").get("learner_steps", 0) < 1:
        assert time.monotonic() < deadline and sup.poll() is None, out.read_text()[-3000:]
        actor.work_once()
    _filled(tmpfs)
    console = _run_to_end(sup, out, 200, actor)
    summary = _read(tmpfs / "run" / "summary.json")
    assert sup.returncode == 1, console[-3000:]
    assert summary["status"] == "failed" and "full" in summary["reason"], summary
    assert "Traceback" not in console and "FAILED" in console


def test_a_step_that_makes_the_weights_non_finite_stops_the_run(tmp_path):
    # Step 1 moves every weight by ~1e37 (still finite); step 2's forward overflows.
    cfg, hub = _run_config(tmp_path, max_steps=4, lr=1e37)
    (tmp_path / "run.yaml").write_text(yaml.safe_dump(cfg))
    out, run_dir = tmp_path / "run.out", tmp_path / "run"
    sup = _krl("run", str(tmp_path / "run.yaml"), out=out)
    console = _run_to_end(sup, out, 200, ScriptedActor(hub, VOCAB))
    summary = _read(run_dir / "summary.json")
    assert sup.returncode == 1 and summary["status"] == "failed", console[-3000:]
    assert summary["exit_codes"]["learner"] == [65] and summary["restarts"]["learner"] == 0
    assert "made the model state non-finite" in summary["reason"], summary["reason"]
    assert not list((run_dir / "checkpoints").glob("step_*")), "a non-finite state was saved"
    assert "Traceback" not in console
