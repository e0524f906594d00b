"""Which ints a Triton launch hands are sizes, and which are host Python's data (red team rt74).

A kernel is handed ints of two kinds. Most are structure its own tensors already hold: a size, a
stride, a numel or an element offset of a tensor the launch hands, a product of two of them (H * W)
or an exact quotient (rows = numel // N), a cdiv or floor division of one by a power of two (a
grid's tile count), its next power of two (a row's block), and a power-of-two `tl.constexpr`
(BLOCK_SIZE); num_warps and num_stages are the compiler's, which no kernel reads. A loop's counter
is structure too: one argument's values, over the launches of one kernel, going up by one step or
starting again at the first (a chunk's offset i * BLOCK per layer), each value held for one number
of launches (an outer loop's index). Every other int is host Python's data: red team rt74 stored
host Python's fixed-point sigmoid table with one launch per (index, code) entry in the first
forward and cached it (ok under strict at 1.00): the index steps, the codes are data; rt79 split
the codes into base-8 digits over three arguments after eight launches that made each digit step
0..7 (construction's rule, distinct values stepping, took them for counters: ok at 1.00).

An honest kernel's data ints (an eps scaled to an int, a seed, an ignore_index, a causal flag)
are few and repeat from launch to launch: what counts is the distinct combinations
(`DataInts.data`): each distinct tuple of one kernel's data ints is its length in numbers, so a
per-layer conv handing (padding, dilation) = (3, 2) at 13 layers is 2, and a code split into
base-8 digits is three numbers per entry. Counted in forward (`forward_watch.Provenance`, toward
`policy.max_host_made`) and at construction (`construction_watch`, past `HOST_VALUES`).

Launch order (red team rt84, session 58): a distinct tuple costs once however often it comes,
so a table handed one base-8 digit per launch beside two counters (index, place) was 8 numbers
for 1536 digits, three 0/1 bits per launch none (0 and 1 explain themselves), and digits as
power-of-two `tl.constexpr`s (D2 = 1 << digit) none, skipped as block sizes: each was ok under
strict at 1.00. And a digit handed as 2 << d beside a 512-element table was a size
(512 // 2**k) at every launch. So each argument that was ever handed an int no tensor's size
explains (a 0 or 1, a power-of-two constexpr, any loose int), or whose int changed while its
launch's tensors' numbers stayed the same, is also read in launch order (`DataInts._order`):
the runs that describe it (`offset_numbers`: nothing for a constant or a loop nest's counter),
and a kernel costs the larger of that and its distinct tuples (measured over the honest corpora
in-process after it: still no file above 9 numbers, 242 files; `scripts/measure_honest_launch_ints.py`).

Choices that are no int (red team s59c, session 59): rt84's digits handed as typed floats (16
distinct, so 16 numbers for 512 digits), and a table spelled with no number at all, as which of
two argument-identical kernels runs per bit, were ok under strict at 1.00. Every float, flag,
string, dtype and handed helper of a launch, and the sequence of kernels itself, is read in
launch order as a chosen int is (`DataInts._chose`): a float by its value's runs, any other
choice by its runs past one per value it takes (a per-layer eps, a first-chunk flag, kernel A
over chunks then B over heads stay a few numbers).

Which tensors explain (red team rt80, session 57): a size host Python chose as data is no size.
rt80 handed each launch `scratch[:code]` and its numel, so every int was its own tensor's size
(ok under strict at 1.0015). The sizes that explain are those that follow from what the problem
hands the forward: a view's base's (`_root`: never the view's own shape, numel, strides or
offset, whether cut by slicing, narrow, split, view(code, -1) or as_strided), and none of a
storage an op of this forward made (`made`: `torch.empty(code)`, a slice's clone; an honest
output's sizes are its input's, handed beside it). A view's storage offset reaches the kernel
with no int (its pointer minus its base's), so each argument's offsets over a kernel's launches
are data too unless a loop nest gives them (`offset_numbers`), and so is a grid a grid function
returned (read by `tl.num_programs`). An honest chunk loop (`x[i:i + CHUNK]` and its numel), split-K
slices and per-head views cost a chunk length or two (measured: no honest file above 9 numbers,
`scripts/measure_honest_launch_ints.py`). An inference tensor keeps no view's base, so only its
storage's length explains (a whole view `scratch.view(code, -1)` of one made before the forward).
Session 67 (`shape_origin`): a made storage one op sized from the problem's tensors and ints (a
conv's output) explains (`add`'s `sized`), and one construction sized as it chose does not.

Their bits (red team s65f, session 66): counted only toward `max_host_made` (64), a handful of
data ints carried a whole table: sixteen 16-bit sigmoid codes computed by math.exp in
`__init__`, handed as sixteen int arguments of one launch, were ok at 1.0003 (CPU, host_made
17), where the same ints lifted by torch.tensor were host_compute (`host_tables.int_tokens`).
So they are computed numbers too (`DataInts.computed`, toward `host_numbers.COMPUTED_NUMBERS`),
one per 16 bits begun of each distinct data int (`host_numbers.int_cost`: 0, 1 and the
problem's own ints free), none where the author typed it (a seed, an ignore_index) or where
the host read it, or summed it, from memory a launch wrote (`read_tables.ReadBacks.explains`:
cu_seqlens' total, an MoE's block count); the offsets no loop nest gives (`offset_numbers`);
and the places of one launch's views of one storage, read as a table's column of runs
(`host_tables.pick_tokens`: sixteen 0-dim views of a kernel's arange at the codes, handed as
sixteen pointers, were one offset per argument and no number). The honest corpora measured at
most 7 such numbers (session 66, in-process as `scripts/measure_honest_launch_ints.py` reads
them, 378 files: 375 at most 3; honest/s55_06's unfold-view conv is 7, its padded input and its
output made in forward, so their sizes explain none of its ints; 192 files need the CPU child).
"""

from __future__ import annotations

import inspect

from evaluator import launch_args
from evaluator.host_numbers import int_cost, typed
from evaluator.host_tables import pick_tokens, picked_offsets
from evaluator.launch_args import HEURISTIC_OPTIONS, _constexpr_names, launch_ints
from evaluator.launch_ints import MAX_SEQUENCE, sequence_cost
from evaluator.launch_storage import handed_leaves

_POWERS = tuple(1 << k for k in range(1, 21))  # divisors a grid's cdiv or a tile split uses
_MAX_BASE = 256  # a launch's tensor numbers kept for the products (more: the first ones)
_RUN_LENGTHS = 16  # distinct counts of launches between a counter's restarts
_MAX_TUPLES = 1 << 14  # distinct data tuples kept per kernel (a table past it is past every bound)


def _python_fn(kernel: object) -> object:
    """The Python function under a JITFunction, an Autotuner or a Heuristics wrapper."""
    fn = kernel
    for _ in range(8):
        if hasattr(fn, "__code__") or not hasattr(fn, "fn"):
            break
        fn = fn.fn
    return fn


def _jit(kernel: object) -> object:
    """The JITFunction under an Autotuner or a Heuristics wrapper (its `params` name them)."""
    fn = kernel
    for _ in range(8):
        if hasattr(fn, "params") or not hasattr(fn, "fn"):
            break
        fn = fn.fn
    return fn


_NAMES: dict[int, tuple] = {}  # id(kernel) -> (kernel, parameter names)


def _signature(kernel: object) -> tuple[tuple, frozenset]:
    """(parameter names in order, the `tl.constexpr` ones) of a kernel."""
    found = _NAMES.get(id(kernel))
    if found is None or found[0] is not kernel:
        params = getattr(_jit(kernel), "params", None)
        if params:
            names = tuple(p.name for p in params)
        else:
            try:
                names = tuple(inspect.signature(_python_fn(kernel)).parameters)
            except (TypeError, ValueError):
                names = ()
        found = _NAMES[id(kernel)] = (kernel, names)
    return found[1], _constexpr_names(kernel)


def _root(t: object) -> object | None:
    """The tensor whose numbers may explain a launch's ints for `t` (red team rt80): a view's
    base, never the view's own shape, numel, strides or offset (host Python cut `scratch[:code]`,
    `narrow`, `view(code, -1)` or `as_strided` to a size of its choosing); None for an inference
    tensor (no view of one keeps its base: only its storage's length explains) or one smaller
    than its storage or starting inside it; any other tensor itself."""
    base = getattr(t, "_base", None)
    if base is not None:
        return base
    try:
        whole = t.storage_offset() == 0 and t.numel() * t.element_size() >= t.untyped_storage().nbytes()
        return t if whole and not t.is_inference() else None
    except (RuntimeError, TypeError, AttributeError, NotImplementedError):
        return t


def launch_choices(args: tuple, kwargs: dict) -> list:
    """A launch's data that is neither an int nor a tensor, by place: floats, flags, strings,
    dtypes, None, inside tuples and tl.constexpr wrappers (hashable, as `DataInts._chose` keys them)."""
    if not launch_args._TENSORS:
        launch_args._kinds()
    out: list = []
    for name, item in (*enumerate(args), *kwargs.items()):
        _choice_items(item, (name,), out, 0)
    return out


def _choice_items(v: object, where: tuple, out: list, depth: int) -> None:
    import torch
    import triton.language as tl

    v = v.value if type(v) is launch_args._CONSTEXPR else v
    if type(v) in (tuple, list) and depth < 4:
        for i, item in enumerate(v):
            _choice_items(item, (*where, i), out, depth + 1)
    elif type(v) in (float, bool, str, bytes, type(None)) or isinstance(v, (tl.dtype, torch.dtype)):
        out.append((where, v))
    elif type(v) in launch_args._DEVICE_FUNCTIONS:  # a helper handed as a constexpr (ACT=relu)
        out.append((where, id(v)))


def _storage_length(t: object) -> int:
    try:
        return t.untyped_storage().nbytes() // max(t.element_size(), 1)
    except (RuntimeError, TypeError, AttributeError, NotImplementedError):
        return 0


def _offset(t: object) -> int:
    try:
        return int(t.storage_offset())
    except (RuntimeError, TypeError, AttributeError, NotImplementedError):
        return 0


def offset_numbers(seq: list) -> int:
    """What one argument's storage offsets over a kernel's launches carry: nothing where a loop
    nest's counter gives them (a constant, a chunk's i * CHUNK, b * S * H * D + h * D per head:
    `launch_ints.sequence_cost` of one run), else start, step and length of each run (red team
    rt80: `scratch[code:]` handed beside `scratch`, the kernel reading the pointers' gap)."""
    cost = sequence_cost(seq, numbers=True) if len(seq) > 1 else 0
    return 0 if cost <= 1 else cost  # one run of the cheapest period: a loop nest


def tensor_numbers(tensors: list, made=None) -> frozenset[int]:
    """The sizes, strides and numels of a launch's tensors' roots (`_root`), leaving out those
    `made(root)` says host Python shaped in this forward (a `torch.empty(code)`: ForwardWatch)."""
    base: set[int] = set()
    for t in tensors:
        root = _root(t)
        if made is not None and made(t if root is None else root):
            continue
        if root is None:
            base.add(_storage_length(t))
            continue
        try:
            base.update(int(s) for s in root.shape)
            base.update(int(s) for s in root.stride())
            base.update((int(root.numel()), int(root.dim())))
        except (RuntimeError, TypeError, AttributeError):  # a tensor without strides
            continue
        if len(base) > _MAX_BASE:
            break
    base.discard(0)
    return frozenset(base)


_EXPLAINED: dict[frozenset, frozenset] = {}  # a launch's tensor numbers -> the ints they explain


def explained_by(base: frozenset) -> frozenset:
    """The ints a launch's tensor numbers (`tensor_numbers`) explain: one of them, a product or
    exact quotient of two (a row count, numel // N), 0 and 1, a cdiv or floor division of one by a power
    of two, or its next power of two (once per set of shapes: a per-layer loop hands the same
    ones every forward)."""
    found = _EXPLAINED.get(base)
    if found is None:
        out = {0, 1, *base}  # an offset 0, a stride or grid of 1: any launch of contiguous tensors
        for b in base:
            if b <= 0:
                continue
            out.update(b * c for c in base)
            out.update(b // c for c in base if c > 0 and b % c == 0)  # rows: numel // N
            out.update(v for p in _POWERS if p <= b for v in (b // p, -(-b // p)))
            out.add(1 << (b - 1).bit_length())
        if len(_EXPLAINED) > 4096:
            _EXPLAINED.clear()
        found = _EXPLAINED[base] = frozenset(out)
    return found


class DataInts:
    """The ints a kernel's launches hand that are data (module doc), kernel by kernel."""

    def __init__(self) -> None:
        self.runs: dict[tuple, list] = {}  # (kernel, place) -> `_step`'s run
        self.tuples: dict[int, set] = {}  # kernel -> distinct tuples of its unexplained ints
        self.total: int | None = None  # `data`, until the next launch
        self.offsets: dict[tuple, list] = {}  # (kernel, argument) -> its tensor's storage offsets
        self.values: dict[tuple, list] = {}  # (kernel, place) -> its ints in launch order
        self.chosen: set[tuple] = set()  # (kernel, place) whose ints host Python chose (`_sequence`)
        self.bases: dict[tuple, dict] = {}  # (kernel, place) -> {a launch's tensor numbers: its last int}
        self.codes: dict[tuple, dict] = {}  # (kernel, place) -> {a non-int datum: its first-appearance index}
        self.picks: set[tuple] = set()  # per launch, its views' places in storages it picks twice (`computed`)

    def add(self, kernel: object, args: tuple, kwargs: dict, made=None, grid: tuple | None = None,
            benchmark: bool = False, config: bool = False, sized=None) -> None:
        """One launch; `made(tensor)`: whether host Python shaped that tensor in this forward
        (its sizes explain nothing: `tensor_numbers`), but where `sized(tensor)`: one op sized
        it from the problem's sizes (`shape_origin`, session 67), whose sizes explain as an
        input's do; the launch-order key (`_sequence`) still leaves them out, so a different
        such tensor per launch beside the same others is a choice read in order; `grid`: the grid as Triton resolved it
        (a grid function's `(code,)` is read by `tl.num_programs`: rt80's class). A launch of
        an autotuner's `benchmark` (launch_entry.BENCHMARKING) is read for its distinct tuple
        only, not in launch order: do_bench runs each config as many times as its timing says,
        and in launch order an H100's runs of an honest ten-config GEMM were 75 numbers
        (s57g_11); what varies from run to run (a heuristic counting its calls) still counts.
        The launch after it is read in order. A `config`: the arguments of an autotuner's launch
        with one of its configs' values, read so too, once per config whatever runs (`configs`)."""
        config = config or benchmark
        if grid is not None:
            kwargs = {**kwargs, "grid": tuple(grid)}
        fn = id(_python_fn(kernel))
        names, constexprs = _signature(kernel)
        tensors = []
        for where, t in (*((w, t) for i, v in enumerate(args) for w, t in handed_leaves(v, str(i))),
                         *((w, t) for k, v in kwargs.items() for w, t in handed_leaves(v, k))):
            tensors.append(t)
            seq = self.offsets.setdefault((fn, where), [])
            if not config and len(seq) < MAX_SEQUENCE:
                seq.append(_offset(t))
        if not config and len(self.picks) < _MAX_TUPLES and (picks := picked_offsets(tensors)):
            self.picks.add(picks)
        base = tensor_numbers(tensors, made)
        vouched = tensor_numbers([t for t in tensors if sized(t)]) if sized is not None else frozenset()
        sizes = explained_by(base | vouched)
        self.total = None
        loose = []
        for place, v in launch_ints(args, kwargs).items():
            if not config:
                self._step((fn, place), v)
            at = place[0]
            name = names[at] if isinstance(at, int) and at < len(names) else at
            if name in HEURISTIC_OPTIONS:
                continue  # the compiler's options: no kernel reads them
            if not config:
                self._sequence((fn, place), v, base, v not in sizes or v in (0, 1))
            raw = args[at] if isinstance(at, int) else kwargs.get(at)
            constant = name in constexprs or type(raw).__name__ == "constexpr"
            if constant and v > 0 and (v & (v - 1)) == 0:
                continue  # a power-of-two block size (its launch order: `_sequence`)
            if v not in sizes:
                loose.append((place, v))
        if loose:
            kept = self.tuples.setdefault(fn, set())
            if len(kept) < _MAX_TUPLES:
                kept.add(tuple(loose))
        if config:
            return
        for where, v in launch_choices(args, kwargs):
            self._chose((fn, ("choice", where)), v)
        self._chose((None, "kernel"), fn)  # which kernel runs is a choice too

    def configs(self, tuner: object, args: tuple, kwargs: dict) -> list[float]:
        """An autotuner's launch (`Autotuner.run`, before it benchmarks or picks): each of its
        configs' values are host Python's data handed the kernel, whether or not a launch
        with them is read (the benchmark's are not, `add`): its ints as that launch's
        distinct tuple, its floats returned (red team session 60: 64 configs each carrying one
        fixed-point code of a sigmoid table, stored by a one-program kernel, built the table
        in the benchmark's runs, unread; ok under paper on the CPU). Returns the floats."""
        floats, kernel = [], getattr(tuner, "fn", tuner)
        while type(kernel).__name__ in ("Autotuner", "Heuristics"):  # the kernel a launch hands
            kernel = kernel.fn
        for config in list(getattr(tuner, "configs", None) or ())[:_MAX_TUPLES]:
            values = dict(getattr(config, "all_kwargs", dict)())
            self.add(kernel, args, {**kwargs, **values}, config=True)
            floats.extend(v for v in values.values() if type(v) is float)
        return floats

    def _chose(self, key: tuple, v: object) -> None:
        """One non-int datum of a launch (a float, a flag, a string, a dtype) or the kernel
        itself, in launch order: read as `_order` reads a chosen int (red team s59c: a table
        handed one typed digit float per launch, or no number at all, as which of two
        argument-identical kernels runs per bit, carried by launch order alone; ok under strict
        at 1.00). A float keeps its value (a per-layer scale steps or repeats with the loop);
        anything else is the index of its first appearance (a constant is one run)."""
        codes = self.codes.setdefault(key, {})
        if type(v) is not float or v != v:
            try:
                hash(v)
            except TypeError:  # a Triton type object, a list: told apart by its text
                v = (type(v).__name__, repr(v)[:200])
            v = codes.setdefault(v, len(codes)) if len(codes) < _MAX_TUPLES else -1
        seq = self.values.setdefault(key, [])
        if len(seq) < MAX_SEQUENCE:
            seq.append(v)
        self.chosen.add(key)

    def _sequence(self, key: tuple, v: int, base: frozenset, chosen: bool) -> None:
        """One argument's ints in launch order. It is host Python's choice where one is no
        size of the launch's tensors (`chosen`: 0 and 1 explain themselves, and any block size
        may be a power of two), or where it is not the one the last launch with the same
        tensor numbers had (alternating two tables is no escape): a size follows its tensors,
        and the same tensors explain dozens of numbers (rt84: a digit handed as 512 // 2**k
        beside a 512-element table, every value a size)."""
        seq = self.values.setdefault(key, [])
        last = self.bases.setdefault(key, {})  # by the launch's tensor numbers: this place's last int
        if last.get(base, v) != v:
            chosen = True
        if len(last) < _MAX_TUPLES or base in last:
            last[base] = v
        if len(seq) < MAX_SEQUENCE:
            seq.append(v)
        if chosen:
            self.chosen.add(key)

    def _order(self, fn: int) -> int:
        """What the launch order of one kernel's chosen ints carries (red team rt84: a table
        handed one base-8 digit or one bit per launch, beside counters, had 8 or 2 distinct
        values, and a digit as a power-of-two constexpr was skipped as a block size; ok under
        strict at 1.00): per argument, the runs that describe its values in launch order
        (`offset_numbers`: nothing for a constant or a loop nest's counter); a choice that is no
        number (a flag, a string, which kernel: `_chose`) its runs past one per value it takes
        (kernel A over chunks, then B over heads, is none; a bit per launch is one a change)."""
        return sum(max(0, sequence_cost(self.values[k]) - len(self.codes[k])) if self.codes.get(k)
                   else offset_numbers(self.values[k]) for k in self.chosen if k[0] == fn)

    def _step(self, key: tuple, v: int) -> None:
        """One argument's run. A loop's counter goes up by one step from launch to launch or
        starts again at its first value (a loop per layer or per forward); an outer loop's holds
        each value for as many launches every time (one plateau length). Any other jump, or
        plateaus of several lengths (a digit held while the next one cycles: rt79), is data."""
        run = self.runs.get(key)
        # [first, last, step, stepping, plateau, plateau lengths, run length, run lengths]
        if run is None:
            self.runs[key] = [v, v, None, True, 1, set(), 1, set()]
            return
        if v == run[1]:
            run[4] += 1
            return
        run[5].add(run[4])
        run[4] = 1
        if v == run[0]:  # a restart
            run[7].add(run[6])
            run[6] = 1
        elif run[2] is None or v == run[1] + run[2]:
            run[2] = v - run[1]
            run[6] += 1
        else:
            run[3] = False
        run[1] = v

    def counter(self, fn: int, place: tuple) -> bool:
        """Whether one argument's values, over the kernel's launches, step as a loop's counter."""
        run = self.runs.get((fn, place))
        return run is not None and run[3] and run[2] is not None and len(run[5]) <= 1 \
            and len(run[7]) <= _RUN_LENGTHS

    def _lengths(self) -> int:
        """A counter's distinct run lengths past its first (how many launches before it
        starts again can carry numbers, one each)."""
        return sum(len(r[7] | {r[6]}) - 1 for k, r in self.runs.items() if self.counter(*k))

    def data(self) -> int:
        """How many numbers the kernels were handed as data: per kernel, each distinct tuple
        of its unexplained, non-counter ints, its length, or what the launch order of its
        chosen ints carries where that is more (`_order`); a counter's distinct run lengths
        past one; storage offsets no loop nest gives."""
        if self.total is not None:
            return self.total
        total = self._lengths() + sum(map(offset_numbers, self.offsets.values()))
        for fn in {k[0] for k in self.chosen} | set(self.tuples):
            seen = set()
            for loose in self.tuples.get(fn, ()):
                seen.add(tuple(pv for pv in loose if not self.counter(fn, pv[0])))
            total += max(sum(len(t) for t in seen), self._order(fn))
        self.total = total
        return total

    def computed(self, read=lambda v: False) -> set[tuple]:
        """The computed numbers (`host_numbers.COMPUTED_NUMBERS`) the launches were handed as
        data, by their bits (module doc, session 66): each distinct int of `data`'s tuples that
        is no counter, `int_cost`'s tokens (none where the author typed it or `read(v)`: the host
        read it, or summed it, from memory a launch wrote); what storage offsets no loop nest
        gives carry (`offset_numbers`); and the places of one launch's views of one storage
        (`host_tables.pick_tokens`)."""
        out: set[tuple] = set()
        for fn, kept in self.tuples.items():
            for place, v in {pv for loose in kept for pv in loose}:
                if not self.counter(fn, place) and not typed(v) and not read(v):
                    out.update(("int", v, i) for i in range(int_cost(v)))  # as `host_numbers.lone_int`
        for key, seq in self.offsets.items():
            out.update(("launch-offsets", key, i) for i in range(offset_numbers(seq)))
        for picks in self.picks:
            out |= pick_tokens(picks, "launch-picks")
        return out

    def report(self) -> dict:
        """Per kernel name, its data count (for scripts measuring honest files)."""
        return {fn: len(kept) for fn, kept in self.tuples.items()}
