"""Content keys decide which requests share one evaluation; the cache is a bounded LRU."""
from common.messages import EvalRequest, EvalResult, EvalSettings, ProblemPayload
from common.verdict import Verdict
from evaluator.result_cache import ResultCache, cacheable, request_key


def _req(rid="r1", source="class Model: ...", candidate="class ModelNew: ...", sizes=None,
         **settings) -> EvalRequest:
    problem = ProblemPayload(name="p", source=source, sizes=sizes or {"cpu": {"n": 4}})
    return EvalRequest(request_id=rid, problem=problem, candidate=candidate,
                       settings=EvalSettings(**settings), deadline_s=5, sent_at=1.0)


def test_the_key_ignores_ids_and_send_details_but_not_content():
    base = request_key(_req())
    assert request_key(_req(rid="other")) == base  # a duplicate from another actor
    assert request_key(_req(candidate="class ModelNew: pass")) != base
    assert request_key(_req(source="class Model: pass")) != base
    assert request_key(_req(sizes={"cpu": {"n": 8}})) != base
    assert request_key(_req(trials=5)) != base
    assert request_key(_req(timing=False)) != base


def test_the_key_cannot_be_forged_by_moving_text_between_fields():
    a = request_key(_req(source="class Model: ...", candidate="AB"))
    b = request_key(_req(source="class Model: ...A", candidate="B"))
    assert a != b


def test_cache_evicts_the_least_recently_used():
    cache = ResultCache(2)
    for key in "abc":
        cache.put(key, EvalResult(request_id=key, verdict=Verdict("ok")))
    assert cache.get("a") is None and len(cache) == 2
    cache.get("b")
    cache.put("d", EvalResult(request_id="d", verdict=Verdict("ok")))
    assert cache.get("b") is not None and cache.get("c") is None


def test_service_failures_are_not_cached():
    assert cacheable(EvalResult(request_id="k", verdict=Verdict("incorrect")))
    assert cacheable(EvalResult(request_id="k", verdict=Verdict("runtime_error", error_source="problem")))
    assert not cacheable(EvalResult(request_id="k", verdict=Verdict("crashed", error_source="evaluator")))
    assert not cacheable(EvalResult(request_id="k", verdict=Verdict("crashed", error_source="broker")))
