"""Warm sandboxed children, and when a child may run another candidate.

The pool holds up to K candidate children (EvaluatorConfig.children) and one
trusted reference child. A fresh child costs an interpreter plus torch and Triton
imports (about 2 s on a CPU box, ~12 s with CUDA), so healthy children are reused.

What a candidate can leave behind in its child: its module's objects (dropped
with the module, which is removed from sys.modules), monkey-patches of libraries,
threads, CUDA state (a sticky error after an illegal access, leaked memory),
changed process-wide settings. The reuse rule:

  A candidate child is reused only if ALL of these hold:
    - the candidate passed the static checks (so it imported only allowlisted
      modules, patched nothing, started no threads, touched no files);
    - the evaluation ended in ok, incorrect, compile_error or runtime_error:
      never after a timeout, a crash, any hack (static hacks never reach a child),
      a problem failure or a harness error;
    - the child's own `reset` reports it intact: every watched callable identical
      to start-up (evaluator.integrity), no extra Python threads, the launch hook in
      place, and on CUDA a clean synchronize (no sticky error);
    - it has run fewer than max_evaluations_per_child candidates and its resident
      memory is under half the memory limit;
    - reuse_children is on.
  Otherwise the child is killed with its whole namespace and its temp dir deleted,
  and a replacement is started at once so it warms up while the worker goes on.

The reference child runs only problem code, never a candidate (it refuses the
"load" command); it is replaced after any failure.
"""
from __future__ import annotations

import logging
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager

from common.config.evaluator import EvaluatorConfig
from evaluator.sandbox import Child, ChildFailure, Isolation, sweep_stale_dirs

log = logging.getLogger(__name__)


class EvaluatorUnavailable(RuntimeError):
    """Children cannot be started at all (broken install, no device): fatal for a worker."""


class ChildPool:
    def __init__(self, cfg: EvaluatorConfig, device: str, isolation: Isolation):
        self.cfg, self.device, self.isolation = cfg, device, isolation
        self._idle: list[Child] = []
        self._busy = 0
        self._cond = threading.Condition()
        self._refs: list[Child | None] = [None] * cfg.reference_children  # None: start on demand
        self._ref_cond = threading.Condition()
        self._closed = False
        self.started = 0
        self.retired = 0
        stale = sweep_stale_dirs(cfg.sandbox.work_dir)
        if stale:
            log.info("sandbox: removed %d temp dir(s) left by workers that died", stale)

    def _spawn(self, role: str) -> Child:
        self.started += 1
        return Child(role, self.device, self.cfg, self.isolation)

    def _ready(self, role: str, child: Child | None) -> Child:
        """A started and ready child; one retry with a fresh child, then EvaluatorUnavailable."""
        for attempt in range(2):
            child = child or self._spawn(role)
            try:
                child.wait_ready(self.cfg.startup_timeout_s)
                return child
            except ChildFailure as exc:
                log.error("sandbox %s child failed to start (%s): %s", role, exc.reason, exc.log_tail[-2000:])
                child.close()
                child = None
                if attempt == 1:
                    raise EvaluatorUnavailable(f"sandboxed {role} child failed to start: {exc.reason}\n"
                                               f"{exc.log_tail[-2000:]}") from None
        raise AssertionError("unreachable")

    @contextmanager
    def candidate(self) -> Iterator[Child]:
        """A ready candidate child; the caller sets `child.reusable` before leaving."""
        with self._cond:
            while self._busy >= self.cfg.children:
                self._cond.wait()
            self._busy += 1
            child = self._idle.pop(0) if self._idle else None
        try:
            child = self._ready("candidate", child)
        except BaseException:
            with self._cond:
                self._busy -= 1
                self._cond.notify()
            raise
        child.reusable = False  # type: ignore[attr-defined]
        try:
            yield child
        finally:
            self._release(child, bool(getattr(child, "reusable", False)))

    def _release(self, child: Child, reuse: bool) -> None:
        child.evaluations += 1
        keep = (reuse and self.cfg.reuse_children and child.alive() and not self._closed
                and child.evaluations < self.cfg.max_evaluations_per_child)
        replacement = None
        if not keep:
            self.retired += 1
            child.close()
            if not self._closed:
                replacement = self._spawn("candidate")  # warms up while the worker goes on
        with self._cond:
            if keep:
                self._idle.append(child)
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
            child = self._refs.pop()
        try:
            child = self._ready("reference", child)
            yield child
        except BaseException:
            if child is not None:
                child.close()
            child = None
            raise
        finally:
            with self._ref_cond:
                self._refs.append(child)
                self._ref_cond.notify()

    def warm_up(self) -> None:
        """Start every child now and wait until they are ready (e.g. at worker start)."""
        with self._cond:
            while len(self._idle) + self._busy < self.cfg.children:
                self._idle.append(self._spawn("candidate"))
            idle = list(self._idle)
        for child in idle:
            child.wait_ready(self.cfg.startup_timeout_s)
        with self._ref_cond:
            refs, self._refs = self._refs, []
        ready: list[Child | None] = []
        try:
            for child in refs:
                ready.append(self._ready("reference", child))
        finally:  # a child that failed to start is closed by _ready: its slot starts over
            ready += [None] + refs[len(ready) + 1:] if len(ready) < len(refs) else []
            with self._ref_cond:
                self._refs.extend(ready)
                self._ref_cond.notify_all()

    def close(self) -> None:
        self._closed = True
        deadline = time.monotonic() + 30
        with self._cond:
            while self._busy and time.monotonic() < deadline:
                self._cond.wait(timeout=1)
            idle, self._idle = self._idle, []
        for child in idle:
            child.close()
        with self._ref_cond:
            refs, self._refs = self._refs, [None] * len(self._refs)
        for child in refs:
            if child is not None:
                child.close()
