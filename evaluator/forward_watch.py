"""What the harness does around a candidate's checked forwards, and why.

Two kinds of run tell who did the work (evaluator.commands runs them, evaluator.judge
decides):
  NoisyOutputs          (evaluator.output_noise) fills the outputs of chosen aten ops with
                        noise: fresh memory in every checked forward, every PyTorch compute
                        op in the strict policy's torch knock-out;
  Provenance            (here) a TorchDispatchMode that changes no value and marks the memory
                        PyTorch compute ops wrote, to see whether a Triton kernel was handed
                        it or forward returned it.
GLUE_OPS are the aten ops that only allocate, view, copy or read metadata: they keep
working under the torch knock-out and pass a provenance mark on instead of making one.
"""
from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

import torch
from torch.utils._python_dispatch import TorchDispatchMode

from evaluator.aten_facts import (
    CONSTANT_OPS,
    GLUE_OPS,
    HOST_DATA_OPS,
    HOST_VALUES,
    MAKE_OPS,
    PLACED_NUMBERS,
    _host_values,
    _python_scalars,
    _sparse,
    _still_made,
    _storage_key,
    _tensor_args,
    _whole_storage,
    chain_ops,
    checksum,
    constant_op,
    data_dependent_shape,
    python_scalar_values,
    storage_key,
    values_op,
    written,
)
from evaluator.carried import CARRY_RATIO, Carried
from evaluator.draw_range import DrawOrder, draw_parameters
from evaluator.host_numbers import (
    MAX_VALUES,
    launch_computed,
    launch_order,
    op_bits,
    order_numbers,
    priced,
    scalars_computed,
    tensor_computed,
    tensor_floats,
)
from evaluator.host_tables import Storages, int_tokens, join_numbers, join_tokens
from evaluator.kept_lifts import KeptLifts
from evaluator.launch_args import count_text
from evaluator.launch_entry import BENCHMARKING, TUNED
from evaluator.launch_hook import KernelArgumentError, LaunchRecorder, launch_numbers
from evaluator.launch_sizes import DataInts
from evaluator.launch_storage import handed_tensors
from evaluator.placed_order import Placed, lone
from evaluator.shape_origin import CHOSEN, problem_shaped
from evaluator.watched_reads import PLAIN_NUMBERS

READ_BITS = 32  # a value read to the host, in bits; a boolean read is one


# A compute op's mark when it read memory its forward's kernels were handed fresh (they
# wrote it: an index a Triton argmin found, gathered by torch): the kernels decided what it
# returns, which the paper policy's decoy rule asks (strict still counts it as PyTorch's).
AFTER_KERNELS = " on memory your Triton kernels wrote"

# The mark of fresh memory whose bytes changed with no dispatched op or Triton launch writing
# it: C++ behind a composite op computing on raw pointers into the `empty` it dispatched (the
# CPU fbgemm family: a whole GEMM the watch saw only as `empty` and `resize_`, red team A,
# session 19), or anything else writing memory past the dispatcher.
UNSEEN_WRITE = "a write no operator or launch made: C++ computing past the dispatcher"
MADE_IN_LAUNCH = "memory made while a Triton launch ran (a grid function's torch calls)"
MAX_PRINTS = 16  # fingerprints taken of one fresh storage before the watch stops tracking it
MAX_CHECKS = 64  # and checks of it: past them it is no longer fresh or free to read


class Provenance(TorchDispatchMode):
    """Every checked forward, both policies: which memory holds what a PyTorch compute
    operator produced. Storages written by a compute op (every aten op but GLUE_OPS) are
    marked; glue (views, copies, cat) passes a mark on from its sources; new memory
    (empty, zeros, full, arange over a whole storage) comes out unmarked. A Triton launch
    unmarks nothing (which arguments it wrote is not known on the GPU).
    A launch handed marked memory, or a forward returning it, let PyTorch compute part of
    the result. Unlike the torch knock-out this changes no value, so a forward cannot tell
    a run that is watched from one that is not (the noise of fresh memory is in every
    checked forward). Under the paper policy PyTorch may compute, but an output PyTorch
    computed whose knock-out run only raised is a decoy (pipeline)."""

    def __init__(self, recorder: LaunchRecorder, fingerprints: bool = True, kept: dict | None = None) -> None:
        super().__init__()
        self.recorder = recorder
        self.kept = KeptLifts(kept)  # computed numbers earlier forwards left in memory (s68G)
        self.carry = Carried()  # storages holding a share of the kernels' writes (evaluator.carried)
        self.thin: str | None = None  # returned memory PyTorch computed that carries none
        self.carried_kernels: list[tuple] = []  # kernels whose writes what it returned carries
        self.carried_writes: list[str] = []  # and those writes (evaluator.carried)
        self.marked_writes: list[list[str]] = []
        # Fresh memory is trusted as nobody's work only while its bytes are what the last
        # operator that wrote it left: a fingerprint per fresh storage no kernel was handed
        # (storage address -> (storage identity, bytes, checksum)), checked before anything
        # reads it. Off where a profiler would count the checksums as the forward's kernels.
        self.fingerprints = fingerprints
        self.prints: dict[int, tuple[int, int, int]] = {}
        self.n_prints: dict[int, int] = {}
        self.n_checks: dict[int, int] = {}
        self.in_launch = 0  # launches running (the interpreter writes what they were handed)
        self.launch_made: set[int] = set()  # storages make ops wrote while a launch ran
        self.marked: dict[int, str] = {}  # storage address -> the compute op that wrote it
        self.fresh: set[int] = set()  # storages a make op wrote whole, no other op since
        self.fed: set[int] = set()  # fresh storages handed to a launch: what its kernels wrote
        self.returned_after_kernels: str | None = None  # returned, computed from kernels' memory
        self.handed: str | None = None  # first launch handed PyTorch-computed memory
        self.returned_computed: str | None = None  # the output PyTorch computed
        self.made: set[int] = set()  # storages only make ops wrote (not handed to a launch since)
        self.ops: dict[int, int] = {}  # the compute ops each made storage took (`chain_ops`)
        self.numbers: dict[int, int] = {}  # Python's numbers each constant holds (`PLACED_NUMBERS`)
        self.placed = Placed()  # ... in the order placed (`placed_order`)
        self.draws = DrawOrder()  # which draws came in what order (typed bounds picked: s62b)
        self.host_reads = 0  # values read to the host from any other memory, in READ_BITS
        # (a boolean is a bit of a value: 20 all-zero chunks skipped are not 20 floats read)
        self.host_made, self.storages = 0, Storages()  # values Python put in tensors; storages seen
        self.launch_floats: set[float] = set()  # distinct Python floats handed to launches
        self.computed: set = set()  # numbers host Python computed, lifted or given ops (`host_numbers`)
        self.lifted: list[float] = []  # the floats torch.tensor lifted, in order (`order_numbers`)
        self.launch_ints: set[int] = set()  # distinct Python ints handed to launches
        self.launch_texts: dict[object, int] = {}  # distinct strings, flag runs, int runs -> values
        self.data_ints = DataInts()  # launch ints no handed tensor's size explains (rt74, rt79)
        self.benched: set = set()  # (op, values) given in an autotuner's benchmark (`_scalars`)
        self.tuners: set[int] = set()  # autotuners whose configs were counted (`tuned`)
        self.saved_tuned = None
        self.shaped: set[int] = set()  # storages an op of this forward made: sized by its Python (rt80)
        self.sized: set[int] = set()  # ... of those, sized by one op from the problem's sizes (`shape_origin`)
        self.peaks, self.at_enter = [0, 0, 0], (0, 0, 0)  # most one forward added to _host_counts
        # the most computed numbers one forward brought (`computed_peak`), against what came before
        self.computed_peak, self.numbers_at_enter = 0, frozenset()

    def __enter__(self):
        from evaluator import autotune_cpu

        self.recorder.observer = self.launched
        self.recorder.around = self.launching
        self.saved_tuned, TUNED[0] = TUNED[0], self.tuned
        self.at_enter = self._host_counts()
        self.numbers_at_enter = frozenset(self.computed_numbers())
        autotune_cpu.WATCHES.append(self.benchmarking)
        return super().__enter__()

    def __exit__(self, *exc):
        from evaluator import autotune_cpu

        self.recorder.observer = None
        self.recorder.around = None
        TUNED[0] = self.saved_tuned
        if self.benchmarking in autotune_cpu.WATCHES:
            autotune_cpu.WATCHES.remove(self.benchmarking)
        self.peaks = [max(p, n - s) for p, n, s in zip(self.peaks, self._host_counts(), self.at_enter)]
        self.kept.settle()  # what earlier forwards (and this one) left lifted is this one's too
        fresh = self.computed_numbers() - self.numbers_at_enter
        self.computed_peak = max(self.computed_peak, len(priced(fresh | self.kept.numbers())))
        return super().__exit__(*exc)

    def _host_counts(self) -> tuple[int, int, int]:
        """Host reads (in READ_BITS), values made, distinct launch ints so far (a watch held
        over a batch of timed forwards sums them; `per_forward` holds each to a trial's limits)."""
        made = self.host_made + len(self.launch_floats) + sum(self.launch_texts.values()) + self.data_ints.data()
        return self.host_reads, made, len(self.launch_ints)

    def _print(self, t: torch.Tensor, key: int) -> None:
        """(Re)take the fingerprint of fresh memory an operator just wrote; a storage written
        over and over (row by row) stops being tracked after MAX_PRINTS, as before prints."""
        n = self.n_prints.get(key, 0) + 1
        self.n_prints[key] = n
        if n > MAX_PRINTS:
            self.prints.pop(key, None)
            return
        storage = t.untyped_storage()
        self.prints[key] = (storage._cdata, storage.nbytes(), checksum(storage))

    def _check_prints(self, tensors: list) -> None:
        """Fresh memory about to be read (by an operator, a launch, the host or the harness)
        whose bytes changed since the last operator wrote it was written by no one the watch
        saw: PyTorch's C++ computed it, so it is marked as PyTorch's."""
        for t in tensors:
            key = self._key(t)
            held = self.prints.get(key) if key else None
            if held is None:
                continue
            storage = t.untyped_storage()
            if (storage._cdata, storage.nbytes()) != held[:2]:  # other memory at that address now
                self.prints.pop(key)
                continue
            n = self.n_checks.get(key, 0) + 1
            self.n_checks[key] = n
            if checksum(storage) != held[2]:
                self.prints.pop(key)
                self.made.discard(key)
                self.fresh.discard(key)
                self.marked[key] = UNSEEN_WRITE
            elif n >= MAX_CHECKS:  # read over and over (one element at a time: a host loop):
                self.prints.pop(key)  # no longer vouched for, so no longer free to read
                self.made.discard(key)
                self.fresh.discard(key)

    _key = staticmethod(storage_key)  # no storage (sparse, nested): 0, unmarked

    def _source(self, tensors: list) -> str | None:
        return self._marked(list(map(self._key, tensors)))

    def _marked(self, keys: list[int]) -> str | None:
        return next((self.marked[k] for k in keys if k and k in self.marked), None)

    def __torch_dispatch__(self, func, types, args=(), kwargs=None):
        kwargs = kwargs or {}
        ins = _tensor_args(args, kwargs)
        # the storages the inputs held BEFORE the op: resize_ and set_ move a tensor to new
        # memory, whose mark must be the one its data came from (read after, it was none)
        keys = [self._key(t) for t in ins]
        keys += [_storage_key(a) for a in (*args, *kwargs.values())
                 if isinstance(a, (torch.UntypedStorage, torch.TypedStorage))]  # set_(source storage)
        dests = written(func, args, kwargs, ())  # what it will write (out=, in place): not read data
        if dests and not self.in_launch:  # no longer what a launch wrote (`read_tables`)
            self.storages.reads.overwritten.update(k for k in map(self._key, dests) if k)
        if dests and self.recorder.in_grid:
            # a grid function runs inside its launch, whose changed bytes are the kernel's work
            raise KernelArgumentError(
                f"a launch's grid function wrote tensor memory (aten::{func.overloadpacket.__name__}): "
                "a grid function returns the launch's size and changes no tensor")
        reads = [self._key(t) for t in ins if all(t is not w for w in dests)]
        name = func.overloadpacket.__name__
        # fresh memory is vouched for where that matters: before an op whose output would be
        # made memory too (a constant) or carry its inputs' (no) mark (glue), and before its
        # values go to the host (below); a compute op's output is marked whatever it read
        watched = self.prints and not self.in_launch
        if watched and name in GLUE_OPS:
            self._check_prints([t for t in ins if all(t is not w for w in dests)])
        constant, _ = constant_op(func, name, ins, reads, self.made)
        if watched and constant:
            self._check_prints(ins)
            constant, _ = constant_op(func, name, ins, reads, self.made)
        n = chain_ops(name, ins, self.ops)
        from_made = constant or name in GLUE_OPS  # what it writes holds its reads' Python numbers
        numbers = sum(self.numbers.get(k, 0) for k in reads if k) + _python_scalars(func, args, kwargs)
        # ... and those numbers in order (`placed_order`: typed digits one fill each, s60a)
        # (any op writing part of a storage adds its own: `buf[k:k + 1].add_(d)` per digit on a
        # buffer a kernel zeroed; a whole output of a compute op starts none)
        placed = self.placed.sequence([k for k in reads if k], python_scalar_values(func, args, kwargs))
        out = func(*args, **kwargs)
        # float values computed from constants are PyTorch's (`values_op`: rt65's sigmoid table),
        # and so is a constant past CONSTANT_OPS compute ops, or a copy or join of them (`chain_ops`:
        # rt71's integer emulation of that table)
        over = constant and n > CONSTANT_OPS
        outs = written(func, args, kwargs, out)
        constant = constant and not over and not values_op(name, outs)
        self.storages.touched(ins, outs)  # where tensors lie: an address table is structure
        if not self.in_launch:  # a lifted table copied into a kept buffer holds its numbers
            self.kept.moved(name, reads, outs, self._key)
        if name in ("_to_copy", "clone") and len(ins) == 1 and not self.in_launch:  # `.cpu()` of counts
            self.storages.reads.copied(ins[0], keys[0] in self.fed, outs)
        if not self.in_launch:  # a storage this forward made: its sizes are host Python's (rt80)
            new = [k for k in map(self._key, outs) if k and k not in keys]
            if new and problem_shaped(func, args, kwargs, outs, self.shaped, self._key):
                self.sized.update(new)  # ... but where one op sized it from the problem's (s67)
            self.shaped.update(new)
        self.host_made += join_numbers(name, args, self.storages)  # a join's order (rt78)
        if not self.in_launch:  # ... and the places it picks in one storage (s65f)
            self.computed |= join_tokens(name, args)
        if name in HOST_DATA_OPS and isinstance(out, torch.Tensor):
            self.host_made += self.storages.numbers(out)  # numbers torch.tensor's data holds
            if key := self._key(out):  # `t[k] = v` lifts v (in place) and copies it: v is placed
                self.placed.put(key, lone(out), False)
            if not self.in_launch:  # its floats, and its ints as the numbers their runs leave (s58r)
                lifted = tensor_computed(out) | int_tokens(out, self.storages)
                self.computed |= lifted
                self.kept.lifted(self._key(out), out, lifted)
                self.lifted.extend(tensor_floats(out)[:MAX_VALUES - len(self.lifted)])  # (s59c)
        else:
            self.host_made += self._scalars(func, name, args, kwargs)
            if not self.in_launch:  # at the precision the op reads them (`host_numbers.op_bits`), a
                # draw's parameters whatever its range (`draw_range.draw_parameters`: s62b)
                scalars = [*python_scalar_values(func, args, kwargs), *draw_parameters(func, args, kwargs)]
                self.computed |= scalars_computed(scalars, name, op_bits(args, kwargs, out))
                self.draws.add(func, args, kwargs)
        values = _host_values(out) if ins and name not in GLUE_OPS else []
        if values and watched:  # a read changes no byte: vouched for after it as well as before
            self._check_prints(ins)
        if values:
            # values read to the host (.item(), float(t), torch.equal; also inside a tuple an
            # op returns: fbgemm_linear_quantize_weight's float scale and int zero point read
            # every input element uncounted, red team A, session 19): Python may compute on them
            source = self._marked(keys)
            bits = sum(1 if type(v) is bool else READ_BITS for v in values)
            if source is not None:
                # PyTorch's result to Python: torch's work under strict, and a value Python
                # may compute on under either policy (paper let host Python compute a whole
                # argmax from x * 1.0, read element by element: session 19)
                self.host_reads += bits
                if self.handed is None:
                    self.handed = f"forward read values PyTorch computed ({source}) to the host"
            elif not all(k in self.made for k in keys if k):
                # Python computing on values read one at a time: the inputs' or any copy of
                # them (a Triton copy kernel's output, torch.empty().copy_(x): red team C,
                # session 16), not only what make ops alone wrote (torch.ones(1).item())
                self.host_reads += bits
            if name == "_local_scalar_dense":  # in order, a whole kernel output (`read_tables`)
                self.storages.reads.read(ins[0], values, keys[0] in self.fed)
            if isinstance(out, HOST_VALUES):
                return out
        sparse = _sparse(ins, out)
        if data_dependent_shape(func) or sparse:
            # the output's size (a sparse tensor's nnz and indices too), readable as .shape with
            # no aten op, is a value PyTorch computed: read to the host (a host GEMM read every
            # byte as (arange(256) < b).to_sparse().values().shape[0], red team A, session 17)
            self.host_reads += READ_BITS
            if self.handed is None:
                self.handed = (f"forward had PyTorch compute a size from values (aten::{name}"
                               + (", a sparse layout)" if sparse else ")"))
        if name in ("fill", "fill_"):  # fill_(self, value): a tensor value carries its mark
            mark = self._marked(keys[1:2])
        elif name in HOST_DATA_OPS and PLAIN_NUMBERS[0]:
            # torch.tensor([scale]) of Python numbers: a constant like torch.full((1,), scale)
            # (both counted in host_made), made memory (honest round, session 22: strict)
            mark = None
        elif name in HOST_DATA_OPS:
            # torch.tensor(data): values host Python made, or C++ read out of tensors on the way
            # (torch.tensor of 0-dim tensors laundered torch's result and a torch-knock-out probe)
            mark = f"aten::{name} (values made on the host)"
        elif name in MAKE_OPS:
            mark = None
        elif over:
            mark = f"aten::{name} (a constant of {n} compute operators, past {CONSTANT_OPS})"
        elif name == "copy_":  # copy_(self, src)
            mark = self._marked(keys[1:2])
        elif name in ("_copy_from", "_copy_from_and_resize"):  # _copy_from(self, dst): self is the source
            mark = self._marked(keys[0:1])
        elif name in GLUE_OPS:  # before the op, or after it (the interpreter's set_ aliasing an argument)
            mark = self._marked(keys) or self._source(ins)
        elif constant:  # computed from constants alone: nobody's data (`constant_op`)
            mark = None
        else:
            mark = f"aten::{name}"
            # only an op that reads what the kernels wrote and nothing PyTorch computed (a
            # gather of the inputs by a Triton argmax's indices): not torch's GEMM indexed by
            # kernel-written positions, nor a matmul into a kernel-written out= buffer
            if any(k in self.fed for k in reads if k) and self._marked(reads) is None:
                mark += AFTER_KERNELS
        # What make ops alone wrote is free to read to the host: constants and noise, never
        # data. fill_ from a tensor copies that tensor's value, so it makes only what its
        # value was (buf.fill_(x[i, j]) then buf.item() read every input element uncounted,
        # a host GEMM ok under strict: red team A, session 19)
        makes = constant or name in MAKE_OPS and (name not in HOST_DATA_OPS or PLAIN_NUMBERS[0] > 0) and not (
            name in ("fill", "fill_") and len(ins) > 1 and not all(k in self.made for k in keys[1:2] if k))
        # resize_ moves a tensor to new memory holding its old bytes and noise: fresh memory
        # still, if it was (an `empty(0)` resized is torch.empty's, as a composite op makes
        # the output its C++ then computes into)
        regrown = name in ("resize_", "resize_as_") and ins and ins[0] is args[0]
        for t in outs:
            self.carry.computed(name, ins, t, self._key)
            if key := self._key(t):
                if regrown and t is args[0] and (not keys[0] or keys[0] in self.made):
                    self.made.add(key)
                else:
                    _still_made(self.made, key, t, makes, reads)
                if key in self.made:
                    self.ops[key] = n
                dest = any(t is d for d in dests)
                if from_made and (dest or key not in reads):  # not a view; an element write adds,
                    add = not _whole_storage(t) or dest and name not in GLUE_OPS  # an in-place step too
                    held = min(numbers + (self.numbers.get(key, 0) if add else 0), 1 << 40)
                    self.numbers[key] = held
                    self.placed.put(key, placed, add)
                    if held > PLACED_NUMBERS:
                        self.made.discard(key)
                        mark = f"aten::{name} (a constant holding {held} of Python's numbers)"
                elif not from_made:
                    self.numbers.pop(key, None)
                    partial = dest and not _whole_storage(t)
                    self.placed.put(key, placed if partial else [], partial)
                if regrown and t is args[0] and (not keys[0] or keys[0] in self.fresh) and key != keys[0]:
                    self.fresh.add(key)
                if mark is not None:
                    self.marked[key] = mark
                elif _whole_storage(t):  # a write into part of a buffer leaves the rest's mark
                    self.marked.pop(key, None)
                if name in MAKE_OPS and _whole_storage(t):
                    self.fresh.add(key)
                elif name not in GLUE_OPS:  # computed into: no longer only what kernels wrote
                    self.fresh.discard(key)  # (glue keeps it: the interpreter's own set_ and
                    self.fed.discard(key)  # copy_ around a launch, a copy of what they wrote)
                if self.in_launch:  # the interpreter's own copies, or a grid function's
                    self.prints.pop(key, None)
                    if makes:
                        self.launch_made.add(key)
                elif self.fingerprints and key in self.fresh and key not in self.fed and key not in self.marked:
                    self._print(t, key)  # make ops, and glue over them (resize_ after empty)
                else:
                    self.prints.pop(key, None)
        return out

    @contextmanager
    def launching(self, kernel: object, args: tuple, kwargs: dict) -> Iterator[None]:
        """Around a launch: the fresh memory it is handed must be as operators left it when it
        starts; while it runs, its kernels (the interpreter's numpy views too) write what they
        were handed, so those storages leave the fingerprints. Memory made while it ran and
        not handed to it (a callable grid's own torch calls, a composite op among them) is no
        one's the watch can vouch for: marked."""
        tensors = [t for v in (*args, *kwargs.values()) for t in handed_tensors(v)]
        handed = {self._key(t) for t in tensors}
        if self.prints:
            self._check_prints(tensors)
        for key in handed:
            self.prints.pop(key, None)
        taken = self.carry.sample(tensors, self._key) if self.fingerprints else {}
        self.in_launch += 1
        try:
            yield
        finally:
            self.in_launch -= 1
            fn = getattr(kernel, "fn", kernel)
            self.carry.written(taken, (str(getattr(fn, "__module__", "?")), str(getattr(fn, "__name__", "?"))))
            if not self.in_launch:
                for key in self.launch_made - handed:
                    self.made.discard(key)
                    self.fresh.discard(key)
                    self.marked[key] = MADE_IN_LAUNCH
                self.launch_made.clear()

    @contextmanager
    def benchmarking(self, tuner: object, args: tuple, kwargs: dict) -> Iterator[None]:
        """Around an autotuner's first-pick benchmark (evaluator.autotune_cpu), which no launch
        hook sees: its configs' runs are launches of the kernel on the launch's own tensors, so
        they are watched as one (`launching`: the fresh memory handed is checked before any of
        it runs, and the interpreter's copies into it are the kernel's). Outside a launch those
        copies marked a fresh `torch.empty` output as written past the dispatcher: an autotuned
        GEMM of two configs was refused under strict (honest round s62c, the bmm tutorial's
        shape). Only where nothing but Triton's code and the kernel runs there (`kernel_only`:
        no candidate pre_hook, post_hook or heuristic, whose host Python a launch would hide
        from the host-number and fresh-memory watches; grid functions run inside launches
        already); otherwise the benchmark stays outside any launch, as before. After it what
        the configs left is fingerprinted again, so the launch that follows still catches any
        write made between the two."""
        from evaluator.autotune_cpu import kernel_only

        if not kernel_only(tuner):
            yield
            return
        tensors = [t for v in (*args, *kwargs.values()) for t in handed_tensors(v)]
        fresh = {k: t for t in tensors if (k := self._key(t)) in self.prints}
        with self.launching(tuner, args, kwargs):
            yield
        for key, t in fresh.items():
            if key not in self.marked:
                self._print(t, key)

    def _scalars(self, func, name: str, args: tuple, kwargs: dict) -> int:
        """The Python numbers an op is given (`_python_scalars`); while an autotuner benchmarks
        (launch_hook.BENCHMARKING) each distinct op and values once: do_bench calls a config's
        pre_hook hundreds of times, and a `fill_(0.0)` there cost 139 numbers on an H100 and
        3779 under the CPU's emulation (host_compute for an honest autotuned relu)."""
        n = _python_scalars(func, args, kwargs)
        if n and BENCHMARKING[0]:
            key = (name, tuple(python_scalar_values(func, args, kwargs)))
            if key in self.benched:
                return 0
            if len(self.benched) < MAX_VALUES:
                self.benched.add(key)
        return n

    def tuned(self, tuner: object, args: tuple, kwargs: dict) -> None:
        """An autotuner's launch: its configs' values, once per autotuner (DataInts.configs)."""
        if id(tuner) not in self.tuners:
            self.tuners.add(id(tuner))
            self.launch_floats.update(self.data_ints.configs(tuner, args, kwargs))

    def launched(self, kernel: object, args: tuple, kwargs: dict) -> None:
        tensors = [t for v in (*args, *kwargs.values()) for t in handed_tensors(v)]
        self.made.difference_update(map(self._key, tensors))  # a kernel may have written them
        for key in map(self._key, tensors):  # and so may have changed their bytes
            self.prints.pop(key, None)
        for v in launch_numbers(kernel, args, kwargs):  # Python numbers a kernel gets (globals too): data
            if type(v) is tuple:
                count_text(self.launch_texts, v[1], v[2])
            else:
                (self.launch_floats if type(v) is float else self.launch_ints).add(v)
        self.computed |= launch_computed(kernel, args, kwargs)  # computed floats, by their bits (s60a)
        self.computed |= launch_order(kernel, args, kwargs)  # floats spelled by their order (s59c)
        # a table one int launch per entry (rt74), or one tensor size per entry (rt80)
        # ... and sizes construction chose (`shape_origin.CHOSEN`) as much as the forward's own
        self.data_ints.add(kernel, args, kwargs, made=lambda t: self._key(t) in self.shaped or self._key(t) in CHOSEN,
                           grid=self.recorder.grid, benchmark=bool(BENCHMARKING[0]),
                           sized=lambda t: self._key(t) in self.sized)
        self.fed.update(k for k in map(self._key, tensors) if k in self.fresh and k not in self.marked)
        self.storages.reads.handed(list(map(self._key, tensors)))  # its output anew (`read_tables`)
        source = self._source(tensors)
        if source is not None and self.handed is None:
            fn = getattr(kernel, "fn", kernel)
            self.handed = (f"your Triton kernel {getattr(fn, '__name__', '?')} was handed memory "
                           f"PyTorch computed ({source})")
        # marks stay: which arguments a kernel wrote is not known on the GPU, and handing an
        # output PyTorch computed to any kernel must not launder it (strict already refused
        # the hand-over; under paper the mark still counts for the output)

    def returned(self, outs: list) -> None:
        if self.prints:
            self._check_prints([t for t in outs if isinstance(t, torch.Tensor)])
        source = self._source([t for t in outs if isinstance(t, torch.Tensor)])
        thin = self.carry.thin(outs, self.marked, self._key)
        self.carried_kernels = self.carry.kernels_in(outs, self._key)
        self.carried_writes = self.carry.writes_in(outs, self._key)
        self.marked_writes = self.carry.marked_writes(outs, self.marked, self._key)
        if thin is not None:
            self.thin = (f"forward returned memory PyTorch computed ({thin}) that holds less than 1/"
                         f"{CARRY_RATIO} of its size in what your Triton kernels wrote")
        if source is not None:
            text = f"forward returned memory PyTorch computed ({source})"
            if source.endswith(AFTER_KERNELS):
                self.returned_after_kernels = text
            else:
                self.returned_computed = text

    def computed_numbers(self) -> set:
        """The floats host Python computed that this watch saw lifted, given to ops or handed
        to launches (their constexpr globals too): `host_numbers`; and the ints handed to launches
        as data, by their bits, but those the host read from a launch's output (s65f)."""
        data = self.data_ints.computed(self.storages.reads.explains)
        return self.computed | order_numbers(self.lifted, "forward") | self.placed.numbers() | self.draws.numbers() | data

    def computed_count(self, more: frozenset = frozenset()) -> int:
        """How many computed numbers this watch's floats and `more` (construction's) are, the
        problem's counted by the runs of its sequences they use (`host_numbers.priced`: s60c)."""
        return len(priced(self.computed_numbers() | more | self.kept.numbers()))

    def report(self) -> dict:
        return {"handed": self.handed, "returned": self.returned_computed, "thin": self.thin,
                "returned_after_kernels": self.returned_after_kernels, "host_reads": -(-self.host_reads // READ_BITS),
                "host_made": self._host_counts()[1], "launch_ints": len(self.launch_ints),
                "host_computed": self.computed_count(),
                "per_forward": {"host_reads": -(-self.peaks[0] // READ_BITS), "host_made": self.peaks[1],
                                "launch_ints": self.peaks[2], "host_computed": self.computed_peak},
                "carried_kernels": [list(k) for k in self.carried_kernels],
                "writes": self.carry.writes, "carried_writes": self.carried_writes, "marked_writes": self.marked_writes}
