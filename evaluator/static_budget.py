"""The static checks' wall-clock budget, enforced wherever the checks are.

`Watchdog` raises CheckTooCostly in the checking thread once the budget is spent, between
two of its bytecodes, wherever the checks are (a clock read in the scope lookup, the first
version, bounded only walks that look names up: red team s36 made a class family's walk
cubic with none). It never lands inside library code the checks import
(`uninterrupted`: static_namespaces.exists probes torch's lazy modules, and an exception in
the middle of an import left the worker with half-imported packages for every later check,
red team s36 round 7): there it waits for the section to end, and a section entered after it
fired ends the check at once instead.
"""
from __future__ import annotations

import contextlib
import ctypes
import threading
from collections.abc import Iterator

from evaluator.static_scopes import CheckTooCostly

_GUARD = threading.Lock()
_CHECKS: dict[int, Watchdog] = {}  # checking thread -> its watchdog


def _raise_in(thread: int, exception: type[BaseException] | None) -> None:
    ctypes.pythonapi.PyThreadState_SetAsyncExc(ctypes.c_ulong(thread),
                                               ctypes.py_object(exception) if exception else None)


class Watchdog:
    """Ends the checks of the thread that enters it after `seconds`."""

    def __init__(self, seconds: float) -> None:
        self.seconds, self.fired, self.depth = seconds, False, 0
        self.done = threading.Event()
        self.thread = threading.get_ident()
        self.watcher = threading.Thread(target=self._watch, name="static-check-budget", daemon=True)

    def _watch(self) -> None:
        if self.done.wait(self.seconds):
            return
        with _GUARD:
            self.fired = True
            if self.depth == 0:  # else the section raises when it ends
                _raise_in(self.thread, CheckTooCostly)

    def __enter__(self) -> Watchdog:
        with _GUARD:
            _CHECKS[self.thread] = self
        self.watcher.start()
        return self

    def __exit__(self, *exc) -> None:
        self.done.set()
        self.watcher.join()
        with _GUARD:
            _CHECKS.pop(self.thread, None)
            if self.fired:  # withdrawn if not raised yet (raised here: the caller's except has it)
                _raise_in(self.thread, None)


@contextlib.contextmanager
def uninterrupted() -> Iterator[None]:
    """A section the watchdog's exception never lands in (library imports)."""
    with _GUARD:
        watchdog = _CHECKS.get(threading.get_ident())
        if watchdog is not None:
            if watchdog.fired:  # it may be pending: withdraw it and end the check here, outside
                _raise_in(watchdog.thread, None)
                raise CheckTooCostly
            watchdog.depth += 1
    try:
        yield
    finally:
        if watchdog is not None:
            with _GUARD:
                watchdog.depth -= 1
                late = watchdog.depth == 0 and watchdog.fired
            if late:
                raise CheckTooCostly
