"""A verdict is one draw of the evaluator's randomised checks: it answers the requests that
waited on its evaluation (and their resends), never a later request of the same content
(red team s60e). Before, the broker's and the workers' caches answered every later request
of a candidate's text with its first verdict, so a file that got through once by luck (a
forward guessing the knock-out round's order survives 1 in 35) was paid that reward again
in the next turns of its episode and whenever the policy sent the same text again.

The broker is driven through its handlers with its sockets replaced by recorders; the
worker through `_accept` and `_send_done` with its evaluation stubbed.
"""
import itertools

import pytest

from common.config import TransportConfig
from common.config.evaluator import BrokerConfig
from common.messages import EvalRequest, EvalResult, EvalSettings, ProblemPayload, WorkerStatus
from common.metrics import Metrics
from common.verdict import Verdict
from evaluator import broker as broker_module
from evaluator.result_cache import Answered, key_of, request_key

_ports = itertools.count()


class _Socket:
    """Stands in for a Server: records what the broker sends."""

    def __init__(self):
        self.sent: list[tuple[bytes, object]] = []

    def reply(self, peer, msg) -> bool:
        self.sent.append((peer, msg))
        return True


def _request(rid: str, candidate: str = "class ModelNew: ...") -> EvalRequest:
    problem = ProblemPayload(name="p", source="class Model: ...", sizes={"cpu": {"n": 4}})
    return EvalRequest(request_id=rid, problem=problem, candidate=candidate, settings=EvalSettings())


@pytest.fixture
def broker():
    n = next(_ports)
    cfg = BrokerConfig(frontend=f"inproc://s60e-front-{n}", backend=f"inproc://s60e-back-{n}")
    b = broker_module.Broker(cfg, TransportConfig(), Metrics("broker"))
    real = (b.frontend, b.backend)
    b.frontend, b.backend = _Socket(), _Socket()
    b._on_status(b"w1", WorkerStatus(worker_id="w1", device="cpu", slots=4))
    b.backend.sent.clear()
    yield b
    for s in real:
        s.close()


def _evaluate(b, rid: str, status: str = "ok", reward: float = 1.0) -> str:
    """A request the broker dispatches to w1, answered with `status`: the job id sent."""
    b._on_request(b"client", _request(rid))
    b._dispatch()
    job = next(m for _, m in b.backend.sent if isinstance(m, EvalRequest) and m.request_id not in b.backend_seen)
    b.backend_seen.add(job.request_id)
    b._on_result(b"w1", EvalResult(request_id=job.request_id, verdict=Verdict(status, reward=reward)))
    return job.request_id


def _answers(b, rid: str) -> list[EvalResult]:
    return [m for _, m in b.frontend.sent if isinstance(m, EvalResult) and m.request_id == rid]


@pytest.fixture
def seen(broker):
    broker.backend_seen = set()
    return broker


def test_a_later_request_of_the_same_text_is_evaluated_again(seen):
    b = seen
    first = _evaluate(b, "r1", "ok", 1.0)
    second = _evaluate(b, "r2", "hack", 0.0)  # the same text, a new draw
    assert first != second and key_of(first) == key_of(second) == request_key(_request("r1"))
    assert [a.verdict.status for a in _answers(b, "r1")] == ["ok"]
    assert [(a.verdict.status, a.cached) for a in _answers(b, "r2")] == [("hack", False)]


def test_a_resend_of_an_answered_request_gets_its_own_verdict_from_the_cache(seen):
    b = seen
    _evaluate(b, "r1", "ok", 1.0)
    sent = len(b.backend.sent)
    b._on_request(b"client", _request("r1"))  # the client lost the reply and resends
    b._dispatch()
    assert len(b.backend.sent) == sent  # no new evaluation
    assert [(a.verdict.status, a.cached) for a in _answers(b, "r1")] == [("ok", False), ("ok", True)]


def test_requests_waiting_together_share_one_evaluation(seen):
    b = seen
    for rid in ("a", "b", "c"):
        b._on_request(b"client", _request(rid))
    b._dispatch()
    jobs = [m for _, m in b.backend.sent if isinstance(m, EvalRequest)]
    assert len(jobs) == 1
    b._on_result(b"w1", EvalResult(request_id=jobs[0].request_id, verdict=Verdict("ok", reward=1.0)))
    assert all(len(_answers(b, rid)) == 1 for rid in ("a", "b", "c"))
    b._on_request(b"client", _request("b"))  # a resend of one of them: the cache
    assert [a.cached for a in _answers(b, "b")] == [False, True]
    b._on_request(b"client", _request("d"))  # a new request: a new job
    b._dispatch()
    assert len([m for _, m in b.backend.sent if isinstance(m, EvalRequest)]) == 2


def test_a_result_nobody_waits_for_answers_one_request_then_none(seen):
    """After a broker restart a worker's finished result arrives before the client's resend:
    it answers that resend, and a further request of the same text is evaluated anew."""
    b = seen
    key = request_key(_request("x"))
    b._on_result(b"w1", EvalResult(request_id=f"{key}.old", verdict=Verdict("ok", reward=1.0)))
    b._on_request(b"client", _request("resent"))
    assert [(a.verdict.status, a.cached) for a in _answers(b, "resent")] == [("ok", True)]
    b._on_request(b"client", _request("another"))
    b._dispatch()
    assert _answers(b, "another") == []
    assert [m for _, m in b.backend.sent if isinstance(m, EvalRequest)]  # evaluated anew


def test_a_delivered_result_sent_again_by_a_reconnected_worker_answers_no_one_new(seen):
    b = seen
    jid = _evaluate(b, "r1", "ok", 1.0)
    b._on_result(b"w1", EvalResult(request_id=jid, verdict=Verdict("ok", reward=1.0)))  # resent
    b._on_request(b"client", _request("r2"))
    b._dispatch()
    assert _answers(b, "r2") == []
    entry = b.cache.get(key_of(jid))
    assert isinstance(entry, Answered) and entry.spare == 0


def test_a_restarted_broker_adopts_the_job_a_worker_still_runs(seen):
    b = seen
    key = request_key(_request("r"))
    b._on_status(b"w1", WorkerStatus(worker_id="w1", device="cpu", slots=4, in_flight=[f"{key}.n1"]))
    b._on_request(b"client", _request("r"))  # the client's resend to the restarted broker
    b._dispatch()
    assert not [m for _, m in b.backend.sent if isinstance(m, EvalRequest)]  # not evaluated twice
    b._on_result(b"w1", EvalResult(request_id=f"{key}.n1", verdict=Verdict("ok", reward=1.0)))
    assert [a.verdict.status for a in _answers(b, "r")] == ["ok"]


class _Evaluator:
    device = "cpu"

    def __init__(self):
        self.calls = 0


def test_a_worker_evaluates_a_new_job_of_the_same_text_and_answers_a_job_resend_from_its_cache(monkeypatch):
    from evaluator import worker as worker_module

    sent: list[EvalResult] = []
    w = worker_module.Worker.__new__(worker_module.Worker)
    w.cache = worker_module.ResultCache(16)
    w.in_flight, w.recent = {}, worker_module.deque(maxlen=8)
    w.done = worker_module.queue.SimpleQueue()
    w.worker_id = "w1"
    w.m = type("M", (), {"requests": type("C", (), {"labels": lambda *_: type("I", (), {"inc": lambda *_: None})()})()})()
    w._busy_changed = lambda: None
    w._send = sent.append
    draws = iter(["ok", "hack"])

    class _Threads:
        def submit(self, fn, key, req):
            w.done.put((key, EvalResult(request_id=req.request_id, verdict=Verdict(next(draws)))))

    w.threads = _Threads()
    key = request_key(_request("x"))
    w._accept(_request(f"{key}.a"))
    w._send_done()
    w._accept(_request(f"{key}.a"))  # the broker resends the same job: the cache
    w._accept(_request(f"{key}.b"))  # a new job of the same text: evaluated anew
    w._send_done()
    assert [(r.request_id[-2:], r.verdict.status, r.cached) for r in sent] == [
        (".a", "ok", False), (".a", "ok", True), (".b", "hack", False)]


def test_a_job_requeued_after_a_worker_death_keeps_its_id(seen):
    """The same job, resent: a worker's cache may answer it (one draw, one set of waiters)."""
    b = seen
    b._on_request(b"client", _request("r"))
    b._dispatch()
    first = [m for _, m in b.backend.sent if isinstance(m, EvalRequest)]
    b._worker_dead(b.workers[b"w1"])
    b._on_status(b"w2", WorkerStatus(worker_id="w2", device="cpu", slots=4))
    b._dispatch()
    sent = [m.request_id for _, m in b.backend.sent if isinstance(m, EvalRequest)]
    assert len(first) == 1 and sent == [first[0].request_id] * 2
