"""A launch's programs run at the same time, interleaved (CPU interpreter only).

Triton's interpreter runs a launch's programs one after another (`GridExecutor.__call__`),
so anything that is right only in that order was right on the CPU and wrong on a GPU, where
the programs run at once: a scan whose program reads its predecessor's total with no flag, a
carry taken from the old value tl.atomic_add returns, a plain load of a shared word and an
atomic of what was read (`atomic_max(acc, load(acc) + part)`), one program initialising what
the others add to. Rules over who wrote what (`evaluator.interpreter_races`) caught such
kernels one shape at a time, and every red-team round found another shape (sessions 31-32).

Here the order itself is taken away: each program of a launch runs in its own greenlet, and
the programs take turns at every global memory access (load, store, atomic). A window of
programs is in flight, admitted in launch order as a GPU dispatches them, and before each
access the program that goes next is drawn at random among those in flight (from the OS's
randomness, per launch). A result that depends on the order of programs, or on nothing else
touching memory between a program's read and its write, comes out different here, and the
correctness trials see it: a wrong result, not a named rule. A program that spins on a flag,
a turn counter or a lock waits while the others run; when the programs in flight have made
WINDOW_PATIENCE accesses each with none finishing, one more program is admitted, so a
program that waits for a later one (stream-K's fix-up in the published direction, a spin on
a higher program id) finishes as it does on a GPU whose programs are all resident.

Each access is atomic here (sequential consistency at the access): the GPU's weaker memory
model (a store seen late by another SM, a relaxed atomic's reordering) is not modelled, and
lanes of one program still run together (a race between lanes of one program through global
memory is `interpreter_races.one_store`'s and the threat model's).
"""
from __future__ import annotations

import random
import secrets
from collections.abc import Callable

WINDOW = 8  # programs in flight at first (a GPU runs hundreds; 8 interleave every pattern we know of)
WINDOW_PATIENCE = 64  # accesses per program in flight with none finishing before one more is admitted


class _Program:
    __slots__ = ("glet", "idx", "state", "started")

    def __init__(self, glet, idx: tuple, state: tuple) -> None:
        self.glet, self.idx, self.state, self.started = glet, idx, state, False


class _Now:
    schedule: _Schedule | None = None  # the launch being interleaved
    program: _Program | None = None  # the program whose greenlet runs now (None: the launch's loop)


class _Schedule:
    """Stands in for the kernel function in the interpreter's grid loop: each call admits the
    program `set_grid_idx` named; the last one runs every program in flight to its end."""

    def __init__(self, fn: Callable, builder, set_idx: Callable, races) -> None:
        import greenlet

        self.fn, self.builder, self.set_idx, self.races = fn, builder, set_idx, races
        self.greenlet = greenlet
        self.total = builder.grid_dim[0] * builder.grid_dim[1] * builder.grid_dim[2]
        self.admitted = 0
        self.flight: list[_Program] = []
        self.window = WINDOW
        self.since = 0  # accesses since a program finished
        self.rng = random.Random(secrets.randbits(64))
        self.loop = greenlet.getcurrent()
        self.aborting = False

    def __call__(self, **args) -> None:
        self.admitted += 1
        idx = tuple(self.builder.grid_idx)
        glet = self.greenlet.greenlet(lambda: self._body(args), parent=self.loop)
        self.flight.append(_Program(glet, idx, self.races.fresh_program(self.admitted)))
        last = self.admitted >= self.total
        while self.flight and (last or len(self.flight) >= self.window):
            self._step(self.flight[self.rng.randrange(len(self.flight))])

    def _body(self, args: dict) -> None:
        self.fn(**args)
        self.races.program_ends()  # a "lock" it never gave back, judged under its own state

    def _step(self, program: _Program) -> None:
        """Run `program` to its next access (or its end)."""
        self.set_idx(self.builder, *program.idx)
        self.races.set_program_state(program.state)
        _Now.program = program
        try:
            program.started = True
            program.glet.switch()
        except BaseException:
            self.abort()
            raise
        finally:
            _Now.program = None
            program.state = self.races.program_state()
        if program.glet.dead:
            self.flight.remove(program)
            self.since = 0
            return
        self.since += 1
        if self.since > WINDOW_PATIENCE * len(self.flight):  # all waiting (or long): admit another
            self.window += 1
            self.since = 0

    def abort(self) -> None:
        """A program raised: the others are unwound where they wait (no access runs)."""
        self.aborting = True
        flight, self.flight = self.flight, []
        for program in flight:
            if program.started and not program.glet.dead:
                program.glet.throw(self.greenlet.GreenletExit)


def access() -> None:
    """Before a global memory access of a running program: the turn passes (the scheduler
    draws who goes next). Outside an interleaved launch, or in the launch's own loop, nothing."""
    program, schedule = _Now.program, _Now.schedule
    if program is None or schedule is None or schedule.aborting:
        return
    schedule.loop.switch()


def begin(executor, builder, set_idx: Callable, races) -> tuple | None:
    """The grid is known (`set_grid_dim`): the executor's kernel function is replaced by the
    schedule for the grid loop. Returns what `end` restores."""
    if _Now.schedule is not None:  # launches do not nest (interpreter_guard refuses it)
        return None
    schedule = _Schedule(executor.fn, builder, set_idx, races)
    saved = (executor, executor.fn)
    executor.fn, _Now.schedule = schedule, schedule
    return saved


def end(saved: tuple | None) -> None:
    """The launch is over (or failed): the executor gets its kernel function back."""
    if saved is None:
        return
    executor, fn = saved
    schedule, _Now.schedule, _Now.program = _Now.schedule, None, None
    executor.fn = fn
    if schedule is not None and schedule.flight:  # the loop stopped early (an error outside a program)
        schedule.abort()


def interleaving() -> bool:
    """An interleaved launch is running."""
    return _Now.schedule is not None
