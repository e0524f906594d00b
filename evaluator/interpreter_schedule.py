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
programs is in flight, started in launch order as a GPU dispatches them, with up to AHEAD
more started out of order (drawn from all not yet started: a GPU with hundreds resident runs
a program far ahead beside an early one, so a second phase that reads what the first wrote
with no flag sees it unwritten here too). Half the launches draw the program that goes next
at a rate of its own (log-uniform 1-RATES per program, from the OS's randomness), the other
half run in a random order of priority (the first program not waiting goes alone until it
waits or ends): a program's own count of accesses (dead loads a GPU's compiler deletes) does
not set its place. A result that depends on the order of programs, or on nothing else
touching memory between a program's read and its write, comes out different here, and the
correctness trials see it: a wrong result, not a named rule. A program whose polls (reads
of a few lanes) read one value SPURIOUS_POLLS times in a row waits: it goes after every
program that does not (its waker first). When every program in flight waits and none has finished for
WINDOW_PATIENCE accesses each, one more is started, so a program that waits for a later one
(stream-K's fix-up in the published direction, a spin on a higher program id) finishes as
it does on a GPU whose programs are all resident; with none left to start, it is a deadlock
(KernelDeadlockError). A program that polled one value SPURIOUS_POLLS times and went on
without a change waited for nothing (a bounded spin, or polls nothing needs) and is refused.

Writes that synchronisation orders are no race (`interpreter_races.synchronised`: vector
clocks over the atomics on a few words, as their `sem` and scope say), so a ticket lock or a
turn counter is judged by what it does, not by its shape; what it does not order is refused
as it happens (a plain store over, or a plain load of, another program's plain store).

Each access is atomic here (sequential consistency at the access); beyond the clocks the GPU's
weaker memory model (a store seen late by another SM) is not modelled. Lanes of one program
still run together; what they hand each other through memory is judged by rule
(`interpreter_lanes`; docs/threat_model.md lists what that leaves).
"""
from __future__ import annotations

import random
from collections.abc import Callable

import numpy as np

from evaluator import interpreter_draws

WINDOW = 16  # programs in flight in launch order at first (a GPU runs hundreds at once)
AHEAD = 2  # programs in flight started out of launch order, drawn from all not yet started
AHEAD_CHANCE = 0.25  # each start in launch order starts one of those too, while fewer are in flight
WINDOW_PATIENCE = 64  # accesses per program in flight with none finishing before one more is started
WAITING = 1 / 1024  # the weight of a waiting program (`_Program.waiting`), below every rate
# (its waker goes first: a ticket lock's 256 waiters took 9x the time of one at a time without it)
POLL_LANES = 16  # reads of at most this many lanes are polls a spin can repeat
DEADLOCK_PATIENCE = 64  # x WINDOW_PATIENCE accesses per program in flight, all waiting: a deadlock
RATES = 16.0  # each program is drawn at a rate from 1 to RATES (log-uniform, per program and launch): a
# stagger by dead accesses (red team s33: program i makes 64 i loads first) would need each program
# RATES times the previous one's delay to hold in every draw
STRICT = 0.5  # the share of launches run in a random order of priority: the first program not
# waiting goes, alone, until it waits or ends (red team s33 round 2: one reducer delayed by dead
# loads read the others' partials last in every draw at rates)
SPURIOUS_POLLS = 3  # a program that polled one value this many times and went on without a change


class KernelDeadlockError(RuntimeError):
    """Every program of an interpreted launch left waits for another, with none to start."""


class _Program:
    __slots__ = ("glet", "number", "idx", "state", "ahead", "rate", "mode", "last_read", "polls")

    def __init__(self, glet, number: int, idx: tuple, state: tuple, ahead: bool, rate: float) -> None:
        self.glet, self.number, self.idx, self.state, self.ahead = glet, number, idx, state, ahead
        self.rate = rate  # how often it is drawn to go next, against the others in flight
        self.last_read = None  # (addresses, bytes) of its last poll (a volatile or atomic read of a few lanes)
        self.polls = 0  # how many times in a row that poll has read the same
        self.mode = None  # what the builder runs: "load" (tl.atomic_load/poll), "cta" (scope), "volatile"

    @property
    def waiting(self) -> bool:
        """Its polls read one value SPURIOUS_POLLS times in a row: a spin's. Not sooner: a
        program that went on after two equal polls was put last for nothing and never refused
        (red team s34: pairs of equal loads made a reducer read the others' partials last)."""
        return self.polls >= SPURIOUS_POLLS


class _Now:
    schedule: _Schedule | None = None  # the launch being interleaved
    program: _Program | None = None  # the program whose greenlet runs now (None: the launch's loop)


class _Schedule:
    """Stands in for the kernel function in the interpreter's grid loop: the loop's calls only
    count the programs (set_grid_idx names each in launch order); the last one runs them all."""

    def __init__(self, fn: Callable, builder, set_idx: Callable, races) -> None:
        import greenlet

        self.fn, self.builder, self.set_idx, self.races = fn, builder, set_idx, races
        self.greenlet = greenlet
        self.dims = tuple(builder.grid_dim)
        self.total = self.dims[0] * self.dims[1] * self.dims[2]
        self.called = 0
        self.low = 0  # the first program (launch order, 0-based) not started in order
        self.started_ahead: set[int] = set()  # programs at or past `low` started out of order
        self.flight: list[_Program] = []
        self.window = WINDOW
        self.since = 0  # accesses since a program finished
        self.rng = random.Random(interpreter_draws.seed())
        self.strict = self.rng.random() < STRICT
        self.loop = greenlet.getcurrent()
        self.aborting = False

    def __call__(self, **args) -> None:
        self.called += 1
        if self.called >= self.total:
            self._run(args)

    def _run(self, args: dict) -> None:
        while True:
            self._start(args)
            if not self.flight:
                return
            # a waiting program goes after every one that is not, and the waiting take turns alike
            # (by their rates, a strict launch's first waiter polled forever while the one whose
            # turn had come never ran)
            going = [p for p in self.flight if not p.waiting]
            if self.strict and going:
                self._step(max(going, key=lambda p: p.rate))
                continue
            weights = [WAITING if p.waiting else p.rate for p in self.flight]
            self._step(self.rng.choices(self.flight, weights)[0])

    def _start(self, args: dict) -> None:
        """Fill the window in launch order; now and then start one out of order as well."""
        while self.low < self.total and sum(not p.ahead for p in self.flight) < self.window:
            self._begin(args, self.low, ahead=False)
            self.low += 1
            while self.low in self.started_ahead:
                self.started_ahead.discard(self.low)
                self.low += 1
            left = self.total - self.low - len(self.started_ahead)
            if left > 1 and sum(p.ahead for p in self.flight) < AHEAD and self.rng.random() < AHEAD_CHANCE:
                number = self.rng.randrange(self.low + 1, self.total)
                if number not in self.started_ahead:
                    self.started_ahead.add(number)
                    self._begin(args, number, ahead=True)

    def _begin(self, args: dict, number: int, ahead: bool) -> None:
        nx, ny, _ = self.dims
        idx = (number % nx, (number // nx) % ny, number // (nx * ny))  # a GPU's order: x fastest
        glet = self.greenlet.greenlet(lambda: self._body(args), parent=self.loop)
        rate = RATES ** self.rng.random()  # a strict launch's priority too
        self.flight.append(_Program(glet, number + 1, idx, self.races.fresh_program(number + 1), ahead, rate))

    def _body(self, args: dict) -> None:
        self.fn(**args)
        self.races.program_ends()  # a "lock" it never gave back, judged under its own state

    def _step(self, program: _Program) -> None:
        """Run `program` to its next access (or its end)."""
        self.set_idx(self.builder, *program.idx)
        self.races.set_program_state(program.state)
        _Now.program = program
        try:
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
        patience = WINDOW_PATIENCE * len(self.flight)
        if self.since <= patience:
            return
        waiting = all(p.waiting for p in self.flight)
        left = self.total - self.low - len(self.started_ahead)
        if not left:
            if waiting and self.since > DEADLOCK_PATIENCE * patience:
                running = len(self.flight)
                self.abort()
                raise KernelDeadlockError(
                    f"every program of the launch still running ({running}) has polled the same "
                    "value over and over while none finished, and none is left to start: they wait for "
                    "each other (or for a program that already ended) and a GPU would hang here. Check "
                    "that every flag, counter or lock a program waits for is set by a program that does "
                    "not wait for it in turn")
            return
        if waiting or self.since > 16 * patience:
            self.window += 1  # every program in flight waits (or none finishes for long): start another
            self.since = 0

    def abort(self) -> None:
        """A program raised: the others are unwound where they wait (no access runs)."""
        self.aborting = True
        flight, self.flight = self.flight, []
        for program in flight:
            if program.glet:  # started and not dead
                program.glet.throw(self.greenlet.GreenletExit)


def observed(ptrs, value, poll: bool, plain: bool = False) -> None:
    """After a read of the running program (a load, or an atomic's old values). A `poll` of a
    few lanes that reads what the read just before it read at the same addresses is a spin's:
    the program waits, and goes after those that do not. A program that polled one value
    SPURIOUS_POLLS times in a row and then goes on without seeing it change waited for
    nothing (red team s33 round 2: four polls of a word nobody writes made a reducer go last);
    refused (`interpreter_races.KernelRaceError`): on a GPU it is a wait whose length others'
    speed decides, or reads nothing uses, which the compiler deletes. A `plain` load (not
    volatile, not atomic) that a program polls until it waits is refused at once: the GPU's
    compiler takes a loop that only reads plain memory for one without effect, and deletes
    or hoists it (red team s44: a chained scan's `while tl.load(flag) == 0` had no loop left
    in TTIR, and read its predecessor's prefix before it was published)."""
    program = _Now.program
    if program is None:
        return
    ptrs = np.asarray(ptrs)
    if not poll or ptrs.size > POLL_LANES:
        _moved_on(program)
        return
    where, seen = ptrs.tobytes(), np.asarray(value).tobytes()
    if program.last_read is not None and program.last_read[0] == where:
        program.polls = program.polls + 1 if program.last_read[1] == seen else 1
    else:
        _moved_on(program)
        program.polls = 1
    program.last_read = (where, seen)
    if plain and program.polls >= SPURIOUS_POLLS:
        from evaluator.interpreter_races import KernelRaceError

        program.polls, program.last_read = 0, None
        raise KernelRaceError(
            "a program waits in a loop on a plain tl.load of a word another program writes: the "
            "GPU's compiler takes a loop that only reads plain memory for one with no effect and "
            "deletes it or hoists the load out of it, so the wait never happens. Poll with "
            "tl.load(..., volatile=True) or an atomic (tl.atomic_add(flag, 0))")


def wrote() -> None:
    """A store of the running program: it went on from any poll."""
    program = _Now.program
    if program is not None:
        _moved_on(program)


def _moved_on(program: _Program) -> None:
    polls, program.polls, program.last_read = program.polls, 0, None
    if polls >= SPURIOUS_POLLS:
        from evaluator.interpreter_races import KernelRaceError

        raise KernelRaceError(
            f"a program polled one word {polls} times, read the same value each time, and went on "
            "without it changing: a wait that ends by itself (a bounded spin, or polls whose result "
            "nothing needs) lasts as long as other programs' speed makes it on a GPU, and orders "
            "nothing. Wait in a loop until the value another program sets is there "
            "(`while tl.atomic_add(flag, 0) == 0: pass`), or do not wait")


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


class _Outside:
    mode = None  # the same, outside an interleaved launch's programs


def set_mode(mode: str | None) -> None:
    """The running program enters (or, None, leaves) an atomic the native module sees as
    something else: "load" (tl.atomic_load, tl.atomic_poll: plain loads there), "store"
    (tl.atomic_store: a plain store there), "cta" (an atomic of one program's scope: a plain
    write to every other program)."""
    (_Now.program or _Outside).mode = mode


def mode() -> str | None:
    return (_Now.program or _Outside).mode


def interleaving() -> bool:
    """An interleaved launch is running."""
    return _Now.schedule is not None
