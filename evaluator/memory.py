"""Admission by device memory: evaluations start when the GPU has room for them.

Real KernelBench problems hold GiBs per input set, so a worker that runs as many
evaluations at once as it has sandboxes runs out of device memory, and an out-of-memory
error in one process becomes a wrong verdict on somebody's kernel. Each device phase
therefore holds a reservation from one budget:

  capacity     total device memory x `memory.device_fraction`, less `memory.context_bytes`
               per process (a CUDA context, cuBLAS/cuDNN handles: memory no allocator counts)
  measure      a problem not seen yet is first measured: the trusted reference child runs
               its first input set once, sending sizes only, under a reservation of
               `measure_fraction` of the capacity with its process capped there (or, if it
               ran out of memory, again under the whole capacity, which waits for every
               other device phase to end); it reports the most its allocator held
               (`peak_device_bytes`), which becomes the problem's footprint F, and what a
               set's outputs weigh (the worker's host need, below)
  reference    the reference run reserves F plus slack (the whole capacity where F is still
               unknown, as on a host-budget-free CPU; the grant then shrinks after set 0)
  candidate    its whole job reserves `candidate_bytes(F)`: room for `candidate_factor`
               x F (2) and for a timing batch; the candidate's process is capped there
               (torch's per-process memory fraction, set before its code is imported), so
               a kernel that needs more fails alone instead of failing its neighbours

Reservations are granted first come, first served: a large one waiting at the head is
not overtaken by small ones, so a big problem is never starved. On the CPU there is no
budget (the sandbox's host memory limit bounds each job).

`HostMemory` is the same for the worker's own memory: the outputs it holds to compare
(a level-1 KernelBench problem's reference and candidate outputs are 2 x 36 GiB; four
at once killed the worker). An evaluation reserves before any device reservation (so a
device holder never waits for host memory, and there is no cycle; the measuring run
holds no host memory): what its problem needs, from the measuring run's sizes (twice
the reference's outputs of the sets that will run, and reveal samples), or from the
last reference phase; the whole budget only where no measurement was possible. After
the reference phase the grant shrinks to what the reference really sent.
"""
from __future__ import annotations

import os
import threading
from collections import deque
from collections.abc import Iterator
from contextlib import contextmanager

from common.config.evaluator import MemoryConfig


class Grant:
    """A granted reservation; `shrink` hands part of it back early."""

    def __init__(self, budget: DeviceMemory, nbytes: int):
        self.budget, self.nbytes = budget, nbytes

    def shrink(self, nbytes: int) -> None:
        nbytes = max(0, int(nbytes))
        if nbytes < self.nbytes:
            with self.budget._cond:
                self.budget.used -= self.nbytes - nbytes
                self.nbytes = nbytes
                self.budget._cond.notify_all()


class DeviceMemory:
    def __init__(self, cfg: MemoryConfig, processes: int):
        self.cfg, self.processes = cfg, processes
        self.total: int | None = None
        self.capacity: int | None = None  # None: no budget (CPU, or not known yet)
        self.used = 0
        self.peak_used = 0
        self.footprints: dict[str, int] = {}
        self._cond = threading.Condition()
        self._queue: deque[object] = deque()

    def set_device(self, total_bytes: int) -> None:
        """The device's total memory, as the trusted reference child reported it."""
        with self._cond:
            if self.total is None and total_bytes > 0:
                self.total = int(total_bytes)
                cap = int(total_bytes * self.cfg.device_fraction) - self.processes * self.cfg.context_bytes
                self.capacity = max(cap, int(total_bytes * 0.25))
                self._cond.notify_all()

    def candidate_bytes(self, footprint: int | None, batch_bytes: int) -> int | None:
        """The reservation of a candidate's job on a problem of reference footprint F."""
        if self.capacity is None:
            return None
        if footprint is None:
            return self.capacity
        need = max(self.cfg.candidate_factor * footprint, footprint + batch_bytes) + self.cfg.slack_bytes
        return int(min(self.capacity, need))

    def measure_bytes(self) -> list[int | None]:
        """The reservations a new problem's measuring run tries in turn: a share of the
        capacity (the child capped there), then, if that ran out of memory, the whole."""
        if self.capacity is None:
            return [None]
        return self.then_whole(int(self.capacity * self.cfg.measure_fraction))

    def then_whole(self, need: int | None) -> list[int | None]:
        """A reservation, then the whole budget should it run out of memory under it."""
        return [need, self.capacity] if need is not None and need < (self.capacity or 0) else [need]

    def reference_bytes(self, footprint: int | None) -> int | None:
        if self.capacity is None:
            return None
        return self.capacity if footprint is None else int(min(self.capacity, footprint + self.cfg.slack_bytes))

    @contextmanager
    def reserve(self, nbytes: int | None) -> Iterator[Grant]:
        if nbytes is None or self.capacity is None:
            yield Grant(self, 0)
            return
        nbytes = min(nbytes, self.capacity)
        ticket = object()
        with self._cond:
            self._queue.append(ticket)
            try:
                while self._queue[0] is not ticket or self.used + nbytes > self.capacity:
                    self._cond.wait()
            except BaseException:
                self._queue.remove(ticket)
                self._cond.notify_all()
                raise
            self._queue.popleft()
            self.used += nbytes
            self.peak_used = max(self.peak_used, self.used)
            self._cond.notify_all()
        grant = Grant(self, nbytes)
        try:
            yield grant
        finally:
            with self._cond:
                self.used -= grant.nbytes
                self._cond.notify_all()

    def record(self, key: str, peak_bytes: int) -> None:
        if peak_bytes > 0:
            with self._cond:
                self.footprints[key] = max(self.footprints.get(key, 0), int(peak_bytes))

    def footprint(self, key: str) -> int | None:
        with self._cond:
            return self.footprints.get(key)


class HostMemory(DeviceMemory):
    """The worker's budget for the tensors it holds (module docstring): `host_fraction` of
    this machine's memory, less the reference cache's bound."""

    def __init__(self, cfg: MemoryConfig, cache_bytes: int, total_bytes: int | None = None,
                 enabled: bool = True):
        super().__init__(cfg, 0)
        total = total_bytes or os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES")
        self.total = total
        self.capacity = max(int(total * cfg.host_fraction) - cache_bytes, 1 << 30) if enabled else None

    def first_estimate(self, key: str) -> int | None:
        """What an evaluation of problem `key` reserves before its reference phase."""
        if self.capacity is None:
            return None
        return self.footprint(key) or self.capacity
