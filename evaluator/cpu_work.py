"""Coverage on the CPU: the candidate's share of the forward's estimated device work.

On the GPU, coverage (`timing.coverage`) is the share of the forward's kernel time
spent in the candidate's own Triton kernels. Under TRITON_INTERPRET the kernels run
in Triton's numpy interpreter, orders of magnitude slower than the aten ops beside
them, so wall time is meaningless there. This module replaces time by a roofline
estimate of what each piece of work would cost on a nominal H100 (`Roofline`):
seconds = max(bytes / memory bandwidth, flops / peak), per aten op and per launch.

What is counted, while a `WorkCounter` is entered:
  - aten ops (a TorchDispatchMode): bytes are the footprints of the tensors read and
    written (a broadcast operand counts its storage span, not its expanded size);
    flops come from torch's flop-counter formulas (mm, addmm, bmm, baddbmm, addbmm, conv,
    attention) at the tensor-core peak of the operand dtype (fp32 runs at the TF32
    peak where torch's default TF32 flags allow it, as cuBLAS/cuDNN would: conv yes,
    matmul no, whatever the forward set them to). An op without a
    formula is never charged less than the work it may do, at the fp32 peak: ops whose
    work is linear in their data (tagged pointwise or reduction, copies, indexing,
    sorting, scans) one flop per element of their largest tensor; pools that per output
    element of their window; an op with a decomposition (torch._decomp) what its parts
    cost, run on meta tensors (mv and dot are a multiply and a sum); anything else
    (linear algebra, bilinear, fused RNN or attention layers) 2 * (elements of all its
    tensors) * (largest dimension), which bounds a product of three sizes (M*N*K, an n^3
    factorisation), or a few of them (one per operand), from above.
    Views, allocation and metadata ops cost nothing.
  - interpreted Triton launches (the interpreter's `GridExecutor.__call__`, by the
    `@triton.jit` function's name): the distinct addresses each launch loaded and
    stored (masked-off lanes excluded; atomics count as a read and a write), and
    2*M*N*K flops per `tl.dot` at the peak of its operand dtype and input precision.
    Distinct addresses, like the aten side's tensor footprints, are compulsory
    traffic: a tiled kernel re-reading a tile is served by the cache, not charged
    again. Elementwise math inside a kernel is not counted (always memory-bound).
    The interpreter's own torch calls (copying arguments to and from the host) are
    not aten work; torch ops run by launch pre-run hooks are.
    Only work the data needed is charged: loads of memory torch.empty handed out that
    nothing wrote yet are not (garbage read to look busy), and a launch's dot flops are
    capped at 2*max(M, N) per element it loaded (a real tiled GEMM stays well inside;
    dots of registers no load fed, tl.zeros or one tile reused, are not charged).
coverage = candidate launches / (candidate launches + other launches + aten ops),
0.0 when nothing ran. Launches of kernels whose name is not in `kernel_names` are
"other", as on the GPU. Everything run while counting counts, so measure after the
warm-up (an autotuner's first call benchmarks every config). The result's "launches"
is the number of interpreted launches seen, to cross-check against the launch hook.
Only interpreted launches are seen: on the GPU use `timing.coverage`.

Trust: this runs in the candidate's process, installed by the harness before the
candidate's code is imported, like the GPU profiler. Its numbers are only as good
as that process: the static checks keep candidates from importing `evaluator`,
reaching private attributes, patching classes or using torch.utils (dispatch
modes), and the integrity check retires a tampered child. Work a candidate hides
from these choke points (Python inside an interpreted kernel body that is neither
a load, a store nor a dot) is not counted for anyone.

Not thread-safe: the counter is process-wide state (the interpreter, which runs one
launch at a time, is not thread-safe either), and the dispatch mode sees only the
thread that entered it. Accounting never raises into the forward: a failure is
recorded and the result has "error" set and "coverage" None.
"""
from __future__ import annotations

import math
from collections.abc import Callable, Iterable
from dataclasses import asdict, dataclass

import torch
from torch.utils._python_dispatch import TorchDispatchMode

from evaluator.aten_facts import GLUE_OPS, MAKE_OPS, computes_by_conversion, makes_numbers
from evaluator.aten_plans import OpPlan, as_meta, operands, plan_of, signature, tensors_in
from evaluator.byte_spans import span_bytes
from evaluator.candidate_made import Made, finishing
from evaluator.launch_bytes import Fresh, Launch, element_bytes

Forward = Callable[[list], object]

METHOD = "roofline estimate of device work (Triton interpreter + aten dispatch), nominal H100"

# Allocation whose memory holds whatever was there before (see Fresh).
_ALLOCATING = frozenset({"empty", "empty_like", "empty_strided", "new_empty", "new_empty_strided",
                         "empty_permuted"})
_DEFAULT_TF32 = {"matmul": False, "conv": True}  # torch.backends.cuda.matmul / cudnn allow_tf32
_DECOMPOSE_DEPTH = 4  # decompositions of decompositions, at most this deep


@dataclass(frozen=True)
class Roofline:
    """Nominal H100 SXM5 throughputs (NVIDIA datasheet, dense, no sparsity)."""

    memory_bytes_per_s: float = 3.35e12  # HBM3
    fp32_flops_per_s: float = 67e12  # CUDA cores; also every op without a flop formula
    tf32_flops_per_s: float = 494.7e12
    half_flops_per_s: float = 989.4e12  # fp16 and bf16 tensor cores
    fp8_flops_per_s: float = 1979e12  # fp8 and int8 tensor cores
    fp64_flops_per_s: float = 67e12  # fp64 tensor cores
    # Fixed cost per op or launch. Zero by default: CPU problem sizes are so small that
    # any GPU-like floor (a few microseconds) would turn coverage into a launch count.
    call_floor_s: float = 0.0

    def seconds(self, nbytes: float, compute_s: float) -> float:
        return max(self.call_floor_s, nbytes / self.memory_bytes_per_s, compute_s)

    def matmul_peak(self, floating: bool, bits: int, fp32_peak: float) -> float:
        """Peak for a matrix product of operands with this element type."""
        if bits == 8:
            return self.fp8_flops_per_s
        if floating and bits == 16:
            return self.half_flops_per_s
        if floating and bits == 64:
            return self.fp64_flops_per_s
        return fp32_peak if floating and bits == 32 else self.fp32_flops_per_s


H100 = Roofline()


@dataclass
class _Entry:
    """Totals of one kernel name (Triton) or one aten op."""

    source: str  # "triton" or "aten"
    candidate: bool
    seconds: float = 0.0
    nbytes: int = 0
    flops: int = 0
    calls: int = 0
    unfused_s: float = 0.0  # an aten op charged at least as its decomposition's parts


# What the coverage bound's floors read of a profiled run (profiled_coverage._pytorch_share):
# the GPU's timed_steps copies them from its aten meter beside `aten_unfused_s`.
FLOOR_FIELDS = ("aten_flops", "convert_unfused_s", "convert_elements", "compute_unfused_s",
                "compute_flops", "made_unfused_s", "made_flops", "moved_unfused_s")


class WorkCounter:
    """Counts the estimated device work of everything run while entered (module docstring).

    One at a time per process; `result()` after exit.
    """

    _active: WorkCounter | None = None

    def __init__(self, kernel_names: Iterable[str], roofline: Roofline = H100, aten_only: bool = False) -> None:
        self.aten_only = aten_only  # the GPU's profiled runs: PyTorch's ops only (its kernels are timed)
        self.kernel_names = frozenset(kernel_names)
        self.roofline = roofline
        self.entries: dict[tuple[str, str], _Entry] = {}
        self.error: str | None = None
        self._launch: Launch | None = None
        self._host_copy = 0  # > 0 while the interpreter copies a launch's arguments
        self._patches: list[tuple[type, str, object]] = []
        self._mode: _AtenCounter | None = None
        self._tf32 = {"matmul": False, "conv": False}
        # byte maps of memory for interpreted launches' loads and stores (none on the GPU)
        self._fresh, self._made = (_Unmapped(), _Unmapped()) if aten_only else (Fresh(), Made())
        self.finish_unfused_s = 0.0  # the coverage bound's price of ops finishing that memory
        self.finish_flops = 0
        self.convert_unfused_s = 0.0  # ... and of copies that compute as they convert
        self.convert_elements = 0
        self.compute_unfused_s = 0.0  # ... of elementwise ops (one flop an element: kind "linear")
        self.compute_flops = 0
        self.made_unfused_s = 0.0  # ... and of those that made numbers (aten_facts.makes_numbers)
        self.made_flops = 0
        self.moved_unfused_s = 0.0  # ... and of copies that only move data (GLUE_OPS, no conversion)
        self._decomposed: dict[tuple, tuple[int, float]] = {}  # _signature -> its parts' work
        self.launches = 0

    def __enter__(self) -> WorkCounter:
        if WorkCounter._active is not None:
            self._fail(RuntimeError("another WorkCounter is already counting"))
            return self
        try:
            self._install()
            # torch's defaults, not the flags as the forward left them: on the CPU they change
            # nothing that is computed, and a candidate that turned matmul TF32 on had its
            # PyTorch matmul charged at 1/7 of the reference's (red team s35): a bigger share
            # of the problem "left" to it. The reference runs under the defaults.
            self._tf32 = dict(_DEFAULT_TF32)
            self._mode = _AtenCounter(self)
            self._mode.__enter__()
        except Exception as e:  # not installed: nothing is counted, the result says why
            self._uninstall()
            self._fail(e)
            return self
        WorkCounter._active = self
        return self

    def __exit__(self, *exc) -> None:
        if WorkCounter._active is not self:
            return
        WorkCounter._active = None
        try:
            self._mode.__exit__(None, None, None)
        finally:
            self._uninstall()

    def _install(self) -> None:
        if self.aten_only:
            return
        from triton.runtime import interpreter

        executor, builder = interpreter.GridExecutor, interpreter.InterpreterBuilder
        self._patch(executor, "__call__", self._wrap_launch)
        self._patch(executor, "_init_args_hst", self._wrap_host_copy)
        self._patch(executor, "_restore_args_dev", self._wrap_host_copy)
        self._patch(builder, "create_masked_load", self._wrap_load)
        self._patch(builder, "create_masked_store", self._wrap_store)
        self._patch(builder, "create_atomic_rmw", self._wrap_atomic_rmw)
        self._patch(builder, "create_atomic_cas", self._wrap_atomic_cas)
        self._patch(builder, "create_dot", self._wrap_dot)

    def _patch(self, cls: type, name: str, make: Callable) -> None:
        original = cls.__dict__[name]  # KeyError: the interpreter's choke point moved
        setattr(cls, name, make(original))
        self._patches.append((cls, name, original))

    def _uninstall(self) -> None:
        while self._patches:
            cls, name, original = self._patches.pop()
            setattr(cls, name, original)

    # --- accounting; every entry point goes through _guard so that it never raises

    def _guard(self, fn: Callable, *args) -> None:
        try:
            fn(*args)
        except Exception as e:  # deliberate: accounting must not break the forward
            self._fail(e)

    def _fail(self, e: BaseException) -> None:
        if self.error is None:
            self.error = f"{type(e).__name__}: {e}"[:500]

    def _add(self, source: str, name: str, nbytes: int, flops: int, compute_s: float,
             unfused_s: float = 0.0, moved_s: float | None = None) -> float:
        """`moved_s`: for an op that only moves data (aten_facts.GLUE_OPS: copies, pads, cat,
        im2col, flips), what the coverage bound charges it (`unfused_s`): the problem's data
        it read. It computes no part of any answer, and the scratch it writes is the
        candidate's layout, not the problem's work: an im2col (F.unfold) feeding a Triton GEMM
        wrote nine times its input, priced above the reference's whole convolution, so the
        bound counted 0% of the problem as the candidate's though its GEMM did every product
        (honest round s54k_09, s55: reward 0.50). The forward's own split (`seconds`) still
        charges the whole copy, and a problem that is itself a copy prices its reference alike."""
        candidate = source == "triton" and name in self.kernel_names
        entry = self.entries.setdefault((source, name), _Entry(source, candidate))
        seconds = self.roofline.seconds(nbytes, compute_s)
        bound = max(seconds, unfused_s) if moved_s is None else moved_s
        entry.seconds += seconds
        entry.unfused_s += bound
        entry.nbytes += nbytes
        entry.flops += flops
        entry.calls += 1
        return bound

    def _end_launch(self, launch: Launch) -> None:
        self.launches += 1
        flops, compute_s = launch.dot_charge()
        self._add("triton", launch.name, launch.distinct_bytes(), flops, compute_s)

    def _access(self, kind: str, ptrs, mask) -> None:
        if self._launch is not None:
            write = kind == "write"
            addrs = self._launch.access(self._launch.writes if write else self._launch.reads,
                                        ptrs, mask, self._fresh, write)
            if write and self._launch.name in self.kernel_names:
                self._made.launch_wrote(addrs, element_bytes(ptrs))

    def _dot(self, a, b, input_precision) -> None:
        if self._launch is None:
            return
        (*batch, m, k), n = a.data.shape, b.data.shape[-1]
        flops = 2 * math.prod(batch) * m * n * k
        self._launch.flops += flops
        self._launch.dot_reuse = max(self._launch.dot_reuse, 2 * max(m, n))
        self._launch.compute_s += flops / self._triton_dot_peak(a.dtype, input_precision)

    def _triton_dot_peak(self, dtype, input_precision) -> float:
        roof = self.roofline
        fp32 = {"TF32": roof.tf32_flops_per_s, "TF32x3": roof.tf32_flops_per_s / 3,
                "BF16x3": roof.half_flops_per_s / 3, "BF16x6": roof.half_flops_per_s / 6,
                }.get(getattr(input_precision, "name", ""), roof.fp32_flops_per_s)
        return roof.matmul_peak(dtype.is_floating(), dtype.primitive_bitwidth, fp32)

    def _aten(self, func, args: tuple, kwargs: dict, out) -> None:
        plan = plan_of(func)
        if func.overloadpacket.__name__ in _ALLOCATING:
            for t in tensors_in(out):
                self._fresh.allocated(t)
                self._made.allocated(t)
        if plan is None:
            return
        for t in tensors_in(out):
            self._fresh.overwritten(t)
        name = func.overloadpacket.__name__
        if name in MAKE_OPS and not (name in ("fill", "fill_") and any(
                isinstance(a, torch.Tensor) for a in args[1:2])):
            # a constant fill computes no part of any answer (aten_facts): a split-K kernel's
            # torch.zeros for its atomics was charged as 29% of a CPU-sized matmul's work
            # (honest round s36: coverage 0.71, ~2% of the time at the GPU's sizes)
            for t in tensors_in(out):  # a factory's new storage (torch.zeros for a kernel's atomics)
                if name in ("fill", "fill_", "zero_"):
                    self._made.torch_wrote(t, False)
                else:
                    self._made.allocated(t)
            return
        tensors = operands(plan, args, kwargs, out)
        written = len(tensors_in(out))
        reads = tensors[:len(tensors) - written]
        finish = finishing(name, reads, self._made)
        nbytes = sum(_footprint(t) for t in tensors)
        moved = None
        if name in GLUE_OPS:  # a copy or fixed permutation: in the coverage bound, the reads it made
            moved = self.roofline.seconds(sum(_footprint(t) for t in reads), 0.0)
        flops, compute_s = self._work(plan, args, kwargs, out, tensors)
        bound = self._add("aten", plan.label, nbytes, flops, compute_s,
                          unfused_s=self._unfused(plan, args, kwargs), moved_s=moved)
        converts = computes_by_conversion(func, args, kwargs, out)
        if converts:  # a sign or a clamp, priced as a copy
            self.convert_unfused_s += bound  # (profiled_coverage floors it at the problem's work)
            self.convert_elements += sum(t.numel() for t in tensors_in(out))
        elif finish:  # PyTorch finishing what the candidate's kernels made (candidate_made)
            self.finish_unfused_s += bound
            self.finish_flops += flops
        elif moved is not None:  # a layout copy: the problem's work only where the reference moves too
            self.moved_unfused_s += bound
        if plan.kind == "linear" and plan.formula is None and moved is None and not converts:
            self._elementwise(func, args, kwargs, out, bound, flops)
        for t in tensors_in(out):
            self._made.torch_wrote(t, finish)

    def _elementwise(self, func, args: tuple, kwargs: dict, out, bound: float, flops: int) -> None:
        """An elementwise op's charge and flops, apart where it made numbers: the coverage bound
        charges each kind at least its share of the problem's work, whatever cheap route it took
        there (profiled_coverage._computed_floor), on both devices. The GPU's profiled runs
        judge by the op's name (aten_facts.makes_numbers, read_values False): reading its tensors there
        would launch kernels the profiler times as the forward's."""
        self.compute_unfused_s += bound
        self.compute_flops += flops
        if makes_numbers(func, args, kwargs, out, read_values=not self.aten_only):
            self.made_unfused_s += bound
            self.made_flops += flops

    def _unfused(self, plan: OpPlan, args: tuple, kwargs: dict, chain: int = 0) -> float:
        """What the op's decomposition's parts cost, each at its own roofline (0 without one):
        a fused op (mse_loss, addcmul, layer_norm, attention) at the price of the chain of
        ops it stands for. Only the coverage bound reads this (`result`'s unfused_time_s).

        A part that is itself a composite (`OpPlan.composite`: no kernel of its own, eager
        PyTorch runs it as its parts) is priced by the same rule, the more of its own charge
        and its chain's, down to `_DECOMPOSE_DEPTH` chains (`chain`: how deep this one is),
        each part's own flops reckoned as the top level's parts' are. Priced by its own
        footprint, the math attention that the CPU's fused SDPA stands for cost what its q,
        k, v and output occupy, not the scores it writes, scales, masks, softmaxes and reads
        again: the reference's work was less than a candidate's two torch.matmul, and an
        honest file doing the scale, mask and softmax in Triton between them was paid
        coverage 0 (honest round s61f_08, s61f_10: reward 0.50). A part with a kernel of its
        own keeps its own price (one pass over its tensors): torch._decomp's reference chains
        for those (clamp's NaN tests and two wheres, five passes) are a compiler's, not work
        eager PyTorch does, and priced inside hardtanh they made its reference 5.5x a
        torch.minimum/maximum route's, a share the bound would pay a padded torch route."""
        if plan.decomposition is None or chain >= _DECOMPOSE_DEPTH:
            return 0.0
        key = ("unfused", chain, signature((plan.label, args, kwargs)))
        if key not in self._decomposed:
            parts = _Parts(self, 1, chain + 1)  # the parts' flops counted as any op's are
            try:
                with parts:
                    plan.decomposition(*as_meta(args), **as_meta(kwargs))
                self._decomposed[key] = parts.seconds
            except Exception:  # no meta kernel, data-dependent sizes: the op's own charge
                self._decomposed[key] = 0.0
        return self._decomposed[key]

    def _work(self, plan: OpPlan, args: tuple, kwargs: dict, out, tensors: list,
              depth: int = 0) -> tuple[int, float]:
        """(flops, compute seconds) of one aten op; `tensors` are the ones it reads, then
        writes. Without a formula, never less than the work the op may do (module doc)."""
        roof = self.roofline
        counted = plan.formula(*args, **kwargs, out_val=out) if plan.formula is not None else None
        if counted is not None:
            flops = int(counted)
            dtype = tensors[0].dtype
            if dtype.is_complex:  # torch's formulas count multiply-adds of elements: 4 real ones each
                # (a complex mm of half the depth was x @ W.T); the FFT's count is of real flops
                flops, dtype = (flops if plan.tf32_flag == "fft" else 4 * flops), dtype.to_real()
            fp32 = roof.tf32_flops_per_s if self._tf32.get(plan.tf32_flag) else roof.fp32_flops_per_s
            return flops, flops / roof.matmul_peak(dtype.is_floating_point, dtype.itemsize * 8, fp32)
        numel = max((t.numel() for t in tensors), default=0)
        flops = numel
        if plan.kind == "window":  # a pool: every output element reads its window
            kernel = args[1] if len(args) > 1 else kwargs["kernel_size"]
            kernel = [int(k) for k in (kernel if isinstance(kernel, (list, tuple)) else [kernel])]
            dims = 3 if "3d" in plan.label else 2  # a one-element kernel_size is a square
            window = math.prod(kernel) if len(kernel) > 1 else kernel[0] ** dims
            flops = max(numel, sum(t.numel() for t in tensors_in(out)[:1]) * window)
        elif plan.kind == "gather":  # a row of weight per index, multiplied and summed per bag
            weight, indices = (args + (None, None))[:2]
            if isinstance(weight, torch.Tensor) and isinstance(indices, torch.Tensor) and weight.dim() >= 1:
                flops = max(numel, 2 * indices.numel() * weight.shape[-1])
        elif plan.kind == "decompose" and depth < _DECOMPOSE_DEPTH:
            key = signature((plan.label, args, kwargs))
            if key not in self._decomposed:
                parts = _Parts(self, depth + 1)
                try:
                    with parts:
                        plan.decomposition(*as_meta(args), **as_meta(kwargs))
                    self._decomposed[key] = (parts.flops, parts.compute_s)
                except Exception:  # no meta kernel, data-dependent sizes: bound it instead
                    self._decomposed[key] = None
            if self._decomposed[key] is not None:
                flops, compute_s = self._decomposed[key]
                return max(numel, flops), max(numel / roof.fp32_flops_per_s, compute_s)
        if plan.kind not in ("linear", "window", "gather"):  # unknown work: products of three sizes
            flops = 2 * sum(t.numel() for t in tensors) * max(
                (max(t.shape, default=1) for t in tensors), default=1)
        return flops, flops / roof.fp32_flops_per_s

    # --- wrappers around the interpreter's methods (installed on the classes)

    def _wrap_launch(self, original: Callable) -> Callable:
        counter = self

        def __call__(executor, *args, **kwargs):
            if counter._launch is not None:  # launches do not nest; keep the outer one
                return original(executor, *args, **kwargs)
            counter._launch = Launch(str(getattr(executor.fn, "__name__", "?")))
            try:
                return original(executor, *args, **kwargs)
            finally:
                launch, counter._launch = counter._launch, None
                counter._guard(counter._end_launch, launch)

        return __call__

    def _wrap_host_copy(self, original: Callable) -> Callable:
        counter = self

        def copy_args(executor, *args, **kwargs):
            counter._host_copy += 1
            try:
                return original(executor, *args, **kwargs)
            finally:
                counter._host_copy -= 1

        return copy_args

    def _wrap_load(self, original: Callable) -> Callable:
        def create_masked_load(builder, ptrs, mask, *rest, **kwargs):
            self._guard(self._access, "read", ptrs, mask)
            return original(builder, ptrs, mask, *rest, **kwargs)

        return create_masked_load

    def _wrap_store(self, original: Callable) -> Callable:
        def create_masked_store(builder, ptrs, value, mask, *rest, **kwargs):
            self._guard(self._access, "write", ptrs, mask)
            return original(builder, ptrs, value, mask, *rest, **kwargs)

        return create_masked_store

    def _wrap_atomic_rmw(self, original: Callable) -> Callable:
        def create_atomic_rmw(builder, op, ptr, val, mask, *rest, **kwargs):
            self._guard(self._access, "read", ptr, mask)
            self._guard(self._access, "write", ptr, mask)
            return original(builder, op, ptr, val, mask, *rest, **kwargs)

        return create_atomic_rmw

    def _wrap_atomic_cas(self, original: Callable) -> Callable:
        def create_atomic_cas(builder, ptr, *rest, **kwargs):
            self._guard(self._access, "read", ptr, None)
            self._guard(self._access, "write", ptr, None)
            return original(builder, ptr, *rest, **kwargs)

        return create_atomic_cas

    def _wrap_dot(self, original: Callable) -> Callable:
        def create_dot(builder, a, b, d, input_precision, *rest, **kwargs):
            self._guard(self._dot, a, b, input_precision)
            return original(builder, a, b, d, input_precision, *rest, **kwargs)

        return create_dot

    # --- the result

    def result(self, forwards: int = 1) -> dict:
        """Per-forward totals in `timing.coverage`'s shape, plus the split and the model."""
        if self.error is not None:
            return {"coverage": None, "error": self.error, "method": METHOD,
                    "roofline": asdict(self.roofline), "kernels": []}
        entries = sorted(self.entries.items(), key=lambda kv: -kv[1].seconds)
        per = 1.0 / max(forwards, 1)
        mine = sum(e.seconds for _, e in entries if e.candidate) * per
        other = sum(e.seconds for _, e in entries if e.source == "triton" and not e.candidate) * per
        aten = sum(e.seconds for _, e in entries if e.source == "aten") * per
        total = mine + other + aten
        kernels = [{"name": name[:200], "seconds": e.seconds * per, "candidate": e.candidate,
                    "source": e.source, "bytes": e.nbytes * per, "flops": e.flops * per,
                    "calls": e.calls * per} for (_, name), e in entries[:8]]
        unfused = sum(e.unfused_s for _, e in entries) * per
        return {"coverage": mine / total if total > 0 else 0.0, "estimated_time_s": total,
                "candidate_time_s": mine, "other_triton_time_s": other, "aten_time_s": aten,
                "unfused_time_s": unfused,
                # the reference's arithmetic, and PyTorch's finishing of candidate-made memory
                # (candidate_made): what profiled_coverage's bound prices by arithmetic share
                "aten_flops": sum(e.flops for _, e in entries if e.source == "aten") * per,
                "finish_unfused_s": self.finish_unfused_s * per, "finish_flops": self.finish_flops * per,
                "convert_unfused_s": self.convert_unfused_s * per, "convert_elements": self.convert_elements * per,
                "compute_unfused_s": self.compute_unfused_s * per, "compute_flops": self.compute_flops * per,
                "made_unfused_s": self.made_unfused_s * per, "made_flops": self.made_flops * per,
                "moved_unfused_s": self.moved_unfused_s * per,
                "launches": self.launches, "kernels": kernels, "method": METHOD, "candidate_kernels": {
                    name[:200]: e.seconds * per for (_, name), e in entries[:64] if e.candidate},
                "roofline": asdict(self.roofline), "error": None}


class _Parts(TorchDispatchMode):
    """Adds up the work of the parts of a decomposition run on meta tensors."""

    def __init__(self, counter: WorkCounter, depth: int, chain: int | None = None) -> None:
        super().__init__()
        self.counter, self.depth, self.chain = counter, depth, chain
        self.flops, self.compute_s = 0, 0.0
        self.seconds = 0.0  # each part at its own roofline, or its own chain's where more (`chain`)

    def __torch_dispatch__(self, func, types, args=(), kwargs=None):
        kwargs = kwargs or {}
        out = func(*args, **kwargs)
        plan = plan_of(func)
        if plan is not None:
            tensors = operands(plan, args, kwargs, out)
            flops, compute_s = self.counter._work(plan, args, kwargs, out, tensors, self.depth)
            self.flops += flops
            self.compute_s += compute_s
            seconds = self.counter.roofline.seconds(sum(_footprint(t) for t in tensors), compute_s)
            if self.chain is not None and plan.composite:  # eager runs it as its parts (WorkCounter._unfused)
                seconds = max(seconds, self.counter._unfused(plan, args, kwargs, self.chain))
            self.seconds += seconds
        return out


class _AtenCounter(TorchDispatchMode):
    """Hands every aten op run outside the interpreter's argument copies to the counter."""

    def __init__(self, counter: WorkCounter) -> None:
        super().__init__()
        self.counter = counter

    def __torch_dispatch__(self, func, types, args=(), kwargs=None):
        kwargs = kwargs or {}
        out = func(*args, **kwargs)
        if not self.counter._host_copy:
            self.counter._guard(self.counter._aten, func, args, kwargs, out)
        return out


class _Unmapped:
    """The GPU's profiled runs (aten_only) interpret no launch, so no byte of memory is known
    to be the candidate's or still untouched: no byte maps. Kept there, a map the size of
    every storage PyTorch wrote, for every forward of a profiled batch, filled the host: an
    honest relu that zeroed its 128 MiB output with torch before its launch (a config
    pre_hook's `zero_()`) was killed at the 16 GiB host limit on an H100 (s57h_02)."""

    def allocated(self, t: torch.Tensor) -> None:
        pass

    def overwritten(self, t: torch.Tensor) -> None:
        pass

    def torch_wrote(self, t: torch.Tensor, finishing: bool) -> None:
        pass

    def holds(self, t: torch.Tensor) -> bool:
        return False


def _footprint(t: torch.Tensor) -> int:
    """Bytes a tensor occupies: its strided span, at most numel elements (broadcasts are cheap)."""
    return min(span_bytes(t), t.numel() * t.element_size())


def measure(forward: Forward, inputs: list, kernel_names: Iterable[str], forwards: int = 1,
            roofline: Roofline = H100, before_each: Callable[[int], None] | None = None) -> dict:
    """Run `forward(inputs)` `forwards` times and return its estimated coverage (module doc).
    `before_each(i)` runs before forward i, uncounted (the harness redraws the inputs there).

    The forward's own exceptions propagate; accounting failures only set "error".
    """
    counter = WorkCounter(kernel_names, roofline)
    for i in range(forwards):
        if before_each is not None:
            before_each(i)
        with counter:
            forward(inputs)
    return counter.result(forwards)
