"""The sandboxes of one evaluator: one per concurrent candidate, plus the reference ones.

Candidate side: `EvaluatorConfig.children` sandboxes, each a bubblewrap sandbox with a
warm zygote (evaluator.sandbox). `candidate()` takes an idle sandbox, has its zygote
fork a FRESH child for this one candidate and, when the caller is done, ends the job:
the zygote kills the child and everything it left running and wipes the sandbox's
tmpfs. Then the idle sandbox forks its next candidate child at once (`spare_child`), which
sets up the device and waits: no candidate code has run in it, and it takes its job's
limits first. No process, file or IPC object of one candidate exists when the next one starts
in that sandbox; two candidates never share a sandbox at the same time. A sandbox whose
zygote fails to answer or to clean up is killed whole and replaced (it warms up in the
background). What a fresh child costs (a fork plus the child's own device set-up) is
measured in the verdict's phase `sandbox_start`. While one candidate and its reference are
timed, every other candidate sandbox with a job is stopped whole, mid-command or not, and one
whose job starts meanwhile is stopped as it starts (`quiet`); a stopped job's clock stops
with it (evaluator.sandbox: `Sandbox.clock`), so the stop is never its time.

Reference side: `reference_children` sandboxes, each holding one long-lived child that
only ever runs problem code (it refuses to load a candidate); it is replaced after any
failure. References are computed and timed there, never in a process that ran a
candidate.
"""
from __future__ import annotations

import logging
import os
import shutil
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from pathlib import Path

from common.config.evaluator import EvaluatorConfig
from evaluator import bwrap
from evaluator.sandbox import Child, ChildFailure, Sandbox, SandboxFailure

log = logging.getLogger(__name__)
_REPO = str(Path(__file__).resolve().parents[1])


class EvaluatorUnavailable(RuntimeError):
    """Sandboxes cannot be started at all (broken install, no device): fatal for a worker."""


class ChildPool:
    def __init__(self, cfg: EvaluatorConfig, device: str, layers: bwrap.Layers):
        self.cfg, self.device, self.layers = cfg, device, layers
        self._idle: list[Sandbox] = []
        self._busy = 0
        self._running: set[Sandbox] = set()  # sandboxes with a candidate job
        self._stopped: list[Sandbox] | None = None  # what the timing in progress stopped (quiet)
        self._cond = threading.Condition()
        self._refs: list[tuple[Sandbox, Child] | None] = [None] * cfg.reference_children
        self._ref_cond = threading.Condition()
        self._closed = False
        self._starter = ThreadPoolExecutor(1, thread_name_prefix="sandbox-start")
        self.triton_base = trusted_triton_cache(device) if device == "cuda" else None
        self.started = 0      # sandboxes started
        self.retired = 0      # sandboxes killed (failed or unclean)
        self.children = 0     # children forked

    def _new_sandbox(self) -> Sandbox:
        """Started from the pool's one long-lived thread: bubblewrap's die-with-parent follows
        the THREAD that started it, and evaluation threads come and go."""
        self.started += 1
        return self._starter.submit(Sandbox, self.cfg, self.device, self.layers,
                                    self.triton_base).result()

    def _spawn(self, sandbox: Sandbox | None, role: str, job: dict) -> tuple[Sandbox, Child]:
        """A child in a working sandbox; one retry in a fresh sandbox, then EvaluatorUnavailable."""
        for attempt in range(2):
            sandbox = sandbox if sandbox is not None and sandbox.alive() else self._new_sandbox()
            try:
                child = sandbox.spawn(role, job, self.cfg.startup_timeout_s)
                self.children += 1
                return sandbox, child
            except (SandboxFailure, ChildFailure) as exc:
                reason = exc.reason if isinstance(exc, ChildFailure) else str(exc)
                tail = exc.log_tail if isinstance(exc, ChildFailure) else ""
                log.error("sandbox: a %s child failed to start (%s) %s", role, reason, tail[-2000:])
                sandbox.kill()
                self.retired += 1
                sandbox = None
                if attempt == 1:
                    raise EvaluatorUnavailable(f"sandboxed {role} child failed to start: {reason}\n"
                                               f"{tail[-2000:]}") from None
        raise AssertionError("unreachable")

    @contextmanager
    def candidate(self, job: dict) -> Iterator[Child]:
        """A fresh child for one candidate; its job is ended (and the sandbox cleaned) after."""
        with self._cond:
            while self._busy >= self.cfg.children:
                self._cond.wait()
            self._busy += 1
            sandbox = self._idle.pop(0) if self._idle else None
        child = None
        try:
            sandbox, child = self._spawn(sandbox, "candidate", job)
            with self._cond:
                self._running.add(sandbox)
                stopped = self._stopped
            if stopped is not None:  # a timing is in progress: this job waits for its end
                self._stop_too(sandbox, stopped)
            yield child
        finally:
            with self._cond:
                self._running.discard(sandbox)
            self._release(sandbox, child)

    @contextmanager
    def quiet(self, timed: Child) -> Iterator[None]:
        """While `timed` (and then its reference) is measured: every other candidate sandbox
        with a job is stopped whole, mid-command or not (`Sandbox.pause`: the cgroup's freezer,
        else signals), and so is one whose job starts meanwhile (`candidate`), so no process
        of another job shares the machine with a timing (red team s59e: a sandbox mid-command,
        input generation or a trial, and what it forked kept running; only those between
        commands were stopped). `timed`'s own sandbox is never stopped, and reference
        sandboxes are not candidate sandboxes. A stopped job's clock stops with it: its
        deadlines move by the stop (evaluator.sandbox: `Sandbox.clock`; evaluator.pipeline:
        `_Run.left`)."""
        with self._cond:
            others = [s for s in self._running if s is not timed.sandbox]
            self._stopped = stopped = []
        for sandbox in others:
            self._stop_too(sandbox, stopped)
        try:
            yield
        finally:
            with self._cond:
                self._stopped = None
            for sandbox in stopped:
                sandbox.resume()

    def _stop_too(self, sandbox: Sandbox, stopped: list[Sandbox]) -> None:
        """Stop `sandbox` for the timing that owns `stopped`; resumed at once if it ended."""
        if not sandbox.pause():
            return
        with self._cond:
            if self._stopped is stopped:
                stopped.append(sandbox)
                return
        sandbox.resume()

    def _release(self, sandbox: Sandbox | None, child: Child | None) -> None:
        if sandbox is not None and child is not None:
            try:
                child.close()
            except SandboxFailure as exc:
                log.warning("sandbox: ending a job failed (%s); replacing the sandbox", exc)
        keep = sandbox is not None and sandbox.alive() and not self._closed
        if sandbox is not None and not keep:
            sandbox.kill()
            self.retired += 1
        if keep and self.cfg.sandbox.spare_child:
            sandbox.prestart()
        replacement = None if keep or self._closed else self._new_sandbox()
        with self._cond:
            if keep:
                self._idle.append(sandbox)
            elif replacement is not None:
                self._idle.append(replacement)
            self._busy -= 1
            self._cond.notify()

    @contextmanager
    def reference(self) -> Iterator[Child]:
        """A trusted reference child (exclusive while held); replaced after any failure."""
        with self._ref_cond:
            while not self._refs:
                self._ref_cond.wait()
            slot = self._refs.pop()
        try:
            if slot is None or slot[1].closed or not slot[0].alive():
                old = slot[0] if slot else None
                slot = self._spawn(old, "reference", {"cpu_budget_s": 0})
            yield slot[1]
            if self.device == "cuda":  # its device memory back to the others (evaluator.memory)
                slot[1].request({"op": "release"}, 30.0)
        except BaseException:
            if slot is not None:
                slot[0].kill()
                self.retired += 1
            slot = None
            raise
        finally:
            with self._ref_cond:
                self._refs.append(slot)
                self._ref_cond.notify()

    def warm_up(self) -> None:
        """Start every sandbox now and wait until its zygote is ready (e.g. at worker start)."""
        with self._cond:
            while len(self._idle) + self._busy < self.cfg.children:
                self._idle.append(self._new_sandbox())
            idle = list(self._idle)
        for sandbox in idle:
            try:
                sandbox.wait_ready(self.cfg.startup_timeout_s)
            except SandboxFailure as exc:
                raise EvaluatorUnavailable(f"a sandbox failed to start: {exc}") from None
            if self.cfg.sandbox.spare_child:
                sandbox.prestart()
        for _ in range(self.cfg.reference_children):
            with self.reference():
                pass

    def close(self) -> None:
        self._closed = True
        deadline = time.monotonic() + 30
        with self._cond:
            while self._busy and time.monotonic() < deadline:
                self._cond.wait(timeout=1)
            idle, self._idle = self._idle, []
        for sandbox in idle:
            sandbox.kill()
        with self._ref_cond:
            refs, self._refs = self._refs, [None] * len(self._refs)
        for slot in refs:
            if slot is not None:
                slot[0].kill()
        self._starter.shutdown(wait=False)
        if self.triton_base is not None:
            shutil.rmtree(self.triton_base, ignore_errors=True)


def trusted_triton_cache(device: str) -> str | None:
    """A Triton cache filled by a process that runs harness code only (the warm-up kernel:
    Triton's driver utilities and launcher compiled once per worker, not once per child).
    Sandboxes get it read-only; each child copies it into its own private cache, so no
    candidate can write to a cache another one reads."""
    base = tempfile.mkdtemp(prefix="krl-triton-base-")
    env = dict(os.environ, TRITON_CACHE_DIR=base)
    code = f"import sys; sys.path.insert(0, {_REPO!r}); from evaluator.warmup import warm_up; warm_up({device!r})"
    try:
        subprocess.run([sys.executable, "-c", code], env=env, check=True, timeout=600,
                       capture_output=True)
    except (OSError, subprocess.SubprocessError) as exc:
        log.warning("sandbox: no shared Triton warm-up cache (%s); every child compiles its own", exc)
        shutil.rmtree(base, ignore_errors=True)
        return None
    return base
