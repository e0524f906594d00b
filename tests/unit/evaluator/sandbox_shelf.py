"""Started sandboxes kept across a test process's evaluators (conftest's `_sandbox_shelf`).

Production's pool (evaluator.pool.ChildPool) keeps one warm sandbox per slot for the worker's
life: each candidate gets a fresh child forked from its zygote, the reference a long-lived one,
and a closed pool kills its sandboxes because the worker is ending. A test process builds and
closes many evaluators (the session's fixtures, a module's, a test's own), and each started
its own zygotes: torch, Triton, the GPU front end's warm-up, 6-10 s of CPU each on an idle
2-core box and 30 s under load, two or more per evaluator. Here a closing pool's healthy idle
sandboxes (no job in them: the zygote ended and wiped the last one) go on a shelf, and the
next pool of the same sandbox settings and role takes one instead of starting another: what it
gets is what the production pool's next evaluation gets from a kept sandbox. Sandboxes that
ran candidates serve candidates only, reference sandboxes references only; one that is dead,
killed or holding a job is never shelved. All are started from one thread that lives for the
session (bubblewrap's die-with-parent follows the thread that started it).
"""
from __future__ import annotations

import contextlib
import os
import threading
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor

from evaluator import pool as pool_module
from evaluator.sandbox import Sandbox


class SandboxShelf:
    def __init__(self) -> None:
        self.items: dict[tuple, list[Sandbox]] = {}
        self.starter = ThreadPoolExecutor(1, thread_name_prefix="sandbox-shelf")
        self.role = threading.local()
        self.taken = self.made = 0

    @staticmethod
    def key(pool, role: str) -> tuple:
        """What a sandbox is made of (evaluator.sandbox.Sandbox reads these and nothing else
        of the config; the parent's environment, which the sandbox's is filtered from: a test
        that sets a secret there before its evaluator starts gets a sandbox started after),
        and the role it has served."""
        cfg = pool.cfg
        return (role, pool.device, repr(pool.layers), pool.triton_base, cfg.sandbox.model_dump_json(),
                cfg.correctness.max_output_bytes, cfg.startup_timeout_s, _environment())

    def new_sandbox(self, pool) -> Sandbox:
        """A shelved sandbox of `pool`'s settings and the role being spawned, else a new one."""
        pool.started += 1
        shelved = self.items.get(self.key(pool, getattr(self.role, "name", "candidate")), [])
        while shelved:
            sandbox = shelved.pop()
            if sandbox.alive() and sandbox.child is None:
                self.taken += 1
                return sandbox
            sandbox.kill()
        self.made += 1
        return self.starter.submit(Sandbox, pool.cfg, pool.device, pool.layers, pool.triton_base).result()

    def put(self, pool, role: str, sandbox: Sandbox) -> None:
        if sandbox.alive() and sandbox.child is None:
            self.items.setdefault(self.key(pool, role), []).append(sandbox)
        else:
            sandbox.kill()

    def close_pool(self, pool) -> None:
        """ChildPool.close, its idle sandboxes shelved rather than killed: the reference
        child's job is ended first (its zygote wipes it, as after a candidate's job)."""
        pool._closed = True
        deadline = time.monotonic() + 30
        with pool._cond:
            while pool._busy and time.monotonic() < deadline:
                pool._cond.wait(timeout=1)
            idle, pool._idle = pool._idle, []
        with pool._ref_cond:
            refs, pool._refs = pool._refs, [None] * len(pool._refs)
        for sandbox in idle:
            self.put(pool, "candidate", sandbox)
        for slot in refs:
            if slot is not None:
                slot[1].close()
                self.put(pool, "reference", slot[0])
        pool._starter.shutdown(wait=False)

    def empty(self) -> None:
        for shelved in self.items.values():
            for sandbox in shelved:
                sandbox.kill()
        self.items.clear()
        self.starter.shutdown(wait=False)


def _environment() -> tuple:
    """The parent's environment but pytest's note of the test in progress (set per test)."""
    return tuple(sorted((k, v) for k, v in os.environ.items() if k != "PYTEST_CURRENT_TEST"))


@contextlib.contextmanager
def installed() -> Iterator[SandboxShelf]:
    """ChildPool's sandbox start and close routed through one shelf for the block."""
    import pytest

    shelf = SandboxShelf()
    spawn = pool_module.ChildPool._spawn

    def _spawn(pool, sandbox, role, job):
        shelf.role.name = role
        try:
            return spawn(pool, sandbox, role, job)
        finally:
            shelf.role.name = "candidate"

    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(pool_module.ChildPool, "_new_sandbox", lambda pool: shelf.new_sandbox(pool))
        mp.setattr(pool_module.ChildPool, "_spawn", _spawn)
        mp.setattr(pool_module.ChildPool, "close", lambda pool: shelf.close_pool(pool))
        try:
            yield shelf
        finally:
            shelf.empty()
