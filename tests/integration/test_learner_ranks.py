"""`krl learner` as two real ranks (gloo on the CPU, a tiny model, ZeRO-3 and ZeRO-2), fed
over real sockets: both ranks stop at the step budget, every batch is trained once, the
collective checkpoint resumes both ranks, SIGTERM stops both at the same step with a
checkpoint, and the weights an actor pulls are the full gathered parameters, equal to what
`krl export` makes of the checkpoint at the same step."""

import hashlib
import json
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
import torch
import yaml
from proc_helpers import clean_env, scripted_learner_config
from proc_helpers import free_port as _port
from safetensors.torch import load_file
from scripted_actor import ScriptedActor

from actor.weight_sync import WeightSync
from common.config import TransportConfig
from common.metrics import Metrics
from learner.ledger import reconcile

pytestmark = pytest.mark.slow


def _start_ranks(cfg_path: Path, logs: list[Path]) -> list[subprocess.Popen]:
    """Both ranks of `krl learner`, as a launcher would start them on one node."""
    base = clean_env()
    master = str(_port())
    procs = []
    for rank, log in enumerate(logs):
        env = dict(
            base,
            RANK=str(rank),
            LOCAL_RANK=str(rank),
            WORLD_SIZE="2",
            MASTER_ADDR="127.0.0.1",
            MASTER_PORT=master,
        )
        procs.append(
            subprocess.Popen(
                [sys.executable, "-m", "launcher.cli", "learner", str(cfg_path)],
                stdout=open(log, "ab"),
                stderr=subprocess.STDOUT,
                env=env,
            )
        )
    return procs


def _tails(logs: list[Path]) -> str:
    return "\n".join(f"--- {p.name}\n{p.read_text()[-2500:]}" for p in logs)


def _progress(run_dir: Path) -> dict:
    try:
        return json.loads((run_dir / "learner" / "progress.json").read_text())
    except (OSError, ValueError):
        return {}


def _alive(procs, logs, deadline: float) -> None:
    assert all(p.poll() is None for p in procs), _tails(logs)
    assert time.monotonic() < deadline, "learner ranks made no progress\n" + _tails(logs)


def _kill(procs) -> None:
    for p in procs:
        if p.poll() is None:
            p.kill()
            p.wait()


def _feed(actor: ScriptedActor, groups: int, procs, logs, deadline: float) -> None:
    """Until `groups` groups were accepted in all: the data of groups // 2 steps and never
    a whole step more (a call adds at most 2), so the test knows where the ranks stop."""
    while len(actor.accepted) < groups:
        _alive(procs, logs, deadline)
        actor.work_once()


def _finish(procs, logs, deadline: float) -> None:
    """Wait for both ranks to exit; both must exit 0."""
    try:
        while any(p.poll() is None for p in procs):
            assert time.monotonic() < deadline, "ranks did not stop\n" + _tails(logs)
            time.sleep(0.2)
    finally:
        _kill(procs)
    assert [p.returncode for p in procs] == [0, 0], _tails(logs)


def _pull(sync: WeightSync, version: int, procs, logs, deadline: float) -> dict:
    """The full weights of `version` as an actor gets them (every bucket checksum-verified;
    as deltas against the version pulled before, if the hub offers them)."""
    while True:
        _alive(procs, logs, deadline)
        ann = sync.poll(0.5)
        if ann is not None and ann.version == version:
            buckets = sync.pull(ann)
            assert buckets is not None, "pull failed"
            sync.loaded(ann.version, ann.hub_id)
            return {n: t.clone() for b in buckets for n, t in b.tensors()}
        assert ann is None or ann.version < version, f"version {ann.version} came unasked"


def _digest(t: torch.Tensor) -> str:
    return hashlib.sha256(t.contiguous().view(torch.uint8).numpy().tobytes()).hexdigest()


def _check_groups(run_dir: Path, steps: int) -> dict:
    final = _progress(run_dir)
    assert final["learner_steps"] == steps and final["policy_version"] == steps
    assert [h["step"] for h in final["history"]] == list(range(1, steps + 1))
    assert all(len(h["groups"]) == 2 for h in final["history"]), final["history"]
    fate = reconcile(run_dir)
    assert fate["trained"] == 2 * steps
    assert fate["trained_twice"] == fate["lost"] == fate["not_accepted"] == 0, fate
    assert fate["ledger_matches_learner"], fate
    return final


@pytest.mark.parametrize("zero_stage", [3, 2])
def test_two_learner_ranks_train_checkpoint_resume_and_publish_full_weights(tmp_path, zero_stage):
    sys.path.insert(0, str(Path(__file__).parents[1] / "unit" / "learner"))
    from learner_helpers import VOCAB, make_tiny_model

    model = make_tiny_model(tmp_path / "model")
    hub, pub = f"tcp://127.0.0.1:{_port()}", f"tcp://127.0.0.1:{_port()}"
    run_dir = tmp_path / "run"
    cfg = scripted_learner_config(
        run_dir,
        model,
        hub,
        pub,
        max_steps=3,
        checkpoint_keep=4,
        metrics={"enabled": False},
        hub={"bucket_bytes": 1 << 20, "announce_interval_s": 0.2, "keep_weight_versions": 8},
        trainer={"zero_stage": zero_stage, "micro_batch_tokens": 64},
    )
    cfg_path = tmp_path / "run.yaml"
    cfg_path.write_text(yaml.safe_dump(cfg))
    logs = [tmp_path / f"rank{r}.log" for r in range(2)]
    actor = ScriptedActor(hub, VOCAB)
    actor_metrics = Metrics("actor")
    sync = WeightSync(
        hub, pub, TransportConfig(request_timeout_s=2, request_retries=3), actor_metrics
    )
    deadline = time.monotonic() + 240

    procs = _start_ranks(cfg_path, logs)
    try:
        _feed(actor, 2, procs, logs, deadline)  # step 1
        _pull(sync, 1, procs, logs, deadline)
        _feed(actor, 4, procs, logs, deadline)  # step 2 only: v2 stays the newest
        published = _pull(sync, 2, procs, logs, deadline)  # as deltas against v1
        _feed(actor, 6, procs, logs, deadline)
    except BaseException:
        _kill(procs)
        raise
    _finish(procs, logs, deadline)
    _check_groups(run_dir, 3)
    assert "learner stopped at step 3" in logs[1].read_text()  # rank 1 kept to the budget too

    # The published weights are whole (not ZeRO-3 partitions) and are the checkpoint's,
    # v2 rebuilt from deltas against v1 included.
    delta_buckets = actor_metrics.registry.get_sample_value(
        "krl_actor_weight_buckets_total", {"encoding": "delta"}
    )
    assert delta_buckets and delta_buckets > 0
    base = load_file(str(Path(model) / "model.safetensors"))
    assert published.keys() <= base.keys() and "model.embed_tokens.weight" in published
    assert {n: t.shape for n, t in published.items()} == {n: base[n].shape for n in published}
    step2 = run_dir / "checkpoints" / "step_00000002"
    assert (step2 / "COMPLETE").is_file()
    out = tmp_path / "export2"
    done = subprocess.run(
        [sys.executable, "-m", "launcher.cli", "export", str(step2), str(out)],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    exported = load_file(str(out / "model.safetensors"))
    assert {n: _digest(t) for n, t in published.items()} == {
        n: _digest(exported[n]) for n in published
    }
    assert any(not torch.equal(t, base[n]) for n, t in published.items()), "nothing was trained"

    # Both ranks again with a larger budget: they resume from step 3; SIGTERM to both (as a
    # launcher sends it) while they wait for step 5's data: both checkpoint step 4, exit 0.
    cfg["learner"]["max_steps"] = 5
    cfg_path.write_text(yaml.safe_dump(cfg))
    procs = _start_ranks(cfg_path, logs)
    try:
        _feed(actor, 8, procs, logs, deadline + 120)
        while _progress(run_dir).get("learner_steps") != 4:
            _alive(procs, logs, deadline + 120)
            time.sleep(0.2)
        for p in procs:
            p.send_signal(signal.SIGTERM)
    except BaseException:
        _kill(procs)
        raise
    _finish(procs, logs, deadline + 120)
    assert all("resumed from" in log.read_text() for log in logs), _tails(logs)
    assert "step_00000003 (step 3)" in logs[1].read_text()
    assert all("learner stopped at step 4" in log.read_text() for log in logs), _tails(logs)
    assert (run_dir / "checkpoints" / "step_00000004" / "COMPLETE").is_file()

    # Once more: both resume from step 4 and reach the budget.
    procs = _start_ranks(cfg_path, logs)
    try:
        _feed(actor, 10, procs, logs, deadline + 240)
    except BaseException:
        _kill(procs)
        raise
    _finish(procs, logs, deadline + 240)
    sync.close()
    assert "step_00000004 (step 4)" in logs[1].read_text()
    _check_groups(run_dir, 5)
