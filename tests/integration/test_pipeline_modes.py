"""The two switches benchmarks/pipeline.py relies on, with real sockets and processes:
- learner.hub.synchronous: leases only to an actor holding the hub's newest weights
  (with max_staleness 0: lockstep), over the hub's real ROUTER;
- actor.simulate + evaluator.simulate: turns stretched to a simulated generation time on
  the session's real vLLM engine, every answer judged through a real broker by a real
  `krl evaluator` process that simulates its verdicts.
"""

from __future__ import annotations

import subprocess
import sys
import time
from pathlib import Path

import pytest
import torch
import yaml
from proc_helpers import free_port as _port

from actor.main import build_runner
from common.config import RunConfig, TransportConfig
from common.config.hub import HubConfig
from common.endpoint import Client
from common.messages import (
    Ack,
    LeaseGrant,
    LeaseRequest,
    ProblemPayload,
    Trajectory,
    TrajectoryGroup,
    Turn,
    new_id,
)
from common.metrics import Metrics
from common.problemset import builtin_problem, to_payload
from common.transport import context
from common.verdict import Verdict
from learner.group_store import GroupStore
from learner.hub import Hub, PromptSource
from learner.hub_server import HubServer

ROOT = Path(__file__).resolve().parents[2]
TRANSPORT = {"request_timeout_s": 2.0, "request_retries": 1, "heartbeat_interval_s": 0.5}


@pytest.fixture(params=[True, False], ids=["synchronous", "async"])
def hub(request, tmp_path):
    cfg = HubConfig(
        endpoint="tcp://127.0.0.1:0",
        publish_endpoint="tcp://127.0.0.1:0",
        retry_after_s=0.3,
        synchronous=request.param,
    )
    metrics = Metrics("learner")
    hub = Hub(
        cfg,
        groups_per_step=2,
        max_staleness=0,
        n_samples=1,
        max_turns=1,
        source=PromptSource([ProblemPayload(name="p", source="x")], seed=0),
        store=GroupStore(tmp_path / "groups"),
        metrics=metrics,
    )
    server = HubServer(hub, cfg, TransportConfig(**TRANSPORT), metrics)
    server.start()
    yield server
    server.stop()


def _lease(client, version: int) -> LeaseGrant:
    return client.request(
        LeaseRequest(request_id=new_id(), actor_id="a0", max_groups=4, policy_version=version),
        expect=LeaseGrant,
    )


def _group(lease, version: int) -> TrajectoryGroup:
    turn = Turn(
        prompt_ids=torch.arange(4, dtype=torch.int32),
        response_ids=torch.arange(3, dtype=torch.int32),
        logprobs=-torch.rand(3),
        versions=torch.full((3,), version, dtype=torch.int32),
        verdict=Verdict("ok", correct=True, reward=1.0),
    )
    return TrajectoryGroup(
        request_id=new_id(),
        group_id=new_id(),
        lease_id=lease.lease_id,
        prompt_id=lease.prompt_id,
        problem_name=lease.problem.name,
        actor_id="a0",
        trajectories=[Trajectory(sample_index=0, turns=[turn])],
    )


def test_synchronous_hub_leases_only_to_actors_with_the_newest_weights(hub):
    client = Client(context(), TransportConfig(**TRANSPORT), Metrics("actor"), hub.endpoint)
    try:
        first = _lease(client, 0)
        assert len(first.leases) == 2  # one batch: max_staleness 0
        assert _lease(client, 0).leases == []  # the batch is out: nothing more until it trains
        for lease in first.leases:
            assert client.request(_group(lease, 0), expect=Ack).outcome == "accepted"
        batch = hub.hub.take_batch(1.0)
        hub.hub.mark_trained([g.group_id for g in batch])  # version 1
        # Version 0 would be a version behind when the next batch trains: with staleness 0,
        # admission by the actor's weights refuses it as the synchronous switch does.
        behind = _lease(client, 0)
        assert behind.leases == [] and behind.retry_after_s == pytest.approx(0.3)
        assert behind.policy_version == 1
        assert len(_lease(client, 1).leases) == 2
    finally:
        client.close()


@pytest.fixture(scope="module")
def simulated_service(tmp_path_factory):
    """`krl broker` + one `krl evaluator` with evaluator.simulate (no sandbox to start)."""
    tmp = tmp_path_factory.mktemp("simulated_eval")
    tree = {
        "transport": TRANSPORT,
        "broker": {
            "frontend": f"tcp://127.0.0.1:{_port()}",
            "backend": f"tcp://127.0.0.1:{_port()}",
            "metrics": {"enabled": False},
        },
        "evaluator": {
            "device": "cpu",
            "metrics": {"enabled": False},
            "worker": {"slots": 8, "warm_up": False},
            "simulate": {"enabled": True, "latency_s": 0.3, "correct_prob": 1.0},
        },
    }
    path = tmp / "service.yaml"
    path.write_text(yaml.safe_dump(tree))
    procs = []
    with open(tmp / "service.log", "ab") as log:
        for args in (["broker", str(path)], ["evaluator", str(path)]):
            procs.append(
                subprocess.Popen(
                    [sys.executable, "-m", "launcher.cli", *args],
                    cwd=ROOT,
                    stdout=log,
                    stderr=subprocess.STDOUT,
                )
            )
    yield tree
    for p in procs:
        p.terminate()
    for p in procs:
        p.wait(timeout=30)


def test_simulated_generation_and_evaluation_on_the_real_engine(
    vllm_engine, session_loop, simulated_service
):
    cfg = RunConfig.model_validate(
        {
            "transport": TRANSPORT,
            "broker": simulated_service["broker"],
            "actor": {
                "sampling": {"max_tokens": 8, "seed": 0},
                "prompts": {"min_response_tokens": 8},
                "eval": {"device": "cpu", "timing": False, "profile": False, "deadline_s": 60},
                "simulate": {"generation_s": 0.5, "evaluate_every_answer": True},
            },
        }
    )
    runner = build_runner(cfg, vllm_engine, Metrics("actor"), "sim-test")
    problem = to_payload(builtin_problem("activation/relu"))
    try:
        t0 = time.perf_counter()
        episodes = session_loop.run_until_complete(_episodes(runner, problem))
        took = time.perf_counter() - t0
    finally:
        runner.judge.client.close()
    # Two samples at once, two turns each: >= 2 x (0.5 s generation + 0.3 s evaluation).
    assert took >= 1.6
    reward = cfg.evaluator.reward
    for ep in episodes:
        assert ep.end == "max_turns" and len(ep.turns) == 2
        for t in ep.turns:
            assert 0 < len(t.turn.response_ids) == len(t.turn.versions)
            v = t.verdict
            assert v.judged and v.status == "ok" and v.feedback.startswith("Simulated verdict")
            assert (
                reward.w_correct + reward.w_speed * 0.5
                <= v.reward
                <= reward.w_correct + reward.w_speed * 2.0
            )


async def _episodes(runner, problem):
    import asyncio

    return await asyncio.gather(*(runner.run(problem, i, 2, f"sim-{i}") for i in range(2)))
