"""Which names of torch, Triton and the standard library a kernel file may reach: the
namespaces behind evaluator.static_allowlist's `imports` and `names` rules.

Some are written out here (`_EXPLICIT`, each entry with its reason); the rest are derived once
per process from the libraries themselves (`Tables`): the aten functions torch exports, its
dtypes, the nn.Module subclasses of torch.nn, the functions of nn.functional / nn.init / linalg /
fft / special, the public names of triton.language, tl.math and libdevice that their library
defines. For a name they do not list: whether it exists in the installed libraries (`exists`:
a mistake, not an attack, where it does not) and the hack code that refuses it
(`denial_code`, from the allowlist's DENIED_API). The policy these tables serve, and what is
refused and why, is the allowlist's.
"""
from __future__ import annotations

import functools
import importlib
import inspect
import sys
import types

from evaluator import gpu_names
from evaluator.static_allowlist import CLOCK_FUNCTIONS, DENIED_API, SETTERS
from evaluator.static_budget import uninterrupted

_TORCH = frozenset({
    "Tensor", "Size", "device", "dtype", "finfo", "iinfo", "no_grad", "inference_mode",
    "is_tensor", "is_grad_enabled", "is_inference_mode_enabled", "get_default_dtype",
    "pi", "e", "inf", "nan", "newaxis", "nn", "cuda", "xpu", "autograd", "linalg", "fft", "special",
    "backends", "get_float32_matmul_precision", "are_deterministic_algorithms_enabled",
    "version", "is_autocast_enabled",  # read only (attorch's fp16 path; session 26)
    "get_autocast_dtype", "get_autocast_gpu_dtype",  # read only (attorch's linear; session 37)
    "compiler", "jit",  # each only its "am I being traced" query (_EXPLICIT)
    # read only: the host's thread count and the accelerator's device queries (thinking
    # machines' batch_invariant_ops; honest round s44)
    "get_num_threads", "accelerator",
    "return_types",  # torch's named result tuples (_EXPLICIT)
})
_CUDA = frozenset({"is_available", "current_device", "device_count", "get_device_capability",
                   "get_device_properties", "get_device_name", "synchronize", "device",
                   "is_bf16_supported", "nvtx", "is_current_stream_capturing"})
_TYPING = frozenset({"Any", "Callable", "Dict", "List", "Optional", "Sequence", "Tuple",
                     "Union", "Iterable", "Iterator", "Mapping", "Literal", "Final", "ClassVar",
                     "TYPE_CHECKING", "cast", "TypeVar", "Type", "NamedTuple", "TypeAlias",
                     # a decorator only (static_allowlist.DECORATORS): the stub it marks is
                     # replaced by typing's dummy, and the def after the stubs is what runs
                     "overload", "final",
                     # a launcher interface's base (session 51c): a class, never runtime_checkable
                     "Protocol"})
_EXPLICIT: dict[str, frozenset[str]] = {
    # once_differentiable: a backward run under no_grad whose outputs refuse a second
    # backward (Liger, unsloth); it takes only the function it decorates
    "torch.autograd": frozenset({"Function", "function"}),
    "torch.autograd.function": frozenset({"once_differentiable"}),
    # the precision switches, to read (honest kernels pick TF32 as PyTorch would; writing
    # any attribute of a module is monkey_patch, and torch.set_* is harness_tamper, but for
    # the literal module-level lines of evaluator.static_settings)
    "torch.backends": frozenset({"cuda", "cudnn"}),
    "torch.backends.cuda": frozenset({"matmul", "is_built"}),
    "torch.backends.cuda.matmul": frozenset({"allow_tf32", "allow_fp16_reduced_precision_reduction",
                                             "allow_bf16_reduced_precision_reduction"}),
    "torch.backends.cudnn": frozenset({"allow_tf32", "enabled", "is_available", "version",
                                       "deterministic", "benchmark"}),
    "torch.cuda": _CUDA,
    "torch.accelerator": frozenset({"is_available", "current_accelerator", "device_count",
                                    "current_device_index", "current_device_idx"}),
    # read only, False in an eager child: the guards of code that also runs under torch.compile
    # or TorchScript (vLLM, fla: `if torch.compiler.is_compiling():`; honest round s37)
    "torch.compiler": frozenset({"is_compiling"}),
    "torch.jit": frozenset({"is_scripting", "is_tracing"}),
    # the same device queries for Intel GPUs: Liger's `elif X.device.type == "xpu"` branch
    # (honest round, session 35); never taken here
    "torch.xpu": frozenset({"is_available", "current_device", "device_count", "get_device_properties",
                            "get_device_name", "synchronize"}),
    # the named tuples torch's reductions return (torch.max(dim)'s values and indices), for a
    # kernel wrapper that hands back torch's own result type (honest round s68F): a C structseq
    # built from a tuple, holding what it is given; the runner accepts exactly these types as a
    # forward's output (runner._RETURN_TYPES) and a class of the file derives from none of them
    # (static_names: untrusted base)
    "torch.return_types": frozenset({"max", "min", "aminmax", "sort", "topk", "kthvalue", "mode",
                                     "median", "nanmedian", "cummax", "cummin"}),
    # the build's version strings (None where not built for it): Liger's `is_hip()` is
    # `torch.version.hip is not None` (honest round, session 22)
    "torch.version": frozenset({"cuda", "hip", "git_version", "debug"}),
    # profiler markers for Nsight (honest round, session 22): a name pushed, popped or marked,
    # which no part of the evaluator reads; not range()/range_start(), whose message is a
    # format template applied to its other arguments (a format field reads attributes)
    "torch.cuda.nvtx": frozenset({"range_push", "range_pop", "mark"}),
    "triton": frozenset({"jit", "autotune", "heuristics", "Config", "cdiv", "next_power_of_2",
                         "language", "reinterpret", "runtime", "tools"}),
    # the tutorials' device queries, as `triton.runtime.driver.active.<query>(...)` only
    # (ATTRIBUTE_ONLY); the rest of triton.runtime is the launcher (tamper)
    "triton.runtime": frozenset({"driver"}),
    "triton.runtime.driver": frozenset({"active"}),
    "triton.runtime.driver.active": frozenset({"get_active_torch_device", "get_current_target",
                                               "get_current_device", "utils"}),
    "triton.runtime.driver.active.utils": frozenset({"get_device_properties"}),
    # a host-side TMA descriptor: a plain record of a tensor, its shape and block shape
    "triton.tools": frozenset({"tensor_descriptor"}),
    "triton.tools.tensor_descriptor": frozenset({"TensorDescriptor"}),
    "triton.language.extra": frozenset({"cuda", "libdevice"}),
    "typing": _TYPING,
    # namedtuple only (FlagGems' max returns `namedtuple("max", ["values", "indices"])`; honest
    # round, session 35): the class typing.NamedTuple makes, with a fixed template for its
    # methods; the rest of collections is a compile error (unavailable) as before
    "collections": frozenset({"namedtuple", "defaultdict", "OrderedDict"}),
    # wraps only on the wrapper of a transparent decorator (evaluator.static_idioms)
    "functools": frozenset({"partial", "lru_cache", "cache", "reduce", "wraps", "singledispatch"}),
    # operator's arithmetic and comparisons (Liger's `functools.reduce(operator.mul, shape, 1)`:
    # honest round, session 20); not attrgetter/itemgetter/methodcaller, where a string
    # becomes an attribute lookup or a call, nor mod: `operator.mod("%c", n)` is %-formatting
    # that no `%` of the file shows (evaluator.python_image checks the operator's; session 48)
    "operator": frozenset({"add", "sub", "mul", "truediv", "floordiv", "neg", "pos", "abs",
                           "and_", "or_", "xor", "not_", "lt", "le", "eq", "ne", "ge", "gt",
                           "lshift", "rshift"}),
    # not dataclasses.fields: a Field's .type hands out the annotated class
    "dataclasses": frozenset({"dataclass", "field", "asdict", "astuple", "replace"}),
    # unique: a decorator only, that raises on an alias member and hands the class back
    "enum": frozenset({"Enum", "IntEnum", "Flag", "IntFlag", "auto", "unique"}),
    # an interface's base and its stubs' decorator (session 51c): not ABCMeta, register,
    # get_cache_token, update_abstractmethods
    "abc": frozenset({"ABC", "abstractmethod"}),
    # the do-nothing context manager of `with torch.cuda.device(x.device) if x.is_cuda else
    # nullcontext():` (honest round s49): entered, it hands back the argument it was given and
    # exits doing nothing; not contextmanager/ExitStack/suppress/redirect_*, which run the
    # file's code at exit, swallow exceptions or move the process's streams
    "contextlib": frozenset({"nullcontext"}),
    # a warning goes to the child's stderr; not warnings.filters/showwarning (process-wide
    # hooks). logging and numpy are importable (files import them for their test block); of
    # logging getLogger in evaluator.static_idioms' one shape (a Logger hands out the process's
    # loggers and takes callables the harness's logging then runs: `addFilter`), and the root
    # logger's debug/info/warning (FlagGems; a stderr line, as print(); s26); nothing of numpy: it computes
    # outside torch and Triton, and reads and writes files and raw memory
    # a block size or a switch read from the environment (honest round, session 22): of os
    # only reading a variable; never os.environ itself (its update/pop/setdefault and item
    # stores change what torch and Triton read), nothing that runs, opens or lists anything
    # and the host's CPU count, a persistent grid's fallback size off the GPU (honest round s41)
    "os": frozenset({"environ", "getenv", "cpu_count"}),
    "os.environ": frozenset({"get"}),
    "warnings": frozenset({"warn"}),
    "logging": frozenset({"getLogger", "debug", "info", "warning"}),
    "numpy": frozenset(),
    # importable for a test block's benchmark (`time.perf_counter()` under `__main__`, which
    # the harness never runs; honest round, session 20); nothing of it is usable elsewhere
    "time": frozenset(),
    "__future__": frozenset({"annotations"}),
    # einops' functions on tensors (fla, mamba, flash-attn's host code: `rearrange(x, "b t h d ->
    # b h t d")`; honest round s40): each is torch's own ops, which the watch sees dispatched;
    # a reduction given as a function is the file's function, judged as any. Not einops.layers
    # (nn.Modules of its own) nor its backends' registry
    # a version gate's parser (unsloth: `Version(triton.__version__) >= Version("3.0.0")`; honest
    # round s40): a parsed version string, compared; settled statically (static_branches)
    "packaging": frozenset({"version"}),
    "packaging.version": frozenset({"Version", "parse"}),
    "einops": frozenset({"rearrange", "repeat", "reduce", "einsum", "pack", "unpack", "parse_shape"}),
}
# Namespaces reachable only as an attribute chain from an import, never imported
# themselves (`from triton.runtime import driver` hands out the launcher's driver).
ATTRIBUTE_ONLY = frozenset({"triton.runtime", "torch.backends"})
# Aten functions that read files or foreign memory.
_VF_DENIED = frozenset({"from_file", "from_numpy", "frombuffer"})
# Aten function families that compute outside the dispatcher: CPU fbgemm and the quantisation
# helpers run on raw data pointers inside one composite op that dispatches nothing but `empty`,
# so the provenance watch saw fresh memory holding a GEMM, and a float scale read every input
# (red team A, session 19: nine strict and paper attacks). No honest float kernel needs them.
_VF_DENIED_PREFIXES = ("fbgemm_", "quantize_", "quantized_", "fake_quantize_", "choose_qparams",
                       "dequantize", "empty_quantized")
# The same family named anywhere in the name, not only at its start: fused_moving_avg_obs_fake_quant
# (an observer and fake-quantiser in one) escaped the prefixes, and with per_row_fake_quant=True it
# writes a running min/max, scale and zero point per channel of its input into buffers it never
# sizes against the channel count: 8 rows into 1-element buffers corrupted the child's heap
# (munmap_chunk(): invalid pointer; red team rt62, hacks/rt62_fused_obs_fake_quant_*, ok before).
# "quantiz" spares quantile/nanquantile.
_VF_DENIED_PARTS = ("fake_quant", "quantiz", "qparams")
# Tensors of another layout than strided (sparse COO/CSR/CSC/BSR/BSC, jagged): a sparse tensor's
# indices are raw offsets torch does not check by default (its invariant checks are off), and
# adding one into a dense tensor wrote its value that far from the dense tensor's data, into any
# memory of the process (red team rt52, hacks/rt52_sparse_unchecked_index_writes_past_tensor_relu);
# an invariant check at construction would not hold either, as the indices stay writable after
# it. Their constructors ("sparse" in the name) and layouts are left out; the methods that make
# one from a strided tensor are static_allowlist.DENIED_ATTRIBUTES'. No honest kernel file needs
# them: a sparse output cannot be sent, and the GPU's Triton kernels take strided tensors.
_VF_DENIED_PART = "sparse"
# Ops whose CPU kernel reads where index data points without a bounds check: CTC loss's targets
# index its log-probabilities (a target of 100000 over 3 classes read memory past them: -5.4e20 on
# torch 2.13, and a segfault in red team rt52's probe). An arbitrary read in the child is a look
# at the harness's state in it; no problem needs CTC. Left out of torch, nn.functional and nn.
# Flagged by scripts/audit_index_ops.py (session 50f, docs/audits/index_ops.md) and refused the
# same way: embedding_bag (2-D offsets corrupted the heap: malloc aborts), median/nanmedian over
# a dim of a zero-stride tensor (read past its one element), lstm (an empty weight segfaulted)
# and mkldnn_rnn_layer (segfaults); their tensor methods are static_allowlist.DENIED_ATTRIBUTES'.
# Once the audit had baselines for them (session 51d): torch.grid_sampler/_2d/_3d with an
# interpolation or padding mode outside 0..2 run no kernel and return their output as allocated
# (-1.8e31 and pointer-like 4.6e-41 out of a tensor of ones: the harness's freed memory;
# F.grid_sample checks its mode names and stays), lu_unpack with empty pivots segfaults, and
# segment_reduce(..., unsafe=True) reads past its data by its lengths (-2.1e29 summed out of
# four ones), as_strided_ (static_allowlist.DENIED_ATTRIBUTES says why), and native_batch_norm
# in evaluation mode without running statistics (a segfault: F.batch_norm and torch.batch_norm
# refuse it, "running_mean must be defined"; found by the audit's out= baseline search).
# Session 52f: torch.batch_norm_update_stats takes running stats of any length and writes C of
# them (a 1-element running_mean beside 3 channels: 2 floats written past it, and read); the
# rest of SyncBatchNorm's statistics ops (batch_norm_stats/_elemt/_gather_stats(_with_counts)/
# _backward_reduce/_backward_elemt) have no CPU kernel, so their sizes are unmeasured: refused
# with it, as are the cuDNN/MIOpen batch norms (GPU kernels, no CPU probe; F.batch_norm checks
# its running stats' lengths and stays). torch.gru/rnn_tanh/
# rnn_relu's packed overload (data, batch_sizes, ...) reads batch_sizes as if contiguous: a
# zero-stride one read lengths past its one element, an empty one segfaulted; nn.GRU/nn.RNN
# reach it only with a PackedSequence (torch.nn.utils is not spelled) and stay. No honest
# kernel file needs them.
_PACKED_RNNS = frozenset({"gru", "rnn_tanh", "rnn_relu"})
_BATCH_NORM_STATS = frozenset({"batch_norm_update_stats", "batch_norm_stats", "batch_norm_elemt",
                               "batch_norm_gather_stats", "batch_norm_gather_stats_with_counts",
                               "batch_norm_backward_reduce", "batch_norm_backward_elemt",
                               "cudnn_batch_norm", "miopen_batch_norm"})
_UNCHECKED_INDEX = frozenset({"ctc_loss", "CTCLoss", "embedding_bag", "EmbeddingBag", "median",
                              "nanmedian", "lstm", "LSTM", "mkldnn_rnn_layer", "grid_sampler",
                              "grid_sampler_2d", "grid_sampler_3d", "lu_unpack", "segment_reduce",
                              "as_strided_", "native_batch_norm"}) | _BATCH_NORM_STATS | _PACKED_RNNS


def _strided_or_no_layout(value: object) -> bool:
    import torch

    return not isinstance(value, torch.layout) or value == torch.strided


# Harmless private helpers honest code copies from nn.Linear's reset_parameters.
_INIT_PRIVATE = frozenset({"_calculate_fan_in_and_fan_out", "_calculate_correct_fan"})


class Tables:
    """The derived tables, built once per process (see tables())."""

    def __init__(self) -> None:
        import torch

        self.namespaces: dict[str, frozenset[str]] = dict(_EXPLICIT)
        for module in _EXPLICIT:  # loaded, so that a listed class is known as one (`classes`): packaging's
            try:  # Version, never imported by the worker, was free to hand around and patch (red team s41)
                importlib.import_module(module)
            except ImportError:  # deliberate: an attribute chain (torch.backends.cuda.matmul), no module
                pass
        try:  # so that TensorDescriptor is known as a class (never handled as a value)
            importlib.import_module("triton.tools.tensor_descriptor")
        except ImportError:  # deliberate: an older Triton without it; its name stays out
            del self.namespaces["triton.tools.tensor_descriptor"]
        self.reexported: set[str] = set()
        vf = {n for n in dir(torch._C._VariableFunctions)
              if not n.startswith(("_", *_VF_DENIED_PREFIXES)) and _VF_DENIED_PART not in n
              and not any(part in n for part in _VF_DENIED_PARTS)} - _VF_DENIED - _UNCHECKED_INDEX
        kinds = (torch.dtype, torch.layout, torch.memory_format)
        consts = {n for n, v in vars(torch).items()
                  if isinstance(v, kinds) and n[0] != "_" and _strided_or_no_layout(v)}
        self.namespaces["torch"] = frozenset(vf | set(torch.functional.__all__) | consts | _TORCH)
        nn = torch.nn
        layers = {n for n, v in vars(nn).items() if n[0] != "_" and inspect.isclass(v)
                  and issubclass(v, nn.Module)} - {"DataParallel"} - _UNCHECKED_INDEX
        self.namespaces["torch.nn"] = frozenset(layers | {"Parameter", "Buffer", "functional",
                                                          "init"})
        self._functions("torch.nn.functional", {"torch.nn.functional", "torch", "torch._C._nn"})
        self.namespaces["torch.nn.functional"] -= _UNCHECKED_INDEX
        self._functions("torch.nn.init", {"torch.nn.init"}, extra=_INIT_PRIVATE)
        for name in ("torch.linalg", "torch.fft", "torch.special"):
            self._public(name)
        self._public("triton.language", extra={"math", "extra"})
        self._public("triton.language.math")
        self._public("triton.language.extra.cuda", extra={"libdevice"})
        self.namespaces["triton.language.extra.cuda"] -= {n.rsplit(".", 1)[1] for n in CLOCK_FUNCTIONS}
        self._public("triton.language.extra.libdevice")
        self._public("triton.language.extra.cuda.libdevice")
        self._public("math")
        self._public("itertools")
        for module in ("triton.language.core", "triton.language.standard"):
            self._same_objects(module, "triton.language")
        for module, listed in list(self.namespaces.items()):  # and the GPU image has them too
            gpu = gpu_names.namespace(module)  # (evaluator.gpu_names: a name only the CPU
            if gpu is not None:  # check's libraries have was a switch between two arms)
                self.namespaces[module] = listed & gpu
        for module in self.namespaces:
            if module in sys.modules:
                self.reexported |= {f"{module}.{n}" for n, v in vars(sys.modules[module]).items()
                                    if isinstance(v, types.ModuleType)}
        self.module_private, self.module_methods, self.ctx_reserved = _module_internals(torch)
        # listed names whose object is a class (torch.Tensor, nn.Linear, triton.Config, ...)
        self.classes = {f"{ns}.{n}" for ns, listed in self.namespaces.items() for n in listed
                        if ns in sys.modules and inspect.isclass(getattr(sys.modules[ns], n,
                                                                         None))}
        # attributes that hand out a class: `mro` (every base of a class, torch.Tensor
        # from any subclass) and the class-valued attributes of the listed classes
        # (`tl.float32.KIND`); a class as a value is a handle to patch it (see names)
        self.class_attributes = frozenset({"mro"} | {
            a for name in self.classes for a in _class_valued(
                getattr(sys.modules[name.rsplit(".", 1)[0]], name.rsplit(".", 1)[1]))})
        # listed names whose object is one of Triton's JIT functions (tl.sum, triton.cdiv)
        import triton.runtime.jit as jit

        kinds = tuple(k for k in (getattr(jit, n, None) for n in ("JITCallable",
                      "KernelInterface", "JITFunction")) if isinstance(k, type))
        self.jit_functions = frozenset(
            f"{ns}.{n}" for ns, listed in self.namespaces.items() if ns in sys.modules
            and ns.split(".")[0] == "triton" for n in listed
            if isinstance(getattr(sys.modules[ns], n, None), kinds))

    def _public(self, module: str, extra: set[str] = frozenset()) -> None:
        """Every public non-module name of a module of pure functions that its own
        library defines: not the helpers it imported (tl.math's functools.wraps would
        set any attribute of any object, a function's __code__ included)."""
        try:
            mod = importlib.import_module(module)
        except ImportError:  # deliberate: a Triton build without libdevice; its names stay out
            return
        names = getattr(mod, "__all__", None) or [n for n in vars(mod) if not n.startswith("_")]
        home = module.split(".")[0]
        self.namespaces[module] = frozenset({
            n for n in names if not isinstance(getattr(mod, n, None), types.ModuleType)
            and str(getattr(getattr(mod, n, None), "__module__", home)).split(".")[0] == home
        } | extra)

    def _same_objects(self, module: str, home: str) -> None:
        """The names of `home` that `module` holds as the very same objects: `tl.core.reshape`
        is `tl.reshape` (the bitonic argsort public code copies from a Triton issue spells
        tl.core.*; honest round s38). Nothing the module alone defines."""
        try:
            mod, base = importlib.import_module(module), importlib.import_module(home)
        except ImportError:  # deliberate: a Triton that lays its modules out otherwise
            return
        own = vars(mod)
        self.namespaces[module] = frozenset(
            n for n in self.namespaces.get(home, ()) if n in own and own[n] is getattr(base, n, None))
        parent, _, leaf = module.rpartition(".")
        self.namespaces[parent] = self.namespaces[parent] | {leaf}

    def _functions(self, module: str, homes: set[str], extra: frozenset = frozenset()) -> None:
        """Public functions defined in `homes` (no typing helpers, no torch-function hooks)."""
        mod = importlib.import_module(module)
        self.namespaces[module] = frozenset(extra | {
            n for n, v in vars(mod).items() if n[0] != "_" and callable(v)
            and not inspect.isclass(v) and getattr(v, "__module__", None) in homes})

    def importable(self, module: str, allowed: list[str]) -> bool:
        return module in self.namespaces and any(
            module == a or module.startswith(a + ".") for a in allowed)


def _class_valued(cls: type) -> set[str]:
    """Public attributes of a class whose value is another class."""
    found = set()
    for name in dir(cls):
        try:
            value = getattr(cls, name)
        except Exception:  # deliberate: a descriptor that needs an instance holds no class
            continue
        if not name.startswith("_") and inspect.isclass(value) and value is not cls:
            found.add(name)
    return found


def _module_internals(torch) -> tuple[frozenset, frozenset, frozenset]:
    """nn.Module's private attributes and method names; autograd ctx's reserved names."""
    module = torch.nn.Module
    names = set(dir(module)) | set(vars(module()))
    private = {n for n in names if n.startswith("_")}
    methods = {n for n in dir(module) if callable(getattr(module, n, None))}
    ctx = {n for n in dir(torch.autograd.function.BackwardCFunction)}
    private |= {n for n in dir(torch.autograd.Function) if n.startswith("_")}
    return frozenset(private), frozenset(methods), frozenset(ctx)


@functools.cache
def tables() -> Tables:
    """The derived tables (imports torch and triton on first use; then cached)."""
    with uninterrupted():
        return Tables()


_NO_PROBE = "triton.runtime.driver.active"
_ABSENT = object()


@functools.lru_cache(maxsize=4096)
def exists(name: str) -> bool:
    """Whether a dotted name under an allowed root names something in the installed
    torch/triton (an attribute chain or an importable submodule). A name that does not
    exist is a mistake (compile_error), not an attack. It imports library code in the
    worker: the checks' budget never interrupts it (static_budget.uninterrupted)."""
    with uninterrupted():
        return _exists(name)


def _exists(name: str) -> bool:
    import importlib.util

    if name == _NO_PROBE or name.startswith(_NO_PROBE + "."):
        return True  # reading `active` would start the GPU driver in the worker
    if gpu_names.lacks(name):
        return False  # the GPU image's libraries do not have it (evaluator.gpu_names)
    parts = name.split(".")
    if parts[0] not in {ns.split(".")[0] for ns in tables().namespaces}:
        return False  # never import another module in the worker (`import this` ran there)
    try:
        obj = importlib.import_module(parts[0])
    except ImportError:
        return False
    for i, part in enumerate(parts[1:], start=1):
        # read, never run: a property or a lazy loader on the way is candidate-chosen code in
        # this worker (`triton.runtime.driver.active` starts the GPU driver; red team s38)
        found = inspect.getattr_static(obj, part, _ABSENT)
        if found is not _ABSENT:
            obj = found
            continue
        try:
            if importlib.util.find_spec(".".join(parts[:i + 1])) is None:
                return False
        except (ImportError, ValueError):
            return False
        return True  # an importable submodule: the rest is not looked into
    return True


@functools.lru_cache(maxsize=1024)
def imports_cleanly(name: str) -> bool:
    """Whether `import name` succeeds in this installation, as the candidate's process would
    run it: every dotted prefix a module that imports. An attribute is no module (`import
    os.environ` raises ModuleNotFoundError where `exists` finds the attribute: an import
    fallback settled on that prediction dropped a handler that ran, red team s38), and a
    submodule that find_spec finds may still raise on import (an optional dependency). Only
    modules under an allowed root are imported here (see `exists`)."""
    import importlib
    import types

    if name.split(".")[0] not in {ns.split(".")[0] for ns in tables().namespaces}:
        return False
    with uninterrupted():
        try:
            return isinstance(importlib.import_module(name), types.ModuleType)
        except Exception:  # noqa: BLE001  (deliberate: whatever an import raises, it is no clean import)
            return False


_SAME_AS_LANGUAGE = ("triton.language.core.", "triton.language.standard.")


def canonical(name: str) -> str:
    """`triton.language.core.X` (or `.standard.X`) as `triton.language.X` where the table holds
    it as the very same object (`Tables._same_objects`): a check keyed on the name (the inline
    assembly of `tl.inline_asm_elementwise`) must see one spelling (red team s38)."""
    for prefix in _SAME_AS_LANGUAGE:
        if name.startswith(prefix):
            rest = name[len(prefix):]
            if rest.split(".")[0] in tables().namespaces.get(prefix[:-1], ()):
                return "triton.language." + rest
    return name


def denial_code(name: str) -> str:
    """The hack code of a dotted name the allowlist does not list."""
    parts = name.split(".")
    for i in range(len(parts), 0, -1):
        code = DENIED_API.get(".".join(parts[:i]))
        if code:
            return code
    if parts[-1].startswith("set_") and ".".join(parts[:-1]) in SETTERS:
        return "harness_tamper"
    if any(p.startswith("_") for p in parts[1:]):
        return "reflection"
    if name in tables().reexported:
        return "reflection"
    return "forbidden_api"
