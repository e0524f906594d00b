"""Who may use the evaluator's device at once: many candidates, or one being timed.

Loading a candidate, its correctness trials and the reference child's runs take the
lock shared, so several run at once; timing and profiling take it exclusively, so no
other kernel shares the GPU (or, under the interpreter, the CPU) while one is timed
and a timing taken under load matches one taken alone. Writer-preferring: once a
timing waits, no new shared holder enters, so timings are never starved.

With `timing.exclusive_device` off, timing only excludes other timings (the shared
side becomes a no-op): more throughput, timings disturbed by concurrent trials.
"""
from __future__ import annotations

import threading
from contextlib import contextmanager
from typing import Iterator


class DeviceLock:
    def __init__(self, exclusive_timing: bool = True):
        self.exclusive_timing = exclusive_timing
        self._cond = threading.Condition()
        self._shared = 0
        self._timing = False
        self._timings_waiting = 0

    @contextmanager
    def shared(self) -> Iterator[None]:
        """Candidate work that may overlap other candidates' work (not a timing)."""
        if not self.exclusive_timing:
            yield
            return
        with self._cond:
            while self._timing or self._timings_waiting:
                self._cond.wait()
            self._shared += 1
        try:
            yield
        finally:
            with self._cond:
                self._shared -= 1
                self._cond.notify_all()

    @contextmanager
    def exclusive(self) -> Iterator[None]:
        """Timing and profiling: alone on the device (alone among timings at least)."""
        with self._cond:
            self._timings_waiting += 1
            while self._timing or (self.exclusive_timing and self._shared):
                self._cond.wait()
            self._timings_waiting -= 1
            self._timing = True
        try:
            yield
        finally:
            with self._cond:
                self._timing = False
                self._cond.notify_all()
