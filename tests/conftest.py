"""Session-scoped fixtures shared by the whole test suite.

Expensive things are built once per session here and shared: the tiny model
(a few seconds) and the vLLM CPU engine (tens of seconds to start, and several
GB of RAM; never start a second one in the suite). Add a fixture here only when
tests in more than one package need it; keep each one short and documented.

Using the engine: vLLM's AsyncLLM binds its output task to the event loop that
first uses it, so every test that talks to `vllm_engine` runs its coroutines on
`session_loop` (`session_loop.run_until_complete(...)`), never `asyncio.run`.
Tests that change the engine's weights must load the original weights back
before they finish (see tests/unit/actor/test_engine.py), since later tests
compare the engine against the checkpoint on disk.
"""
from __future__ import annotations

import asyncio

import pytest

# Small enough for a shared 2-core, 24 GB machine; 2048 tokens of context leave
# room for long generations in the in-flight weight-update tests.
ENGINE_MAX_MODEL_LEN = 2048
ENGINE_KV_CACHE_BYTES = 256 << 20


@pytest.fixture(scope="session")
def tiny_model_dir(tmp_path_factory):
    """A `krl tiny-model` directory (Qwen2, default size, seed 0), built once per session."""
    from actor.tiny_model import build

    return build(tmp_path_factory.mktemp("tiny_model") / "qwen2-tiny", seed=0)


@pytest.fixture(scope="session")
def session_loop():
    """The one asyncio loop of the session; every coroutine using `vllm_engine` runs on it."""
    loop = asyncio.new_event_loop()
    yield loop
    # Let tasks still pending (vLLM's output handler, cancelled at engine shutdown)
    # finish before the loop closes, as asyncio.run does.
    pending = asyncio.all_tasks(loop)
    for task in pending:
        task.cancel()
    loop.run_until_complete(asyncio.gather(*pending, return_exceptions=True))
    loop.run_until_complete(loop.shutdown_asyncgens())
    loop.close()


@pytest.fixture(scope="session")
def vllm_engine(tiny_model_dir, session_loop):
    """One started `actor.engine.Engine` (vLLM CPU, float32) on the tiny model, weights v0."""
    from actor.engine import Engine
    from common.config.actor import EngineConfig

    cfg = EngineConfig(dtype="float32", max_model_len=ENGINE_MAX_MODEL_LEN, max_num_seqs=32,
                       kv_cache_bytes=ENGINE_KV_CACHE_BYTES)
    engine = Engine(cfg, str(tiny_model_dir))
    session_loop.run_until_complete(engine.start(version=0))
    yield engine
    engine.shutdown()
