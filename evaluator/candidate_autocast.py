"""`torch.autocast("cuda")` in a CPU candidate child, run as CUDA's autocast runs on the GPU: the
real autocast state (torch's own thread-local switches for "cuda", so every query of it answers
as on the GPU: is_autocast_enabled() / ("cuda") / ("cpu"), get_autocast_dtype, the deprecated
get_autocast_gpu_dtype and is_autocast_cpu_enabled) and CUDA's casting policy applied, at the
dispatcher's Autocast key, to the tensors that stand in for the GPU's.

Why this shape (red team s46 rt23): the stand-in of session 46 ran CPU autocast under a CUDA
name. Its state answered as the CPU's to every query it did not patch (get_autocast_gpu_dtype
gave float16 inside a bfloat16 region; is_autocast_enabled("cpu") said True inside
autocast("cuda")), and CPU autocast's op lists are not CUDA's (softmax, exp, layer_norm, sum run
in float32 under CUDA autocast and untouched under CPU's; addmv, einsum, conv_transpose... are
cast on one and not the other), so `x.dtype` after an op told the CPU check from the H200. Here
no query and no op is answered by a stand-in: torch's real CUDA autocast state is switched on
(a CPU build of torch keeps that state, it only refuses to enter it because no CUDA device is
present), the AutocastCUDA dispatch key is included for every tensor of the child (it is
excluded, as always, while CUDA autocast is off), and its kernels are CUDA's policy written out
from ATen's autocast_mode.h (the lists below; tests/unit/evaluator/test_candidate_env.py holds
them to the C++ kernels of the installed torch, which cast only tensors whose device is CUDA,
so they cannot run on the CPU child's tensors themselves).

`torch.autocast("cpu")` on the GPU casts only host tensors (CUDA tensors are not eligible); in
the CPU child every tensor is a CPU tensor, so its kernels here leave the device's tensors
alone and refuse a host tensor it would cast (the CPU policy over host tensors is not run here;
a refusal is a verdict the GPU path then decides, never an ok).

The casts to the lower-precision dtype go through ATen's cast cache (autocast_mode.cpp's
`cached_cast`, `_cast` below): a float32 leaf tensor that requires grad and is no view (a
Parameter) is cast once, and that copy is what every later op of the process reads, until
torch.clear_autocast_cache() (the outermost autocast's exit) empties the cache."""
from __future__ import annotations

import os
import threading
import warnings
import weakref
from typing import Any

import torch

# ATen's CUDA autocast policy (aten/src/ATen/autocast_mode.h of the installed torch:
# AT_FORALL_LOWER_PRECISION_FP, AT_FORALL_FP32, AT_FORALL_FP32_SET_OPT_DTYPE,
# AT_FORALL_DIFFERENT_REDISPATCH_SIGNATURE, AT_FORALL_PROMOTE, the banned op and the two cudnn
# convolutions registered beside them)
LOWER = ("_convolution.deprecated", "_convolution", "conv1d", "conv2d", "conv3d", "conv_tbc", "conv_transpose1d",
         "conv_transpose2d.input", "conv_transpose3d.input", "convolution", "prelu", "addmm", "addmv", "addr",
         "matmul", "einsum", "mm", "mv", "linalg_vecdot", "linear", "addbmm", "baddbmm", "bmm", "chain_matmul",
         "linalg_multi_dot", "_thnn_fused_lstm_cell", "_thnn_fused_gru_cell", "lstm_cell", "gru_cell",
         "rnn_tanh_cell", "rnn_relu_cell", "_scaled_dot_product_flash_attention", "scaled_dot_product_attention",
         "cudnn_convolution", "cudnn_convolution_transpose", "_cudnn_rnn")
FP32 = ("acos", "asin", "cosh", "erfinv", "exp", "expm1", "log", "log10", "log2", "log1p", "reciprocal", "rsqrt",
        "sinh", "tan", "pow.Tensor_Scalar", "pow.Tensor_Tensor", "pow.Scalar", "softplus", "layer_norm",
        "native_layer_norm", "rms_norm", "group_norm", "frobenius_norm.dim", "nuclear_norm", "nuclear_norm.dim",
        "cosine_similarity", "poisson_nll_loss", "cosine_embedding_loss", "nll_loss", "nll_loss2d",
        "hinge_embedding_loss", "kl_div", "l1_loss", "smooth_l1_loss", "huber_loss", "mse_loss",
        "margin_ranking_loss", "multilabel_margin_loss", "soft_margin_loss", "triplet_margin_loss",
        "multi_margin_loss", "binary_cross_entropy_with_logits", "dist", "pdist", "cdist", "renorm", "logsumexp",
        "upsample_nearest1d", "_upsample_nearest_exact1d", "upsample_nearest2d", "_upsample_nearest_exact2d",
        "upsample_nearest3d", "_upsample_nearest_exact3d", "upsample_linear1d", "upsample_bilinear2d",
        "_upsample_bilinear2d_aa", "upsample_trilinear3d", "upsample_bicubic2d", "_upsample_bicubic2d_aa")
FP32_SET_OPT_DTYPE = ("prod", "prod.dim_int", "softmax.int", "log_softmax.int", "cumprod", "cumsum",
                      "linalg_vector_norm", "linalg_matrix_norm", "linalg_matrix_norm.str_ord", "sum",
                      "sum.dim_IntList")
FP32_APPEND_DTYPE = ("norm.Scalar", "norm.ScalarOpt_dim")
PROMOTE = ("addcdiv", "addcmul", "atan2", "bilinear", "cross", "dot", "vdot", "grid_sampler", "index_put",
           "tensordot", "scatter_add")
BANNED = ("binary_cross_entropy",)
POLICY = {**dict.fromkeys(LOWER, "lower"), **dict.fromkeys(FP32, "fp32"),
          **dict.fromkeys(FP32_SET_OPT_DTYPE, "fp32_set_opt_dtype"),
          **dict.fromkeys(FP32_APPEND_DTYPE, "fp32_append_dtype"), **dict.fromkeys(PROMOTE, "promote"),
          **dict.fromkeys(BANNED, "banned")}

_CUDA_KEY = torch._C.DispatchKey.AutocastCUDA
_CPU_KEY = torch._C.DispatchKey.AutocastCPU
_BCE_BANNED = ("torch.nn.functional.binary_cross_entropy and torch.nn.BCELoss are unsafe to autocast.\n"
               "Many models use a sigmoid layer right before the binary cross entropy layer.\n"
               "In this case, combine the two layers using torch.nn.functional.binary_cross_entropy_with_logits\n"
               "or torch.nn.BCEWithLogitsLoss.  binary_cross_entropy_with_logits and BCEWithLogits are\n"
               "safe to autocast.")
_LIBRARIES: list = []  # the registrations live as long as the child


def _on_device(t: Any) -> bool:
    from evaluator.candidate_env import HOST_TENSORS

    return isinstance(t, torch.Tensor) and t not in HOST_TENSORS


def _cuda_eligible(t: Any) -> bool:
    """is_autocast_eligible(t, CUDA): a floating tensor on the GPU (the stand-in's: not a host one)."""
    return _on_device(t) and t.is_floating_point()


# ATen's cast cache (autocast_mode.cpp: `cached_casts`, one map for the process, not per thread,
# under one mutex): source tensor -> (a weak reference to it, its cast). ATen keys on the source's
# TensorImpl* and holds a weak reference to the TensorImpl, so a dead source's address is never
# handed to another tensor and its entry, cast kept alive, is never hit again. Here the key is the
# Python object (torch keeps one for a TensorImpl as long as the TensorImpl lives), and an entry
# whose source died is moved aside, cast still held, when another tensor takes its id: the cast
# lives until the cache is cleared, as on the GPU, and the source's own memory is not held.
_CACHED_CASTS: dict[int, tuple[Any, torch.Tensor]] = {}
_DEAD_SOURCES: list[torch.Tensor] = []
_CACHE_LOCK = threading.RLock()


def clear_cache() -> None:
    """at::autocast::clear_cache(): every cached cast dropped (torch.clear_autocast_cache, which
    torch.autocast's __exit__ calls where the nesting falls to 0, runs it: on_the_gpus_terms)."""
    with _CACHE_LOCK:
        _CACHED_CASTS.clear()
        _DEAD_SOURCES.clear()


# a CPU candidate child forked from a process that cast (the GPU's child is a fresh process)
os.register_at_fork(after_in_child=clear_cache)


def _can_try_cache(t: torch.Tensor, dtype: torch.dtype) -> bool:
    """cached_cast's `can_try_cache` for an eligible tensor of another dtype: the target is CUDA's
    lower-precision dtype of the moment, the source a float32 leaf that requires grad and is no
    view (a Parameter, under no_grad too), this thread's cache is on (autocast(cache_enabled=)),
    and it is not one of the tensors CUDA graph trees keep (at::caching::is_cached_tensor)."""
    return (dtype is torch.get_autocast_dtype("cuda") and t.dtype is torch.float32 and t.requires_grad
            and t.is_leaf and not t._is_view() and torch.is_autocast_cache_enabled()
            and not torch._C._is_cached_tensor(t))


def _cached_cast(t: torch.Tensor, dtype: torch.dtype) -> torch.Tensor:
    """The cache's answer for a source `_can_try_cache` admits: its cast, made once; a hit
    returns the cast as it was made, whatever dtype is asked now (ATen's key is the source)."""
    with _CACHE_LOCK:
        entry = _CACHED_CASTS.get(id(t))
        if entry is not None:
            if entry[0]() is t:
                return entry[1]
            _DEAD_SOURCES.append(entry[1])  # another tensor's, dead: ATen's entry stays, unreachable
        cast = t.to(dtype)
        _CACHED_CASTS[id(t)] = (weakref.ref(t), cast)
        return cast


def _cast(value: Any, dtype: torch.dtype) -> Any:
    """ATen's cached_cast: an eligible tensor other than float64 of another dtype, `.to(dtype)`
    (through the cast cache where ATen's conditions admit it); lists elementwise; everything else
    as it is."""
    if isinstance(value, torch.Tensor):
        if _cuda_eligible(value) and value.dtype is not torch.float64 and value.dtype is not dtype:
            if _can_try_cache(value, dtype):
                return _cached_cast(value, dtype)
            return value.to(dtype)
        return value
    if isinstance(value, (list, tuple)):
        return type(value)(_cast(v, dtype) for v in value)
    return value


def _tensors(values: Any) -> list:
    out = []
    for v in values:
        if isinstance(v, torch.Tensor):
            out.append(v)
        elif isinstance(v, (list, tuple)):
            out.extend(_tensors(v))
    return out


def _promote_type(values: list, lower: torch.dtype) -> torch.dtype:
    """ATen's promote_type over the arguments in order."""
    current = lower
    for t in _tensors(values):
        if current is torch.float64:
            raise RuntimeError("promote type is double in at::autocast::prioritize")
        if not _cuda_eligible(t) or t.dtype is torch.float64:
            continue
        if current is torch.float32 or t.dtype is torch.float32:
            current = torch.float32
        elif current is lower and t.dtype is lower:
            current = lower
        else:
            raise RuntimeError("Unexpected floating ScalarType in at::autocast::prioritize")
    return current


def _cuda_kernel(op: Any, policy: str) -> Any:
    names = [a.name for a in op._schema.arguments]
    dtype_at = names.index("dtype") if "dtype" in names else None

    def kernel(*args: Any, **kwargs: Any) -> Any:
        with torch._C._ExcludeDispatchKeyGuard(torch._C.DispatchKeySet(_CUDA_KEY)):
            lower = torch.get_autocast_dtype("cuda")
            if policy == "lower" or policy == "fp32":
                to = lower if policy == "lower" else torch.float32
                args, kwargs = _cast(args, to), {k: _cast(v, to) for k, v in kwargs.items()}
            elif policy == "promote":
                to = _promote_type([*args, *kwargs.values()], lower)
                args, kwargs = _cast(args, to), {k: _cast(v, to) for k, v in kwargs.items()}
            elif policy == "banned":
                if any(_on_device(t) for t in _tensors([*args, *kwargs.values()])):
                    raise RuntimeError(_BCE_BANNED)
            elif policy != "none" and args and _cuda_eligible(args[0]):
                # fp32_set_opt_dtype (the output dtype float32 unless given) and fp32_append_dtype
                # (norm run in float32): the input taken to float32 first, which gives the same
                # values and dtype as the GPU's float32 output of a half input, where the CPU's
                # kernels refuse some dtype= conversions ("softmax with half to float")
                given = kwargs.get("dtype") if "dtype" in kwargs else (
                    args[dtype_at] if dtype_at is not None and dtype_at < len(args) else None)
                if policy == "fp32_append_dtype" or given is None:
                    args = (_cast(args[0], torch.float32), *args[1:])
            return op(*args, **kwargs)

    return kernel


def _cpu_kernel(op: Any) -> Any:
    """AutocastCPU in the CPU child: the device's tensors are no CPU tensors on the GPU, so CPU
    autocast leaves them alone; a host tensor it would cast is refused (not run here)."""
    def kernel(*args: Any, **kwargs: Any) -> Any:
        from evaluator.candidate_env import HOST_TENSORS

        if any(t in HOST_TENSORS and t.is_floating_point() and t.dtype is not torch.float64
               for t in _tensors([*args, *kwargs.values()])):
            raise RuntimeError("torch.autocast('cpu') over tensors that live on the host is not run by the CPU "
                               "check as the GPU runs it; leave autocast('cpu') out of a CUDA kernel's forward")
        with torch._C._ExcludeDispatchKeyGuard(torch._C.DispatchKeySet(_CPU_KEY)):
            return op(*args, **kwargs)

    return kernel


def _overload(qualified: str) -> Any:
    name, _, overload = qualified.partition(".")
    return getattr(getattr(torch.ops.aten, name), overload or "default")


def policy(name: str) -> str:
    """CUDA autocast's policy for an op on the GPU image: the table's, where the image's torch
    registers an AutocastCUDA kernel for it (or the image did not record its registrations)."""
    from evaluator.device_answers import IMAGE

    on_gpu = IMAGE.get("autocast", {}).get("registrations")
    if on_gpu is not None and f"aten::{name}" not in on_gpu:
        return "none"
    return POLICY.get(name, "none")


def install() -> None:
    """The kernels, registered once for the child's life, over the C++ ones of the same keys (a
    CPU child has no CUDA tensor those would cast)."""
    cuda_registered = {r.removeprefix("aten::") for r in
                       torch._C._dispatch_get_registrations_for_dispatch_key("AutocastCUDA")}
    cpu_registered = {r.removeprefix("aten::") for r in
                      torch._C._dispatch_get_registrations_for_dispatch_key("AutocastCPU")}
    library = torch.library.Library("aten", "IMPL")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # "Overriding a previously registered kernel"
        for name in sorted(cuda_registered | set(POLICY)):
            # a registration the table lacks is run as CUDA runs what it does not list: uncast
            # (test_candidate_env holds the table to the registrations); so is an op the GPU
            # image's torch does not autocast (its registrations, recorded in evaluator/h200.json:
            # torch 2.11 casts no rms_norm, where this torch's table runs it in float32)
            library.impl(name, _cuda_kernel(_overload(name), policy(name)), "AutocastCUDA")
        for name in sorted(cpu_registered):
            library.impl(name, _cpu_kernel(_overload(name)), "AutocastCPU")
    _LIBRARIES.append(library)
    included()


def included() -> None:
    """This thread's dispatch includes the AutocastCUDA key for every tensor (torch excludes it
    while CUDA autocast is off, so it does nothing until autocast("cuda") turns it on)."""
    if not torch._C._dispatch_tls_is_dispatch_key_included(_CUDA_KEY):
        torch._C._dispatch_tls_set_dispatch_key_included(_CUDA_KEY, True)


def on_the_gpus_terms() -> None:
    """torch.autocast (torch.amp.autocast; torch.cuda.amp.autocast and custom_fwd go through it)
    for "cuda" entered as on a GPU: a CPU build refused it ("CUDA is not available. Disabling
    autocast") by its own availability check, which is all that differs; and custom_fwd's
    `cast_inputs` casting the tensors that are on the GPU there (it asks `value.device.type`,
    which torch's frames get as the CPU's)."""
    from torch.amp import autocast_mode

    from evaluator.candidate_env import HOST_TENSORS

    cls = autocast_mode.autocast
    init, enter = cls.__init__, cls.__enter__

    def __init__(self: Any, device_type: str, dtype: Any = None, enabled: bool = True,
                 cache_enabled: Any = None) -> None:
        if device_type != "cuda":
            init(self, device_type, dtype, enabled, cache_enabled)
            return
        # the GPU's path through __init__: CUDA available, bfloat16 supported (an H200)
        init(self, device_type, dtype, False, cache_enabled)
        self._enabled = enabled

    def __enter__(self: Any) -> Any:
        included()  # in the thread that enters it
        return enter(self)

    cls.__init__ = _wraps(init, __init__)  # type: ignore[method-assign]
    cls.__enter__ = _wraps(enter, __enter__)  # type: ignore[method-assign]
    real_cast = autocast_mode._cast

    def _cast_inputs(value: Any, device_type: str, dtype: torch.dtype) -> Any:
        if isinstance(value, torch.Tensor):
            where = "cpu" if value in HOST_TENSORS else "cuda"
            eligible = value.is_floating_point() and where == device_type and value.dtype is not torch.float64
            return value.to(dtype) if eligible else value
        return real_cast(value, device_type, dtype)  # containers: its items back through this one

    autocast_mode._cast = _wraps(real_cast, _cast_inputs)
    # the cast cache emptied where ATen's is: torch.clear_autocast_cache (autocast's __exit__
    # reads it off torch at each exit; torch._C's name is the same function)
    real_clear = torch._C.clear_autocast_cache

    def clear_autocast_cache() -> None:
        clear_cache()
        real_clear()

    torch.clear_autocast_cache = torch._C.clear_autocast_cache = _wraps(real_clear, clear_autocast_cache)
    install()


def _wraps(real: Any, fn: Any) -> Any:
    import functools

    functools.update_wrapper(fn, real)
    return fn
