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
import os
import tempfile
from pathlib import Path

import pytest

# The corpora's slow cases (tests/corpus_slow.txt, written by scripts/corpus_tiers.py): `make test`
# runs the rest (--corpus=fast), `make test-corpus` these (--corpus=slow), `make test-all` both.
CORPUS_SLOW = Path(__file__).resolve().parent / "corpus_slow.txt"


def pytest_addoption(parser):
    parser.addoption(
        "--corpus",
        choices=("fast", "slow", "full"),
        default=os.environ.get("KRL_CORPUS", "full"),
        help="which corpus cases run: fast (all but tests/corpus_slow.txt's), slow (only those), "
        "full (every case; the default outside `make test`)",
    )


def _corpus_case(item) -> str:
    return f"{Path(str(item.fspath)).stem}::{item.name}"


def pytest_collection_modifyitems(config, items):
    """Deselects by corpus tier (`--corpus`): a narrowed run (a file, -k) of a slow case outside
    `make test` still runs it, as the default is `full`."""
    mode = config.getoption("corpus")
    if mode == "full":
        return
    lines = CORPUS_SLOW.read_text().splitlines() if CORPUS_SLOW.exists() else []
    slow = {line.split()[0] for line in lines if line.strip() and not line.startswith("#")}
    keep, drop = [], []
    for item in items:
        listed = _corpus_case(item) in slow
        (keep if listed == (mode == "slow") else drop).append(item)
    if drop:
        config.hook.pytest_deselected(items=drop)
        items[:] = keep


# Small enough for a shared 2-core, 24 GB machine; 2048 tokens of context leave
# room for long generations in the in-flight weight-update tests.
ENGINE_MAX_MODEL_LEN = 2048
ENGINE_KV_CACHE_BYTES = 256 << 20


@pytest.fixture(scope="session", autouse=True)
def _device_lock_per_worker():
    """Each test process's CPU evaluators take their host-wide device lock (evaluator.device_lock)
    at a file of that process's own, not the host's. Production's lock serialises evaluators of one
    device in separate processes, and pytest-xdist's workers are such processes: one worker's
    timing (exclusive) stopped the other's trials (shared) for its whole length, leaving one of the
    CI box's two cores idle (15-22% of the workers' time in honest evaluations, measured), and
    another user's `krl check` on the host held up the suite too. On the CPU no check of a verdict
    reads wall time but the time limits (the interpreted work is counted; the clock gives only the
    reward's small speed term, whose noise the tests allow for), and the trials overlapped the
    other worker's trials before too, so what each test asserts is unchanged. A GPU's lock
    stays the host's: there concurrent work disturbs timings the verdict does read. Within one
    process nothing changes (a worker's evaluators share its file as they share the host's), the
    lock's own tests (test_device_lock.py) build theirs at their own paths, and a `krl check` or
    evaluator worker a test starts as a subprocess takes the host's."""
    import evaluator.pipeline as pipeline

    tag = f"{os.environ.get('PYTEST_XDIST_WORKER', 'main')}-{os.getpid()}"
    folder = Path(tempfile.gettempdir())
    made: set[Path] = set()

    def host_lock_path(device: str) -> str:
        if device != "cpu":
            return original(device)
        path = folder / f"krl-test-{tag}-{Path(original(device)).name}"
        made.update([path, path.with_name(path.name + ".gate")])
        return str(path)

    original = pipeline.host_lock_path
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(pipeline, "host_lock_path", host_lock_path)
        yield
    for path in made:
        path.unlink(missing_ok=True)


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

    cfg = EngineConfig(
        dtype="float32",
        max_model_len=ENGINE_MAX_MODEL_LEN,
        max_num_seqs=32,
        kv_cache_bytes=ENGINE_KV_CACHE_BYTES,
    )
    engine = Engine(cfg, str(tiny_model_dir))
    session_loop.run_until_complete(engine.start(version=0))
    yield engine
    engine.shutdown()
