"""The evaluator service with real processes and sockets on the CPU: `krl broker` plus two
`krl evaluator` workers (Triton interpreter), driven through common.eval_client.

One broker and two workers serve the whole module (start-up costs seconds); the fault
tests kill and restart them by the pids this module started, and later tests rely on
the replacements. Candidates get a unique comment so each test misses the caches
unless it means to hit them.
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

import msgspec
import pytest
import yaml
import zmq
from proc_helpers import free_port as _port
from prometheus_client.parser import text_string_to_metric_families

from common.config import RunConfig, load
from common.eval_client import EvalClient, EvaluationTimeout, EvaluatorUnavailable
from common.messages import (
    PROTOCOL_VERSION,
    ErrorReply,
    EvalRequest,
    EvalSettings,
    decode,
    encode,
    new_id,
)
from common.problemset import builtin_problem, to_payload

ROOT = Path(__file__).resolve().parents[2]
# Untimed: these tests are about who finishes the work, not a speedup. Timing on the CPU
# interpreter was 70-75% of an ok evaluation (relu 1.7 s against 5.6 s, softmax 5 s against
# 19 s, session 65) and the module runs ~30 of them; one timed request (TIMED, in the
# concurrent test) still proves a timed verdict crosses broker and worker.
SETTINGS = EvalSettings(device="cpu", trials=1, timeout_s=90, timing=False, profile=False)
TIMED = EvalSettings(device="cpu", trials=1, timeout_s=90)
PROBLEMS = [
    "activation/relu",
    "activation/gelu",
    "activation/silu",
    "elementwise/scale_bias",
    "reduction/sum_dim",
    "softmax/softmax",
]


def _metrics(port: int) -> dict[str, float]:
    """name{labels} -> value from a /metrics endpoint (labels sorted, comma-joined)."""
    text = urllib.request.urlopen(f"http://127.0.0.1:{port}/metrics", timeout=5).read().decode()
    out: dict[str, float] = {}
    for family in text_string_to_metric_families(text):
        for s in family.samples:
            labels = ",".join(f"{k}={v}" for k, v in sorted(s.labels.items()))
            out[f"{s.name}{{{labels}}}" if labels else s.name] = s.value
    return out


class Service:
    """A broker and named workers as subprocesses of this test module."""

    def __init__(self, tmp: Path):
        self.tmp = tmp
        self.procs: dict[str, subprocess.Popen] = {}
        self.ports = {"frontend": _port(), "backend": _port(), "broker": _port()}
        self.tree = {
            "transport": {"heartbeat_interval_s": 0.5, "heartbeat_misses": 4},
            "broker": {
                "frontend": f"tcp://127.0.0.1:{self.ports['frontend']}",
                "backend": f"tcp://127.0.0.1:{self.ports['backend']}",
                "metrics": {"port": self.ports["broker"]},
                "client": {
                    "resend_interval_s": 1.0,
                    "resend_max_s": 2.0,
                    "unavailable_after_s": 30.0,
                    "request_deadline_s": 300.0,
                },
            },
            # an evaluation's own limit is wide: these tests are about who finishes the work, and
            # a relu beside the suite's integration tests on 2 cores ran past 30 s once (session
            # 38). No depth trials (as test_chaos and the demo): they judge a candidate's numbers at
            # the declared sizes (tests/unit/evaluator/test_depth_trials.py and the hack corpus's
            # depth files), which no test here reads, and each ok here ran them: a fresh child and
            # a trial per shrunk size (gelu: 13.8 s of depth against 3 s for the rest, warm). The
            # module's first two tests took 426 s (the first out of its 300 s request deadline) +
            # 304 s with them, 229 s + 140 s without, one after the other on a loaded 2-core box
            # (session 62); the whole tree's CPU 107 s against 65 s
            "evaluator": {
                "device": "cpu",
                "children": 2,
                "timeout_s": 90,
                "startup_timeout_s": 120,
                "correctness": {"depth": {"enabled": False}},
                "sandbox": {"memory_limit_bytes": 3 << 30, "cpu_address_space_bytes": 6 << 30},
            },
        }
        self.cfg_path = tmp / "run.yaml"
        self.cfg_path.write_text(yaml.safe_dump(self.tree))
        self.cfg = load(self.cfg_path, [], RunConfig)

    def _spawn(self, name: str, args: list[str]) -> subprocess.Popen:
        log = open(self.tmp / f"{name}.log", "ab")
        proc = subprocess.Popen(
            [sys.executable, "-m", "launcher.cli", *args],
            cwd=ROOT,
            stdout=log,
            stderr=subprocess.STDOUT,
        )
        self.procs[name] = proc
        return proc

    def start_broker(self) -> None:
        self._spawn("broker", ["broker", str(self.cfg_path)])
        _until(lambda: self._health("broker") is not None, 30, "broker up")

    def start_worker(self, name: str) -> None:
        self.ports[name] = _port()
        self._spawn(
            name,
            [
                "evaluator",
                str(self.cfg_path),
                f"evaluator.worker.worker_id={name}",
                f"evaluator.metrics.port={self.ports[name]}",
            ],
        )

    def _health(self, name: str):
        try:
            urllib.request.urlopen(f"http://127.0.0.1:{self.ports[name]}/health", timeout=2).read()
            return True
        except OSError:
            return None

    def wait_workers(self, n: int, timeout: float = 120) -> None:
        _until(
            lambda: self.metrics("broker").get("krl_broker_workers") == n, timeout, f"{n} workers"
        )

    def metrics(self, name: str) -> dict[str, float]:
        return _metrics(self.ports[name])

    def evaluations(self) -> float:
        return sum(
            self.metrics(w).get("krl_evaluator_evaluations_total", 0)
            for w in ("w1", "w2")
            if self.procs[w].poll() is None
        )

    def kill(self, name: str, sig: int = signal.SIGKILL) -> None:
        proc = self.procs[name]
        if proc.poll() is None:
            proc.send_signal(sig)
        proc.wait(timeout=60)

    def client(self, **overrides) -> EvalClient:
        cfg = self.cfg.broker.model_copy(
            update={"client": self.cfg.broker.client.model_copy(update=overrides)}
        )
        return EvalClient(cfg, self.cfg.transport, client_id="test")


def _until(cond, timeout: float, what: str, every: float = 0.1) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            if cond():
                return
        except OSError:
            pass
        time.sleep(every)
    raise AssertionError(f"timed out waiting for {what}")


def _descendants(pid: int) -> list[int]:
    out, todo = [], [pid]
    while todo:
        p = todo.pop()
        for task in Path(f"/proc/{p}/task").glob("*"):
            try:
                kids = [int(k) for k in (task / "children").read_text().split()]
            except OSError:
                kids = []
            out += kids
            todo += kids
    return out


@pytest.fixture(scope="module")
def service(tmp_path_factory):
    svc = Service(tmp_path_factory.mktemp("eval_service"))
    svc.start_broker()
    svc.start_worker("w1")
    svc.start_worker("w2")
    try:
        svc.wait_workers(2)
        yield svc
    finally:
        for name in list(svc.procs):
            svc.kill(name, signal.SIGTERM)


def _candidate(name: str, tag: str, variant: str = "solution") -> str:
    source = builtin_problem(name).solution
    if variant == "incorrect":
        source = source.replace("tl.maximum(x, 0.0)", "tl.maximum(x, 0.5)")
        assert "0.5)" in source
    elif variant == "compile_error":
        source = source.replace(
            "def forward(self, x: torch.Tensor)", "def forward(self, x: torch.Tensor"
        )
    elif variant == "format_error":
        source = "import torch\nx = 1\n"
    elif variant == "segfault":
        source = source.replace(
            "tl.load(x_ptr + offs, mask=mask)", "tl.load(x_ptr + offs + (1 << 44))"
        )
        assert "1 << 44" in source
    return f"{source}\n# {tag}\n"


async def _evaluate_all(client: EvalClient, jobs: list[tuple[str, str]], timed: int = -1):
    """Every job's result; job `timed` (if any) is evaluated with timing on."""
    return await asyncio.gather(
        *(
            client.evaluate(
                to_payload(builtin_problem(name)), cand, TIMED if i == timed else SETTINGS
            )
            for i, (name, cand) in enumerate(jobs)
        )
    )


def test_concurrent_requests_are_spread_over_both_workers(service):
    tag = new_id()
    jobs = [(name, _candidate(name, tag)) for name in PROBLEMS]
    expected = ["ok"] * len(jobs)
    for variant in ("incorrect", "compile_error", "format_error"):
        jobs.append(("activation/relu", _candidate("activation/relu", tag, variant)))
        expected.append(variant)
    with service.client() as client:
        t0 = time.monotonic()
        results = asyncio.run(_evaluate_all(client, jobs, timed=0))
        elapsed = time.monotonic() - t0
    assert [r.verdict.status for r in results] == expected, [
        r.verdict.feedback[:300] for r in results
    ]
    assert all(r.verdict.reward > 0 for r in results if r.verdict.status == "ok")
    # the timed one carries its speedup; the untimed ones none (the setting reached the worker)
    assert results[0].verdict.speedup is not None and "timing" in results[0].verdict.phase_seconds
    assert all(r.verdict.speedup is None for r in results[1 : len(PROBLEMS)])
    assert {r.worker_id for r in results} == {"w1", "w2"}
    assert all(r.verdict.phase_seconds["total"] > 0 for r in results)
    print(f"{len(jobs)} evaluations over two workers in {elapsed:.1f}s")
    broker = service.metrics("broker")
    assert broker["krl_broker_results_total{status=ok}"] >= len(PROBLEMS)
    assert broker.get("krl_broker_phase_seconds_count{phase=correctness}", 0) >= len(PROBLEMS)


def test_duplicate_requests_in_flight_are_evaluated_once_and_a_later_one_again(service):
    source = _candidate("activation/relu", new_id())
    problem = to_payload(builtin_problem("activation/relu"))
    before = service.evaluations()

    async def go(client):
        rids = [client.submit(problem, source, SETTINGS) for _ in range(4)]
        return await asyncio.gather(*(client.result(r) for r in rids))

    with service.client() as client:
        first = asyncio.run(go(client))
        again = asyncio.run(client.evaluate(problem, source, SETTINGS))
    assert [r.verdict.status for r in first] == ["ok"] * 4 and again.verdict.status == "ok"
    assert len({r.request_id for r in first}) == 4
    # a later request of the same text is a draw of its own, not the first one's verdict
    # again (red team s60e: a lucky pass was paid in every later turn that resent it)
    assert not again.cached
    _until(lambda: service.evaluations() == before + 2, 60, "two evaluations counted")
    time.sleep(1.0)
    assert service.evaluations() == before + 2


def test_a_resent_request_id_is_answered_once(service):
    """The same request id sent three times (a client resending) gets one result."""
    req = EvalRequest(
        request_id=new_id(),
        problem=to_payload(builtin_problem("activation/gelu")),
        candidate=_candidate("activation/gelu", new_id()),
        settings=SETTINGS,
    )
    sock = zmq.Context.instance().socket(zmq.DEALER)
    sock.connect(service.cfg.broker.frontend)
    try:
        for _ in range(3):
            sock.send_multipart(encode(req))
        replies = []
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline and not replies:
            if sock.poll(200):
                replies.append(decode(sock.recv_multipart()))
        assert sock.poll(1500) == 0, "a second reply to one request id"
    finally:
        sock.close(linger=0)
    assert replies[0].request_id == req.request_id and replies[0].verdict.status == "ok"


def _junk(kind: int, i: int) -> list[bytes]:
    header = msgspec.msgpack.encode
    return [
        [os.urandom(1 + i % 50)],
        [os.urandom(8), os.urandom(64)],
        [header((PROTOCOL_VERSION + 7, "EvalRequest")), b"\x80"],
        [header((PROTOCOL_VERSION, "Pickle")), b"\x80"],
        [header((PROTOCOL_VERSION, "EvalRequest")), header({"request_id": 5, "candidate": []})],
        [header((PROTOCOL_VERSION, "WorkerStatus")), header({"worker_id": "x", "slots": -3})],
        [header((PROTOCOL_VERSION, "EvalRequest")), os.urandom(200)],
        [header((PROTOCOL_VERSION, "LeaseRequest")), header({"request_id": "r", "actor_id": "a"})],
    ][kind % 8]


def _rejected(service) -> float:
    return sum(
        v
        for k, v in service.metrics("broker").items()
        if k.startswith("krl_broker_messages_rejected_total")
    )


def test_a_flood_of_malformed_messages_leaves_both_sockets_serving(service):
    ctx = zmq.Context.instance()
    rejected_before = _rejected(service)
    socks = []
    for endpoint in (service.cfg.broker.frontend, service.cfg.broker.backend):
        s = ctx.socket(zmq.DEALER)
        s.connect(endpoint)
        socks.append(s)
        for i in range(400):
            s.send_multipart(_junk(i, i))
    try:
        # 7 of the 8 kinds fail to decode (the 8th is a valid message of the wrong type).
        _until(lambda: _rejected(service) - rejected_before >= 700, 30, "the flood counted")
        errors = 0
        while errors < 400 and socks[0].poll(1000):
            errors += isinstance(decode(socks[0].recv_multipart()), ErrorReply)
        assert errors == 400, "every invalid request is answered with an ErrorReply"
    finally:
        for s in socks:
            s.close(linger=0)
    bad_problem = to_payload(builtin_problem("activation/relu"))
    bad_problem.source = "x = 1\n"

    async def go(client):
        return await asyncio.gather(
            client.evaluate(
                to_payload(builtin_problem("activation/silu")),
                _candidate("activation/silu", new_id()),
                SETTINGS,
            ),
            client.evaluate(bad_problem, _candidate("activation/relu", new_id()), SETTINGS),
        )

    with service.client() as client:
        ok, broken = asyncio.run(go(client))
    assert ok.verdict.status == "ok"
    assert broken.verdict.status == "runtime_error" and broken.verdict.error_source == "problem"
    assert all(service.procs[n].poll() is None for n in ("broker", "w1", "w2"))


def test_a_candidate_with_a_wild_pointer_fails_alone(service):
    """A load 16 TiB past its input once crashed the child (SIGSEGV); the interpreter's
    memory guard now stops it in the kernel. Either way only that candidate fails (a real
    crash's verdict is tested with the sandbox: test_sandbox.py)."""
    tag = new_id()
    jobs = [(name, _candidate(name, tag)) for name in PROBLEMS[:4]]
    jobs.insert(1, ("activation/relu", _candidate("activation/relu", tag, "segfault")))
    with service.client() as client:
        results = asyncio.run(_evaluate_all(client, jobs))
    assert (
        results[1].verdict.status == "runtime_error"
        and "outside every tensor argument" in results[1].verdict.feedback
    )
    assert [r.verdict.status for i, r in enumerate(results) if i != 1] == ["ok"] * 4
    # every candidate ran in a fresh process; the crash ended only its own
    _until(
        lambda: (
            sum(service.metrics(w).get("krl_evaluator_children_total", 0) for w in ("w1", "w2"))
            >= len(jobs)
        ),
        10,
        "a fresh child per candidate",
    )


def test_a_worker_killed_mid_request_has_its_work_finished_elsewhere(service):
    tag = new_id()
    jobs = [(name, _candidate(name, tag)) for name in PROBLEMS]
    victim = service.procs["w1"]
    children = _descendants(victim.pid)
    deaths_before = service.metrics("broker").get("krl_broker_worker_deaths_total", 0)

    async def go(client):
        rids = [client.submit(to_payload(builtin_problem(n)), c, SETTINGS) for n, c in jobs]
        await asyncio.to_thread(
            _until,
            lambda: service.metrics("w1")["krl_evaluator_busy_slots"] > 0,
            30,
            "w1 busy",
            0.05,
        )
        service.kill("w1")  # SIGKILL, mid-evaluation
        return await asyncio.gather(*(client.result(r) for r in rids))

    with service.client() as client:
        results = asyncio.run(go(client))
    assert [r.verdict.status for r in results] == ["ok"] * len(jobs)
    broker = service.metrics("broker")
    assert broker["krl_broker_worker_deaths_total"] == deaths_before + 1
    assert broker["krl_broker_requeued_total"] >= 1
    # The dead worker's sandboxed children exit on their own (their command pipe closed).
    _until(lambda: not any(Path(f"/proc/{p}").exists() for p in children), 30, "orphans gone")
    service.start_worker("w1")
    service.wait_workers(2)
    assert service.metrics("broker")["krl_broker_worker_restarts_total"] >= 1


def test_a_broker_restarted_mid_run_loses_no_request(service):
    tag = new_id()
    jobs = [(name, _candidate(name, tag)) for name in PROBLEMS]

    async def go(client):
        rids = [client.submit(to_payload(builtin_problem(n)), c, SETTINGS) for n, c in jobs]
        await asyncio.to_thread(
            _until,
            lambda: service.metrics("broker")["krl_broker_running"] > 0,
            30,
            "jobs running",
            0.05,
        )
        service.kill("broker")
        service.start_broker()
        return await asyncio.gather(*(client.result(r) for r in rids))

    with service.client() as client:
        results = asyncio.run(go(client))
    assert [r.verdict.status for r in results] == ["ok"] * len(jobs)
    assert sorted(r.request_id for r in results) == sorted({r.request_id for r in results})
    service.wait_workers(2, timeout=30)


def test_saturated_broker_answers_busy_and_the_client_holds_back(tmp_path):
    """A broker with no workers and a queue of 2: the third distinct request is told to wait;
    the client keeps it back, then gives up at its deadline with EvaluationTimeout."""
    svc = Service(tmp_path)
    svc.tree["broker"]["max_queued"] = 2
    svc.tree["broker"]["busy_retry_after_s"] = 0.3
    svc.cfg_path.write_text(yaml.safe_dump(svc.tree))
    svc.cfg = load(svc.cfg_path, [], RunConfig)
    svc.start_broker()
    try:
        problem = to_payload(builtin_problem("activation/relu"))
        with svc.client() as client:
            rids = [client.submit(problem, f"# {i}", SETTINGS, deadline_s=3) for i in range(4)]
            t0 = time.monotonic()
            for rid in rids:
                with pytest.raises(EvaluationTimeout):
                    client.future(rid).result(timeout=30)
            assert time.monotonic() - t0 < 10
        m = svc.metrics("broker")
        assert m["krl_broker_requests_total{outcome=queued}"] >= 2
        assert m["krl_broker_requests_total{outcome=busy}"] >= 2
        # The broker drops queued jobs nobody waits for any more.
        _until(lambda: svc.metrics("broker")["krl_broker_queue_depth"] == 0, 10, "queue drained")
        # max_in_flight=1: the second and third requests never leave the client before they expire.
        queued = svc.metrics("broker")["krl_broker_requests_total{outcome=queued}"]
        with svc.client(max_in_flight=1) as client:
            rids = [
                client.submit(problem, f"# window {i}", SETTINGS, deadline_s=2) for i in range(3)
            ]
            for rid in rids:
                with pytest.raises(EvaluationTimeout):
                    client.future(rid).result(timeout=30)
        assert svc.metrics("broker")["krl_broker_requests_total{outcome=queued}"] == queued + 1
        sock = zmq.Context.instance().socket(zmq.DEALER)
        sock.connect(svc.cfg.broker.frontend)
        for i in range(3):
            sock.send_multipart(
                encode(
                    EvalRequest(
                        request_id=f"raw{i}",
                        problem=problem,
                        candidate=f"# raw {i}",
                        settings=SETTINGS,
                    )
                )
            )
        assert sock.poll(5000)
        reply = decode(sock.recv_multipart())
        sock.close(linger=0)
        assert isinstance(reply, ErrorReply) and reply.code == "busy" and reply.retry_after_s == 0.3
    finally:
        svc.kill("broker", signal.SIGTERM)


def test_client_gives_up_on_an_unreachable_broker(tmp_path):
    svc = Service(tmp_path)  # nothing started: the endpoint does not answer
    with svc.client(unavailable_after_s=1.0) as client:
        problem = to_payload(builtin_problem("activation/relu"))
        t0 = time.monotonic()
        with pytest.raises(EvaluatorUnavailable):
            asyncio.run(client.evaluate(problem, "# x", SETTINGS))
        assert time.monotonic() - t0 < 5
        with pytest.raises(EvaluatorUnavailable):
            client.submit(problem, "# y", SETTINGS)  # at once, while the broker stays silent
