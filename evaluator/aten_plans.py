"""How the CPU work meter (evaluator.cpu_work) costs an aten op: an `OpPlan` per op,
built once from its schema and tags. Which arguments it reads (not `out=` arguments, not
the `self` a factory takes only dtype and device from); and, for the work, torch's flop
formula where there is one, else whether the op is linear in its data (tags, `_LINEAR_OPS`,
prims), a pool over a window, an op with a decomposition to cost by its parts (for every
fused attention kernel attention_chains', which prices a causal call over its mask's triangle;
else torch._decomp's), or one to
bound (cpu_work.WorkCounter._work applies the plan)."""
from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from functools import partial

import torch
from torch._decomp import decomposition_table
from torch.utils.flop_counter import baddbmm_flop, conv_flop_count, flop_registry, sdpa_flop

from evaluator.attention_chains import chain_of

# Allocation and metadata ops: no device work (views are recognised by their schema).
_FREE_OPS = frozenset({"empty", "empty_like", "empty_strided", "empty_permuted", "new_empty",
                       "new_empty_strided",
                       "_unsafe_view", "set_", "resize_", "lift_fresh", "detach_"})
# Factories that take only dtype, device (and for *_like the shape) from `self`: a small
# x.new_zeros(k) beside a big x was charged x's bytes (an honest two-stage reduction lost a
# third of its coverage to a 64-element buffer).
_SHAPE_ONLY_SELF = frozenset({"new_zeros", "new_ones", "new_full", "new_empty", "new_empty_strided",
                              "zeros_like", "ones_like", "full_like", "empty_like", "rand_like",
                              "randn_like", "randint_like"})
# In-place ops that overwrite their `self` without reading it.
_WRITE_ONLY_SELF = frozenset({"copy_", "fill_", "zero_"})
_FLOP_FORMULAS = {**flop_registry, torch.ops.aten._scaled_dot_product_flash_attention_for_cpu:
                  sdpa_flop, torch.ops.aten.addbmm: baddbmm_flop}


def _conv_flops(x=None, w=None, *_args, out_val=None, transposed: bool = False, **_kwargs) -> int | None:
    """A convolution kernel torch has no formula for (mkldnn_convolution, slow_conv3d_forward,
    the depthwise ones...): torch's own count for its (N, C, spatial...) layout, None where
    the arguments are not that. Bounded as a product of three sizes, mkldnn_convolution was
    charged a fifth of its work (red team B, session 22)."""
    if not all(isinstance(t, torch.Tensor) for t in (x, w, out_val)) or not 3 <= w.dim() == x.dim() == out_val.dim():
        return None
    return conv_flop_count(list(x.shape), list(w.shape), list(out_val.shape), transposed=transposed)


def _conv_tbc_flops(x=None, w=None, *_args, out_val=None, **_kwargs) -> int | None:
    """conv_tbc: input (time, batch, C_in), weight (taps, C_in, C_out)."""
    if not all(isinstance(t, torch.Tensor) and t.dim() == 3 for t in (x, w, out_val)):
        return None
    return 2 * out_val.shape[0] * out_val.shape[1] * w.shape[0] * w.shape[1] * w.shape[2]


def _fft_flops(x=None, dim=(), *_args, out_val=None, **_kwargs) -> int | None:
    """An FFT over `dim`: 5 n log2(L) real flops for n complex elements and transforms of
    length L (the usual count; charged as linear in its data it cost a convolution by FFT
    less than its work)."""
    if not (isinstance(x, torch.Tensor) and isinstance(out_val, torch.Tensor)):
        return None
    longer = x if x.numel() >= out_val.numel() else out_val
    dims = [dim] if isinstance(dim, int) else list(dim)
    length = math.prod(max(x.shape[d], out_val.shape[d]) for d in dims) if dims else longer.numel()
    return int(5 * longer.numel() * max(1.0, math.log2(max(length, 2))))


def _extra_formula(name: str) -> Callable | None:
    if name in ("_fft_r2c", "_fft_c2r", "_fft_c2c"):
        return _fft_flops
    if name == "conv_tbc":
        return _conv_tbc_flops
    if "conv" in name and not name.endswith("backward"):
        return partial(_conv_flops, transposed="transpose" in name)
    return None


# Ops without a tag saying so whose work is linear in their data (n log n for sorting); and
# torch's prims, the parts decompositions reach, all but prims.svd.
_LINEAR_OPS = frozenset({
    "copy", "copy_", "_to_copy", "fill", "fill_", "zero_", "full", "full_like", "zeros",
    "zeros_like", "ones", "ones_like", "arange", "cumsum", "cumprod", "logcumsumexp", "cummax",
    "cummin", "sort", "topk", "kthvalue", "median", "nanmedian", "mode", "searchsorted", "histc", "bincount", "_unique2", "unique_dim", "unique_consecutive", "gather", "scatter",
    "scatter_add", "scatter_reduce", "index", "_unsafe_index", "index_put", "index_put_",
    "_index_put_impl_", "_unsafe_index_put", "masked_select", "masked_scatter", "nonzero",
    "scalar_tensor", "_local_scalar_dense",
    "_adaptive_avg_pool2d", "_adaptive_avg_pool3d", "adaptive_max_pool2d", "adaptive_max_pool3d"})
# Ops that gather a row of `weight` (args[0]) per index (args[1]) and reduce them per bag: their
# work is indices x row width, which a weighted bag of every input column makes a GEMM (red
# team, session 18: `_embedding_bag` charged as linear in its data passed x @ W.T for 3 us of
# work where torch.mm is charged 16).
_GATHER_OPS = frozenset({"_embedding_bag", "_embedding_bag_forward_only", "embedding_bag"})
_LINEAR_TAGS = (torch.Tag.pointwise, torch.Tag.reduction, torch.Tag.nondeterministic_seeded,
                torch.Tag.view_copy)


@dataclass(frozen=True)
class OpPlan:
    """How an aten op's work is read off its arguments; built once per op."""

    label: str
    reads: tuple[tuple[int, str], ...]  # (position, name) of the arguments it reads
    formula: Callable | None  # torch's flop formula, for the matrix-product ops
    tf32_flag: str  # which of torch's TF32 switches governs its fp32 operands
    kind: str  # without a formula: "linear", "gather", "window" (pools), "decompose" or "bound"
    decomposition: Callable | None
    # no kernel of its own (CompositeImplicitAutograd): eager PyTorch runs it as its decomposition
    composite: bool = False


_PLANS: dict[object, OpPlan | None] = {}


def plan_of(func) -> OpPlan | None:
    """The op's plan, or None for views, allocation and metadata ops (no device work)."""
    if func in _PLANS:
        return _PLANS[func]
    name = func.overloadpacket.__name__
    plan = None
    if not (func.is_view or name in _FREE_OPS or torch.Tag.inplace_view in func.tags):
        def read(arg) -> bool:  # `out=` arguments and overwritten `self`s are only written
            if arg.name == "self" and name in _SHAPE_ONLY_SELF:
                return False
            written = arg.alias_info is not None and arg.alias_info.is_write
            return not (written and (arg.kwarg_only or name in _WRITE_ONLY_SELF))

        packet = func.overloadpacket
        tags = {tag for overload in packet.overloads() for tag in getattr(packet, overload).tags}
        arguments = func._schema.arguments
        composite = torch._C._dispatch_has_kernel_for_dispatch_key(func.name(), "CompositeImplicitAutograd")
        decomposition = (chain_of(func) or decomposition_table.get(func)  # the SDPA kernels first
                         or (func.decompose if composite else None))
        if name in _GATHER_OPS:
            kind = "gather"
        elif (name in _LINEAR_OPS or tags.intersection(_LINEAR_TAGS)
                or (func.namespace == "prims" and name != "svd")):
            kind = "linear"
        elif "pool" in name and len(arguments) > 1 and arguments[1].name == "kernel_size":
            kind = "window"
        else:
            kind = "bound" if decomposition is None else "decompose"
        formula = _FLOP_FORMULAS.get(packet) or (None if decomposition else _extra_formula(name))
        plan = OpPlan(f"aten::{name}", tuple((i, a.name) for i, a in enumerate(arguments) if read(a)),
                       formula, "fft" if "fft" in name else "conv" if "conv" in name else "matmul", kind,
                       decomposition, composite)
    _PLANS[func] = plan
    return plan


def operands(plan: OpPlan, args: tuple, kwargs: dict, out) -> list[torch.Tensor]:
    """The distinct tensors the op reads, then the ones it returned."""
    reads = {}
    for i, name in plan.reads:
        reads.update((id(t), t) for t in tensors_in(args[i] if i < len(args) else kwargs.get(name)))
    return [*reads.values(), *tensors_in(out)]


def as_meta(value):
    """`value` with its tensors replaced by meta tensors of the same shape, strides and dtype."""
    if isinstance(value, torch.Tensor):
        return torch.empty_strided(value.shape, value.stride(), dtype=value.dtype, device="meta")
    if isinstance(value, (list, tuple)):
        return type(value)(as_meta(v) for v in value)
    if isinstance(value, dict):
        return {k: as_meta(v) for k, v in value.items()}
    return value


def signature(value):
    """A hashable stand-in for an op's arguments: tensors by shape, strides and dtype."""
    if isinstance(value, torch.Tensor):
        return ("tensor", tuple(value.shape), value.stride(), value.dtype)
    if isinstance(value, (list, tuple)):
        return tuple(signature(v) for v in value)
    if isinstance(value, dict):
        return tuple((k, signature(v)) for k, v in value.items())
    return value if isinstance(value, (int, float, bool, str, type(None))) else repr(value)


def tensors_in(value) -> list[torch.Tensor]:
    if isinstance(value, torch.Tensor):
        return [value]
    if isinstance(value, (list, tuple)):
        return [v for v in value if isinstance(v, torch.Tensor)]
    return []
