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
  RNG               uniform_, normal_, bernoulli, rand/randn(_like), normal(...),
                    exponential_ and dropout (through bernoulli_) fill device tensors as
                    PyTorch's CUDA kernels do (DistributionTemplates.h): Philox4x32-10 from
                    a stand-in for CUDA's default generator (cuda_values.CudaGenerator: its
                    seed and offset, which torch's and torch.cuda's seeds set), each
                    thread's draws laid out on the H200's grid as the grid-stride kernel
                    lays them out, curand's uniform u32 * 2^-32 + 2^-33 in float32 (finer
                    bits below 0.5 than the CPU's multiples of 2^-24) and Box-Muller pairs.
                    A seeded draw gives the GPU's values, and no device draw touches the
                    CPU generator's stream (red team rt48); one with no model of its values
                    (randint, randperm, ...) draws on the CPU from a generator seeded from
                    the stand-in's state. The model's build draws so in both children
                    (reference_draws_as_cuda), as both builds draw on the GPU.
  TF32              with the candidate's accepted switch on (`allow_tf32`, matmul precision
                    "high"/"medium"; cudnn's for convolutions) float32 matmuls and
                    convolutions on device tensors round their operands to TF32 (10 mantissa
                    bits, to nearest even) and accumulate in float32, as cuBLAS/cuDNN's
                    tensor-core kernels do; the CPU computed them exactly.
  reductions, order cumsum/cumprod in the dtype (CUDA scans in it; the CPU accumulated float32
                    in double, so its answer was exact where CUDA's rounds) and in CUDA's
                    order (the inner scan's chunk width from the tensor's shape), var/std by
                    Welford in float32 (CUDA's: a constant vector's variance is exactly 0);
                    topk(sorted=False) in CUDA's gather order (beyond the k-th value, then
                    its ties, each in index order); the order of ties in an unstable sort
                    and argsort, and the index of a tie kthvalue/median give, which the GPU
                    leaves to its algorithm, drawn at random.

Only the candidate's own calls are changed (a function mode sees each torch call; the frames
below it must run the candidate's file), and only those on device tensors: the dispatch mode
that does the work is put at the BOTTOM of the dispatch stack for the call, under the
harness's own modes (the provenance watch, the knock-outs, the CPU meter), which so see the
op the candidate asked, once, and whatever they compute themselves is left alone. The errors
and TF32 are here; the values of the RNG handlers are evaluator.cuda_values', of the reduction and order
handlers evaluator.cuda_orders'.
"""
from __future__ import annotations

import os
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import torch
from torch.overrides import TorchFunctionMode
from torch.utils._python_dispatch import TorchDispatchMode

from evaluator import candidate_env, cuda_orders, cuda_values
from evaluator.candidate_env import HOST_TENSORS, _ByIdentity
from evaluator.precision import round_tf32  # the reference's RoundedTF32 rounds as these calls do

aten = torch.ops.aten

_TORCH_DIR = os.path.dirname(torch.__file__) + os.sep
_EVALUATOR_DIR = os.path.dirname(os.path.abspath(__file__)) + os.sep
_CANDIDATE = f"{os.sep}candidate.py"
# evaluator modules whose frames pass a candidate's call on (the device-name mode, this one)
_PASSING = (f"{os.sep}candidate_env.py", f"{os.sep}cuda_fidelity.py", f"{os.sep}cuda_values.py",
            f"{os.sep}cuda_orders.py", f"{os.sep}python_image.py")
_FORWARDING = ("__torch_dispatch__", "__torch_function__")

_IN_CALL = [0]  # candidate calls under way with the dispatch mode below (nested calls reuse it)
_MADE_ON_HOST = _ByIdentity()  # results of ops on host tensors alone inside a device call


def cuda_kernels_on_the_host() -> None:
    """In a CPU candidate child (after candidate_env.interpreted_tensors_look_like_cuda): the
    candidate's torch calls on device tensors run as CUDA's kernels would (module doc), for
    the child's whole life."""
    if not candidate_env.STANDING_IN[0]:
        return
    cuda_generator_on_the_host()
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
        seeded = _seeded(func)
        if seeded:
            _no_host_generator(args, kwargs)
        handler = _HANDLERS.get(func) or _HANDLERS.get(func.overloadpacket)
        if handler is not None:
            out = handler(func, args, kwargs)
            if out is not NotImplemented:
                return out
        if seeded:
            return _drawn_off_the_host(func, args, kwargs, handler is None)
        return func(*args, **kwargs)


_KERNELS = _CudaKernels()


class _ReferenceDraws(TorchDispatchMode):
    """The reference Model's build in a CPU reference child: every random draw as CUDA's
    kernels make it (cuda_values), as the problem's build under `torch.device("cuda")` draws on
    the GPU. The candidate's build draws the same way, through _CudaKernels (a draw it names
    the host for keeps the CPU generator's, as on the GPU), so an honest ModelNew built alike
    holds the reference's very parameters; a build that drew with the CPU's grain on both
    sides left the grain of every parameter (and of a draw in __init__) a switch between the
    CPU check and the GPU (open item of session 47)."""

    def __torch_dispatch__(self, func: Any, types: Any, args: tuple = (), kwargs: Any = None) -> Any:
        kwargs = kwargs or {}
        if not _seeded(func) or _a_generator(args, kwargs) or not all(
                t.device.type == "cpu" for t in _flat((*args, *kwargs.values()))):
            # (a CPU generator of the problem's own: on the GPU the device build refuses it and
            # the host build draws from it, as here)
            return func(*args, **kwargs)
        handler = _HANDLERS.get(func) or _HANDLERS.get(func.overloadpacket)
        if handler is not None:
            out = handler(func, args, kwargs)
            if out is not NotImplemented:
                return out
        return _drawn_off_the_host(func, args, kwargs, handler is None)


def reference_draws_as_cuda() -> TorchDispatchMode:
    """The block's random draws as the GPU's build makes them (_ReferenceDraws): for the
    reference child's build of the problem's Model on the CPU check."""
    cuda_generator_on_the_host()
    return _ReferenceDraws()


def cuda_generator_on_the_host() -> None:
    """In a CPU child (either role): the device draws come from a stand-in for CUDA's default
    generator (Philox4x32-10 at its seed and offset, cuda_values.DEFAULT), which torch's seeds
    seed as they seed CUDA's on the GPU, and never from the CPU's (cuda_values.
    cuda_generator_on_the_host)."""
    cuda_values.cuda_generator_on_the_host()


def _drawn_off_the_host(func: Any, args: tuple, kwargs: dict, unmodelled: bool) -> Any:
    """A device draw the handlers leave to the CPU's kernel, the host's stream kept: one with no
    model draws from a CPU generator seeded from CUDA's stand-in (advancing it); one a handler
    passed on (nothing to draw: an empty tensor, a dtype CUDA refuses) draws nothing from it."""
    with cuda_values.host_stream_from(None) if unmodelled else cuda_values.host_stream_kept():
        return func(*args, **kwargs)


def _seeded(func: Any) -> bool:
    """Whether the op draws from a generator (ATen's nondeterministic_seeded tag)."""
    return torch.Tag.nondeterministic_seeded in getattr(func, "tags", ())


def _a_generator(args: tuple, kwargs: dict) -> bool:
    return any(isinstance(a, torch.Generator) for a in (*args, *kwargs.values()))


def _no_host_generator(args: tuple, kwargs: dict) -> None:
    """CUDA's check_generator: a device draw given a CPU generator is refused."""
    for a in (*args, *kwargs.values()):
        if isinstance(a, torch.Generator):
            cuda_values.generator_for(a)


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


# -- TF32 ------------------------------------------------------------------------------------

_MATMUL_OPERANDS = {aten.mm: (0, 1), aten.bmm: (0, 1), aten.addmm: (1, 2), aten.baddbmm: (1, 2),
                    aten.addbmm: (1, 2), aten._addmm_activation: (1, 2)}
_CONV_OPERANDS = {aten.convolution: (0, 1), aten._convolution: (0, 1)}


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


_HANDLERS: dict[Any, Any] = {
    aten.uniform_.default: cuda_values.h_uniform_, aten.normal_.default: cuda_values.h_normal_,
    aten.rand: cuda_values.h_rand, aten.rand_like: cuda_values.h_rand, aten.randn: cuda_values.h_randn, aten.randn_like: cuda_values.h_randn,
    aten.normal.Tensor_float: cuda_values.h_normal, aten.normal.float_Tensor: cuda_values.h_normal,
    aten.normal.Tensor_Tensor: cuda_values.h_normal, aten.normal.float_float: cuda_values.h_normal,
    aten.bernoulli_.float: cuda_values.h_bernoulli_, aten.bernoulli_.Tensor: cuda_values.h_bernoulli_,
    aten.bernoulli.default: cuda_values.h_bernoulli, aten.bernoulli.p: cuda_values.h_bernoulli,
    aten.exponential_.default: cuda_values.h_exponential_,
    **{op: _h_tf32(_MATMUL_OPERANDS, _tf32_matmul) for op in _MATMUL_OPERANDS},
    **{op: _h_tf32(_CONV_OPERANDS, lambda: bool(torch.backends.cudnn.allow_tf32)) for op in _CONV_OPERANDS},
    aten.cumsum.default: cuda_orders.h_scan(torch.add), aten.cumprod.default: cuda_orders.h_scan(torch.mul),
    aten.var.correction: cuda_orders.h_var(False, False), aten.var.dim: cuda_orders.h_var(False, False), aten.var.default: cuda_orders.h_var(False, False),
    aten.std.correction: cuda_orders.h_var(True, False), aten.std.dim: cuda_orders.h_var(True, False), aten.std.default: cuda_orders.h_var(True, False),
    aten.var_mean.correction: cuda_orders.h_var(False, True), aten.var_mean.dim: cuda_orders.h_var(False, True),
    aten.var_mean.default: cuda_orders.h_var(False, True),
    aten.std_mean.correction: cuda_orders.h_var(True, True), aten.std_mean.dim: cuda_orders.h_var(True, True),
    aten.std_mean.default: cuda_orders.h_var(True, True),
    aten.topk.default: cuda_orders.h_topk,
    aten.sort.default: cuda_orders.h_sort, aten.sort.stable: cuda_orders.h_sort,
    aten.kthvalue.default: cuda_orders.h_value_index, aten.median.dim: cuda_orders.h_value_index, aten.mode.default: cuda_orders.h_value_index,
}
