"""How many numbers host Python chose in a `torch.tensor` of plain Python ints (host_made).

`host_compute` bounds the values host Python puts into tensors (policy.max_host_made): a
table Python computed and a kernel only looks up is the host's work. Counting every element
also refused the device tables honest grouped kernels build (Triton tutorial 08's grouped
GEMM: per group the data_ptr() of A, B and C, <M, N, K> and the leading dimensions, 144
ints at 16 groups; honest round s56 on an H100): those are where the problem's own tensors
lie and how they are shaped, structure that grows with the batch, not computed values.

Structure is told from values by what the table holds, not by who wrote the code:
  * an int inside a storage the forward's ops touched (an input, a parameter, a tensor made
    in forward) is an address, read as (storage, offset): the allocator chose it, and the
    host only chose which storage and where in it;
  * the table, read in interleaved columns (period 1..PERIODS: a flat list of <M, N, K>
    triples is three columns), is cut into arithmetic runs: equal steps of plain ints, of
    offsets into one storage, or from one storage to the next one made of the same size
    (`Storages.seen`'s order: one C per group, made in a loop; storages of different sizes
    never join a run, their gaps being sizes the host chose). Each run costs what describes
    it: start, step and length (at most RUN_NUMBERS), one for a run of one.
So `a.unbind(0)`'s pointers, one fresh output per group and the constant sizes and strides
cost a few numbers at any batch, while a table of values Python computed (a sigmoid in fixed
point, offsets into a storage at positions a function chose, storages picked out of order)
breaks its runs at almost every element and costs one number per element, as before.
Floats and bools count one per element, as before (rt71's host tables are floats placed by
glue: `aten_facts.PLACED_NUMBERS`, untouched), and so does data past MAX_READ ints.
The same reading prices a join (`join_numbers`: torch.cat/stack of a list of tensors): which
tensor comes next is host Python's choice too (red team rt78: 256 one-element tensors each
holding its index, joined in the order of a sigmoid table's bytes, 512 inputs and no number
anywhere: ok under strict at 0.98), so a list costs one per run of inputs in ascending or descending
(storage made, offset) order past the first: a join of what the forward made, in the order
it made it, or of one tensor's chunks in place, is free; a table spelled by order is not.
Nor by place (red team s65f, session 66): sixteen 0-dim views of a kernel's arange stacked in
ascending order at a sigmoid's codes were one run, no number (ok under strict at 0.9991), so
the element offsets a join (or one launch: `launch_sizes.DataInts`) picks in one storage are
computed numbers, a column of runs as a table's (`pick_tokens`).
The same runs say which of a table's ints host Python computed (`int_tokens`, session 59):
the values a host-made tensor holds are the claim whatever dtype they were lifted in, so a
float's bits or a fixed-point code costs `host_numbers.COMPUTED_NUMBERS` as a float does.
Only the count changes: what a kernel writes through such an address, into memory no launch
was handed, is still no kernel's write to the provenance watch (fingerprints, carried writes).
"""
from __future__ import annotations

from bisect import bisect_right

import torch

from evaluator.host_numbers import int_cost, lone_int
from evaluator.read_tables import ReadBacks
from evaluator.watched_reads import PLAIN_DATA, PLAIN_MAX, PLAIN_NUMBERS

PERIODS = 8  # interleaved columns tried (a row of up to 8 ints per group)
MAX_READ = PLAIN_MAX  # longer data counts every element, as before (read in Python, PERIODS times)
RUN_NUMBERS = 3  # start, step, length


class Storages:
    """The storages the forward's ops touched: start address -> (bytes, order), where order
    counts storages as ops made them (a freed address made again gets a new order)."""

    def __init__(self) -> None:
        self.held: dict[int, tuple[int, int]] = {}
        self.made = 0
        self._sorted: list[int] | None = None
        self.reads = ReadBacks()  # whole storages a launch wrote, read back (`read_tables`)

    def seen(self, key: int, nbytes: int, fresh: bool) -> None:
        """A storage an op read or wrote; `fresh`: the op made it (written whole, not a view)."""
        if not key:
            return
        held = self.held.get(key)
        if fresh or held is None or held[0] != nbytes:
            self.made += 1
            self.held[key] = (nbytes, self.made)
            self._sorted = None

    def touched(self, ins: list, outs: list) -> None:
        """An op's tensors: what it read is held as it was; what it wrote outside its inputs'
        storages (not a view, not in place) was made by it."""
        read = set()
        for t in ins:
            key, nbytes = _storage(t)
            read.add(key)
            self.seen(key, nbytes, False)
        for t in outs:
            key, nbytes = _storage(t)
            self.seen(key, nbytes, key not in read)
            if key not in read:  # made anew (at a freed launch output's address, maybe): no launch's
                self.reads.overwritten.add(key)

    def numbers(self, made: torch.Tensor) -> int:
        """What a torch.tensor(data) lift_fresh `made` costs in host_made: its data's numbers
        (`table_numbers`) when the data is plain Python numbers, else every element."""
        plain = PLAIN_DATA[0] if PLAIN_NUMBERS[0] else None
        return made.numel() if plain is None else min(made.numel(), table_numbers(plain, self))

    def token(self, v: int) -> tuple:
        """An int as ("address", storage order, offset, bytes) where it lies in a storage held,
        else ("int", v)."""
        if self._sorted is None:
            self._sorted = sorted(self.held)
        i = bisect_right(self._sorted, v) - 1
        if i >= 0:
            start = self._sorted[i]
            nbytes, order = self.held[start]
            if v < start + max(nbytes, 1):
                return ("address", order, v - start, nbytes)
        return ("int", v)


def _storage(t: object) -> tuple[int, int]:
    try:
        storage = t.untyped_storage()  # type: ignore[attr-defined]
        return storage.data_ptr(), storage.nbytes()
    except (RuntimeError, NotImplementedError, AttributeError):
        return 0, 0


def _step(a: tuple, b: tuple) -> tuple | None:
    """The step from token a to b, None where no run joins them: an int and an address, or
    storages of different sizes (made one after another, their addresses' gaps would be the
    sizes the host chose: a table of torch.empty(v) pointers)."""
    if a[0] != b[0]:
        return None
    if a[0] == "int":
        return (b[1] - a[1],)
    return (b[1] - a[1], b[2] - a[2]) if a[3] == b[3] else None


def run_lengths(tokens: list, step) -> list[int]:
    """The lengths of greedy arithmetic runs covering `tokens`: a run goes on while
    `step(previous, next)` stays its first step; where `step` gives None a token stands alone
    (also launch_ints.sequence_cost's, over ints)."""
    out, i, n = [], 0, len(tokens)
    while i < n:
        j = i + 1
        first = step(tokens[i], tokens[j]) if j < n else None
        if first is not None:
            while j + 1 < n and step(tokens[j], tokens[j + 1]) == first:
                j += 1
            out.append(j - i + 1)
            i = j + 1
        else:
            out.append(1)
            i = j
    return out


def _runs_cost(tokens: list[tuple]) -> int:
    """Numbers describing `tokens` as greedy arithmetic runs (RUN_NUMBERS each, one alone)."""
    return sum(min(length, RUN_NUMBERS) for length in run_lengths(tokens, _step))


def _flat(data: object, out: list) -> list:
    if type(data) in (list, tuple):
        for v in data:
            _flat(v, out)
    else:
        out.append(data)
    return out


def table_numbers(data: object, storages: Storages) -> int:
    """The numbers host Python chose in plain `data` (`watched_reads._plain`): its ints as
    interleaved arithmetic runs (the cheapest period), each other number one."""
    values = _flat(data, [])
    if not 2 <= len(values) <= MAX_READ or any(type(v) is not int for v in values):
        return len(values)  # floats or bools among them: every element, as before
    if storages.reads.token(values) is not None:  # bookkeeping over a kernel's read-back output
        return 1
    tokens = [storages.token(v) for v in values]
    best = len(tokens)
    for period in range(1, min(PERIODS, len(tokens)) + 1):
        best = min(best, (period > 1) + sum(_runs_cost(tokens[j::period]) for j in range(period)))
    return best


JOIN_OPS = frozenset({"cat", "stack", "hstack", "vstack", "column_stack", "dstack", "concat", "concatenate"})


def join_numbers(name: str, args: tuple, storages: Storages) -> int:
    """What a join's list of tensors costs in host_made: its runs of inputs in strictly
    ascending or strictly descending (storage order, offset), less one (a reversed list of
    per-step outputs, a backward RNN's, is one run) (`Storages.token` of each input's first byte;
    the op's inputs already `touched`)."""
    if name not in JOIN_OPS or not args or type(args[0]) not in (list, tuple):
        return 0
    keys = [(tok[1], tok[2]) if tok[0] == "address" else None
            for tok in (storages.token(t.data_ptr()) for t in args[0] if isinstance(t, torch.Tensor))]
    runs, i = 0, 0
    while i < len(keys):
        runs, j = runs + 1, i + 1
        if keys[i] is not None and j < len(keys) and keys[j] is not None and keys[j] != keys[i]:
            rising = keys[j] > keys[i]
            while j < len(keys) and keys[j] is not None and keys[j] != keys[j - 1] and (keys[j] > keys[j - 1]) == rising:
                j += 1
        i = j
    return max(runs - 1, 0)


def picked_offsets(tensors: list) -> tuple:
    """The element offsets of `tensors` (one join's list, one launch's handed tensors), storage
    by storage in order, for each storage picked at least twice and not only at its start."""
    by_storage: dict[int, list[int]] = {}
    for t in tensors:
        try:
            key, offset = t.untyped_storage().data_ptr(), int(t.storage_offset())
        except (RuntimeError, TypeError, AttributeError, NotImplementedError):
            continue
        if key and len(seq := by_storage.setdefault(key, [])) < MAX_READ:
            seq.append(offset)
    return tuple(tuple(seq) for seq in by_storage.values() if len(seq) > 1 and any(seq))


def pick_tokens(picks: tuple, kind: str) -> set[tuple]:
    """The computed numbers the places `picked_offsets` found carry (red team s65f: sixteen
    0-dim views of a kernel's arange at a sigmoid's codes, stacked in ascending order or handed
    as sixteen pointers, were one run of the join's order and no launch int: no number). Each
    storage's offsets are a column of arithmetic runs (`_column_cost`): one tensor's chunks,
    q, k and v of one buffer or a row's halves cost a step at most; picks where a function
    chose break their runs at almost every element."""
    out: set[tuple] = set()
    for seq in picks:
        cost = _column_cost([("int", v) for v in seq])
        out.update((kind, hash(seq), i) for i in range(min(cost, MAX_TOKENS)))
    return out


def join_tokens(name: str, args: tuple) -> set[tuple]:
    """`pick_tokens` of a join's list (torch.cat, torch.stack: JOIN_OPS): the places it picks."""
    if name not in JOIN_OPS or not args or type(args[0]) not in (list, tuple):
        return set()
    return pick_tokens(picked_offsets([t for t in args[0] if isinstance(t, torch.Tensor)]), "join-picks")


MAX_TOKENS = 256  # a table's computed numbers kept as tokens (past COMPUTED_NUMBERS either way)


def _token_cost(tok: tuple, before: tuple | None) -> int:
    """A token alone in its column: an int as `host_numbers.int_cost`; an address at its storage's start,
    of a storage made after the one before it, none (the allocator chose it: tutorial 08's one
    fresh output per group of its own size), else its offset's (or one: storages out of the
    order they were made in spell the table, red team rt78's class)."""
    if tok[0] == "int":
        return int_cost(tok[1])
    if tok[2]:
        return max(int_cost(tok[2]), 1)
    return int(before is not None and before[0] == "address" and before[1] >= tok[1])


def _column_cost(tokens: list[tuple]) -> int:
    """A column's computed numbers, run by run (greedy arithmetic runs): a run is its start,
    its step and its length, each free where it goes on as the run before it did (a staircase
    of group ids, a sawtooth of tile ids, one tile count per group) or the problem chose it, the
    last run's length free (the tail); a run of one or two may cost its tokens instead. A step
    between storages made one after another costs its offset's change only. Run lengths are data
    too: a 0/1 table whose runs' lengths spell codes costs them (not only its starts)."""
    cost, i, last = 0, 0, None  # last: the previous run's (start, start's change, step, length)
    lengths = run_lengths(tokens, _step)
    for r, length in enumerate(lengths):
        run = tokens[i:i + length]
        before = tokens[i - 1] if i else None
        step = (_step(run[0], run[1]) or (0,))[-1] if length > 1 else None
        rise = run[0][1] - last[0][1] if last and run[0][0] == last[0][0] == "int" else None
        start = 0 if last and rise is not None and rise == last[1] else _token_cost(run[0], before)
        said = start + (0 if step is None or (last and step == last[2]) else int_cost(step)) \
            + (0 if r == len(lengths) - 1 or (last and length == last[3]) else int_cost(length))
        alone = sum(_token_cost(t, tokens[i + j - 1] if i + j else None) for j, t in enumerate(run))
        cost += min(said, alone) if length < 3 else said
        last = (run[0], rise, step, length)
        i += length
    return cost


def int_tokens(made: object, storages: Storages) -> set[tuple]:
    """The computed numbers a host-made integer tensor holds, as tokens for `host_computed`
    (module doc of host_numbers): what its values cost at the cheapest period of interleaved
    arithmetic runs, where only the problem's own ints, a storage's start and runs' lengths are
    free. The same table made again (every forward) is the same tokens."""
    if not isinstance(made, torch.Tensor) or made.dtype == torch.bool or made.is_floating_point() \
            or made.is_complex() or made.is_meta or made.layout != torch.strided or not 0 < made.numel() <= MAX_READ:
        return set()
    from torch.utils._python_dispatch import _disable_current_modes

    with _disable_current_modes():
        values = made.detach().reshape(-1).tolist()
    if len(values) == 1:  # one number (`t[i] = v` lifts it): the author's where typed, as a float is
        return lone_int(values[0])
    if (derived := storages.reads.token(values)) is not None:  # offsets of read-back counts
        return {derived}
    tokens = [storages.token(v) for v in values]
    cost = min(sum(_column_cost(tokens[j::period]) for j in range(period))
               for period in range(1, min(PERIODS, len(tokens)) + 1))
    key = tuple(t if t[0] == "int" else t[2:] for t in tokens)  # not which storage: its place in it
    return {("ints", hash(key), i) for i in range(min(cost, MAX_TOKENS))}
