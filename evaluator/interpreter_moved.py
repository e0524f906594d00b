"""Loads that Triton's GPU compiler moves, judged under the CPU interpreter (session 42).

Triton's software pipeliner (a loop `tl.range(..., num_stages=N)`, loads feeding tl.dot)
issues a loop's loads iterations early, and LICM hoists a load that does not change in a loop
out of it: such a load reads memory before the stores the loop made in between, even the
same lane's, where the interpreter runs the loop in order. `device_ir.moved_load` says
which loads the compiled launch makes elsewhere than the source; here a moved load may not
read what its own program stored since its innermost loop started. The records (per byte
store counts, loop starts, last loads) live in `interpreter_races._Launch`.
"""
from __future__ import annotations

import numpy as np

from evaluator import interpreter_races as races
from evaluator import interpreter_spin


def stored(key: int, shape: tuple, byte: np.ndarray) -> None:
    """The running program stored these bytes of storage `key`: the launch's store count."""
    races._Launch.tick += 1
    serial = races._Launch.serial.get(key)
    if serial is None:
        serial = races._Launch.serial[key] = np.zeros(shape, dtype=np.int64)
    serial[byte] = races._Launch.tick


def loop_entered() -> None:
    """A loop of the running program starts (`interpreter_loops.device_range`)."""
    if races._Launch.owners is None:
        return
    key = interpreter_spin.loop_key()
    if key is not None:
        races._Launch.entered[(races._Launch.program, key)] = races._Launch.tick


def pipelined_reload(key: int, byte: np.ndarray) -> None:
    """A plain load of bytes the running program itself stored (`byte`): where the compiled
    code makes this load elsewhere than the source does (`device_ir.moved_load`: Triton's
    software pipeliner issues it iterations early, LICM hoists it out of its loop), reading a
    store the program made since its innermost loop started (or, in a `while` loop, since this
    load last ran) is a read of memory the GPU loaded before that store. The interpreter runs
    the loop in order, so even the lane that stored it reads the new value here (red team s42:
    a carry reloaded in a `tl.range(num_stages=3)` loop, stale on sm_90 every run)."""
    from evaluator import device_ir

    if not byte.size:
        return
    found = interpreter_spin.load_site()
    if found is None:
        return
    site, loops, loop = found
    if not device_ir.moved_load(races._Launch.compiled, site, loops):
        return
    me = races._Launch.program
    since = races._Launch.entered.get((me, loop)) if loop is not None and loop[1] == "for" else None
    before = races._Launch.last_load.get((me, site))
    races._Launch.last_load[(me, site)] = races._Launch.tick
    bound = since if since is not None else before
    serial = races._Launch.serial.get(key)
    if bound is None or serial is None or not (serial[byte] > bound).any():
        return
    raise races.KernelRaceError(
        "a load that Triton's GPU compiler moves (a loop's software pipelining: tl.range(..., "
        "num_stages=N), or a load feeding tl.dot, is issued iterations early; a load that does not "
        "change in a loop is hoisted out of it) read what this program stored in that loop: on a GPU "
        "the load is made before the store and reads the old value, even in the lane that stored "
        "it. Keep a value the loop carries in a variable (registers), or run that loop with "
        "num_stages=1")
