"""The dry launch model: where a forward's Triton launches store at sizes no trial can run.

The depth trials (evaluator.depth_phase) run a candidate at sizes the interpreter can finish in
time, the GPU runs it at the problem's declared ones, and a kernel whose coverage is bounded by
a constant of its own placed past every trial (a persistent matmul taking eight tiles per
program on 132 programs, a split-K stage taking two (tile, K chunk) items each, a grid capped at
4096 one-block programs: session 58's s58f/s58i files) is right at every trial and leaves most
of the declared output unwritten. Here the candidate's forward runs at any sizes on meta tensors
(shapes, no memory), every launch recorded and not run (`record`: its grid, arguments and
constexprs, as the knock-out's suppressed launch), and each recorded launch's programs, every
one of them, then run in Triton's interpreter with memory replaced (`run`): each storage a
launch gets is an address range laid out as the GPU's allocator would (evaluator.dry_memory:
a kernel reads its pointer arguments), a load returns zeros (or its `other`) without
reading anything, and a store or atomic marks, per storage, the elements its mask lets
through. What it tells: per launch and tensor argument, how many elements of the argument's
storage the launch stored (`coverage`).

What it may get wrong: a launch whose control flow reads a loaded value is not run
(evaluator.dry_facts `data_bound`; one whose loaded values reach store masks or addresses only
runs with each lane's dependence on the data carried, `unmasked`, evaluator.dry_taint: a lane
the data decides is stored maybe, or loose where it makes the address), nor the rest of one with
a descriptor or an op the model does not know (register-only inline asm runs as the child's
emulation): it stores what it stored before it stopped (`stored`: a lower bound, the rest of
the forward judged); a loop that stores nothing and steers no store runs one trip
(`dry_facts.shortened`: the K loop of a matmul), one whose stores only its counter's tests gate
its first and last (`ends`); a forward that needs data on the host (`.item()`, a data-made
grid) observes what a meta tensor cannot answer as the GPU would, and runs again on the
problem's CPU draw (below); a storage past MAX_ELEMENTS goes unjudged alone; a model past its
time (`budget_s` of its thread's CPU time, not the wall clock, which load shrinks: `Budget`,
`_Pace`) is no model and leaves the verdict as it was. The host's wall cap (evaluator.dry_phase, WALL_TIMES its budget) ends,
and refuses, a forward that sleeps, blocks or spins threads of its own.
What the candidate's side observes in the model's forward is judged, not listed
(evaluator.dry_tells, session 62: answering is_meta and data_ptr by name left repr, type(), an
f-string and the made-up addresses telling the model apart, and a host read raising on meta
kept the ok): on meta tensors only tensors and metadata answer it (a CUDA device it names makes
meta tensors, candidate_env.STANDING_DEVICE, and they answer cuda:0), anything else stops the
forward, which then runs on the problem's CPU draw at the same sizes with its launches recorded
and not run (`real_seed`): the answers a CPU trial gets, but for what a launch not run may have
stored, whose reading to the host (`told`), or a raise there (`raised`), evaluator.dry_phase
refuses.

Trust: the model runs in the candidate's own child, after its forward, like the knock-out's
suppressed launches; what it reports can only refuse the candidate (a storage short of whole)
or give no verdict, and the CPU sizes' run of the same model is the comparison, so a child
that tampered with it could at most keep the verdict the depth trials gave.
"""
from __future__ import annotations

import contextlib
import dataclasses
import math
import sys
import time
from contextlib import contextmanager
from dataclasses import dataclass

import numpy as np

from evaluator import (
    dry_atomics,
    dry_configs,
    dry_facts,
    dry_memory,
    dry_taint,
    dry_tests,
    dry_values,
    kernel_identity,
)
from evaluator.dry_memory import Unmodelled


@dataclass
class Launch:
    """One recorded launch: its kernel, resolved grid and the arguments it was handed."""

    kernel: object
    grid: tuple
    args: tuple
    kwargs: dict

    @property
    def name(self) -> str:
        return str(getattr(getattr(self.kernel, "fn", self.kernel), "__name__", "?"))

    @property
    def qualname(self) -> str:
        """Its kernel's qualified name: the per-kernel rules' key (dry_phase `_updated_short`,
        `_overwritten_short`; `kernel_identity.keys`), so that `Main.fix` and `Spare.fix`, one
        name, are two kernels there (a name shared with a full-grid pass diluted a capped one's
        share)."""
        return kernel_identity.qualname(self.kernel)

    @property
    def identity(self) -> str:
        """Its kernel's identity (evaluator.kernel_identity: qualified name and a digest of its
        code and closure values): what the knock-out round knocked out, so one factory's two
        kernels are two."""
        from evaluator.launch_hook import _variant

        return kernel_identity.identity(self.kernel, _variant(self.kernel, self.args, self.kwargs))


def stored(launches: list[Launch], budget: Budget, outputs: tuple = (), skip: frozenset = frozenset(),
           unrun: list | None = None, observe=None, branched: list | None = None) -> dict[str, dict]:
    """Per storage the forward's launches were handed (named by the first launch and argument
    that got it: `kernel#i:arg`, i counting that kernel's launches), its elements and how many
    of them some launch stored, per element size it was stored at. A launch the model cannot
    run (data-bound, a descriptor, an op it does not know: named in `unrun`) keeps what it stored
    before it stopped: a lower bound, the rest judged (giving the whole forward up, a one-program
    scatter beside s60f's capped ReLU grid kept an ok at 1.0009: red team s65e). Raises
    Unmodelled (_OutOfTime) past the model's time only.

    With the forward's `outputs`, also `"output i"` per returned tensor: its own elements and
    how many of them were stored (a view of a longer storage is never stored whole, so the
    storage rule alone never judged it: s61d's `torch.empty(n + 1)[:n]`).

    Launches of the kernels in `skip` (those the knock-out round found the result does not need,
    or whose writes were constants: pipeline `decoys`, `constant`) name storages but store
    nothing here: a full-grid zero fill before a capped kernel made the union whole at the
    declared sizes, where the capped kernel's share is what the GPU computes (s61d).

    A launch whose branch or loop test the loaded data decides (dry_facts `branched`) runs with
    each test checked known (evaluator.dry_tests); where one is not (the model's zeros, a value the
    draw does not hold) it is as if not run (its stores rolled back: `_rolled_back`) and named in
    `branched`: evaluator.dry_phase then models the forward on the problem's draw."""
    memory, names, seen, unrun = dry_memory.Memory(), {}, {}, [] if unrun is None else unrun
    pace, ran_all = _Pace(budget), len(unrun)
    keys = kernel_identity.keys(launches)  # one factory's two kernels are two keys
    for k, launch in enumerate(launches):
        facts = dry_facts.facts(launch.kernel)
        ordinal = seen[launch.name] = seen.get(launch.name, -1) + 1
        try:  # a launch the model cannot run keeps what it stored before it stopped
            args, kwargs, tensors = _converted(launch, memory)
            for where, tensor in tensors:
                names.setdefault(tensor.untyped_storage()._cdata, f"{launch.name}#{ordinal}:{where}")
            if _skipped(launch, skip):
                continue
            if facts.data_bound is not None:
                raise Unmodelled(facts.data_bound)
            pace.launch(math.prod(launch.grid))
            # an upper bound of a launch's stores (`unmasked`: dry_taint) is no update in place of any element
            memory.begin(None if facts.unmasked else keys[k], keys[k], f"{launch.name}#{ordinal}")
            memory.values = dry_values.of(k)  # the real forward's copies it loads (evaluator.dry_values)
            with _rolled_back(memory, facts, f"{launch.name}#{ordinal}", unrun, branched):
                _run(launch, args, kwargs, memory, facts, pace)
            if observe is not None:  # each launch's own stores (`current`): dry_configs.Least
                observe(k, memory, names)
        except _OutOfTime as exc:
            if not facts.addressed:
                raise
            # a kernel storing where loaded values say, past the model's pace, is not run (as
            # before session 66, when it never was): honest MoE scatters at the declared sizes
            # spent the whole budget here, and the rest of the forward went unjudged (s63f)
            unrun.append(f"{launch.name}#{ordinal}: {str(exc)[:120]}")
            # what its first programs stored is no lower bound to judge by: on the draw its
            # addresses are known (evaluator.dry_values), and the programs the pace left unrun
            # made honest Inductor GEMM epilogues' outputs short (s50h_09, s50h_12): unjudged
            for storage in memory.storages.values():
                if storage.current:
                    storage.unjudged = True
        except Unmodelled as exc:
            unrun.append(f"{launch.name}#{ordinal}: {str(exc)[:120]}")
    if len(unrun) > ran_all:
        # a launch not run (or stopped) may store anywhere: the loose lanes are no upper bound
        # then, and a count short of a storage would refuse an honest forward (dry_rules._loose)
        memory.loose = {}
    out = {}
    for key, storage in memory.storages.items():
        if storage.unjudged or key not in names:  # a storage only an unconverted launch was handed
            continue
        out[names[key]] = {"bytes": storage.nbytes,
                           "stored": {str(size): storage.stored(size) for size in storage.marks}}
        _steered(out[names[key]], storage, memory.loose)
        if storage.updated:  # per kernel, the elements it loaded and then stored (dry_rules._updated_short)
            out[names[key]]["updated"] = {f"{kernel}@{size}": int(np.count_nonzero(bits))
                                          for (kernel, size), bits in storage.updated.items()}
        if storage.overwritten:  # per kernel, the elements it stored over an earlier launch's
            out[names[key]]["overwritten"] = {f"{kernel}@{size}": int(np.count_nonzero(bits))
                                              for (kernel, size), bits in storage.overwritten.items()}
            out[names[key]]["overwritten"].update({f"{made}@{size}": count  # per launch, `kernel#i`
                                                   for (made, size), count in storage.launch_over.items()})
            out[names[key]]["overwrite_span"] = _spans(storage)  # dry_rules._gap_grown
    for i, tensor in enumerate(outputs):
        seen_output = _output_stored(memory, tensor)
        if seen_output is not None:
            out[f"output {i}"] = seen_output
    return out


def _skipped(launch: Launch, skip: frozenset) -> bool:
    """Whether `launch` stores nothing here (knockout_round `_skipped_as`): its name, its kernel's
    identity, or, for an autotuned kernel, the config it runs under (dry_configs.tag: a config
    the round knocked it out under; under the others it is modelled, red team s68b)."""
    return launch.name in skip or launch.identity in skip or dry_configs.tag(launch.kernel, launch.kwargs) in skip


@contextmanager
def _rolled_back(memory: dry_memory.Memory, facts, name: str, unrun: list, branched: list | None):
    """A `branched` launch (dry_facts) whose run stops (a test the data decides, its pace, an op
    the model does not know) stores nothing, as before session 69 when it was never run: what
    its first programs stored is no lower bound (a decoupled look-back's first program, whole at
    a CPU size of one block, short at the declared ones); named in `unrun`, and in `branched`
    where a test stopped it."""
    if not facts.branched:
        yield
        return
    saved = memory.checkpoint()
    try:
        yield
    except Unmodelled as exc:
        stored = [s for s in memory.storages.values() if s.current]
        memory.rollback(saved)
        unrun.append(f"{name}: {str(exc)[:120]}")
        for storage in stored if not isinstance(exc, dry_tests.DataTest) else ():
            # stopped by its pace (or an op the model does not know), not by the data: what
            # it stores is no lower bound, and its storages judged empty refused an honest
            # grouped GEMM whole at the CPU's sizes (s57d_22, session 70): unjudged, as a
            # data-addressed launch's the pace stops
            storage.unjudged = True
        if isinstance(exc, dry_tests.DataTest) and branched is not None:
            branched.append(name)


def _spans(storage: dry_memory._Storage) -> dict[str, int]:
    """Per kernel and per launch (`kernel#i`), as `overwritten`'s keys: the elements from the
    first it stored over an earlier launch's stores to the last (dry_rules._gap_grown)."""
    spans = {f"{kernel}@{size}": dry_memory.span(bits) for (kernel, size), bits in storage.overwritten.items()}
    spans.update({f"{made}@{size}": last - first + 1 for (made, size), (first, last) in storage.launch_span.items()})
    return spans


def _steered(seen: dict, storage: dry_memory._Storage, loose: dict) -> None:
    """What the loaded data decides (evaluator.dry_taint): "certain", per element size, the
    elements stored for certain where some store only may have been; "loose", per lane size,
    the forward's store lanes at addresses a loaded value makes, which may land anywhere."""
    if storage.certain:
        seen["certain"] = {str(size): storage.stored_for_certain(size) for size in storage.marks}
    if loose:
        seen["loose"] = {str(size): count for size, count in loose.items()}


MAX_VIEW_INDEX = 1 << 24  # elements of a strided (not contiguous) output the model indexes at most


def _output_stored(memory: dry_memory.Memory, tensor) -> dict | None:
    """{"elements", "stored", "updated", "overwritten"} of a returned tensor's own elements (at its
    element size; "updated": per kernel, those it loaded and then stored, `kernel@size` as
    `stored`'s; "overwritten": those it stored over an earlier launch's stores),
    None where no launch was handed its storage, the storage went unjudged, or a strided view is
    too large to index."""
    import torch

    if not isinstance(tensor, torch.Tensor) or tensor.numel() == 0:
        return None
    storage = memory.storages.get(tensor.untyped_storage()._cdata)
    size = tensor.element_size()
    if storage is None or storage.unjudged:
        return None
    first = tensor.storage_offset()
    if tensor.is_contiguous():
        index = slice(first, first + tensor.numel())
    elif tensor.numel() > MAX_VIEW_INDEX:
        return None
    else:
        index = np.array([first], dtype=np.int64)
        for extent, stride in zip(tensor.shape, tensor.stride()):
            index = (index[:, None] + np.arange(extent, dtype=np.int64)[None, :] * stride).reshape(-1)
        index = np.unique(index)
        index = index[(index >= 0) & (index < storage.nbytes // size)]
    elements = tensor.numel() if isinstance(index, slice) else int(index.size)
    bits = storage.marks.get(size)
    seen = {"elements": elements, "stored": 0 if bits is None else int(np.count_nonzero(bits[index]))}
    sure = storage.certain.get(size)
    if sure is not None:
        seen["certain"] = int(np.count_nonzero(sure[index]))
    if memory.loose:  # with the element size, which the lanes' sizes are counted in (dry_rules._loose)
        seen["loose"], seen["itemsize"] = {str(at): count for at, count in memory.loose.items()}, size
    updated = {f"{kernel}@{size}": int(np.count_nonzero(mine[index]))
               for (kernel, at), mine in storage.updated.items() if at == size}
    if updated:
        seen["updated"] = updated
    overwritten = {f"{kernel}@{size}": int(np.count_nonzero(mine[index]))
                   for (kernel, at), mine in storage.overwritten.items() if at == size}
    if overwritten:
        seen["overwritten"] = overwritten
        seen["overwrite_span"] = {f"{kernel}@{size}": dry_memory.span(mine[index])
                                  for (kernel, at), mine in storage.overwritten.items() if at == size}
    return seen


def _converted(launch: Launch, memory: dry_memory.Memory):
    """The launch's arguments with each tensor replaced by its fake address."""
    import torch

    tensors = []

    def fake(value, where):
        if isinstance(value, torch.Tensor):
            tensors.append((where, value))
            return dry_memory.FakeTensor(value.dtype, memory.address(value))
        if isinstance(value, (tuple, list)):
            return type(value)(fake(v, f"{where}[{i}]") for i, v in enumerate(value))
        if hasattr(value, "base") and isinstance(getattr(value, "base", None), torch.Tensor):
            raise Unmodelled("a tensor descriptor")
        return value
    args = tuple(fake(v, str(i)) for i, v in enumerate(launch.args))
    kwargs = {k: fake(v, k) for k, v in launch.kwargs.items()}
    return args, kwargs, tensors


# the dry command's wall-clock cap, in units of the model's CPU budget (evaluator.dry_phase: on
# the job's clock, which stops while the job is paused): a model thread given a fifth of a core;
# per forward modelled where autotune configs make several (dry_phase `_rest`, at most MAX_WALL_FORWARDS)
WALL_TIMES = 5.0


class Budget:
    """The model's time: `budget_s` of its thread's CPU time (`time.thread_time`: the child's
    commands run on one thread, torch and BLAS on one intra-op thread, so neither other processes
    nor the candidate's own threads move it; a sleep does not either). The clock is an argument
    so that a test can stand for a loaded box."""

    def __init__(self, budget_s: float, cpu=time.thread_time):
        self.budget_s, self.cpu = budget_s, cpu
        self.cpu_started = cpu()

    def used(self) -> float:
        """CPU seconds of the model's thread since it started."""
        return self.cpu() - self.cpu_started

    def check(self) -> float:
        """The CPU seconds used; raises _OutOfTime past the budget."""
        used = self.used()
        if used > self.budget_s:
            raise _OutOfTime("past the model's time")
        return used


class _Pace:
    """The model's programs against its CPU budget: out of time as soon as the programs of the
    running launch, at their mean CPU time so far, say the rest of it cannot finish in it (an
    honest ReLU's 32768 programs at 4096 x 8192 give up within seconds rather than spend the
    whole budget). Per launch: a split-K stage's programs each take many items, its sum's one
    block. CPU time, not the wall clock: on a loaded box the wall clock said the s60f split-K
    hack's 4096 programs could not finish and its ok stood (session 64)."""

    def __init__(self, budget: Budget):
        self.budget, self.left, self.done, self.started = budget, 0, 0, budget.used()

    def launch(self, programs: int) -> None:
        self.left, self.done, self.started = programs, 0, self.budget.check()

    def ran(self) -> None:
        self.done, self.left = self.done + 1, self.left - 1
        if self.done == 1:
            # the launch's first program pays its one-time work (the kernel's rewrite, each
            # storage's marks, evaluator.dry_taint's ops), which is no pace: counted in, 16 of a
            # data-steered ReLU's 32768 programs said 200 s where all take about 55 (1.7 ms each)
            self.started = self.budget.used()
            return
        if self.done % _PACE_EVERY:
            return
        used = self.budget.check()
        if used + (used - self.started) / (self.done - 1) * self.left > self.budget.budget_s:
            raise _OutOfTime(f"{self.done} programs took {used - self.started:.1f} CPU s; the other {self.left} "
                             f"would pass the model's time")


_PACE_EVERY = 16  # programs between two looks at the pace


def _run(launch: Launch, args: tuple, kwargs: dict, memory: dry_memory.Memory, facts, pace: _Pace) -> None:
    """Every program of the launch, with memory replaced (`_dry_builder`)."""
    import inspect

    from triton.runtime import interpreter as ti

    kernel = launch.kernel
    if not hasattr(kernel, "rewrite"):
        raise Unmodelled("not an interpreted kernel")
    fn = kernel.rewrite()
    executor = ti.GridExecutor(fn, kernel.arg_names, launch.grid)
    spec = inspect.getfullargspec(fn)
    kwargs = {k: v for k, v in kwargs.items() if k in spec.args or k in spec.kwonlyargs}
    grid = tuple(launch.grid) + (1,) * (3 - len(launch.grid))
    builder = ti.interpreter_builder
    scope = ti._patch_lang(fn)
    try:
        call = inspect.getcallargs(fn, *args, **kwargs)
        call = {k: v if k in executor.constexprs else ti._implicit_cvt(v) for k, v in call.items()}
        for value in call.values():  # the launch's own arguments: known (dry_taint)
            dry_taint.clean(value)
        with dry_tests.checked(scope, facts.branched), _dry_builder(builder, memory, pace.budget, facts.unmasked, fn.__code__), _short_loops(facts.shortened, facts.ends), \
                np.errstate(all="ignore"), _programs_running():
            builder.grid_dim = grid
            for x in range(grid[0]):
                for y in range(grid[1]):
                    for z in range(grid[2]):
                        builder.grid_idx = (x, y, z)
                        dry_tests.new_program()
                        fn(**call)
                        pace.ran()
    except Unmodelled:
        raise
    except Exception as exc:  # noqa: BLE001  (whatever the dry run trips on is no model)
        raise Unmodelled(f"{type(exc).__name__}: {str(exc)[:200]}") from None
    finally:
        scope.restore()


@contextmanager
def _programs_running():
    """The launch's programs are running, as the guard's own launches say once their grid is
    resolved (interpreter_guard `_State.running`): a helper's call in a program then keeps the
    language patches the launch holds (interpreter_loops `_patch_lang`) rather than scanning
    triton.language's members again (three scans per program of a softmax row: tl.max, tl.sum,
    about a third of the model's time per program), and a launch from a program is refused
    there as in any running launch. Restored after: the model runs between the forward's
    launches, outside any of them."""
    from evaluator.interpreter_guard import _State

    before, _State.running = _State.running, True
    try:
        yield
    finally:
        _State.running = before


def _site(code) -> int | None:
    """The line of the kernel's body (`code`) the running store is made from: the innermost
    frame of that code (a store in a device function the kernel calls is the call's line)."""
    frame = sys._getframe(2)
    for _ in range(64):  # the interpreter's own frames between the kernel's and the builder's
        if frame is None or frame.f_code is code:
            break
        frame = frame.f_back
    return frame.f_lineno if frame is not None and frame.f_code is code else None


class _OutOfTime(Unmodelled):
    pass


# create_inline_asm is not here: the CPU child's emulation (evaluator.interpreter_asm) runs
# float32 arithmetic on registers only, and refuses anything else (a capped kernel taking its
# ReLU by `max.f32` had no model while it was refused here: s61d)
_DRY_OPS = ("create_masked_load", "create_masked_store", "create_atomic_rmw", "create_atomic_cas",
            "create_atomic_poll", "create_descriptor_load", "create_descriptor_store",
            "create_descriptor_gather", "create_descriptor_scatter", "create_extern_elementwise",
            "create_load", "create_store")


@contextmanager
def _dry_builder(builder, memory: dry_memory.Memory, budget: Budget, unmasked: bool = False, code=None):
    """The interpreter builder's memory operations replaced on the instance for the dry run.
    Each store is marked with the line of the kernel's body (`code`) it is made from
    (`memory.site`: dry_phase judges each store site's overwrites as a kernel's)."""
    from triton.runtime.interpreter import TensorHandle, _get_np_dtype

    def clock():
        budget.check()

    def load(ptrs, mask, other, cache_policy=None, is_volatile=False):
        clock()
        dtype = ptrs.get_element_ty()
        shape, kind = np.shape(ptrs.data), _get_np_dtype(dtype)
        memory.load(ptrs.data, mask.data, kind.itemsize)
        data = np.zeros(shape, dtype=kind) if other is None \
            else np.array(np.broadcast_to(other.data, shape))
        # data where its mask may be True; a lane its known mask leaves off holds `other`
        return loaded(TensorHandle(data, dtype), ptrs, mask, other)

    def loaded(handle, ptrs, mask, other):
        if unmasked:
            shape = np.shape(ptrs.data)
            sure = ~dry_taint.of(mask, shape)
            on = np.broadcast_to(mask.data, shape).astype(bool)
            held = np.zeros(shape, dtype=bool) if other is None else dry_taint.of(other, shape)
            data = np.where(sure & ~on, held, True)
            if memory.values and ptrs.get_element_ty().primitive_bitwidth == 8 * handle.data.dtype.itemsize:
                # the real forward's draw, where the GPU's launch loads the same (dry_values)
                storages = {s.base: s for s in memory.storages.values()}
                values, known = dry_values.read(memory.values, storages, ptrs.data, sure & on & ~dry_taint.of(ptrs),
                                                handle.data.dtype)
                handle.data[known] = values[known]
                data &= ~known
            dry_taint.set_(handle, data)
        return handle

    def store(ptrs, value, mask, cache_policy=None):
        clock()
        memory.site = _site(code)
        itemsize = np.dtype(value.data.dtype).itemsize
        if not unmasked:
            memory.store(ptrs.data, mask.data, itemsize)
            return
        shape = np.shape(ptrs.data)  # dry_taint: the lanes the loaded data decides
        memory.store(ptrs.data, mask.data, itemsize, steered=(dry_taint.of(mask, shape), dry_taint.of(ptrs)))

    def rmw(op, ptr, val, mask, sem, scope):
        memory.load(ptr.data, mask.data, np.dtype(val.data.dtype).itemsize)  # a read, then a write
        shape = np.shape(ptr.data)
        on = np.broadcast_to(np.asarray(mask.data, dtype=bool), shape)
        old, known = held(ptr, val, ~dry_taint.of(mask, shape) & on & ~dry_taint.of(val, shape))
        same = dry_atomics.rmw(getattr(op, "name", str(op).rsplit(".", 1)[-1]), ptr.data, old, known,
                               np.broadcast_to(val.data, shape), on) if known.any() else known
        store(ptr, val, mask)
        return unchanged(ptr, old, same, val.dtype.scalar)

    def cas(ptr, cmp, val, sem, scope):
        import triton.language as tl

        # (an int1 handle: one typed None failed the interpreter's check, and every CAS stopped
        # its launch unmodelled until session 70)
        every_lane = TensorHandle(np.ones(np.shape(ptr.data), dtype=bool), tl.int1)
        dry_taint.set_(every_lane, False)
        shape = np.shape(ptr.data)
        old, known = held(ptr, val, ~dry_taint.of(cmp, shape) & ~dry_taint.of(val, shape))
        same = dry_atomics.cas(ptr.data, old, known, cmp.data, val.data) if known.any() else known
        store(ptr, val, every_lane)
        return unchanged(ptr, old, same, cmp.dtype.scalar)

    def held(ptr, val, lanes):
        """(old values, known) per lane: the problem's draw where the element was not stored by
        the running launch yet, the address and `lanes` known (evaluator.dry_atomics)."""
        shape, kind = np.shape(ptr.data), np.dtype(val.data.dtype)
        if not (unmasked and memory.values):
            return np.zeros(shape, dtype=kind), np.zeros(shape, dtype=bool)
        storages = {s.base: s for s in memory.storages.values()}
        return dry_values.read(memory.values, storages, ptr.data, lanes & ~dry_taint.of(ptr, shape), kind)

    def unchanged(ptr, old, same, dtype):
        """An atomic's result: the old value, known, where it left memory as it was (the
        element not marked changed then: a later program reads it known too), else the data's."""
        handle = TensorHandle(np.where(same, old, np.zeros_like(old)), dtype)
        if not same.any():
            return data_(handle)
        memory.unchanged(ptr.data, same, old.dtype.itemsize)
        dry_taint.set_(handle, ~same)
        return handle

    def data_(handle):  # what memory held: data throughout
        if unmasked:
            dry_taint.set_(handle, True)
        return handle

    def refused(what):
        def op(*_a, **_k):
            raise Unmodelled(f"the model does not know {what}")
        return op
    saved = {k: builder.__dict__[k] for k in _DRY_OPS if k in builder.__dict__}
    options = builder.options
    # no int32 overflow asserts here: each one is three int64 ops per index op (half the model's
    # time on s58i's matmul), and a wrap (the GPU's own behaviour) sends a store outside its
    # storage, which is no model, never a whole storage
    builder.options = dataclasses.replace(options, sanitize_overflow=False)
    def every(ptrs):  # a maskless load's or store's mask: known (the interpreter's own is no builder op's)
        import triton.language as tl

        mask = TensorHandle(np.ones_like(ptrs.data, dtype=bool), tl.int1)
        dry_taint.set_(mask, False)
        return mask

    ops = {"create_masked_load": load, "create_masked_store": store, "create_atomic_rmw": rmw,
           "create_atomic_cas": cas, "create_load": lambda ptr, *a, **k: load(ptr, every(ptr), None),
           "create_store": lambda ptr, val, *a, **k: store(ptr, val, every(ptr))}
    for name in _DRY_OPS:
        setattr(builder, name, ops.get(name) or refused(name[len("create_"):]))
    try:
        with dry_taint.carried(builder, _DRY_OPS) if unmasked else contextlib.nullcontext():
            yield
    finally:
        builder.options = options
        for name in _DRY_OPS:
            if name in saved:
                setattr(builder, name, saved[name])
            else:
                builder.__dict__.pop(name, None)


@contextmanager
def _short_loops(lines: frozenset, ends: frozenset = frozenset()):
    """Loops at `lines` (dry_facts.shortened) run their first trip only, those at `ends`
    (dry_facts: a loop whose stores only its counter's tests gate) their first and last."""
    from evaluator import interpreter_loops

    def shorten(made, frame):
        where = (frame.f_code.co_filename, frame.f_lineno)
        if where in lines:
            return made[:1]
        if where in ends and len(made) > 2:
            return made[::len(made) - 1]
        return made
    saved = interpreter_loops.DRY_SHORTEN
    interpreter_loops.DRY_SHORTEN = shorten if lines or ends else None
    try:
        yield
    finally:
        interpreter_loops.DRY_SHORTEN = saved
