"""Races between the programs of one interpreted launch (CPU interpreter only).

A launch's programs run interleaved (`evaluator.interpreter_schedule`), so a result that only
one order of programs makes right comes out wrong in some order and the correctness trials
see it. What an order can hide is judged here as it happens. Every non-atomic store of a
running launch is checked against the program that last stored each byte (an owner array per
buffer, allocated the first time the launch stores to it): a program storing a value other
than the one in memory to bytes another program of the launch stored is a write-write race,
whose result on a GPU depends on scheduling, and raises KernelRaceError (runtime_error, as
the guard's other refusals), unless the earlier write happened before it: the programs'
vector clocks over atomics (`synchronised`: a lock handed on, a flag raised and awaited, a
turn counter, a last block's ticket). The same value stored by many programs (a flag, a
broadcast scalar) is no race; nor is a store made under a lock the earlier writer held too
(a successful tl.atomic_cas from 0 at a spin site takes the lock at its address; the holder's
later atomic or store to that address gives it back: Triton tutorial 05's spin lock). The
commutative atomics (add, max, min, and, or, xor) own what they write and never race one
another; a plain read of another program's write followed by an atomic add of what was read
is a lost update (`rmw_written`).

A tl.atomic_cas no loop retries is a store of what it swaps in (`spin_site`): one-shot,
it takes no lock and a lost race drops its value. One tl.store whose lanes write different
values to one address is refused too (`one_store`: which lane lands is undefined on a GPU).

Lanes of one program are judged too (`interpreter_lanes`): the interpreter runs each tl.load and
tl.store on the whole tile at once, so lanes that hand values to each other through global
memory are exact here, while on a GPU the tile is spread over warps that run unsynchronised
and Triton puts no barrier between a global store and a later global load. A load (or an
atomic's read) of bytes the running program wrote from another lane, or a plain store over
bytes another of its lanes loaded, with no barrier in between (tl.debug_barrier(), a scalar
atomic, a reduction compiled across warps), is a race. Loads the compiler moves:
`interpreter_moved`. Not caught (docs/threat_model.md): what only a weak memory model shows
(a relaxed atomic's missing order, a store seen late): accesses are sequentially consistent.
"""
from __future__ import annotations

import numpy as np

from evaluator import interpreter_lanes, interpreter_moved, interpreter_spin


class KernelRaceError(RuntimeError):
    """Two programs of one interpreted launch stored different values to one address."""


class _Launch:
    owners: dict | None = None  # storage index -> int32 array per byte of the last writer (0: none)
    locks: dict = {}  # storage index -> int32 array per byte of the lock (1-based id) held at the write
    foreign: dict = {}  # storage index -> int32 array per byte of the program that read it after another wrote it
    program = 0  # the running program's number in the launch (1-based)
    held: dict = {}  # lock address -> its id, for the locks the running program holds
    lock_ids: dict = {}  # lock address -> id (1-based), for the launch
    lock_sizes: dict = {}  # lock address -> the width of its word in bytes
    contended: set = set()  # the running program's (spin-lock CAS site, address) pairs that already failed once
    pending: dict = {}  # lock id -> a race a lock the running program holds excused (judged at its release)
    broken: set = set()  # ids of words taken as locks that another program's CAS then updated: data, no lock
    taken = 0  # lock ids handed out in the launch
    epochs: dict = {}  # storage index -> int32 array per byte: the writer's own clock at the write
    plain: dict = {}  # storage index -> bool array per byte: last written by a plain tl.store
    clock: dict = {}  # the running program's vector clock: program -> the last of its epochs it has seen
    sync: dict = {}  # word address -> the vector clock its atomics released
    # lanes of one program (`lane_codes`): per byte of a storage the launch stored to
    lane: dict = {}  # storage index -> int64 per byte: the lane that last wrote it (0: none; or MANY, ONE_THREAD)
    lane_at: dict = {}  # storage index -> int32 per byte: the storing program's barrier count then
    writers: dict = {}  # (storage index, byte) -> the lanes of one store that wrote the same value there
    reader: dict = {}  # storage index -> int64 per byte: the lane that read it (SEVERAL: more than one)
    read_at: dict = {}  # storage index -> int64 per byte: (program << 32) | (its barrier count + 1) at the read
    shapes: dict = {}  # a pointer tensor's shape -> its id in lane codes
    barriers = 0  # the running program's barrier count (tl.debug_barrier(), a scalar atomic)
    unfenced: list = []  # the running program's multi-lane atomic writes since its last barrier: (storage, bytes)
    compiled = None  # the launch's specialization as the GPU front end checked it (`device_compile.checked`)
    one_cta = False  # each program is one CTA, whose barriers order all of its lanes (`device_compile.one_cta`)
    serial, tick, entered, last_load = {}, 0, {}, {}  # loads the compiler moves (`interpreter_moved`)


def watching() -> bool:
    """A launch is running (its stores are checked)."""
    return _Launch.owners is not None


def _fresh() -> dict:
    return {"owners": {}, "locks": {}, "program": 0, "held": {}, "lock_ids": {}, "foreign": {}, "pending": {},
            "lock_sizes": {}, "contended": set(), "broken": set(), "taken": 0, "epochs": {}, "clock": {},
            "sync": {}, "plain": {}, "lane": {}, "lane_at": {}, "writers": {}, "reader": {}, "read_at": {},
            "shapes": {}, "barriers": 0, "unfenced": [], "compiled": None, "one_cta": False, "serial": {}, "tick": 0,
            "entered": {}, "last_load": {}}


def begin() -> dict:
    """A launch starts: fresh owners. Returns what `end` restores."""
    saved = {name: getattr(_Launch, name) for name in _fresh()}
    for name, value in _fresh().items():
        setattr(_Launch, name, value)
    return saved


def end(saved: dict, finished: bool = False) -> None:
    """The launch is over (`finished`: its last program returned): restore the outer state."""
    try:
        if finished and _Launch.owners is not None:
            _unreleased()
    finally:
        for name, value in saved.items():
            setattr(_Launch, name, value)


def next_program() -> None:
    """The launch's next program starts (it holds no lock): programs one at a time."""
    if _Launch.program:
        program_ends()
    set_program_state(fresh_program(_Launch.program + 1))


def fresh_program(number: int) -> tuple:
    """The state of program `number` (1-based, launch order) before it runs: no lock held, and
    nothing of another program seen."""
    return number, {}, set(), {}, {number: 1}, 0, []


def program_state() -> tuple:
    """The running program's own state (`evaluator.interpreter_schedule` switches programs)."""
    return (_Launch.program, _Launch.held, _Launch.contended, _Launch.pending, _Launch.clock, _Launch.barriers,
            _Launch.unfenced)


def set_program_state(state: tuple) -> None:
    (_Launch.program, _Launch.held, _Launch.contended, _Launch.pending, _Launch.clock,
     _Launch.barriers, _Launch.unfenced) = state


SYNC_LANES = 16  # an atomic on at most this many words synchronises (a flag, a counter, a lock)


def synchronised(ptrs, mask=None, acquire: bool = True, release: bool = True) -> None:
    """After an atomic of the running program (`acq_rel`, Triton's default: the guard passes on
    a narrower `sem`, and a `cta` scope as neither): it acquires what every earlier atomic on
    its words released, and releases what it has seen, itself included. A
    write that another program's write happened before (a lock handed on, a flag raised then
    awaited, a turn counter: honest round s32b's ticket lock and chained scan) is ordered, no
    race. An atomic over a tile's many words (a split-K accumulation) orders nothing."""
    if _Launch.owners is None or (not release and not _Launch.sync):
        return
    words = np.asarray(ptrs, dtype=np.uint64)
    if mask is not None:
        words = words[np.broadcast_to(np.asarray(mask, dtype=bool), words.shape)]
    if words.size > SYNC_LANES and np.unique(words).size > SYNC_LANES:
        return
    words = set(words.reshape(-1).tolist())
    if not words or len(words) > SYNC_LANES:
        return
    clock, sync = _Launch.clock, _Launch.sync
    for word in words if acquire else ():
        for program, epoch in sync.get(word, {}).items():
            if clock.get(program, 0) < epoch:
                clock[program] = epoch
    if not release:
        return
    for word in words:
        released = sync.setdefault(word, {})
        for program, epoch in clock.items():
            if released.get(program, 0) < epoch:
                released[program] = epoch
    clock[_Launch.program] = clock.get(_Launch.program, 1) + 1


def _ordered(writers: np.ndarray, epochs: np.ndarray) -> np.ndarray:
    """Which earlier writes (their programs, their epochs) happened before the running program's
    point now (it acquired what a release after them carried)."""
    clock = _Launch.clock
    seen = np.fromiter((clock.get(int(w), 0) for w in writers.reshape(-1).tolist()), dtype=np.int64,
                       count=writers.size).reshape(writers.shape)
    return (writers != 0) & (seen >= epochs)


def _own(key: int, owner: np.ndarray, byte: np.ndarray, plain: bool = False,
         codes: np.ndarray | None = None, late: bool = False) -> None:
    """The running program wrote these bytes of storage `key`, at its current epoch (`plain`:
    by a plain tl.store, which a plain load of another program must be ordered after; `codes`:
    its lanes, one per byte, which a load by another lane must wait for at a barrier; `late`:
    one epoch later, out of reach of the program's next release)."""
    owner[byte] = _Launch.program
    epochs = _Launch.epochs.get(key)
    if epochs is None:
        epochs = _Launch.epochs[key] = np.zeros(owner.shape, dtype=np.int32)
        _Launch.plain[key] = np.zeros(owner.shape, dtype=bool)
        _Launch.lane[key] = np.zeros(owner.shape, dtype=np.int64)
        _Launch.lane_at[key] = np.zeros(owner.shape, dtype=np.int32)
    # `late`: the lanes of one multi-lane atomic are one thread's atomic each on a GPU, and one
    # thread's release carries its own writes only, until a barrier gathers the program's (red
    # team s34: a carry tile and its ready word in one tl.atomic_xchg; a second release, or the
    # tile's own, covered a "one epoch later" stamp): no release orders them before the barrier
    if late:
        epochs[byte] = interpreter_lanes.UNFENCED
        _Launch.unfenced.append((key, byte.copy()))
    else:
        epochs[byte] = _Launch.clock.get(_Launch.program, 1)
    _Launch.plain[key][byte] = plain
    interpreter_moved.stored(key, owner.shape, byte)
    _Launch.lane[key][byte] = 0 if codes is None else codes
    _Launch.lane_at[key][byte] = _Launch.barriers


def program_ends() -> None:
    """The running program returned: what a "lock" it still holds excused races, and the word
    is no lock (a float's bits added to by a CAS loop from 0: honest round s32b); other
    programs may write it."""
    try:
        _unreleased()
    finally:
        for address in _Launch.held:
            _Launch.lock_ids.pop(address, None)
            _Launch.lock_sizes.pop(address, None)
        _Launch.held, _Launch.contended = {}, set()


def _unreleased() -> None:
    """The program that ran last is done: a "lock" it still holds was never a lock (a CAS that
    increments a counter succeeds once and is never given back), so what it excused races
    (red team s32b: a CAS-increment loop made a plain load + add + store of a shared sum look
    locked)."""
    pending, _Launch.pending = _Launch.pending, {}
    if pending:
        raise KernelRaceError(next(iter(pending.values())) + " (the lock it was stored under is never "
                              "given back by the program that took it, so it is no lock)")


def contend(ptrs, site: tuple | None) -> bool:
    """Whether the tl.atomic_cas about to run fails as if another program held the word: the
    first CAS a program makes at each spin-lock site. On a GPU a program's CAS fails while
    another holds the lock; one at a time every CAS would succeed, so a `while` that never
    really retries (`while tl.atomic_cas(lock, 0, 1) == 2`, red team of the s31 review)
    would count as a lock. A loop that retries takes the lock on its next try."""
    if _Launch.owners is None or site is None:
        return False
    # per address: a first pass that CASes a scratch word at the same site used the contention
    # up, and the data word's CAS then took a "lock" (red team s32b)
    key = (site, tuple(sorted(set(np.asarray(ptrs, dtype=np.uint64).reshape(-1).tolist()))))
    if key in _Launch.contended:
        return False
    _Launch.contended.add(key)
    return True


def lock_word_written(active: np.ndarray, itemsize: int) -> None:
    """Before any write (a store, an exchange, a CAS's swap, an atomic read-modify-write): bytes
    of a lock word another program's CAS took and this program does not hold break the lock
    (red teams s32c, s32d: waiters that reset it, by a store, an atomic_and, a wider store that
    starts before it; one at a time here, every lock looked kept)."""
    if not _Launch.lock_ids or not active.size:
        return
    held = set(_Launch.held)
    for word, size in _Launch.lock_sizes.items():
        if word in held:
            continue
        if ((active < np.uint64(word + size)) & (active + np.uint64(itemsize) > np.uint64(word))).any():
            raise KernelRaceError(
                "a program wrote a lock's word while another program's tl.atomic_cas had taken it (and it "
                "did not hold it itself): on a GPU that breaks the lock, and the programs it kept apart run "
                "the locked code together. Only the holder gives a lock back (tl.atomic_xchg(lock, 0))")


def _held_words(active: np.ndarray, itemsize: int) -> np.ndarray:
    """Which writes are exactly a lock word this program holds (its start and its width)."""
    held = np.fromiter((a for a in _Launch.held if _Launch.lock_sizes.get(a) == itemsize), dtype=np.uint64)
    return np.isin(active, held) if held.size else np.zeros(active.shape, dtype=bool)


def one_store(active: np.ndarray, values: np.ndarray) -> None:
    """One plain store whose lanes write different values to one address: on a GPU which lane
    lands is not defined; here the last one always did (red team s32a: every lane of a
    tl.cumsum stored to one address, the last lane's total won)."""
    if active.size < 2:
        return
    order = np.argsort(active, kind="stable")
    at = active[order]
    same = at[1:] == at[:-1]
    if not same.any():
        return
    vals = np.ascontiguousarray(values[order])
    size = vals.dtype.itemsize
    bits = vals.view(np.dtype(f"u{size}")) if size in (1, 2, 4, 8) else vals
    if (bits[1:][same] != bits[:-1][same]).any():
        raise KernelRaceError(
            "one store (tl.store, tl.atomic_xchg) wrote different values from different lanes to the same address: on a GPU "
            "which lane's value lands is not defined (the CPU interpreter always keeps the last lane's). "
            "Reduce to one value first (tl.sum, tl.max, or select the lane with tl.where and a sum), "
            "or mask the store to the one lane that should write")


def differs(raw, at: np.ndarray, new: np.ndarray, mask: np.ndarray | None = None) -> np.ndarray:
    """Per address of `at` (read where `mask`, all by default): memory now does not hold `new`
    bit for bit (NaNs and signed zeros told apart, as the words are; by value for a width with
    no unsigned view). One comparison for every "would this write change anything?" question."""
    mask = np.ones(np.shape(at), dtype=bool) if mask is None else mask
    now = raw.load(at, mask, np.zeros(np.shape(at), dtype=new.dtype), new.dtype)
    new = np.broadcast_to(new, now.shape)
    size = new.dtype.itemsize
    if size not in (1, 2, 4, 8):
        return now != new
    kind = np.dtype(f"u{size}")
    return np.ascontiguousarray(now).view(kind) != np.ascontiguousarray(new).view(kind)


def spin_site(test_only: bool = False) -> tuple | None:
    """Where the running tl.atomic_cas sits if a loop retries it (a spin lock's), else None; with
    `test_only`, only where a `while`'s test reads its result (a test-and-set exchange: one in a
    persistent kernel's outer loop that raises a flag is no acquire). One frame walk per atomic:
    the caller hands the site on to `contend` and `cas`."""
    return interpreter_spin.spin_lock_site(test_only)


def stored(raw, active: np.ndarray, idx: np.ndarray, starts: np.ndarray, ends: np.ndarray,
           values: np.ndarray, kind: str = "plain tl.store", codes: np.ndarray | None = None,
           scalar: bool = False) -> None:
    """Before a non-atomic store of `values` to the `active` addresses (in storage `idx` of the
    launch's sorted `starts`/`ends`; `codes`: their lanes, for a plain tl.store; `scalar`: its
    pointer is one element, which on a GPU one thread stores and every thread loads back: a
    reload before a barrier races in every lane, session 34's l2-norm with its scalar 1/norm
    reloaded was incorrect on the H200): refuse a write-write race, then record the owners."""
    owners = _Launch.owners
    if owners is None or not active.size:
        return
    itemsize = values.dtype.itemsize
    lock_word_written(active, itemsize)
    if _Launch.held:
        # a lock's own word, written whole by the program holding it (its release), is no data
        # race; any other write there, or a wider one over it, is judged as a store (red team
        # s31d: the accumulator taken once by a CAS, then written by every program's exchange;
        # s32d: a 64-bit store from the held word hid the accumulator beside it)
        whole = _held_words(active, itemsize)
        if whole.any():
            _release(active[whole])
            keep = ~whole
            active, idx, values = active[keep], idx[keep], values[keep]
            codes = None if codes is None else codes[keep]
            if not active.size:
                return
    first = idx[0]
    if (idx == first).all():
        _record(raw, first, active, idx, starts, ends, values, itemsize, kind, codes, scalar)
        return
    for storage in np.unique(idx):
        lanes = idx == storage
        _record(raw, storage, active[lanes], idx[lanes], starts, ends, values[lanes], itemsize, kind,
                None if codes is None else codes[lanes])


def _record(raw, storage, active, idx, starts, ends, values, itemsize: int, kind: str,
            codes: np.ndarray | None = None, scalar: bool = False) -> None:
    # one owner per BYTE of the storage: stores of different widths to the same bytes meet
    # (red team s31c: a float32 store and two int16 stores of its halves raced unseen)
    key = int(storage)
    owner, byte = _bytes(storage, active, starts, ends, itemsize, _Launch.owners)
    elem = (active - starts[storage]).astype(np.intp) // itemsize
    me = _Launch.program
    if codes is not None:  # lanes of this program: over what another of its lanes read
        interpreter_lanes.stored(raw, key, byte, np.repeat(codes, itemsize), active, values, itemsize)
    prev_bytes = owner[byte].reshape(-1, itemsize)
    conflict = ((prev_bytes != 0) & (prev_bytes != me)).any(axis=1)
    if conflict.any() and key in _Launch.epochs:  # a write that happened before this one races nothing
        rows = np.flatnonzero(conflict)
        writes = prev_bytes[rows]
        before = _ordered(writes, _Launch.epochs[key][byte].reshape(-1, itemsize)[rows])
        conflict[rows[(before | (writes == 0) | (writes == me)).all(axis=1)]] = False
    prev = prev_bytes.max(axis=1)
    same = np.zeros(active.shape, dtype=bool)
    locks = _Launch.locks.get(key)
    if conflict.any():
        if locks is not None and _Launch.held:  # stored under a lock this program holds too
            held = np.fromiter(_Launch.held.values(), dtype=np.int32)
            guarded = np.isin(locks[byte].reshape(-1, itemsize), held).all(axis=1)
            if (conflict & guarded).any():  # excused by the lock: judged when it is given back
                for lock in set(locks[byte].reshape(-1, itemsize)[conflict & guarded][:, 0].tolist()):
                    _Launch.pending.setdefault(int(lock), f"two programs of one launch stored to the same "
                                               f"address with {kind}")
            conflict &= ~guarded
        if conflict.any():
            at, new = active[conflict], values[conflict]
            differ = differs(raw, at, new)
            # the same value as another program's takes no ownership: else `store(acc, cur)` first
            # made the next store to it the program's own (red team s32c)
            same[np.flatnonzero(conflict)[~differ]] = True
            if differ.any():
                i = int(np.flatnonzero(differ)[0])
                raise KernelRaceError(
                    f"two programs of one launch stored different values to the same address "
                    f"({int(prev[conflict][i]) - 1} and {me - 1} in launch order, element {int(elem[conflict][i])} "
                    f"of a tensor argument) with {kind}: on a GPU the programs run at the same time "
                    "and the result depends on which store lands last (a load + add + store of a shared "
                    "accumulator by many programs loses updates). Use tl.atomic_add (tl.atomic_max, ...) for "
                    "a shared result, or write one partial per program and combine them in a second "
                    "launch (a two-stage reduction), or order the programs' writes by an atomic flag, lock or "
                    "counter (tl.atomic_xchg to hand on, a spin on tl.atomic_* to wait)")
    lane_bytes = None if codes is None else interpreter_lanes.per_byte(codes, active, itemsize, key, byte, record=True)
    if scalar and lane_bytes is not None:
        lane_bytes = np.full(lane_bytes.shape, interpreter_lanes.ONE_THREAD, dtype=np.int64)
    if same.any():
        byte = byte.reshape(-1, itemsize)[~same].reshape(-1)
        lane_bytes = None if lane_bytes is None else lane_bytes.reshape(-1, itemsize)[~same].reshape(-1)
    # a multi-lane exchange or CAS writes data, as a plain store does (a plain read by another
    # program must be ordered after it); a one-lane one is a flag's, which a volatile poll reads
    tile = kind != "plain tl.store" and active.size > 1
    _own(key, owner, byte, plain=kind == "plain tl.store" or tile, codes=lane_bytes, late=tile)
    _lock_record(key, byte, owner.shape)


def _lock_record(key: int, byte: np.ndarray, shape: tuple) -> None:
    """The lock the running program holds (if any) is recorded as the one each byte was written under."""
    locks = _Launch.locks.get(key)
    if _Launch.held:
        if locks is None:
            locks = _Launch.locks[key] = np.zeros(shape, dtype=np.int32)
        locks[byte] = min(_Launch.held.values())
    elif locks is not None:
        locks[byte] = 0


def _bytes(storage, active, starts, ends, itemsize: int, table: dict) -> tuple[np.ndarray, np.ndarray]:
    start = starts[storage]
    arr = table.get(int(storage))
    if arr is None:
        arr = table[int(storage)] = np.zeros(int(ends[storage] - start) + 8, dtype=np.int32)
    first = (active - start).astype(np.intp)
    return arr, (first[:, None] + np.arange(itemsize, dtype=np.intp)).reshape(-1)


def loaded(active: np.ndarray, idx: np.ndarray, starts: np.ndarray, ends: np.ndarray, itemsize: int,
           atomic: bool = False, codes: np.ndarray | None = None, rmw: bool = False,
           pure: bool = False) -> None:
    """A load: the bytes another program of the launch wrote are marked as read by this one (a
    read-modify-write that an atomic then completes loses updates on a GPU). A load of bytes
    another program wrote by a plain store (or a multi-lane exchange) that no synchronisation
    ordered before it is a race: on a GPU the write may not be there yet, or not visible (a
    flag set by a plain store and polled by a plain load, a relaxed lock's data, a relaxed
    ticket's partials: red team s33; the same read by an atomic, an add of 0 or
    tl.atomic_load: red team s34). `atomic`: tl.atomic_load or tl.atomic_poll; `rmw`: the read
    of a read-modify-write, exchange or CAS itself (not marked as this program's read of
    another's write: its own update is no lost one); `pure`: that atomic changes nothing (an
    add of 0, a CAS that does not swap), a read whose lanes are judged as a load's."""
    if not _Launch.owners or not active.size:
        return
    me = _Launch.program
    for storage in np.unique(idx):
        key = int(storage)
        owner = _Launch.owners.get(key)
        if owner is None:
            continue
        lanes = idx == storage
        _, byte = _bytes(storage, active[lanes], starts, ends, itemsize, _Launch.owners)
        atomic_read = atomic or rmw
        if codes is not None:  # lanes of this program
            mine = codes[lanes]
            modifying = rmw and not pure
            interpreter_lanes.loaded(key, byte, np.repeat(mine, itemsize),
                          None if modifying else interpreter_lanes.per_byte(mine, active[lanes], itemsize, key, byte,
                                                             record=False), modifying=modifying)
        if codes is not None and not rmw and not atomic:  # its own stores, by a load the compiler moved
            interpreter_moved.pipelined_reload(key, byte[owner[byte] == me])
        other = (owner[byte] != 0) & (owner[byte] != me)
        if not other.any():
            continue
        if key in _Launch.epochs:  # a plain store's bytes (an atomic's may be read stale:
            # `cur = load(acc); if part > cur: atomic_max(acc, part)` skips an atomic honestly)
            stores = byte[other][_Launch.plain[key][byte[other]]]
            if stores.size and not _ordered(owner[stores], _Launch.epochs[key][stores]).all():
                raise KernelRaceError(
                    f"a program read, with {'an atomic' if atomic_read else 'a plain tl.load'}, a value "
                    "another program of the launch wrote "
                    "with nothing ordering the write before the read: on a GPU the programs run at "
                    "the same time and the value may not be written yet, or not visible (a flag set "
                    "by a plain store and polled by a plain load; data guarded by a relaxed atomic). "
                    "Hand data between programs with an atomic the reader waits on (tl.atomic_xchg or "
                    "tl.atomic_add to publish, a spin on tl.atomic_add(flag, 0) or tl.atomic_load with "
                    "acquire to wait), or combine partials in a second launch")
        if not rmw:
            mark, _ = _bytes(storage, active[lanes], starts, ends, itemsize, _Launch.foreign)
            mark[byte[other]] = me


def rmw_written(active: np.ndarray, idx: np.ndarray, starts: np.ndarray, ends: np.ndarray, itemsize: int,
                checked: bool, codes: np.ndarray | None = None) -> None:
    """An atomic read-modify-write (not an exchange, which `stored` judges): it owns the bytes it
    writes; with `checked` (add, and, or, xor: not the monotone max/min), writing bytes this
    program read after another program wrote them is a race (red team s31d: an atomic_add of
    `max(cur, part) - cur`, `cur` a plain load, is a lost update on a GPU)."""
    if _Launch.owners is None or not active.size:
        return
    me = _Launch.program
    lock_word_written(active, itemsize)
    held = np.fromiter(_Launch.held.values(), dtype=np.int32) if _Launch.held else None
    for storage in np.unique(idx):
        lanes = idx == storage
        key = int(storage)
        owner, byte = _bytes(storage, active[lanes], starts, ends, itemsize, _Launch.owners)
        # excused only where the bytes were written under a lock this program holds now (red team
        # s32b: each program's own lock excused every lost update)
        locks = _Launch.locks.get(key)
        guarded = np.isin(locks[byte], held) if held is not None and locks is not None \
            else np.zeros(byte.shape, dtype=bool)
        mark = _Launch.foreign.get(key)
        lost = (mark[byte] == me) if checked and mark is not None else np.zeros(byte.shape, dtype=bool)
        if (lost & guarded).any():  # excused by a lock: judged when it is given back
            for lock in set(locks[byte][lost & guarded].tolist()):
                _Launch.pending.setdefault(int(lock), "an atomic read-modify-write of an address another "
                                           "program of the launch wrote")
        if (lost & ~guarded).any():
            raise KernelRaceError(
                "a program read a value another program of the launch wrote, then wrote the same "
                "address with an atomic read-modify-write: on a GPU the programs run at the same "
                "time and the value read may be stale (an update is lost). Let the atomic carry the "
                "program's own contribution (tl.atomic_add(ptr, part)), or write one partial per "
                "program and combine them in a second launch")
        # its lanes (`codes`): a plain load by another lane of this program must wait for a barrier
        _own(key, owner, byte, codes=None if codes is None else
             interpreter_lanes.per_byte(codes[lanes], active[lanes], itemsize, key, byte, record=True))
        _lock_record(key, byte, owner.shape)


def took(active: np.ndarray, idx: np.ndarray, starts: np.ndarray, ends: np.ndarray, itemsize: int) -> None:
    """A word taken from 0 by a spin site's CAS or exchange: the taker owns its bytes, unjudged
    (another program taking a free lock races nothing). If it never gives it back it was data,
    not a lock, and a later write by another program is judged against this one (red team s32d:
    a lost-update sum written by `while tl.atomic_xchg(acc, bits) == bits` from a zeroed acc)."""
    if _Launch.owners is None or not active.size:
        return
    for storage in np.unique(idx):
        lanes = idx == storage
        owner, byte = _bytes(storage, active[lanes], starts, ends, itemsize, _Launch.owners)
        _own(int(storage), owner, byte)


def cas(ptrs, cmp, value, result, spins: bool) -> None:
    """After tl.atomic_cas: a lane that swapped takes the lock at its address (or, already
    held, gives it back)."""
    if _Launch.owners is None:
        return
    got = np.asarray(result).reshape(-1)
    want, new = np.broadcast_arrays(np.asarray(cmp), np.asarray(value))
    # a lock is taken from its unlocked value, 0: a CAS from a value it read (a counter's
    # increment, a float's bits) is a lock-free update and takes none (red team s32c: a CAS loop
    # on the accumulator's own word made its plain stores the "holder's release")
    swapped = (got == want.reshape(-1)) & (want.reshape(-1) != new.reshape(-1))
    taking = swapped & (want.reshape(-1) == 0)
    if not swapped.any():
        return
    addresses = np.asarray(ptrs, dtype=np.uint64).reshape(-1)
    for address, take in zip(addresses[swapped].tolist(), taking[swapped].tolist()):
        if address in _Launch.held:
            _given_back(_Launch.held.pop(address))
            continue
        if take and spins:  # a CAS no loop retries takes no lock on a GPU when another program holds it
            if address not in _Launch.lock_ids:  # ids are never reused (a forgotten lock's stay its own)
                _Launch.taken += 1
                _Launch.lock_ids[address] = _Launch.taken
            _Launch.held[address] = _Launch.lock_ids[address]
            _Launch.lock_sizes[address] = np.asarray(result).dtype.itemsize


def rmw(ptrs, mask) -> None:
    """After an atomic read-modify-write: one to a held lock's address releases it."""
    if _Launch.held:
        data = np.asarray(ptrs, dtype=np.uint64)
        if mask is not None:
            data = data[np.broadcast_to(np.asarray(mask, dtype=bool), data.shape)]
        _release(data.reshape(-1))


def _release(addresses: np.ndarray) -> None:
    held = _Launch.held
    if len(addresses) <= 8:
        gone = [a for a in addresses.tolist() if a in held]
    else:
        gone = [a for a in held if (addresses == np.uint64(a)).any()]
    for a in gone:
        _given_back(held.pop(a))


def _given_back(lock: int) -> None:
    """The holder gave `lock` back: what it excused stands, unless the word was no lock."""
    excused = _Launch.pending.pop(lock, None)
    if excused is not None and lock in _Launch.broken:
        raise KernelRaceError(excused + " (under a word another program's tl.atomic_cas updated while it "
                              "was held, so it was no lock)")


def updated_by_cas(active: np.ndarray, itemsize: int) -> np.ndarray:
    """A spin site's CAS swapped, from a value it read (not 0), these words: one another program
    took from 0 and holds is data, not a lock (a lock's holder never lets another program's CAS
    swap its word: a float's bits added to by a CAS loop from 0, honest round s32b, programs
    interleaved). It is forgotten as a lock, and what it excused races. Returns the writes
    that were not such a word (judged as any write to a lock's word is)."""
    keep = np.ones(active.shape, dtype=bool)
    for word, size in list(_Launch.lock_sizes.items()):
        if word in _Launch.held or size != itemsize:
            continue
        hit = active == np.uint64(word)
        if hit.any():
            keep &= ~hit
            _Launch.broken.add(_Launch.lock_ids.pop(word))
            del _Launch.lock_sizes[word]
    return active[keep]
