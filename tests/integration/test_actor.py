"""The actor with the real vLLM CPU engine (the session's one engine), the tiny model, a
real evaluator service (`krl broker` + `krl evaluator` subprocesses) and a real hub
(HubServer over real sockets, in this process).

The actor's loop runs in-process on `session_loop` with the shared engine (a second
engine does not fit this machine). The random tiny model writes no code, so its turns
are format errors judged by the actor itself; `scripted_policy.py` gives the same
architecture weights that write a fenced ModelNew block, which the evaluator judges.
Loading those weights through the hub is the weight-update path under test. The
evaluator's result caches are off, so every turn is really evaluated.
"""
from __future__ import annotations

import asyncio
import os
import signal
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest
import torch
import yaml
from proc_helpers import free_port as _port
from prometheus_client.parser import text_string_to_metric_families
from safetensors.torch import load_file
from scripted_policy import TEXT_UNIT, scripted_weights

from actor.main import build, build_runner, close
from common.buckets import Bucket
from common.config import RunConfig, TransportConfig
from common.config.hub import HubConfig
from common.metrics import Metrics
from common.problemset import builtin_problem, to_payload
from learner.group_store import GroupStore
from learner.hub import Hub, PromptSource
from learner.hub_server import HubServer

ROOT = Path(__file__).resolve().parents[2]
TRANSPORT = {"request_timeout_s": 1.0, "heartbeat_interval_s": 0.5, "heartbeat_misses": 4,
             "reconnect_max_s": 1.0}
ATOL, RTOL = 5e-4, 1e-4  # as in tests/unit/actor/test_engine.py (float32 CPU, summation order)


def _metrics(port: int) -> dict[str, float]:
    text = urllib.request.urlopen(f"http://127.0.0.1:{port}/metrics", timeout=5).read().decode()
    return {s.name: s.value for f in text_string_to_metric_families(text) for s in f.samples
            if not s.labels}


class EvalService:
    """`krl broker` and one `krl evaluator` worker, subprocesses of this module."""

    def __init__(self, tmp: Path):
        self.tmp, self.procs = tmp, {}
        self.broker_metrics = _port()
        tree = {"transport": TRANSPORT,
                "broker": {"frontend": f"tcp://127.0.0.1:{_port()}",
                           "backend": f"tcp://127.0.0.1:{_port()}",
                           "metrics": {"port": self.broker_metrics}, "cache_entries": 0},
                "evaluator": {"device": "cpu", "children": 1, "timeout_s": 30,
                              "metrics": {"enabled": False},
                              "worker": {"warm_up": False, "cache_entries": 0},
                              "sandbox": {"memory_limit_bytes": 3 << 30,
                                          "cpu_address_space_bytes": 6 << 30}}}
        self.path = tmp / "service.yaml"
        self.path.write_text(yaml.safe_dump(tree))
        self.frontend = tree["broker"]["frontend"]
        self._spawn("broker", ["broker", str(self.path)])

    def _spawn(self, name: str, args: list[str]) -> None:
        with open(self.tmp / f"{name}.log", "ab") as log:  # the child keeps its own copy
            self.procs[name] = subprocess.Popen([sys.executable, "-m", "common.cli", *args],
                                                cwd=ROOT, stdout=log, stderr=subprocess.STDOUT)

    def workers(self) -> float:
        try:
            return _metrics(self.broker_metrics).get("krl_broker_workers", -1)
        except OSError:
            return -1

    def ensure_worker(self) -> None:
        if self.procs.get("worker") is None or self.procs["worker"].poll() is not None:
            self._spawn("worker", ["evaluator", str(self.path), "evaluator.worker.worker_id=w1"])
        _until(lambda: self.workers() == 1, 120, "an evaluator worker registered")

    def kill_worker(self) -> None:
        """SIGKILL the worker, then wait until the broker has noticed (heartbeats)."""
        proc = self.procs["worker"]
        os.kill(proc.pid, signal.SIGKILL)
        proc.wait(timeout=30)
        _until(lambda: self.workers() == 0, 30, "the broker to notice the dead worker")

    def broker_metric(self, name: str) -> float:
        return _metrics(self.broker_metrics).get(name, 0.0)

    def stop(self) -> None:
        for proc in self.procs.values():
            if proc.poll() is None:
                proc.terminate()
        for proc in self.procs.values():
            proc.wait(timeout=30)


def _until(cond, timeout: float, what: str) -> None:
    deadline = time.monotonic() + timeout
    while not cond():
        assert time.monotonic() < deadline, f"timed out waiting for {what}"
        time.sleep(0.1)


async def _until_async(cond, timeout: float, what: str) -> None:
    deadline = time.monotonic() + timeout
    while not cond():
        assert time.monotonic() < deadline, f"timed out waiting for {what}"
        await asyncio.sleep(0.05)


@pytest.fixture(scope="module")
def service(tmp_path_factory):
    svc = EvalService(tmp_path_factory.mktemp("actor_eval"))
    try:
        svc.ensure_worker()
        yield svc
    finally:
        svc.stop()


class Weights:
    """Which weights the session engine holds, by version; restores the original at the end."""

    def __init__(self, engine, model_dir, run):
        self.engine, self.run = engine, run
        self.original = load_file(Path(model_dir) / "model.safetensors")
        self.scripted = scripted_weights(model_dir, engine.tokenizer)
        self.labels = {engine.version: "original"}  # the suite's contract: tests restore these

    @property
    def current(self) -> str:
        return self.labels.get(self.engine.version, "other")

    def use(self, which: str) -> None:
        if self.current != which:
            version = self.engine.version + 1
            tensors = self.original if which == "original" else self.scripted
            self.run(self.engine.load_weights(version, [Bucket.pack(tensors.items())]))
            self.labels[version] = which


@pytest.fixture(scope="module")
def weights(vllm_engine, tiny_model_dir, session_loop):
    w = Weights(vllm_engine, tiny_model_dir, session_loop.run_until_complete)
    yield w
    w.use("original")


class HubUnderTest:
    """A hub (bookkeeping + server thread) on free ports; restartable on the same ports."""

    def __init__(self, tmp: Path, problems: list[str], n_samples: int, max_turns: int,
                 version: int = 0, **hub):
        self.cfg = HubConfig(endpoint="tcp://127.0.0.1:0", publish_endpoint="tcp://127.0.0.1:0",
                             announce_interval_s=0.2, retry_after_s=0.2, bucket_bytes=1 << 20,
                             **hub)
        self.metrics = Metrics("learner")
        payloads = [to_payload(builtin_problem(p)) for p in problems]
        self.hub = Hub(self.cfg, 4, 1000, n_samples, max_turns, PromptSource(payloads, 0),
                       GroupStore(tmp / "groups"), self.metrics)
        self.hub.version = version  # the trainer's step: the session engine may hold a later one
        self.start()

    def start(self) -> None:
        self.server = HubServer(self.hub, self.cfg, TransportConfig(**TRANSPORT), self.metrics)
        self.server.start()
        self.cfg = self.cfg.model_copy(update={"endpoint": self.server.endpoint,
                                               "publish_endpoint": self.server.publish_endpoint})

    def stop(self) -> None:
        self.server.stop()

    def publish(self, version: int, named_tensors) -> int:
        """As the trainer does: its step count is the hub's version when it publishes (the
        hub accepts no token of a newer version than its own)."""
        with self.hub._lock:
            self.hub.version = version
        return self.server.publish(version, named_tensors)

    def groups(self) -> list:
        with self.hub._lock:
            return list(self.hub.buffer.values())


def _config(hub: HubUnderTest, service: EvalService, **actor) -> RunConfig:
    tree = {"transport": TRANSPORT,
            "broker": {"frontend": service.frontend,
                       "client": {"resend_interval_s": 1.0, "resend_max_s": 2.0,
                                  "unavailable_after_s": 30.0, "request_deadline_s": 120.0}},
            "learner": {"hub": {"endpoint": hub.cfg.endpoint,
                                "publish_endpoint": hub.cfg.publish_endpoint,
                                "relay_fanout": hub.cfg.relay_fanout}},
            "actor": {"model": "unused", "max_groups_in_flight": 1, "weight_poll_s": 0.1,
                      "hub_retry_min_s": 0.2, "hub_retry_max_s": 1.0, "shutdown_timeout_s": 30,
                      "sampling": {"max_tokens": 48},
                      "eval": {"device": "cpu", "trials": 1, "timing": False, "profile": False},
                      **actor}}
    cfg = RunConfig.model_validate(tree)
    cfg.actor.prompts.min_response_tokens = 64
    return cfg


def _run_actor(run, engine, cfg: RunConfig, driver) -> object:
    """Run an actor on the session engine until `driver(actor)` returns; then stop it."""
    actor = build(cfg, engine, Metrics("actor"), f"test-{os.getpid()}")

    async def go():
        async def drive():
            try:
                await driver(actor)
            finally:
                actor.request_stop()
        task = asyncio.create_task(drive())
        await actor.run()
        await task  # re-raises the driver's assertion errors

    try:
        run(go())
    finally:
        close(actor)
    return actor


def _text(engine, ids: torch.Tensor) -> str:
    return engine.tokenizer.decode(ids.tolist())


def _all_versions(group) -> set[int]:
    return {int(v) for tr in group.trajectories for t in tr.turns for v in t.versions}


def test_weight_update_through_the_hub_then_episodes_carry_evaluator_feedback(
        vllm_engine, session_loop, weights, service, tmp_path):
    weights.use("original")
    old = vllm_engine.version
    new = old + 1
    hub = HubUnderTest(tmp_path, ["activation/relu", "activation/gelu"], n_samples=2, max_turns=3)

    async def driver(actor):
        await _until_async(lambda: hub.groups(), 120, "a group from the random model")
        hub.publish(new, weights.scripted.items())
        await _until_async(lambda: any(_all_versions(g) == {new} for g in hub.groups()), 120,
                           "a group generated entirely by the published weights")

    try:
        actor = _run_actor(session_loop.run_until_complete, vllm_engine, _config(hub, service),
                           driver)
    finally:
        hub.stop()
    weights.labels[new] = "scripted"
    assert vllm_engine.version == new
    assert actor.metrics.registry.get_sample_value("krl_actor_weight_version") == new
    groups = hub.groups()
    before = [g for g in groups if _all_versions(g) == {old}]
    after = [g for g in groups if _all_versions(g) == {new}]
    assert before and after
    no_code = actor.runner.prompter.cfg.no_code_feedback
    for tr in before[0].trajectories:  # noise: judged by the actor, nothing sent to evaluate
        assert [t.status for t in tr.turns] == ["format_error"] * 3
        assert all(t.feedback == no_code for t in tr.turns)
        assert no_code in _text(vllm_engine, tr.turns[1].prompt_ids)
    for tr in after[0].trajectories:
        assert len(tr.turns) == 3
        for i, turn in enumerate(tr.turns):
            assert _text(vllm_engine, turn.response_ids).startswith(TEXT_UNIT * 2)
            assert turn.evaluated and turn.status == "format_error" and turn.reward == 0
            assert "forward" in turn.feedback and turn.feedback != no_code  # the evaluator's words
            assert turn.logprobs.shape == turn.versions.shape == turn.response_ids.shape
            assert 0 < turn.code_start < turn.response_ids.numel()
            if i:
                prev = tr.turns[i - 1]
                prompt = _text(vllm_engine, turn.prompt_ids)
                assert prev.feedback in prompt
                # The context only grows: the previous prompt is a token prefix of this one.
                assert torch.equal(turn.prompt_ids[: prev.prompt_ids.numel()], prev.prompt_ids)
    assert actor.outbox.outcomes and set(actor.outbox.outcomes.values()) == {"accepted"}


def test_recorded_logprobs_are_vllms_for_the_recorded_tokens(vllm_engine, session_loop, weights,
                                                              service, tiny_model_dir, tmp_path):
    from transformers import AutoModelForCausalLM

    weights.use("original")
    hub = HubUnderTest(tmp_path, ["activation/relu"], 1, 1)
    hub.stop()  # only its config is needed: no hub traffic here
    cfg = _config(hub, service, sampling={"max_tokens": 40, "min_tokens": 40, "seed": 7})
    runner = build_runner(cfg, vllm_engine, Metrics("actor"), "lp-test")
    problem = to_payload(builtin_problem("activation/relu"))
    try:
        episode = session_loop.run_until_complete(runner.run(problem, 1, 2, "lp"))
    finally:
        runner.judge.client.close()
    assert len(episode.turns) == 2
    model = AutoModelForCausalLM.from_pretrained(tiny_model_dir, dtype=torch.float32).eval()
    for i, record in enumerate(episode.turns):
        turn = record.to_wire()
        # vLLM's own answer to the same request (the seed the episode derived) is identical.
        again = session_loop.run_until_complete(vllm_engine.generate(
            record.prompt_ids, runner._sampling(1, i), f"lp-again-{i}"))
        assert again.token_ids == turn.response_ids.tolist()
        assert again.logprobs == pytest.approx(turn.logprobs.tolist(), abs=1e-6)
        # And they are the policy's logprobs of exactly these tokens in exactly this context,
        # which is what the learner recomputes.
        ids = torch.cat([turn.prompt_ids, turn.response_ids]).long()[None]
        with torch.no_grad():
            logits = model(ids).logits[0, turn.prompt_ids.numel() - 1:-1]
        eos = [vllm_engine.tokenizer.convert_tokens_to_ids(t) for t in ("<|im_end|>", "<|endoftext|>")]
        logits[:, eos] = float("-inf")  # min_tokens masks end-of-turn in vLLM
        ref = logits.log_softmax(-1).gather(-1, turn.response_ids.long()[:, None])[:, 0]
        assert ref.min() < -1.0  # not near-certain tokens: the comparison can fail
        torch.testing.assert_close(turn.logprobs, ref, atol=ATOL, rtol=RTOL)
        assert turn.versions.tolist() == [vllm_engine.version] * 40


def test_seeded_samples_differ_and_many_long_prompts_at_once_keep_the_engine_up(
        vllm_engine, session_loop, weights, service, tmp_path):
    """32 episodes with distinct long prompts and seeded sampling at once: whole prefills
    (vLLM 0.32's CPU runner dies on a seeded request whose prefill is split over steps)."""
    weights.use("original")
    hub = HubUnderTest(tmp_path, ["activation/relu"], 1, 1)
    hub.stop()  # only its config is needed
    runner = build_runner(_config(hub, service, sampling={"max_tokens": 16, "seed": 3}),
                          vllm_engine, Metrics("actor"), "seeds")
    names = ["activation/relu", "activation/gelu", "softmax/softmax", "reduction/sum_dim"]
    problems = [to_payload(builtin_problem(n)) for n in names]
    async def all_at_once():
        return await asyncio.gather(*(runner.run(p, s, 1, f"seeds-{i}-{s}")
                                      for i, p in enumerate(problems) for s in range(8)))

    run = session_loop.run_until_complete
    try:
        episodes = run(all_at_once())
        again = run(runner.run(problems[0], 0, 1, "seeds-again"))
    finally:
        runner.judge.client.close()
    answers = [tuple(e.turns[0].response_ids) for e in episodes]
    for i in range(len(problems)):
        assert len(set(answers[8 * i: 8 * i + 8])) == 8, "a group's samples must differ"
    assert tuple(again.turns[0].response_ids) == answers[0]  # reproducible per sample


def test_in_flight_update_tags_tokens_on_both_sides(vllm_engine, session_loop, weights, service,
                                                    tmp_path):
    weights.use("original")
    old, new = vllm_engine.version, vllm_engine.version + 1
    hub = HubUnderTest(tmp_path, ["activation/relu"], n_samples=1, max_turns=1)
    llm = vllm_engine._llm

    async def driver(actor):
        await _until_async(lambda: llm.output_processor.get_num_unfinished_requests() > 0, 60,
                           "the answer being generated")
        await asyncio.sleep(0.3)
        hub.publish(new, weights.scripted.items())
        await _until_async(lambda: hub.groups(), 120, "the group")

    try:
        _run_actor(session_loop.run_until_complete, vllm_engine,
                   _config(hub, service, sampling={"max_tokens": 2048, "min_tokens": 2048}), driver)
    finally:
        hub.stop()
    weights.labels[new] = "scripted"
    turn = hub.groups()[0].trajectories[0].turns[0]
    versions = turn.versions.tolist()
    n = len(versions)  # capped by the room the prompt leaves in max_model_len
    assert n > 1000
    switch = versions.index(new)
    assert 0 < switch < n - 50, "the update landed mid-answer"
    assert versions == [old] * switch + [new] * (n - switch)
    # Tokens after the switch come from the new weights: they write the script.
    assert "class ModelNew:" in _text(vllm_engine, turn.response_ids[switch:])
    assert "class ModelNew:" not in _text(vllm_engine, turn.response_ids[:switch])


def test_relayed_delta_update_lands_in_flight(vllm_engine, session_loop, weights, service,
                                             tmp_path):
    """Relay on, and a version published after one the actor holds: it arrives as deltas
    against the held buckets, rebuilt bit-exactly, and still lands mid-answer with every
    token tagged by the version that made it."""
    weights.use("original")
    base, new = vllm_engine.version + 1, vllm_engine.version + 2
    hub = HubUnderTest(tmp_path, ["activation/relu"], n_samples=1, max_turns=1, relay_fanout=1)
    llm = vllm_engine._llm

    async def driver(actor):
        hub.publish(base, weights.original.items())
        await _until_async(lambda: vllm_engine.version == base and hub.groups(), 180,
                           "the base version loaded and a first group")
        await _until_async(lambda: llm.output_processor.get_num_unfinished_requests() > 0, 60,
                           "the next answer being generated")
        await asyncio.sleep(0.3)
        hub.publish(new, weights.scripted.items())
        await _until_async(lambda: len(hub.groups()) >= 2, 180, "the second group")

    try:
        actor = _run_actor(session_loop.run_until_complete, vllm_engine,
                           _config(hub, service, sampling={"max_tokens": 2048, "min_tokens": 2048}),
                           driver)
    finally:
        hub.stop()
    weights.labels[new] = "scripted"
    buckets = actor.metrics.registry.get_sample_value
    assert buckets("krl_actor_weight_buckets_total", {"encoding": "delta"}) > 0
    turn = hub.groups()[1].trajectories[0].turns[0]
    versions = turn.versions.tolist()
    switch = versions.index(new)
    assert 0 < switch < len(versions) - 50, "the update landed mid-answer"
    assert versions == [base] * switch + [new] * (len(versions) - switch)
    assert "class ModelNew:" in _text(vllm_engine, turn.response_ids[switch:])
    assert "class ModelNew:" not in _text(vllm_engine, turn.response_ids[:switch])


def test_learner_rollback_the_actor_loads_the_hubs_lower_version(vllm_engine, session_loop,
                                                                 weights, service, tmp_path):
    """The hub publishes v1 and v2, then a learner restart brings a new hub incarnation
    that publishes v1' (other weights, the checkpoint's): the actor loads v1' although it
    holds v2, its next groups carry v1' and are the new weights' answers, and a group
    that was being generated by the discarded v2 is counted stale, not trained."""
    weights.use("original")
    v1, v2 = vllm_engine.version + 1, vllm_engine.version + 2
    hub = HubUnderTest(tmp_path, ["activation/relu", "activation/gelu"], n_samples=1, max_turns=1)
    seen = {}

    async def driver(actor):
        hub.publish(v1, weights.original.items())
        hub.publish(v2, weights.original.items())
        await _until_async(lambda: vllm_engine.version == v2 and actor.groups, 60, "v2 running")
        seen["before"] = {g.group_id for g in hub.groups()}
        seen["running"] = len(actor.groups)
        hub.stop()
        hub.start()  # the restarted learner's hub, at its checkpoint's version
        hub.publish(v1, weights.scripted.items())
        await _until_async(lambda: [g for g in hub.groups() if g.group_id not in seen["before"]],
                           120, "a group accepted by the new hub")

    try:
        actor = _run_actor(session_loop.run_until_complete, vllm_engine, _config(hub, service),
                           driver)
    finally:
        hub.stop()
    weights.labels[v1] = "scripted"
    assert vllm_engine.version == v1
    after = [g for g in hub.groups() if g.group_id not in seen["before"]]
    for g in after:
        assert _all_versions(g) == {v1} and not g.rolled_back
        assert g.weights.get(hub.server.hub_id) == v1
        text = _text(vllm_engine, g.trajectories[0].turns[0].response_ids)
        assert text.startswith(TEXT_UNIT), "v1' is the scripted weights, not the old v1"
        assert g.evaluations == 1  # its one answer was judged by the evaluator
    assert seen["running"] >= 1
    assert "stale" in actor.outbox.outcomes.values(), "the group made by v2 was not dropped"


def test_killed_evaluator_worker_loses_no_turn(vllm_engine, session_loop, weights, service,
                                               tmp_path):
    weights.use("scripted")
    service.ensure_worker()
    deaths = service.broker_metric("krl_broker_worker_deaths_total")
    hub = HubUnderTest(tmp_path, ["activation/silu"], n_samples=2, max_turns=3,
                       version=vllm_engine.version)
    llm = vllm_engine._llm

    async def driver(actor):
        await _until_async(lambda: llm.output_processor.get_num_unfinished_requests() > 0, 60,
                           "the episodes generating")
        await asyncio.to_thread(service.kill_worker)  # SIGKILL mid-episode
        waiting = lambda: actor.metrics.registry.get_sample_value("krl_actor_eval_in_flight")
        await _until_async(lambda: waiting() and waiting() > 0, 60, "evaluations waiting")
        await asyncio.sleep(1.0)
        assert not hub.groups(), "nothing can finish without a worker"
        await asyncio.to_thread(service.ensure_worker)
        await _until_async(lambda: hub.groups(), 120, "the group")

    try:
        _run_actor(session_loop.run_until_complete, vllm_engine, _config(hub, service), driver)
    finally:
        hub.stop()
    groups = hub.groups()
    assert groups
    for group in groups:
        assert [len(tr.turns) for tr in group.trajectories] == [3, 3]
        assert all(t.evaluated and "forward" in t.feedback
                   for tr in group.trajectories for t in tr.turns)
    assert service.broker_metric("krl_broker_worker_deaths_total") == deaths + 1

    # No worker comes back this time: the turn's deadline passes, the turn is marked
    # unevaluated, its episode ends there, and the group still reaches the hub.
    service.kill_worker()
    hub = HubUnderTest(tmp_path / "second", ["activation/elu"], n_samples=1, max_turns=3,
                       version=vllm_engine.version)

    async def wait_group(actor):
        await _until_async(lambda: hub.groups(), 60, "the group")

    try:
        _run_actor(session_loop.run_until_complete, vllm_engine,
                   _config(hub, service, eval={"device": "cpu", "trials": 1, "deadline_s": 3.0}),
                   wait_group)
    finally:
        hub.stop()
        service.ensure_worker()
    for group in hub.groups():
        (turn,) = group.trajectories[0].turns
        assert not turn.evaluated and turn.status == "unevaluated"


def test_unreachable_broker_is_retried_within_the_turn_deadline(vllm_engine, session_loop,
                                                                weights, service, tmp_path):
    weights.use("scripted")
    service.ensure_worker()
    hub = HubUnderTest(tmp_path, ["activation/relu"], 1, 1)
    hub.stop()  # only its config is needed
    cfg = _config(hub, service, eval={"device": "cpu", "trials": 1, "deadline_s": 90.0,
                                      "retry_min_s": 0.2, "retry_max_s": 1.0})
    cfg.broker.client.unavailable_after_s = 1.0
    metrics = Metrics("actor")
    runner = build_runner(cfg, vllm_engine, metrics, "unreachable")
    problem = to_payload(builtin_problem("activation/sigmoid_bf16"))
    gave_up = lambda: metrics.registry.get_sample_value(
        "krl_actor_eval_requests_total", {"outcome": "unavailable"}) or 0
    proc = service.procs["broker"]
    os.kill(proc.pid, signal.SIGSTOP)  # silent, as a hung or partitioned broker is

    async def scenario():
        episode = asyncio.create_task(runner.run(problem, 0, 2, "unreachable"))
        await _until_async(lambda: gave_up() >= 2, 60, "the client giving up, then retrying")
        assert not episode.done()
        os.kill(proc.pid, signal.SIGCONT)
        return await episode

    try:
        episode = session_loop.run_until_complete(scenario())
    finally:
        os.kill(proc.pid, signal.SIGCONT)
        runner.judge.client.close()
    assert [t.verdict.evaluated for t in episode.turns] == [True, True]
    assert all("forward" in t.verdict.feedback for t in episode.turns)


def test_finished_groups_survive_a_hub_outage(vllm_engine, session_loop, weights, service,
                                              tmp_path):
    weights.use("original")  # format errors judged by the actor: no evaluator involved
    hub = HubUnderTest(tmp_path, ["activation/relu", "activation/gelu"], n_samples=2, max_turns=1,
                       version=vllm_engine.version)
    held = {}

    async def driver(actor):
        await _until_async(lambda: hub.hub.leases, 60, "a lease")
        await asyncio.to_thread(hub.stop)
        await _until_async(lambda: len(actor.outbox) >= 1, 60, "a finished group")
        sent = actor.outbox._m_sent._value.get()
        await _until_async(lambda: actor.outbox._m_sent._value.get() >= sent + 2, 30,
                           "failed resends while the hub is down")
        held.update(actor.outbox.groups)
        await asyncio.to_thread(hub.start)
        await _until_async(lambda: all(g in actor.outbox.outcomes for g in held), 60,
                           "the held groups acked after the hub came back")

    try:
        actor = _run_actor(session_loop.run_until_complete, vllm_engine,
                           _config(hub, service, max_groups_in_flight=2, sampling={"max_tokens": 16}),
                           driver)
    finally:
        hub.stop()
    stored = {g.group_id for g in hub.groups()}
    assert held and set(held) <= stored
    # Stored once each; a group the hub stored just before stopping, whose ack was lost,
    # comes back as a duplicate of itself.
    assert all(actor.outbox.outcomes[g] in ("accepted", "duplicate") for g in held)
    assert len(actor.outbox) == 0


def test_krl_actor_command_line(tmp_path):
    def krl(*args):
        return subprocess.run([sys.executable, "-m", "common.cli", "actor", *args], cwd=ROOT,
                              check=False,
                              capture_output=True, text=True, timeout=60)

    help_ = krl("--help")
    assert help_.returncode == 0 and "overrides" in help_.stdout
    cfg = tmp_path / "run.yaml"
    cfg.write_text("actor: {max_turns: 3}\n")
    missing = krl(str(cfg))
    assert missing.returncode == 2 and "actor.model is not set" in missing.stderr
    bad = krl(str(cfg), "actor.model=x", "actor.prompts.feedback_template=no placeholder")
    assert bad.returncode == 2 and "feedback_template" in bad.stderr
    typo = krl(str(cfg), "actor.max_groups_in_flite=2")
    assert typo.returncode == 2 and "max_groups_in_flite" in typo.stderr


def test_benchmark_episodes_report_and_scaling_window(vllm_engine, session_loop, weights, service,
                                                      tmp_path):
    from actor.bench_report import report, write
    from actor.benchmark import run_episodes

    weights.use("scripted")
    service.ensure_worker()
    hub = HubUnderTest(tmp_path, ["activation/relu"], 1, 1)
    hub.stop()  # only its config is needed
    runner = build_runner(_config(hub, service), vllm_engine, Metrics("benchmark"), "bench-test")
    problems = [to_payload(builtin_problem(p)) for p in ("activation/relu", "activation/gelu")]
    run = session_loop.run_until_complete
    try:
        base = run(run_episodes(runner, problems, 2, 2, None, 8, "multi-turn"))
        scaling = run(run_episodes(runner, problems, 1, 4, 2, 8, "scaling"))
        # The scaling context shows at most `window` earlier answers.
        episode = run(runner.run(problems[0], 0, 4, "window", window=2))
    finally:
        runner.judge.client.close()
    assert [(e.problem, e.sample) for e in base] == [(p.name, s) for p in problems for s in (0, 1)]
    assert all(len(e.turns) == 2 and e.end == "max_turns" for e in base)
    assert all(len(e.turns) == 4 for e in scaling)
    answers_shown = [_text(vllm_engine, t.to_wire().prompt_ids).count("assistant\n") - 1
                     for t in episode.turns]
    assert answers_shown == [0, 1, 2, 2]
    meta = {"model": "scripted", "problems": "two", "num_problems": 2, "samples": 2, "turns": 2,
            "scaling_turns": 4, "window": 2, "device": "cpu"}
    rep = report(meta, base, 2, scaling, 4)
    assert rep["multi_turn"]["statuses"] == {"format_error": 8}  # judged by the evaluator
    assert rep["multi_turn"]["best_over_turns"]["0"] == 0.0
    assert [r["episodes_reaching_turn"] for r in rep["scaling"]["per_turn"]] == [2, 2, 2, 2]
    paths = write(rep, tmp_path / "report")
    assert "Sequential test-time scaling (window 2)" in (tmp_path / "report" / "report.md").read_text()
    assert paths[-1].name == "fast_by_turn.png" and paths[-1].read_bytes()[:4] == b"\x89PNG"
