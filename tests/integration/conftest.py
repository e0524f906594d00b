"""Fixtures of the actor integration tests (test_actor.py, test_actor_faults.py); what they
build is in actor_setup.py, imported only when a test asks for them. Module-scoped: each
test module gets its own evaluator service."""

from __future__ import annotations

import pytest


@pytest.fixture(scope="module")
def actor_service(tmp_path_factory):
    from actor_setup import EvalService

    svc = EvalService(tmp_path_factory.mktemp("actor_eval"))
    try:
        svc.ensure_worker()
        yield svc
    finally:
        svc.stop()


@pytest.fixture(scope="module")
def actor_weights(vllm_engine, tiny_model_dir, session_loop):
    from actor_setup import Weights

    w = Weights(vllm_engine, tiny_model_dir, session_loop.run_until_complete)
    yield w
    w.use("original")
