"""What the actor integration tests share: a real evaluator service (`krl broker` + `krl
evaluator` subprocesses), a real hub (HubServer over real sockets, in this process), the
session engine's weights by version, and an actor run on the session loop until a driver
coroutine returns. The fixtures over them (`actor_service`, `actor_weights`) are in
conftest.py.
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

import torch
import yaml
from proc_helpers import free_port as _port
from prometheus_client.parser import text_string_to_metric_families
from safetensors.torch import load_file
from scripted_policy import scripted_weights

from actor.main import build, close
from common.buckets import Bucket
from common.config import RunConfig, TransportConfig
from common.config.hub import HubConfig
from common.metrics import Metrics
from common.problemset import builtin_problem, to_payload
from learner.group_store import GroupStore
from learner.hub import Hub, PromptSource
from learner.hub_server import HubServer

ROOT = Path(__file__).resolve().parents[2]
TRANSPORT = {
    "request_timeout_s": 1.0,
    "heartbeat_interval_s": 0.5,
    "heartbeat_misses": 4,
    "reconnect_max_s": 1.0,
}
ATOL, RTOL = 5e-4, 1e-4  # as in tests/unit/actor/test_engine.py (float32 CPU, summation order)


def scrape(port: int) -> dict[str, float]:
    text = urllib.request.urlopen(f"http://127.0.0.1:{port}/metrics", timeout=5).read().decode()
    return {
        s.name: s.value
        for f in text_string_to_metric_families(text)
        for s in f.samples
        if not s.labels
    }


class EvalService:
    """`krl broker` and one `krl evaluator` worker, subprocesses of this module."""

    def __init__(self, tmp: Path):
        self.tmp, self.procs = tmp, {}
        self.broker_metrics = _port()
        tree = {
            "transport": TRANSPORT,
            "broker": {
                "frontend": f"tcp://127.0.0.1:{_port()}",
                "backend": f"tcp://127.0.0.1:{_port()}",
                "metrics": {"port": self.broker_metrics},
                "cache_entries": 0,
            },
            "evaluator": {
                "device": "cpu",
                "children": 1,
                "timeout_s": 30,
                "metrics": {"enabled": False},
                "worker": {"warm_up": False, "cache_entries": 0},
                "sandbox": {"memory_limit_bytes": 3 << 30, "cpu_address_space_bytes": 6 << 30},
            },
        }
        self.path = tmp / "service.yaml"
        self.path.write_text(yaml.safe_dump(tree))
        self.frontend = tree["broker"]["frontend"]
        self._spawn("broker", ["broker", str(self.path)])

    def _spawn(self, name: str, args: list[str]) -> None:
        with open(self.tmp / f"{name}.log", "ab") as log:  # the child keeps its own copy
            self.procs[name] = subprocess.Popen(
                [sys.executable, "-m", "launcher.cli", *args],
                cwd=ROOT,
                stdout=log,
                stderr=subprocess.STDOUT,
            )

    def workers(self) -> float:
        try:
            return scrape(self.broker_metrics).get("krl_broker_workers", -1)
        except OSError:
            return -1

    def ensure_worker(self) -> None:
        if self.procs.get("worker") is None or self.procs["worker"].poll() is not None:
            self._spawn("worker", ["evaluator", str(self.path), "evaluator.worker.worker_id=w1"])
        until(lambda: self.workers() == 1, 120, "an evaluator worker registered")

    def kill_worker(self) -> None:
        """SIGKILL the worker, then wait until the broker has noticed (heartbeats)."""
        proc = self.procs["worker"]
        os.kill(proc.pid, signal.SIGKILL)
        proc.wait(timeout=30)
        until(lambda: self.workers() == 0, 30, "the broker to notice the dead worker")

    def broker_metric(self, name: str) -> float:
        return scrape(self.broker_metrics).get(name, 0.0)

    def stop(self) -> None:
        for proc in self.procs.values():
            if proc.poll() is None:
                proc.terminate()
        for proc in self.procs.values():
            proc.wait(timeout=30)


def until(cond, timeout: float, what: str) -> None:
    deadline = time.monotonic() + timeout
    while not cond():
        assert time.monotonic() < deadline, f"timed out waiting for {what}"
        time.sleep(0.1)


async def until_async(cond, timeout: float, what: str) -> None:
    deadline = time.monotonic() + timeout
    while not cond():
        assert time.monotonic() < deadline, f"timed out waiting for {what}"
        await asyncio.sleep(0.05)


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


class HubUnderTest:
    """A hub (bookkeeping + server thread) on free ports; restartable on the same ports."""

    def __init__(
        self,
        tmp: Path,
        problems: list[str],
        n_samples: int,
        max_turns: int,
        version: int = 0,
        **hub,
    ):
        self.cfg = HubConfig(
            endpoint="tcp://127.0.0.1:0",
            publish_endpoint="tcp://127.0.0.1:0",
            announce_interval_s=0.2,
            retry_after_s=0.2,
            bucket_bytes=1 << 20,
            **hub,
        )
        self.metrics = Metrics("learner")
        payloads = [to_payload(builtin_problem(p)) for p in problems]
        self.hub = Hub(
            self.cfg,
            4,
            1000,
            n_samples,
            max_turns,
            PromptSource(payloads, 0),
            GroupStore(tmp / "groups"),
            self.metrics,
        )
        self.hub.version = version  # the trainer's step: the session engine may hold a later one
        self.start()

    def start(self) -> None:
        self.server = HubServer(self.hub, self.cfg, TransportConfig(**TRANSPORT), self.metrics)
        self.server.start()
        self.cfg = self.cfg.model_copy(
            update={
                "endpoint": self.server.endpoint,
                "publish_endpoint": self.server.publish_endpoint,
            }
        )

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


def actor_config(hub: HubUnderTest, service: EvalService, **actor) -> RunConfig:
    tree = {
        "transport": TRANSPORT,
        "broker": {
            "frontend": service.frontend,
            "client": {
                "resend_interval_s": 1.0,
                "resend_max_s": 2.0,
                "unavailable_after_s": 30.0,
                "request_deadline_s": 120.0,
            },
        },
        "hub_link": {
            "endpoint": hub.cfg.endpoint,
            "publish_endpoint": hub.cfg.publish_endpoint,
            "relay_fanout": hub.cfg.relay_fanout,
        },
        "actor": {
            "model": "unused",
            "max_groups_in_flight": 1,
            "weight_poll_s": 0.1,
            "hub_retry_min_s": 0.2,
            "hub_retry_max_s": 1.0,
            "shutdown_timeout_s": 30,
            "sampling": {"max_tokens": 48},
            "eval": {"device": "cpu", "trials": 1, "timing": False, "profile": False},
            **actor,
        },
    }
    cfg = RunConfig.model_validate(tree)
    cfg.actor.prompts.min_response_tokens = 64
    return cfg


def run_actor(run, engine, cfg: RunConfig, driver) -> object:
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


def text_of(engine, ids: torch.Tensor) -> str:
    return engine.tokenizer.decode(ids.tolist())


def all_versions(group) -> set[int]:
    return {int(v) for tr in group.trajectories for t in tr.turns for v in t.versions}
