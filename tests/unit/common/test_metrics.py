"""Metrics: names follow krl_<role>_<what>_<unit>; /metrics and /health answer over HTTP."""

import json
import urllib.error
import urllib.request

import pytest

from common.config import MetricsConfig
from common.metrics import Metrics


def _get(port: int, path: str):
    try:
        with urllib.request.urlopen(f"http://127.0.0.1:{port}{path}", timeout=5) as r:
            return r.status, r.read().decode()
    except urllib.error.HTTPError as e:
        return e.code, e.read().decode()


def test_names_are_prefixed_and_checked():
    m = Metrics("broker")
    m.counter("requests_total", "requests", ["status"]).labels("ok").inc(3)
    m.histogram("latency_seconds", "latency").observe(0.2)
    text = m.render().decode()
    assert 'krl_broker_requests_total{status="ok"} 3.0' in text
    assert "krl_broker_latency_seconds_bucket" in text
    with pytest.raises(ValueError, match="_total"):
        m.counter("requests", "no suffix")
    with pytest.raises(ValueError):
        m.gauge("Bad:Name", "x")
    with pytest.raises(ValueError):
        Metrics("Actor-1")


def test_same_name_returns_the_same_metric():
    m = Metrics("actor")
    a = m.counter("groups_total", "g")
    assert m.counter("groups_total", "g") is a


def test_http_endpoints_and_health():
    healthy = {"ok": True}
    m = Metrics("hub", MetricsConfig(port=0), health=lambda: (healthy["ok"], {"version": 7}))
    port = m.start()
    try:
        m.counter("steps_total", "steps").inc()
        code, body = _get(port, "/metrics")
        assert code == 200 and "krl_hub_steps_total 1.0" in body
        code, body = _get(port, "/health")
        assert code == 200 and json.loads(body) == {"status": "ok", "role": "hub", "version": 7}
        healthy["ok"] = False
        code, body = _get(port, "/health")
        assert code == 503 and json.loads(body)["status"] == "unhealthy"
        assert _get(port, "/nope")[0] == 404
    finally:
        m.stop()


def test_disabled_endpoint_still_counts():
    m = Metrics("actor", MetricsConfig(enabled=False))
    assert m.start() is None
    m.counter("x_total", "x").inc()
    assert "krl_actor_x_total 1.0" in m.render().decode()
