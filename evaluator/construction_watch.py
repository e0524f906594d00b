"""What PyTorch (or host Python) computed while the candidate's ModelNew was built: under the
strict policy that memory is PyTorch's work, and the torch knock-out forward finds noise there.

The knock-out forward (`output_noise.torch_compute_noised`) turns every PyTorch compute op
*of the forward* into noise, but construction ran unwatched: a table of every bfloat16 code's
sigmoid computed in __init__ (by torch.sigmoid over an arange, or by Python into torch.tensor)
and gathered by a Triton kernel was ok under strict, every output value PyTorch's (red team
rt65). Here the build runs under a dispatch mode that gives each storage it writes a state:

- drawn: a random draw (an op tagged nondeterministic_seeded), or such memory through glue or
  an affine op with Python numbers (`0.1 * torch.randn(...)`, `uniform_` then `mul_`, the
  steps of trunc_normal_): a parameter's initialisation, which the reference draws alike;
- plain: a constant fill, an arange, a copy of plain memory, a few Python numbers, and a
  compute op over plain memory alone that makes structure (a constant, as forward's
  `aten_facts.constant_op`: a causal mask, an index table);
- computed: a compute op over drawn memory with another tensor or with anything but Python
  numbers, float values computed from plain memory alone (`aten_facts.values_op`: the
  sigmoid table itself, which the charge alone let through at the GPU's sizes, session 55),
  more than `HOST_VALUES` of Python's numbers in one storage (through copies, cat, element
  writes and structure ops), glue reading computed memory. Computed wins: a partial write
  keeps a computed storage so.

Every compute op's work is priced by the CPU meter and charged to each profiled forward
(`charged`): a table hoisted out of forward costs what it costs there (the charge is
coverage's; the refusal of PyTorch's values under strict is the state's, at any size). The random state
never launders a table: only ops of one drawn tensor and Python numbers keep it, and no such
op makes values that depend on a position. `collect` keeps, once the model exists, every
live tensor whose storage is computed (a garbage-collector walk: parameters, buffers, globals and
closures alike); `noised` fills them with noise for the knock-out forward and puts their
bytes back after it. Honest parameter initialisation (nn.Linear, nn.Conv*, norms,
embeddings, trunc_normal_) is drawn or plain; folding a norm into a weight at construction is
PyTorch's work, which the strict policy refuses in forward too."""
from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager

import torch
from torch.utils._python_dispatch import TorchDispatchMode, _disable_current_modes

from evaluator.aten_facts import (
    CONSTANT_NUMBERS,
    CONSTANT_OPS,
    GLUE_OPS,
    HOST_DATA_OPS,
    STRUCTURE_OPS,
    _python_scalars,
    chain_ops,
    python_scalar_values,
    storage_bytes,
    storage_key,
    values_op,
    written,
)
from evaluator.draw_range import AFFINE, DrawOrder, Ranges, draw_parameters, random_op
from evaluator.host_numbers import (
    MAX_VALUES,
    handed_numbers,
    launch_computed,
    launch_order,
    lifted,
    op_bits,
    order_numbers,
    scalars_computed,
    tensor_computed,
    tensor_floats,
    tokens,
)
from evaluator.host_tables import Storages, int_tokens, join_numbers, join_tokens
from evaluator.launch_ints import IntRuns
from evaluator.launch_sizes import DataInts
from evaluator.placed_order import Placed, lone
from evaluator.shape_origin import note_sizes

HOST_VALUES = 64  # Python numbers one tensor may take at construction (policy.max_host_made's size)
_KEPT_VALUES = HOST_VALUES  # distinct numbers kept per storage; past them None: many
_CONSTANT = 3  # Python numbers a storage may hold and stay a constant (`collect`): a fill, an arange
DRAWN, PLAIN, COMPUTED = "drawn", "plain", "computed"


def tensors_of(args: tuple, kwargs: dict) -> list[torch.Tensor]:
    """The tensors an op was given (those in a list or tuple argument too)."""
    return [t for a in (*args, *kwargs.values()) for t in (a if isinstance(a, (list, tuple)) else (a,))
            if isinstance(t, torch.Tensor)]


def _union(*sets: frozenset | None) -> frozenset | None:
    """Numbers joined (`ConstructionWatch.values`): None (many) past `_KEPT_VALUES`."""
    if any(v is None for v in sets):
        return None
    joined = frozenset().union(*sets)
    return joined if len(joined) <= _KEPT_VALUES else None


class ConstructionWatch(TorchDispatchMode):
    """Each storage the build wrote, by its state (module doc)."""

    def __init__(self) -> None:
        super().__init__()
        self.state: dict[int, str] = {}
        self.computed: list[torch.Tensor] = []
        self.python: dict[int, int] = {}  # how many of Python's numbers each storage holds
        self.ops: dict[int, int] = {}  # the compute ops each plain storage took (`chain_ops`)
        # the distinct numbers a storage holds, up to _KEPT_VALUES (absent: many): a table split into one-number
        # storages is as many (`collect`), a hundred fills of 1.0 one; folding in a coefficient list is a table
        self.values: dict[int, frozenset] = {}
        self.handed: dict[int, set] = {}  # the launch data each storage was handed (`launching`)
        self.ints = DataInts()  # construction's launch ints no tensor's size explains
        self.recorder: object = None  # the launch hook (`watched`): the grid a launch resolved
        self.runs = IntRuns()  # ... and the order they come back in (0/1 bits are offsets, strides)
        self.python_made = 0  # of those, the numbers still live once the model exists
        self.storages = Storages()  # the storages ops touched: a table of their addresses is structure
        self.chosen: set[int] = set()  # storages written at a size no problem int is (`shape_origin`)
        self.seconds = self.unfused = 0.0  # construction's compute ops, as `op_price` charges them
        self.numbers: set = set()  # numbers host Python computed, lifted, gave ops or launches (`host_numbers`: rt74)
        self.lifted: list[float] = []  # the floats torch.tensor lifted, in order (`order_numbers`)
        self.given: list[float] = []  # ... and those given plain ops as values (a fill per digit)
        self.placed = Placed()  # ... and the numbers each storage was given, in order (`placed_order`)
        self.ranges = Ranges()  # where each drawn storage's values lie (`draw_range`: uniform_(v, v) is v)
        self.draws = DrawOrder()  # ... and which draws came in what order (typed bounds picked: s62b)

    def computed_numbers(self) -> set:
        """`numbers`, what its floats' order spells (s59c), its launches' data ints (`DataInts.computed`)."""
        lifted, given = order_numbers(self.lifted, "construction"), order_numbers(self.given, "given")
        return self.numbers | lifted | given | self.placed.numbers() | self.draws.numbers() | self.ints.computed()

    def _charge(self, func, args: tuple, kwargs: dict, out) -> None:
        seconds, unfused = op_price(func, args, kwargs, out)
        self.seconds, self.unfused = self.seconds + seconds, self.unfused + unfused

    def charge(self) -> tuple[float, float]:
        """(seconds, seconds at the decompositions' price) of construction's compute ops."""
        return self.seconds, self.unfused

    def _of(self, t: torch.Tensor) -> str:
        return self.state.get(storage_key(t), PLAIN)

    def _values_of(self, key: int) -> frozenset | None:
        return frozenset() if not self.python.get(key) else self.values.get(key)

    def _keep_values(self, key: int, made: int, values: frozenset | None, partial: bool) -> None:
        """A storage's distinct numbers themselves (`values`), with its own where partly written."""
        values = _union(values, self._values_of(key)) if partial else values
        if made and values is not None:
            self.values[key] = values
        else:
            self.values.pop(key, None)

    def _scalars(self, func, args: tuple, kwargs: dict, out: object) -> frozenset:
        """An op's Python value arguments as values, its computed floats kept (`numbers`), at the
        precision the op reads them (`host_numbers.op_bits`)."""
        scalars = python_scalar_values(func, args, kwargs)
        self.numbers |= scalars_computed(scalars, func.overloadpacket.__name__, op_bits(args, kwargs, out))  # its ints too
        self.given.extend(v for v in scalars[:MAX_VALUES - len(self.given)] if type(v) is float)
        return tokens(scalars)

    def __torch_dispatch__(self, func, types, args=(), kwargs=None):
        kwargs = kwargs or {}
        name = func.overloadpacket.__name__
        ins = tensors_of(args, kwargs)
        dests = written(func, args, kwargs, ())
        reads = [t for t in ins if all(t is not d for d in dests)]
        states = [self._of(t) for t in reads]
        # Python's numbers in what it writes: its reads' and, where it makes data of them (not a
        # random draw's bounds, not an affine step of one), its own value arguments
        # (per tensor read, not per storage: `cat` of 65536 one-element slices of one arange at
        # offsets host Python chose placed Python's sigmoid table, plain as one storage's 1 number)
        read_keys, dest_keys = {storage_key(t) for t in reads}, {storage_key(d) for d in dests}
        python = sum(self.python.get(k, 0) for k in map(storage_key, reads) if k not in dest_keys)
        values = _union(*(self._values_of(k) for k in read_keys if k not in dest_keys))
        # ... in order, with its own values (`placed_order`; a lift's: `lone`)
        placed = self.placed.sequence([k for k in map(storage_key, reads) if k not in dest_keys], python_scalar_values(func, args, kwargs))
        ops = chain_ops(name, ins, self.ops)
        out = func(*args, **kwargs)
        outs = written(func, args, kwargs, out)
        self.storages.touched(ins, outs)  # where tensors lie (`host_tables`: address tables)
        note_sizes(self.chosen, outs, storage_key)  # sized as the candidate chose (`shape_origin`)
        python += join_numbers(name, args, self.storages)  # the order of a join's list (rt78)
        self.numbers |= join_tokens(name, args)  # ... and the places it picks in one storage (s65f)
        if name in HOST_DATA_OPS:  # torch.tensor(data): what it lifts is Python's new memory
            made = self.storages.numbers(out) if isinstance(out, torch.Tensor) else 1
            new, python, read_keys = PLAIN, made, set()
            small = isinstance(out, torch.Tensor) and out.numel() <= _KEPT_VALUES
            values, placed = (lifted(out) if small else None), lone(out)
            self.numbers |= tensor_computed(out) | int_tokens(out, self.storages)
            self.lifted.extend(tensor_floats(out)[:MAX_VALUES - len(self.lifted)])  # its order (s59c)
        elif COMPUTED in states:  # a random op too: torch.normal(table, 0.0) is its mean (rt68)
            new = COMPUTED
        elif random_op(func):
            new = DRAWN
        elif name in GLUE_OPS:
            new = DRAWN if states and all(s == DRAWN for s in states) else PLAIN
            python += _python_scalars(func, args, kwargs) if new == PLAIN else 0
            values = _union(values, self._scalars(func, args, kwargs, out)) if new == PLAIN else values
        elif name in AFFINE and (states == [DRAWN] and len(ins) == 1 or not reads and dests and len(ins) == len(dests)
                                  and all(self._of(d) == DRAWN for d in dests)):  # x.mul_(0.5) on drawn memory
            new = DRAWN
        else:  # a compute op: charged to every forward as if it ran there (`charged`)
            self._charge(func, args, kwargs, out)
            # over constants alone it is a constant where it makes structure, as forward's
            # `aten_facts.constant_op` (a causal mask, an index table: honest strict kernels
            # read them), its Python numbers counted as glue's are; float values computed from
            # constants (`aten_facts.values_op`: rt65's sigmoid table) and anything computed
            # from a draw are PyTorch's
            new = COMPUTED if DRAWN in states or values_op(name, outs) else PLAIN
            python += _python_scalars(func, args, kwargs) if new == PLAIN else 0
            values = _union(values, self._scalars(func, args, kwargs, out)) if new == PLAIN else values
            # a list of coefficients folded in by arithmetic is a function table (rt74's hinges)
            if new == PLAIN and name not in STRUCTURE_OPS and (values is None or len(values) > CONSTANT_NUMBERS):
                new = COMPUTED
        if new == COMPUTED or new == DRAWN and name in AFFINE or random_op(func):  # its numbers count whatever
            # its memory (s61h), a draw's whatever its range: a bound a Triton row maximum read back (s62b)
            scalars = [*python_scalar_values(func, args, kwargs), *draw_parameters(func, args, kwargs)]
            self.numbers |= scalars_computed(scalars, name, op_bits(args, kwargs, out))
            self.draws.add(func, args, kwargs)
        sources = list((read_keys - dest_keys) or dest_keys)  # a draw or step of one on one side of 0 is a fill (s60a)
        if placing := new == DRAWN and self.ranges.drawn(func, name, args, kwargs, sources, outs, name in AFFINE):
            python, values = python + _python_scalars(func, args, kwargs), _union(values, self._scalars(func, args, kwargs, out))
        for t in outs:
            key = storage_key(t)
            if not key or (key in read_keys and all(t is not d for d in dests)):
                continue  # a view of what it read: nothing written
            partial = t.numel() * t.element_size() < t.untyped_storage().nbytes()
            old = self.state.get(key, PLAIN)
            made = min(python + (self.python.get(key, 0) if partial else 0), 1 << 40)
            self.python[key] = made
            self._keep_values(key, made, values, partial)
            state = COMPUTED if made > HOST_VALUES else new
            # a part written adds whatever the storage holds (digits added into a drawn buffer)
            self.placed.put(key, placed if state == PLAIN or partial or placing else [], partial)
            # a constant past CONSTANT_OPS compute ops is PyTorch's values, as in forward (rt71)
            state = COMPUTED if state == PLAIN and ops > CONSTANT_OPS else state
            if state == PLAIN:
                self.ops[key] = ops
            else:
                self.ops.pop(key, None)
            if partial and (old == COMPUTED or (old == DRAWN and state == PLAIN)):
                continue  # the storage keeps what the rest of it holds
            self.state[key] = state
        return out

    @contextmanager
    def launching(self, kernel: object, args: tuple, kwargs: dict) -> Iterator[None]:
        """A kernel launched at construction: what it was handed holds what any of it held (a
        Triton copy of a computed table into torch.empty's memory was plain: rt65)."""
        from evaluator.launch_storage import handed_leaves

        tensors = [t for v in (*args, *kwargs.values()) for _, t in handed_leaves(v)]
        keys = [k for k in map(storage_key, tensors) if k]
        states = [self.state.get(k, PLAIN) for k in keys]  # before it ran (its copy back is no plain copy)
        most = max((self.python.get(k, 0) for k in keys), default=0)
        ops = sum(self.ops.get(k, 0) for k in set(keys))  # a Triton step of a constant's chain
        # Python's numbers it was handed: data it may have stored into any of them (red team rt74: a table host
        # Python computed, stored by a Triton kernel launched 32 times at construction with 32 floats each, was
        # counted nowhere; ok under strict at 1.00) (each datum once per storage: one std per layer is one)
        numbers = handed_numbers(kernel, args, kwargs)
        self.numbers |= launch_computed(kernel, args, kwargs)  # its computed floats, by their bits (`host_numbers`)
        self.numbers |= launch_order(kernel, args, kwargs)  # and what their order spells
        self.runs.add(kernel, args, kwargs)  # its ints: data where their launch order is no loop's (rt78)
        yield
        # or where no size explains them (rt74), its grid as Triton resolved it too (rt80)
        self.ints.add(kernel, args, kwargs, made=lambda t: storage_key(t) in self.chosen, grid=getattr(self.recorder, "grid", None))
        if ops > CONSTANT_OPS:
            states.append(COMPUTED)
        for k in keys:
            self.ops[k] = ops
        if numbers:
            self._place(keys, most, numbers, states)
        if COMPUTED in states:
            for k in keys:
                self.state[k] = COMPUTED
                if most:
                    self.python[k] = max(self.python.get(k, 0), most)

    def _place(self, keys: list[int], most: int, numbers: dict, states: list[str]) -> None:
        """A launch's data (`host_numbers.handed_numbers`) stored in each storage it handed: what the
        most-holding of them held, and the data it was not handed before."""
        floats = frozenset(numbers) if all(type(t) is not tuple for t in numbers) else None
        for k in set(keys):
            seen = self.handed.setdefault(k, set())
            new = sum(n for t, n in numbers.items() if t not in seen)
            seen.update(numbers)
            self.python[k] = min(max(self.python.get(k, 0), most) + new, 1 << 40)
            self._keep_values(k, self.python[k], floats, True)
            if self.python[k] > HOST_VALUES:
                states.append(COMPUTED)

    def collect(self) -> None:
        """Every live tensor whose storage construction computed (module doc); and Python's
        numbers still live: a storage's all where it holds more than HOST_VALUES, and those of
        the storages holding fewer where together they are more than HOST_VALUES (red team
        rt67: a 1024-value table lifted as 16 tensors of 64, never joined, handed to a kernel
        as a tuple). A storage of at most `_CONSTANT` numbers (a fill, an arange's bounds and
        step, a scalar) counts its distinct numbers instead, all such storages together held to
        HOST_VALUES apart from the others (`values`): a hundred norms' fills of 0 and 1 are two,
        but a table split that fine (red team rt74: 1026 of host Python's sigmoid values lifted
        as 342 tensors of 3, joined by torch.cat in forward, a gather's table, ok under strict
        at 0.95) is each of its numbers."""
        ints = max(self.ints.data(), self.runs.data())
        self.python_made += ints if ints > HOST_VALUES else 0
        keys = {k for k, s in self.state.items() if s == COMPUTED}
        thin = {k for k, n in self.python.items() if _CONSTANT < n <= HOST_VALUES}
        few = {k: self.values[k] for k, n in self.python.items()
               if 0 < n <= _CONSTANT and k in self.values and k not in keys}
        self.state.clear()
        if not keys and sum(self.python[k] for k in thin) <= HOST_VALUES and \
                len(frozenset().union(*few.values())) <= HOST_VALUES:
            return
        seen: set[int] = set()
        python, spread, distinct = self.python, 0, set()
        for obj in gc.get_objects():
            if issubclass(type(obj), torch.Tensor) and not obj.is_meta and obj.layout == torch.strided:
                key = storage_key(obj)
                if key in seen:
                    continue
                if key in keys:
                    seen.add(key)
                    self.computed.append(obj)
                    self.python_made += python.get(key, 0) if python.get(key, 0) > HOST_VALUES else 0
                elif key in thin:
                    seen.add(key)
                    spread += python[key]
                elif key in few:
                    seen.add(key)
                    distinct |= few[key]
        self.python_made += (spread if spread > HOST_VALUES else 0) + \
            (len(distinct) if len(distinct) > HOST_VALUES else 0)


@contextmanager
def watched(recorder: object = None) -> Iterator[ConstructionWatch]:
    """The build under the watch, its launches through `recorder` (a LaunchRecorder) too."""
    watch = ConstructionWatch()
    watch.recorder, saved = recorder, getattr(recorder, "around", None)
    if recorder is not None:
        recorder.around = watch.launching
    try:
        with watch:
            yield watch
    finally:
        if recorder is not None:
            recorder.around = saved
    watch.collect()


@contextmanager
def noised(tensors: list[torch.Tensor]) -> Iterator[None]:
    """`tensors`' whole storages hold noise inside, their bytes as before after."""
    from evaluator.output_noise import noise

    saved = []
    with torch.no_grad():
        for t in tensors:
            storage = t.untyped_storage()
            whole = storage_bytes(storage)
            saved.append((t, whole, whole.clone()))
            noise(torch.empty(0, dtype=t.dtype, device=t.device).set_(
                storage, 0, (storage.nbytes() // t.element_size(),)))
    try:
        yield
    finally:
        with torch.no_grad():
            for _t, whole, copy in saved:
                whole.copy_(copy)


def charged(cov: dict, charge: tuple[float, float]) -> dict:
    """A profiled forward's work estimate (`cpu_work.WorkCounter.result`'s shape) with the
    compute construction did added as PyTorch's, per forward: a table hoisted into __init__
    costs what it cost in forward (red team rt65: torch.sigmoid of every bfloat16 code built
    once, coverage 1.0; built in forward, 9% under strict). On the GPU the same charge joins
    the meter's PyTorch work (`aten_unfused_s`)."""
    seconds, unfused = charge
    if not isinstance(cov, dict) or cov.get("error") is not None or not (seconds or unfused):
        return cov
    cov = dict(cov)
    if isinstance(cov.get("aten_unfused_s"), (int, float)):
        cov["aten_unfused_s"] += unfused
    if isinstance(cov.get("estimated_time_s"), (int, float)) and "gpu_time_s" not in cov:
        cov["estimated_time_s"] += seconds
        cov["aten_time_s"] = float(cov.get("aten_time_s") or 0.0) + seconds
        cov["unfused_time_s"] = float(cov.get("unfused_time_s") or 0.0) + unfused
        total = cov["estimated_time_s"]
        cov["coverage"] = float(cov.get("candidate_time_s") or 0.0) / total if total > 0 else 0.0
    return cov


_PRICER: list = []  # one cpu_work.WorkCounter (never entered), its decompositions' prices cached


def op_price(func, args: tuple, kwargs: dict, out) -> tuple[float, float]:
    """(seconds, unfused seconds) the meter charges one aten op (construction's and
    kept_work.Kept's alike); an op the meter cannot price is charged as the bytes of what it
    returned."""
    from evaluator import cpu_work

    if not _PRICER:
        _PRICER.append(cpu_work.WorkCounter((), aten_only=True))
    meter = _PRICER[0]
    before = sum(e.seconds for e in meter.entries.values()), sum(e.unfused_s for e in meter.entries.values())
    try:
        with _disable_current_modes():  # priced as by the meter alone, no watch below
            meter._aten(func, args, kwargs, out)
    except Exception:  # unpriceable: its output's bytes
        meter._add("aten", func.overloadpacket.__name__,
                   sum(t.numel() * t.element_size() for t in tensors_of((out,), {})), 0, 0.0)
    after = sum(e.seconds for e in meter.entries.values()), sum(e.unfused_s for e in meter.entries.values())
    return after[0] - before[0], after[1] - before[1]
