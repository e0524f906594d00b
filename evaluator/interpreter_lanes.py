"""Races between the lanes of one program of an interpreted launch (CPU interpreter only).

The interpreter runs each tl.load and tl.store on the whole tile at once, so lanes that hand
values to each other through global memory are exact here, while on a GPU the tile is spread
over warps that run unsynchronised and Triton puts no barrier between a global store and a
later global load (session 34: a Hillis-Steele scan, a chunk's carry reloaded from its last
lane's element, a scalar stored and reloaded were incorrect on the H200). A read (a load, or an
atomic's) of bytes the running program wrote from another lane, or a plain store over bytes
another of its lanes loaded, with no barrier in between (tl.debug_barrier(), a scalar
atomic), is a race. The records live in `interpreter_races._Launch` beside the programs' ones;
`interpreter_races` calls in here from its stores, loads and atomics.
"""
from __future__ import annotations

import numpy as np

from evaluator import interpreter_races as races

MANY = -2  # a byte one store wrote from several lanes, the same value (`_Launch.writers` has them)
SEVERAL = -1  # a byte several lanes of the program read since its last barrier
ONE_THREAD = -3  # a byte a scalar store wrote: one thread stores it, every thread loads it back


def lane_codes(shape: tuple, lanes) -> np.ndarray:
    """One code per active lane of a tl.load or tl.store over pointers of `shape` (`lanes`: the
    active mask, None for all): the shape and the element's flat index. On a GPU the thread
    that holds an element follows from the tensor's shape and layout, so two accesses meet in
    one thread only at one shape and index; here a load and a store of one shape and index are
    taken as one lane (the tile reloaded where it was stored), anything else as two: a [ROWS]
    store reloaded as [ROWS, 1] was incorrect on the H200 (session 34). A one-element store is
    another case (`stored`'s `scalar`)."""
    key = tuple(int(d) for d in shape)
    sid = races._Launch.shapes.get(key)
    if sid is None:
        sid = races._Launch.shapes[key] = len(races._Launch.shapes) + 1
    flat = np.flatnonzero(lanes) if lanes is not None else np.arange(int(np.prod(shape, dtype=np.int64)))
    return (np.int64(sid) << np.int64(32)) | (flat.astype(np.int64) + 1)


UNFENCED = np.iinfo(np.int32).max  # the epoch of a multi-lane atomic's write until the program's next barrier


def barrier() -> None:
    """A barrier of the running program (tl.debug_barrier(), a scalar atomic): what its lanes
    stored or loaded before it is ordered before what they do after, and its multi-lane
    atomics' writes take its epoch now (its next release carries them)."""
    if races._Launch.owners is None or not races._Launch.one_cta:
        return  # a cluster's CTAs do not meet at a CTA's barrier (`device_compile.one_cta`)
    races._Launch.barriers += 1
    now = races._Launch.clock.get(races._Launch.program, 1)
    for key, byte in races._Launch.unfenced:
        epochs = races._Launch.epochs[key]
        still = (races._Launch.owners[key][byte] == races._Launch.program) & (epochs[byte] == UNFENCED)
        epochs[byte[still]] = now
    races._Launch.unfenced = []


def per_byte(codes: np.ndarray, active: np.ndarray, itemsize: int, key: int, byte: np.ndarray,
                record: bool) -> np.ndarray:
    """`codes` per byte; bytes several lanes of this one access aim at are MANY (with `record`,
    the lanes are kept in `_Launch.writers`)."""
    per_byte = np.repeat(codes, itemsize)
    if active.size < 2:
        return per_byte
    order = np.argsort(active, kind="stable")
    at = active[order]
    dup = np.zeros(active.shape, dtype=bool)
    same = at[1:] == at[:-1]
    if not same.any():
        return per_byte
    dup[order[1:][same]] = True
    dup[order[:-1][same]] = True
    if record:
        groups: dict = {}
        for address, code in zip(active[dup].tolist(), codes[dup].tolist()):
            groups.setdefault(address, set()).add(code)
        for i in np.flatnonzero(dup).tolist():
            for b in byte[i * itemsize:(i + 1) * itemsize].tolist():
                races._Launch.writers[(key, b)] = frozenset(groups[int(active[i])])
    per_byte[np.repeat(dup, itemsize)] = MANY if record else SEVERAL
    return per_byte


def _raced(what: str) -> races.KernelRaceError:
    return races.KernelRaceError(
        f"lanes of one program handed values to each other through global memory: {what}, with no "
        "tl.debug_barrier() between them. The CPU interpreter runs each tl.load and tl.store on the "
        "whole tile at once, so this is exact here; on a GPU the tile is spread over warps that run "
        "unsynchronised and Triton puts no barrier between a global store and a later load, so a lane "
        "reads its neighbour's element before or after that lane writes it. Keep such values in "
        "registers (tl.cumsum, tl.sum, tl.where over the tile), reload only what the same lane stored "
        "(the same offsets, the same shape), or put tl.debug_barrier() between the store and the load")


def loaded(key: int, byte: np.ndarray, codes: np.ndarray, readers: np.ndarray | None,
                  modifying: bool = False) -> None:
    """A plain load by the running program of `byte` (`codes`: its lanes, per byte): bytes it
    stored itself from another lane since its last barrier race; then the bytes are recorded as
    read by these lanes (`readers`: SEVERAL where lanes of this load share a byte), and a later
    store by another lane over them races too. An atomic that changes nothing (an add of 0,
    tl.atomic_load) reads as a load does (red team s34: scans that read so went unjudged); the
    read of one that writes (`modifying`) is judged only against what other lanes wrote by
    plain stores, exchanges and CASes (the lanes of a commutative atomic add to one word
    honestly), and is not recorded: its own write follows in the same step."""
    me = races._Launch.program
    lane = races._Launch.lane.get(key)
    if lane is not None:
        mine = races._Launch.owners[key][byte] == me
        if modifying:
            mine &= races._Launch.plain[key][byte]
        if mine.any():
            wrote = lane[byte]
            bad = mine & (wrote != 0) & (races._Launch.lane_at[key][byte] == races._Launch.barriers) & (wrote != codes)
            for i in np.flatnonzero(bad & (wrote == MANY)).tolist():  # a reader among the writers
                if codes[i] in races._Launch.writers.get((key, int(byte[i])), ()):
                    bad[i] = False
            if bad.any():
                raise _raced("a read (a tl.load, or an atomic's) saw what another lane of the same program "
                                   "had written")
    if modifying:
        return
    reader = races._Launch.reader.get(key)
    if reader is None:
        reader = races._Launch.reader[key] = np.zeros(races._Launch.owners[key].shape, dtype=np.int64)
        races._Launch.read_at[key] = np.zeros(reader.shape, dtype=np.int64)
    stamp = (np.int64(me) << np.int64(32)) | np.int64(races._Launch.barriers + 1)
    before = races._Launch.read_at[key][byte] == stamp
    reader[byte] = np.where(before & (reader[byte] != readers), SEVERAL, readers)
    races._Launch.read_at[key][byte] = stamp


def stored(raw, key: int, byte: np.ndarray, codes: np.ndarray, active: np.ndarray,
                  values: np.ndarray, itemsize: int) -> None:
    """A plain store by the running program: over bytes another of its lanes loaded since its
    last barrier (that lane may not have read them yet on a GPU), a changed value races."""
    reader = races._Launch.reader.get(key)
    if reader is None:
        return
    stamp = (np.int64(races._Launch.program) << np.int64(32)) | np.int64(races._Launch.barriers + 1)
    read = reader[byte]
    bad = (races._Launch.read_at[key][byte] == stamp) & ((read == SEVERAL) | (read != codes))
    if not bad.any():
        return
    rows = bad.reshape(-1, itemsize).any(axis=1)
    if races.differs(raw, active[rows], values[rows]).any():
        raise _raced("a tl.store overwrote what another lane of the same program had loaded")
