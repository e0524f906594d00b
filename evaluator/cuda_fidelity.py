"""CUDA's kernels, as near as the CPU can give them, for the torch ops a CPU candidate child's
code runs on its device tensors (the tensors that stand in for the H200's, evaluator.candidate_env).

Under the interpreter those tensors are CPU tensors, so every torch op the candidate's forward
asks ran ATen's CPU kernel, and where that kernel answers differently from CUDA's the answer
was a switch between a path the CPU check took and one only the GPU runs (red team rt24,
session 47). Four classes of difference, each closed here for device tensors:

  fidelity errors   CUDA raises where the CPU ran: a tensor the GPU holds on the host
                    (candidate_env.HOST_TENSORS) mixed with a device tensor in an op (CUDA's
                    "Expected all tensors to be on the same device"; a 0-dim host tensor is a
                    scalar to TensorIterator's ops, as on CUDA); the BLAS family on dtypes
                    cuBLAS has no kernel for (`"addmm_cuda" not implemented for 'Int'`, from
                    the dispatch macros of ATen/native/cuda/Blas.cpp); ops with a CPU kernel
                    and none for CUDA (native_functions.yaml).
  RNG grain         uniform_, normal_, bernoulli, rand/randn(_like), normal(...),
                    exponential_ and dropout (through bernoulli_) fill device tensors as
                    PyTorch's CUDA kernels do (DistributionTemplates.h): curand's uniform
                    u32 * 2^-32 + 2^-33 in float32 (finer bits below 0.5 than the CPU's
                    multiples of 2^-24), Box-Muller pairs laid out as the grid-stride kernel
                    lays out a Philox draw's four lanes on the H200's grid. The u32s come
                    from the CPU generator: values are not the GPU's (seeds differ anyway),
                    their distribution is.
  TF32              with the candidate's accepted switch on (`allow_tf32`, matmul precision
                    "high"/"medium"; cudnn's for convolutions) float32 matmuls and
                    convolutions on device tensors round their operands to TF32 (10 mantissa
                    bits, to nearest even) and accumulate in float32, as cuBLAS/cuDNN's
                    tensor-core kernels do; the CPU computed them exactly.
  reductions, order cumsum/cumprod in the dtype (CUDA scans in it; the CPU accumulated float32
                    in double, so its answer was exact where CUDA's rounds), var/std by
                    Welford in float32 (CUDA's: a constant vector's variance is exactly 0);
                    topk(sorted=False) in CUDA's gather order (beyond the k-th value, then
                    its ties, each in index order); the order of ties in an unstable sort
                    and argsort, and the index of a tie kthvalue/median give, which the GPU
                    leaves to its algorithm, drawn at random.

Only the candidate's own calls are changed (a function mode sees each torch call; the frames
below it must run the candidate's file), and only those on device tensors: the dispatch mode
that does the work is put at the BOTTOM of the dispatch stack for the call, under the
harness's own modes (the provenance watch, the knock-outs, the CPU meter), which so see the
op the candidate asked, once, and whatever they compute themselves is left alone.
"""
from __future__ import annotations

import math
import os
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import torch
from torch.overrides import TorchFunctionMode
from torch.utils._python_dispatch import TorchDispatchMode

from evaluator import candidate_env
from evaluator.candidate_env import HOST_TENSORS, _ByIdentity

aten = torch.ops.aten

_TORCH_DIR = os.path.dirname(torch.__file__) + os.sep
_EVALUATOR_DIR = os.path.dirname(os.path.abspath(__file__)) + os.sep
_CANDIDATE = f"{os.sep}candidate.py"
# evaluator modules whose frames pass a candidate's call on (the device-name mode, this one)
_PASSING = (f"{os.sep}candidate_env.py", f"{os.sep}cuda_fidelity.py", f"{os.sep}python_image.py")
_FORWARDING = ("__torch_dispatch__", "__torch_function__")

_IN_CALL = [0]  # candidate calls under way with the dispatch mode below (nested calls reuse it)
_MADE_ON_HOST = _ByIdentity()  # results of ops on host tensors alone inside a device call


def cuda_kernels_on_the_host() -> None:
    """In a CPU candidate child (after candidate_env.interpreted_tensors_look_like_cuda): the
    candidate's torch calls on device tensors run as CUDA's kernels would (module doc), for
    the child's whole life."""
    if not candidate_env.STANDING_IN[0]:
        return
    # cuDNN's TF32 as the GPU child sets it (evaluator.child: off until the candidate's
    # accepted switch turns it on); torch's default on a CPU build is on
    torch.backends.cudnn.allow_tf32 = False
    _CandidateCalls().__enter__()


def _from_candidate() -> bool:
    """Whether any frame below runs the candidate's file (no depth limit: a call made through
    many frames of torch's own Python, nn.Sequential in nn.Sequential, is still its call)."""
    frame = sys._getframe(2)
    while frame is not None:
        if frame.f_code.co_filename.endswith(_CANDIDATE):
            return True
        frame = frame.f_back
    return False


def _harness_own() -> bool:
    """Whether the op now dispatched was asked by the harness's own code (a watch's checksum,
    the knock-out's noise) rather than passed on from the candidate's call: the first frame
    outside torch and the passing modules is the harness's, and not a mode forwarding the op."""
    frame = sys._getframe(2)
    while frame is not None:
        name = frame.f_code.co_filename
        if name.startswith(_TORCH_DIR) or name.endswith(_PASSING):
            frame = frame.f_back
            continue
        return name.startswith(_EVALUATOR_DIR) and frame.f_code.co_name not in _FORWARDING
    return False


class _CandidateCalls(TorchFunctionMode):
    """Each torch call of the candidate's code on device tensors (or making one) runs with
    _CudaKernels at the bottom of the dispatch stack."""

    def __torch_function__(self, func: Any, types: Any, args: tuple = (), kwargs: Any = None) -> Any:
        kwargs = kwargs or {}
        # the modes below (candidate_env._CudaNamesTheHost) answer the candidate's own code by
        # the frame that called them: a call the candidate's code made directly goes on from
        # a frame of its file's name, as if this mode were not there
        call = _CALL_AS_CANDIDATE if candidate_env.candidate_frame(1) else _call
        if _IN_CALL[0] or getattr(func, "__name__", "") == "__get__" or not _from_candidate():
            return call(func, args, kwargs)
        given = list(candidate_env._tensors_in((args, kwargs)))
        if given:
            device = any(t not in HOST_TENSORS for t in given)
        else:
            device = not candidate_env._on_the_host(func, args, kwargs, given)
        if not device:
            return call(func, args, kwargs)
        with _beneath(_KERNELS):
            return call(func, args, kwargs)


def _call(func: Any, args: tuple, kwargs: dict) -> Any:
    return func(*args, **kwargs)


_namespace: dict[str, Any] = {}
exec(compile("def call(func, args, kwargs):\n    return func(*args, **kwargs)\n",
             f"<cuda_fidelity>{os.sep}candidate.py", "exec"), _namespace)
_CALL_AS_CANDIDATE = _namespace["call"]


@contextmanager
def _beneath(mode: TorchDispatchMode) -> Iterator[None]:
    """`mode` at the bottom of the dispatch mode stack for the block."""
    push = torch._C._push_on_torch_dispatch_stack

    def pop() -> Any:
        return torch._C._pop_torch_dispatch_stack(None)

    above = [pop() for _ in range(torch._C._len_torch_dispatch_stack())]  # top first
    push(mode)
    for m in reversed(above):
        push(m)
    _IN_CALL[0] += 1
    try:
        yield
    finally:
        _IN_CALL[0] -= 1
        now = [pop() for _ in range(torch._C._len_torch_dispatch_stack())]
        if now and now[-1] is mode:
            now.pop()
        for m in reversed(now):
            push(m)


def _flat(value: Any, depth: int = 0) -> Iterator[torch.Tensor]:
    if isinstance(value, torch.Tensor):
        yield value
    elif isinstance(value, (list, tuple)) and depth < 2:
        for v in value:
            yield from _flat(v, depth + 1)


def _on_host(t: torch.Tensor) -> bool:
    return t in HOST_TENSORS or t in _MADE_ON_HOST


class _CudaKernels(TorchDispatchMode):
    """The aten ops of a candidate's device call (module doc)."""

    def __torch_dispatch__(self, func: Any, types: Any, args: tuple = (), kwargs: Any = None) -> Any:
        kwargs = kwargs or {}
        if _harness_own():
            return func(*args, **kwargs)
        tensors = [t for t in _flat((*args, *kwargs.values())) if t.device.type == "cpu"]
        if len(tensors) != sum(1 for _ in _flat((*args, *kwargs.values()))):
            return func(*args, **kwargs)  # meta tensors (a meter's decomposition): no values
        host = [t for t in tensors if _on_host(t)]
        if host and len(host) == len(tensors):  # the host's own op: the CPU's kernel
            out = func(*args, **kwargs)
            for t in _flat(out if isinstance(out, (list, tuple)) else [out]):
                _MADE_ON_HOST.add(t)
            return out
        if host:
            _same_device(func, args, kwargs, host)
        _cuda_has_a_kernel(func, args)
        handler = _HANDLERS.get(func) or _HANDLERS.get(func.overloadpacket)
        if handler is not None and candidate_env.BUILDING[0] and func.overloadpacket in _RNG_OPS:
            # the model's build draws its parameters as the reference's build does, which on
            # the CPU check is the CPU generator's way (evaluator.model_build seeds both alike)
            handler = None
        if handler is not None:
            out = handler(func, args, kwargs)
            if out is not NotImplemented:
                return out
        return func(*args, **kwargs)


_KERNELS = _CudaKernels()


# -- fidelity errors -------------------------------------------------------------------------

# ops that take tensors on another device by design: copies and moves, storage swaps, and
# advanced indexing's index tensors (CUDA moves them); bernoulli_'s probabilities (moved too)
_CROSS = frozenset({aten.copy_, aten._to_copy, aten._copy_from, aten._copy_from_and_resize, aten.set_,
                    aten.lift_fresh, aten.lift_fresh_copy, aten.is_same_size, aten.is_set_to,
                    aten.broadcast_tensors, aten.resize_as_, aten.alias, aten.detach})
_INDEXED = frozenset({aten.index, aten._unsafe_index, aten.index_put_, aten.index_put,
                      aten._index_put_impl_, aten._unsafe_index_put})
_NO_CHECK: set[str] | None = None  # native_functions.yaml's `device_check: NoCheck` overloads


def _no_device_check(func: Any) -> bool:
    """Whether CUDA's generated wrapper leaves the device check to the op (TensorIterator,
    which takes a 0-dim CPU tensor as a scalar)."""
    global _NO_CHECK
    if _NO_CHECK is None:
        _NO_CHECK = _yaml_names(lambda e: e.get("device_check") == "NoCheck")
    name = func._schema.name.split("::")[-1]
    overload = func._overloadname
    # without the table, every op takes a 0-dim host tensor as a scalar
    return not _NO_CHECK or (name if overload == "default" else f"{name}.{overload}") in _NO_CHECK


def _yaml_names(keep: Any) -> set[str]:
    try:
        import torchgen
        import yaml

        path = os.path.join(os.path.dirname(torchgen.__file__), "packaged", "ATen", "native",
                            "native_functions.yaml")
        with open(path) as f:
            entries = yaml.load(f, Loader=getattr(yaml, "CSafeLoader", yaml.SafeLoader))
    except Exception:  # no table: every op treats a 0-dim host tensor as a scalar
        return set()
    return {e["func"].split("(")[0] for e in entries if keep(e)}


def _same_device(func: Any, args: tuple, kwargs: dict, host: list) -> None:
    """CUDA's device check for an op mixing host tensors with device tensors."""
    packet = func.overloadpacket
    if packet in _CROSS or packet is aten.bernoulli_:
        return
    if packet in _INDEXED:  # the indices may live anywhere; self and values may not
        indices = args[1] if len(args) > 1 else kwargs.get("indices")
        spared = {id(t) for t in _flat(indices)}
        host = [t for t in host if id(t) not in spared]
        if not host:
            return
    if all(t.dim() == 0 for t in host) and _no_device_check(func):
        return
    raise RuntimeError("Expected all tensors to be on the same device, but found at least two devices, "
                       f"cuda:0 and cpu! (when checking argument in method wrapper_CUDA_{packet.__name__})")


_SCALAR_NAMES = {torch.int32: "Int", torch.int64: "Long", torch.int16: "Short", torch.int8: "Char",
                 torch.uint8: "Byte", torch.bool: "Bool", torch.complex32: "ComplexHalf"}
_BLAS_DTYPES = frozenset({torch.float32, torch.float64, torch.float16, torch.bfloat16,
                          torch.complex64, torch.complex128})
# the BLAS ops (ATen/native/cuda/Blas.cpp): the name its dispatch macro reports, and which
# argument's dtype it dispatches on
_BLAS = {aten.mm: ("addmm_cuda", 0), aten.addmm: ("addmm_cuda", 1), aten._addmm_activation: ("addmm_cuda", 1),
         aten.addbmm: ("addmm_cuda", 1), aten.bmm: ("baddbmm_cuda", 0), aten.baddbmm: ("baddbmm_cuda", 1),
         aten.dot: ("dot", 0), aten.vdot: ("dot", 0), aten.mv: ("addmv_impl_cuda", 0),
         aten.addmv: ("addmv_impl_cuda", 1)}
# ops with a CPU kernel and no CUDA one or composite (native_functions.yaml) that a
# candidate's call reaches: CUDA has nothing to run
_CPU_ONLY = frozenset({"histogram.bins_tensor", "histogram.bin_ct", "_histogramdd_bin_edges",
                       "_histogramdd_from_bin_cts", "_histogramdd_from_bin_tensors", "_spdiags",
                       "_upsample_lanczos2d_aa"})


def _empty_blas(func: Any, args: tuple) -> bool:
    """Blas.cpp's early returns that never reach the dispatch macro (empty operands)."""
    packet = func.overloadpacket
    t = [a for a in args if isinstance(a, torch.Tensor)]
    if packet in (aten.mm, aten.addmm, aten._addmm_activation):
        a, b = t[-2], t[-1]
        return a.numel() == 0 or b.numel() == 0
    if packet in (aten.bmm, aten.baddbmm, aten.addbmm):
        a, b = t[-2], t[-1]
        return a.numel() == 0 or b.numel() == 0
    if packet in (aten.mv, aten.addmv):
        return t[-2].numel() == 0
    return False


def _cuda_has_a_kernel(func: Any, args: tuple) -> None:
    packet = func.overloadpacket
    blas = _BLAS.get(packet)
    if blas is not None:
        name, at = blas
        operand = args[at] if len(args) > at else None
        if isinstance(operand, torch.Tensor) and operand.dtype not in _BLAS_DTYPES and not _empty_blas(func, args):
            dtype = _SCALAR_NAMES.get(operand.dtype, str(operand.dtype).replace("torch.", ""))
            raise RuntimeError(f'"{name}" not implemented for \'{dtype}\'')
        return
    name = func._schema.name.split("::")[-1]
    full = name if func._overloadname == "default" else f"{name}.{func._overloadname}"
    if full in _CPU_ONLY or name in _CPU_ONLY:
        raise NotImplementedError(
            f"Could not run '{func._schema.name}' with arguments from the 'CUDA' backend. This could be "
            "because the operator doesn't exist for this backend, or was omitted during the selective/custom "
            f"build process (if using custom build). '{func._schema.name}' is only available for these "
            "backends: [CPU, Meta, BackendSelect, Python, ...].")


# -- RNG grain -------------------------------------------------------------------------------

_BLOCK = 256  # DistributionTemplates.h: block_size_bound
_POW32 = 2.0 ** -32


def _grid_stride(numel: int) -> int:
    """blockDim.x * gridDim.x of PyTorch's grid-stride distribution kernels on the H200
    (calc_execution_policy)."""
    props = candidate_env.H200
    per_sm = int(props.get("max_threads_per_multi_processor", 2048)) // _BLOCK
    blocks = min(int(props.get("multi_processor_count", 132)) * per_sm, max(1, -(-numel // _BLOCK)))
    return _BLOCK * blocks


def _u32(n: int, generator: Any = None) -> torch.Tensor:
    """n uniform 32-bit draws (as int64), from the CPU generator (or the call's own)."""
    return torch.randint(0, 1 << 32, (n,), dtype=torch.int64, generator=_cpu_generator(generator))


def _cpu_generator(generator: Any) -> Any:
    return generator if isinstance(generator, torch.Generator) and generator.device.type == "cpu" else None


def _curand_uniform(u: torch.Tensor) -> torch.Tensor:
    """curand_uniform's float in (0, 1]: float(u) * 2^-32 + 2^-33, in float32."""
    return u.to(torch.float32) * _POW32 + (_POW32 / 2)


def _curand_uniform_double(n: int, generator: Any) -> torch.Tensor:
    """curand_uniform2_double's doubles: a 53-bit z, z * 2^-53 + 2^-54."""
    z = torch.randint(0, 1 << 53, (n,), dtype=torch.int64, generator=_cpu_generator(generator))
    return z.to(torch.float64) * 2.0 ** -53 + 2.0 ** -54


def _uniforms(n: int, dtype: torch.dtype, generator: Any) -> torch.Tensor:
    """The uniform draws uniform_and_transform hands its transform: float32 (accscalar) for
    every dtype but double."""
    if dtype == torch.float64:
        return _curand_uniform_double(n, generator)
    return _curand_uniform(_u32(n, generator))


def _fma32(a: torch.Tensor, b: Any, c: Any) -> torch.Tensor:
    """fmaf(a, b, c) for float32 a (b, c float32 values): one rounding (through double)."""
    return (a.double() * float(b) + float(c)).to(torch.float32)


def _normals(n: int, dtype: torch.dtype, generator: Any) -> torch.Tensor:
    """curand_normal4 (curand_normal2_double for double) draws laid out as the grid-stride
    kernel writes them: each thread's draw covers lanes idx + ii * stride, and each Box-Muller
    pair is two lanes of one draw."""
    stride = _grid_stride(n)
    lanes = 2 if dtype == torch.float64 else 4
    rounds = max(1, -(-n // (lanes * stride)))
    if dtype == torch.float64:
        u = _curand_uniform_double(rounds * stride, generator).view(rounds, 1, stride)
        v = _curand_uniform_double(rounds * stride, generator).view(rounds, 1, stride) * 2.0 - 2.0 ** -53
        s = torch.sqrt(-2.0 * torch.log(u))
        pair = torch.cat([torch.sin(math.pi * v) * s, torch.cos(math.pi * v) * s], dim=1)
        return pair.reshape(-1)[:n]
    x = _u32(rounds * 4 * stride, generator).view(rounds, 2, 2, stride)  # (round, pair, lane, thread)
    u = _curand_uniform(x[:, :, 0])
    c = torch.tensor(_POW32, dtype=torch.float32) * torch.tensor(2 * math.pi, dtype=torch.float32)
    v = _fma32(x[:, :, 1].to(torch.float32), c, c / 2)
    s = torch.sqrt(-2.0 * torch.log(u))
    pair = torch.stack([torch.sin(v) * s, torch.cos(v) * s], dim=2)  # result.x = sin, result.y = cos
    return pair.reshape(-1)[:n]


def _generator_of(args: tuple, kwargs: dict, at: int) -> Any:
    return kwargs.get("generator", args[at] if len(args) > at else None)


def _fill(out: torch.Tensor, values: torch.Tensor) -> torch.Tensor:
    with torch.no_grad():
        out.copy_(values.view(out.shape) if out.is_contiguous() else values.reshape(out.shape))
    return out


def _uniform_into(out: torch.Tensor, low: float, high: float, generator: Any) -> torch.Tensor:
    if not out.is_floating_point() or out.numel() == 0:
        return NotImplemented
    dtype = out.dtype
    if dtype == torch.float64:
        rand = _curand_uniform_double(out.numel(), generator)
        frm, to = float(low), float(high)
        value = rand * (to - frm) + frm
    else:
        rand = _curand_uniform(_u32(out.numel(), generator))
        frm = torch.tensor(low, dtype=dtype)
        to = torch.tensor(high, dtype=dtype)
        span = (to - frm).float()
        value = _fma32(rand, span, frm.float()).to(dtype)
        frm, to = frm.item(), to.item()
    value = torch.where(value == to, torch.tensor(frm, dtype=value.dtype), value)  # (0, 1] to [0, 1)
    return _fill(out, value)


def _normal_into(out: torch.Tensor, mean: float, std: float, generator: Any) -> torch.Tensor:
    if not out.is_floating_point() or out.numel() == 0:
        return NotImplemented
    rand = _normals(out.numel(), out.dtype, generator)
    if out.dtype == torch.float64:
        return _fill(out, rand * float(std) + float(mean))
    return _fill(out, _fma32(rand, float(torch.tensor(std, dtype=torch.float32)),
                             float(torch.tensor(mean, dtype=torch.float32))).to(out.dtype))


def _h_uniform_(func: Any, args: tuple, kwargs: dict) -> Any:
    low = kwargs.get("from", args[1] if len(args) > 1 else 0.0)
    high = kwargs.get("to", args[2] if len(args) > 2 else 1.0)
    return _uniform_into(args[0], low, high, _generator_of(args, kwargs, 3))


def _h_normal_(func: Any, args: tuple, kwargs: dict) -> Any:
    mean = kwargs.get("mean", args[1] if len(args) > 1 else 0.0)
    std = kwargs.get("std", args[2] if len(args) > 2 else 1.0)
    return _normal_into(args[0], mean, std, _generator_of(args, kwargs, 3))


def _factory_generator(func: Any, args: tuple, kwargs: dict) -> Any:
    return kwargs.get("generator", args[1] if func._overloadname.startswith("generator") and len(args) > 1 else None)


def _h_rand(func: Any, args: tuple, kwargs: dict) -> Any:
    out = func(*args, **kwargs)
    r = _uniform_into(out, 0.0, 1.0, _factory_generator(func, args, kwargs))
    return out if r is NotImplemented else r


def _h_randn(func: Any, args: tuple, kwargs: dict) -> Any:
    out = func(*args, **kwargs)
    r = _normal_into(out, 0.0, 1.0, _factory_generator(func, args, kwargs))
    return out if r is NotImplemented else r


def _h_normal(func: Any, args: tuple, kwargs: dict) -> Any:
    """normal(mean, std, ...) in its four forms: draw, then scale and shift as
    DistributionTemplates.h's normal_out_impl does (one op each)."""
    out = func(*args, **kwargs)
    if not out.is_floating_point() or out.numel() == 0:
        return out
    overload = func._overloadname
    mean = kwargs.get("mean", args[0] if args else 0.0)
    std = kwargs.get("std", args[1] if len(args) > 1 else 1.0)
    gen = kwargs.get("generator")
    if overload in ("float_float", "float_float_out"):
        return _normal_into(out, mean, std, gen)
    if overload == "Tensor_float":
        _normal_into(out, 0.0, std, gen)
        return out.add_(mean)
    _normal_into(out, 0.0, 1.0, gen)
    return out.mul_(std).add_(mean)


def _bernoulli_into(out: torch.Tensor, p: Any, generator: Any) -> Any:
    """uniform_and_transform's `rand < p` (a float p) or bernoulli_tensor_cuda_kernel's
    `rand <= p` (a tensor p): the draw in float32, in double for double."""
    if out.numel() == 0 or out.is_complex():
        return NotImplemented
    acc = torch.float64 if out.dtype == torch.float64 else torch.float32
    rand = _uniforms(out.numel(), out.dtype, generator).view(out.shape)
    if isinstance(p, torch.Tensor):
        prob = p.to(torch.float64 if p.dtype == torch.float64 else acc)
        hit = rand.to(prob.dtype) <= prob.expand(out.shape)
    else:
        hit = rand < torch.tensor(float(p), dtype=acc)
    return _fill(out, hit.to(out.dtype))


def _h_bernoulli_(func: Any, args: tuple, kwargs: dict) -> Any:
    p = kwargs.get("p", args[1] if len(args) > 1 else 0.5)
    return _bernoulli_into(args[0], p, _generator_of(args, kwargs, 2))


def _h_bernoulli(func: Any, args: tuple, kwargs: dict) -> Any:
    out = func(*args, **kwargs)
    if func._overloadname == "p":
        p = kwargs.get("p", args[1] if len(args) > 1 else 0.5)
    else:
        p = args[0]
    r = _bernoulli_into(out, p, kwargs.get("generator", args[2] if len(args) > 2 else None))
    return out if r is NotImplemented else r


def _h_exponential_(func: Any, args: tuple, kwargs: dict) -> Any:
    out = args[0]
    if not out.is_floating_point() or out.numel() == 0:
        return NotImplemented
    lambd = float(kwargs.get("lambd", args[1] if len(args) > 1 else 1.0))
    rand = _uniforms(out.numel(), out.dtype, _generator_of(args, kwargs, 2))
    eps = torch.finfo(out.dtype).eps / 2
    log = torch.where(rand >= 1.0 - eps, torch.tensor(-eps, dtype=rand.dtype), torch.log(rand))
    return _fill(out, ((-1.0 / lambd) * log).to(out.dtype))


# -- TF32 ------------------------------------------------------------------------------------

_MATMUL_OPERANDS = {aten.mm: (0, 1), aten.bmm: (0, 1), aten.addmm: (1, 2), aten.baddbmm: (1, 2),
                    aten.addbmm: (1, 2), aten._addmm_activation: (1, 2)}
_CONV_OPERANDS = {aten.convolution: (0, 1), aten._convolution: (0, 1)}


def round_tf32(x: torch.Tensor) -> torch.Tensor:
    """float32 values rounded to TF32's 10 mantissa bits, to nearest even (infinities and
    NaN kept)."""
    bits = x.contiguous().view(torch.int32)
    up = torch.bitwise_and(torch.bitwise_right_shift(bits, 13), 1) + 0xFFF
    rounded = torch.bitwise_and(bits + up, -(1 << 13)).view(torch.float32).view(x.shape)
    return torch.where(torch.isfinite(x), rounded, x)


def _tf32_matmul() -> bool:
    return bool(torch.backends.cuda.matmul.allow_tf32) or torch.get_float32_matmul_precision() != "highest"


def _h_tf32(operands: dict, flag: Any) -> Any:
    def handler(func: Any, args: tuple, kwargs: dict) -> Any:
        at = operands.get(func.overloadpacket, ())
        if not flag() or not all(isinstance(args[i], torch.Tensor) and args[i].dtype == torch.float32
                                 for i in at if i < len(args)):
            return NotImplemented
        return func(*(round_tf32(a) if i in at else a for i, a in enumerate(args)), **kwargs)
    return handler


# -- reductions and scans --------------------------------------------------------------------

_FLOATS = (torch.float32, torch.float16, torch.bfloat16)


def _h_scan(combine: Any) -> Any:
    """cumsum/cumprod of a float32/half/bfloat16 device tensor computed in the dtype, as CUDA's
    scan_dim does (its std::plus<scalar_t> rounds every step): along the last dimension by
    scan_innermost_dim's chunks of 32 (Sklansky within a chunk, the running total added to its
    first element), along any other by scan_outer_dim's running sum, one step at a time."""
    def handler(func: Any, args: tuple, kwargs: dict) -> Any:
        x = args[0]
        dim = kwargs.get("dim", args[1] if len(args) > 1 else 0)
        dtype = kwargs.get("dtype", args[2] if len(args) > 2 else None)
        src = x if dtype is None else x.to(dtype)
        if src.dtype not in _FLOATS or src.dim() == 0 or src.numel() == 0:
            return NotImplemented
        dim = dim % src.dim()
        if src.numel() == src.shape[dim]:
            out = _scan_single(src.reshape(-1), combine).view(src.shape)
        elif dim == src.dim() - 1:
            out = _scan_innermost(src, combine)
        else:
            moved = src.movedim(dim, -1)
            acc = moved[..., 0].clone()
            cols = [acc.clone()]
            for i in range(1, moved.shape[-1]):
                acc = combine(acc, moved[..., i])
                cols.append(acc.clone())
            out = torch.stack(cols, dim=-1).movedim(-1, dim)
        return out.contiguous()
    return handler


_ITEMS = 12  # items per thread of cub's scan tile (an assumption: CCCL's sm90 tuning not read)


def _scan_single(x: torch.Tensor, combine: Any) -> torch.Tensor:
    """A single row's scan as cub's DeviceScan does it (scan_dim hands a 1-D scan to cub):
    each thread's items combined one at a time onto the prefix of the threads before it
    (ThreadScanInclusive), the threads' aggregates scanned in a tree (Kogge-Stone)."""
    n = x.numel()
    groups = -(-n // _ITEMS)
    identity = 0 if combine is torch.add else 1
    buf = torch.cat([x, torch.full((groups * _ITEMS - n,), identity, dtype=x.dtype)]).view(groups, _ITEMS)
    agg = buf[:, 0].clone()
    for i in range(1, _ITEMS):
        agg = combine(agg, buf[:, i])
    scan, step = agg.clone(), 1
    while step < groups:
        nxt = scan.clone()
        nxt[step:] = combine(scan[step:], scan[:-step])
        scan, step = nxt, step * 2
    out = torch.empty_like(buf)
    acc = buf[:, 0].clone()
    acc[1:] = combine(scan[:-1], buf[1:, 0])
    out[:, 0] = acc
    for i in range(1, _ITEMS):
        acc = combine(acc, buf[:, i])
        out[:, i] = acc
    return out.reshape(-1)[:n]


def _scan_innermost(x: torch.Tensor, combine: Any) -> torch.Tensor:
    rows, n = x.numel() // x.shape[-1], x.shape[-1]
    flat = x.reshape(rows, n)
    width = 32
    chunks = -(-n // width)
    identity = 0 if combine is torch.add else 1
    pad = torch.full((rows, chunks * width - n), identity, dtype=x.dtype)
    buf = torch.cat([flat, pad], dim=1).view(rows, chunks, width)
    out = torch.empty_like(buf)
    total = None
    for c in range(chunks):
        b = buf[:, c].clone()
        if total is not None:
            b[:, 0] = combine(b[:, 0], total)
        s = 1
        while s <= width // 2:
            idx = torch.arange(width // 2)
            a = (idx // s) * (2 * s) + s
            ti, si = a + idx % s, a - 1
            b[:, ti] = combine(b[:, ti], b[:, si])
            s <<= 1
        out[:, c] = b
        total = b[:, -1].clone()
    return out.view(rows, chunks * width)[:, :n].reshape(x.shape)


def _welford(x: torch.Tensor, dims: list[int]) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor]:
    """(mean, m2, count) over `dims` by Welford in float32: lanes of a strided split, each
    updated one value at a time, then combined pairwise (Chan's formula), as CUDA's
    WelfordOps reduce does."""
    moved = x.movedim(dims, list(range(-len(dims), 0))) if dims else x.unsqueeze(-1)
    flat = moved.reshape(*moved.shape[:moved.dim() - len(dims)] if dims else moved.shape[:-1], -1).float()
    n = flat.shape[-1]
    lanes = min(n, max(32, -(-n // 64)))
    per = -(-n // lanes)
    pad = per * lanes - n
    vals = torch.cat([flat, torch.zeros(*flat.shape[:-1], pad)], dim=-1).view(*flat.shape[:-1], per, lanes)
    valid = (torch.arange(per * lanes) < n).view(per, lanes)
    mean = torch.zeros(*flat.shape[:-1], lanes)
    m2 = torch.zeros_like(mean)
    cnt = torch.zeros(lanes)
    for i in range(per):
        v, ok = vals[..., i, :], valid[i]
        c = cnt + ok.float()
        delta = v - mean
        new_mean = mean + torch.where(ok, delta / torch.clamp(c, min=1.0), torch.zeros(()))
        m2 = m2 + torch.where(ok, delta * (v - new_mean), torch.zeros(()))
        mean, cnt = new_mean, c
    while mean.shape[-1] > 1:
        if mean.shape[-1] % 2:
            mean = torch.cat([mean, torch.zeros_like(mean[..., :1])], -1)
            m2 = torch.cat([m2, torch.zeros_like(m2[..., :1])], -1)
            cnt = torch.cat([cnt, torch.zeros(1)])
        ma, mb, qa, qb, na, nb = mean[..., 0::2], mean[..., 1::2], m2[..., 0::2], m2[..., 1::2], cnt[0::2], cnt[1::2]
        nab = na + nb
        frac = torch.where(nab > 0, nb / torch.clamp(nab, min=1.0), torch.zeros(()))
        delta = mb - ma
        mean = ma + delta * frac
        m2 = qa + qb + delta * delta * na * frac
        cnt = nab
    return mean[..., 0], m2[..., 0], cnt[0]


def _reduced_dims(x: torch.Tensor, dim: Any) -> list[int]:
    if dim is None or (isinstance(dim, (list, tuple)) and len(dim) == 0):
        return list(range(x.dim()))
    dims = [dim] if isinstance(dim, int) else list(dim)
    return sorted({d % max(x.dim(), 1) for d in dims})


def _h_var(std: bool, with_mean: bool) -> Any:
    """var/std/var_mean/std_mean of a float32/half/bfloat16 device tensor by Welford in float32
    (`_welford`), the correction and keepdim as asked."""
    def handler(func: Any, args: tuple, kwargs: dict) -> Any:
        x = args[0]
        if x.dtype not in _FLOATS or x.numel() == 0 or x.dim() == 0:
            return NotImplemented
        overload = func._overloadname
        dim = kwargs.get("dim", args[1] if len(args) > 1 else None)
        if overload.startswith("correction"):
            correction = kwargs.get("correction", args[2] if len(args) > 2 else None)
            correction = 1.0 if correction is None else float(correction)
            keepdim = kwargs.get("keepdim", args[3] if len(args) > 3 else False)
        elif overload in ("dim",):
            correction = 1.0 if kwargs.get("unbiased", args[2] if len(args) > 2 else True) else 0.0
            keepdim = kwargs.get("keepdim", args[3] if len(args) > 3 else False)
        elif overload == "default":
            dim = None
            correction = 1.0 if kwargs.get("unbiased", args[1] if len(args) > 1 else True) else 0.0
            keepdim = False
        else:
            return NotImplemented
        dims = _reduced_dims(x, dim)
        mean, m2, n = _welford(x, dims)
        var = m2 / torch.clamp(n - correction, min=0.0)
        var = torch.where(n - correction > 0, var, torch.full_like(var, float("nan")))
        value = torch.sqrt(var) if std else var
        if keepdim:
            for d in dims:
                value, mean = value.unsqueeze(d), mean.unsqueeze(d)
        value, mean = value.to(x.dtype), mean.to(x.dtype)
        return (value, mean) if with_mean else value
    return handler


# -- order -----------------------------------------------------------------------------------

def _h_topk(func: Any, args: tuple, kwargs: dict) -> Any:
    """topk(sorted=False) as CUDA's gatherTopK writes it: the values beyond the k-th in index
    order, then as many of the k-th value's ties as fit, in index order (NaN the largest)."""
    x = args[0]
    k = kwargs.get("k", args[1] if len(args) > 1 else None)
    dim = kwargs.get("dim", args[2] if len(args) > 2 else -1)
    largest = kwargs.get("largest", args[3] if len(args) > 3 else True)
    is_sorted = kwargs.get("sorted", args[4] if len(args) > 4 else True)
    if is_sorted or x.dim() == 0 or x.is_complex() or x.dtype == torch.bool or not isinstance(k, int) or k == 0:
        return NotImplemented
    values, _ = func(x, k, dim, largest, True)
    moved = x.movedim(dim, -1)
    kth = values.movedim(dim, -1)[..., k - 1:k]
    beyond = moved > kth if largest else moved < kth
    tie = moved == kth
    if moved.is_floating_point():  # NaN is the largest value, and a NaN k-th value ties NaNs
        nan, kth_nan = torch.isnan(moved), torch.isnan(kth)
        beyond = (beyond | nan) & ~kth_nan if largest else beyond | (~nan & kth_nan)
        tie = tie | (nan & kth_nan)
    room = k - beyond.sum(-1, keepdim=True)
    take = beyond | (tie & (torch.cumsum(tie.to(torch.int64), -1) <= room))
    order = torch.sort((~take).to(torch.uint8), dim=-1, stable=True).indices[..., :k]
    return torch.gather(moved, -1, order).movedim(-1, dim), order.movedim(-1, dim)


def _shuffled(x: torch.Tensor, dim: int) -> tuple[torch.Tensor, torch.Tensor]:
    """x with a random permutation along `dim` (the same for every slice), and the permutation."""
    perm = torch.randperm(x.shape[dim]) if x.dim() else torch.zeros(1, dtype=torch.int64)
    return x.index_select(dim, perm), perm


def _h_sort(func: Any, args: tuple, kwargs: dict) -> Any:
    """sort with stable unset or False: ties in an order drawn at random (CUDA's bitonic and
    segmented sorts leave it to the algorithm), values and their sorted order unchanged."""
    x = args[0]
    if func._overloadname == "stable":
        if kwargs.get("stable", args[1] if len(args) > 1 else None):
            return NotImplemented
        dim = kwargs.get("dim", args[2] if len(args) > 2 else -1)
        descending = kwargs.get("descending", args[3] if len(args) > 3 else False)
    elif func._overloadname == "default":
        dim = kwargs.get("dim", args[1] if len(args) > 1 else -1)
        descending = kwargs.get("descending", args[2] if len(args) > 2 else False)
    else:
        return NotImplemented
    if x.dim() == 0 or x.numel() == 0:
        return NotImplemented
    dim = dim % x.dim()
    shuffled, perm = _shuffled(x, dim)
    values, idx = torch.sort(shuffled, dim=dim, descending=descending, stable=True)
    return values, perm[idx]


def _h_value_index(func: Any, args: tuple, kwargs: dict) -> Any:
    """kthvalue, median(dim), mode: the index of a tie drawn at random (value unchanged)."""
    x = args[0]
    if x.dim() == 0 or x.numel() == 0 or isinstance(x, torch.Tensor) and x.is_complex():
        return NotImplemented
    names = [a.name for a in func._schema.arguments]
    dim = kwargs.get("dim", args[names.index("dim")] if "dim" in names and len(args) > names.index("dim") else -1)
    dim = dim % x.dim()
    shuffled, perm = _shuffled(x, dim)
    values, idx = func(shuffled, *args[1:], **kwargs)
    return values, perm[idx]


_RNG_OPS = frozenset({aten.uniform_, aten.normal_, aten.rand, aten.rand_like, aten.randn, aten.randn_like,
                      aten.normal, aten.bernoulli_, aten.bernoulli, aten.exponential_})
_HANDLERS: dict[Any, Any] = {
    aten.uniform_.default: _h_uniform_, aten.normal_.default: _h_normal_,
    aten.rand: _h_rand, aten.rand_like: _h_rand, aten.randn: _h_randn, aten.randn_like: _h_randn,
    aten.normal.Tensor_float: _h_normal, aten.normal.float_Tensor: _h_normal,
    aten.normal.Tensor_Tensor: _h_normal, aten.normal.float_float: _h_normal,
    aten.bernoulli_.float: _h_bernoulli_, aten.bernoulli_.Tensor: _h_bernoulli_,
    aten.bernoulli.default: _h_bernoulli, aten.bernoulli.p: _h_bernoulli,
    aten.exponential_.default: _h_exponential_,
    **{op: _h_tf32(_MATMUL_OPERANDS, _tf32_matmul) for op in _MATMUL_OPERANDS},
    **{op: _h_tf32(_CONV_OPERANDS, lambda: bool(torch.backends.cudnn.allow_tf32)) for op in _CONV_OPERANDS},
    aten.cumsum.default: _h_scan(torch.add), aten.cumprod.default: _h_scan(torch.mul),
    aten.var.correction: _h_var(False, False), aten.var.dim: _h_var(False, False), aten.var.default: _h_var(False, False),
    aten.std.correction: _h_var(True, False), aten.std.dim: _h_var(True, False), aten.std.default: _h_var(True, False),
    aten.var_mean.correction: _h_var(False, True), aten.var_mean.dim: _h_var(False, True),
    aten.var_mean.default: _h_var(False, True),
    aten.std_mean.correction: _h_var(True, True), aten.std_mean.dim: _h_var(True, True),
    aten.std_mean.default: _h_var(True, True),
    aten.topk.default: _h_topk,
    aten.sort.default: _h_sort, aten.sort.stable: _h_sort,
    aten.kthvalue.default: _h_value_index, aten.median.dim: _h_value_index, aten.mode.default: _h_value_index,
}
