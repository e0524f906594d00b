"""What the CPU interpreter draws at random where the GPU's hardware decides, made again on
request: the CPU's emulation of an autotuner's benchmark runs a config again on what its last
run left and holds the tensors to the same bits (evaluator.autotune_cpu), which a run that
depends only on what it reads (outputs written whole, reset_to_zero and restore_value
arguments put back by the hooks) gives only under the same draws: the order of an atomic's
lanes (interpreter_guard) and of the programs (interpreter_schedule) decide the bits of a float
atomic sum.

`seed` hands those their seeds (the OS's randomness); the generators other modules draw
elements from at each call (`_DRAW` of interpreter_layout's reorderable orders and
interpreter_asm's error signs, where a module has one) are taken as they stand. `recorded`
notes both for a run, `replayed` makes the next run draw the same. On the GPU nothing here runs.
"""
from __future__ import annotations

import os
import secrets
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field

_TAPES: list[list[int]] = []  # the seeds drawn under each `recorded` in progress
_PLAYING: list[list[int]] = []  # the seeds left to hand out under `replayed`
# modules whose `_DRAW` (a numpy Generator) draws at each call of an op
_GENERATORS = ("evaluator.interpreter_layout", "evaluator.interpreter_asm")


def _forget() -> None:
    _TAPES.clear()
    _PLAYING.clear()


os.register_at_fork(after_in_child=_forget)


def seed() -> int:
    """A 64-bit seed for one launch's or one atomic's draws (the recorded one, in order, while a
    run is replayed; past the recording's end, a new one)."""
    if _PLAYING and _PLAYING[-1]:
        return _PLAYING[-1].pop(0)
    value = secrets.randbits(64)
    for tape in _TAPES:
        tape.append(value)
    return value


def _generators() -> list:
    found = (getattr(sys.modules.get(name), "_DRAW", None) for name in _GENERATORS)
    return [g for g in found if hasattr(g, "bit_generator")]


@dataclass
class Tape:
    """The draws of one run: the generators' states where it began, the seeds it took."""

    states: list
    seeds: list[int] = field(default_factory=list)


@contextmanager
def recorded() -> Iterator[Tape]:
    """Draws made inside are recorded on the tape yielded."""
    tape = Tape(states=[(g, g.bit_generator.state) for g in _generators()])
    _TAPES.append(tape.seeds)
    try:
        yield tape
    finally:
        del _TAPES[next(i for i, t in enumerate(_TAPES) if t is tape.seeds)]


@contextmanager
def replayed(tape: Tape) -> Iterator[None]:
    """Draws made inside are the tape's, in order (a run that draws more gets new ones past it)."""
    for generator, state in tape.states:
        generator.bit_generator.state = state
    _PLAYING.append(list(tape.seeds))
    try:
        yield
    finally:
        _PLAYING.pop()
