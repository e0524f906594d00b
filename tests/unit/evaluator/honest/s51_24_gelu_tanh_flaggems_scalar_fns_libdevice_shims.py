# honest: FlagGems' gelu (src/flag_gems/ops/gelu.py): the scalar @triton.jit functions kept verbatim (gelu_none/gelu_tanh and both backward ones, `scale: tl.constexpr = 0.7071067811` annotated constexpr locals, pow(x_fp32, 2)) over module-level shims `erf = ...erf`, `exp = ...exp`, `pow = ...pow` (shadowing the builtin), `tanh = ...tanh` (tl_extra_shim, here libdevice); @pointwise_dynamic's code generation replaced by the flat kernel it generates (in0/out0, num_tasks, tile_size, the output cast to out0_ptr.type.element_ty) taking the scalar function as a tl.constexpr argument; `def gelu(self, *, approximate="none")` dispatching on approximate. problem: activation/gelu_tanh
import logging

import torch
import torch.nn as nn
import triton
import triton.language as tl
from triton.language.extra import libdevice

erf = libdevice.erf
exp = libdevice.exp
pow = libdevice.pow
tanh = libdevice.tanh


logger = logging.getLogger(__name__)


@triton.jit
def gelu_none(x):
    scale: tl.constexpr = 0.7071067811  # 1 / math.sqrt(2)
    output = 0.5 * x * (1 + erf(x.to(tl.float32) * scale))
    return output


@triton.jit
def gelu_tanh(x):
    x_fp32 = x.to(tl.float32)
    output = 0.5 * x * (1 + tanh(x_fp32 * 0.79788456 * (1 + 0.044715 * pow(x_fp32, 2))))
    return output


@triton.jit
def gelu_backward_none(x, dy):
    scale1: tl.constexpr = 0.7071067811  # 1 / math.sqrt(2)
    scale2: tl.constexpr = 0.3989422803  # 1 / math.sqrt(2 * math.pi)
    x_fp32 = x.to(tl.float32)
    dydx = (
        scale2 * x_fp32 * exp(-pow(scale1 * x_fp32, 2))
        + 0.5 * erf(scale1 * x_fp32)
        + 0.5
    )
    dx = dydx * dy
    return dx


@triton.jit
def gelu_backward_tanh(x, dy):
    x_fp32 = x.to(tl.float32)
    # 0.79788456 = math.sqrt(2 / math.pi)
    tanh_out = tanh(0.79788456 * x_fp32 * (1 + 0.044715 * pow(x_fp32, 2)))
    dydx = 0.5 * x_fp32 * (
        (1 - pow(tanh_out, 2)) * (0.79788456 + 0.1070322243 * pow(x_fp32, 2))
    ) + 0.5 * (1 + tanh_out)
    dx = dydx * dy
    return dx


@triton.jit
def _unary_pointwise_kernel(
    in0_ptr,
    out0_ptr,
    num_tasks,
    FN: tl.constexpr,
    tile_size: tl.constexpr,
):
    pid = tl.program_id(0).to(tl.int64)
    offsets = pid * tile_size + tl.arange(0, tile_size)
    mask = offsets < num_tasks
    in0 = tl.load(in0_ptr + offsets, mask=mask)
    out0 = FN(in0)
    tl.store(out0_ptr + offsets, out0.to(out0_ptr.type.element_ty), mask=mask)


def _unary_pointwise(fn, in0, out0=None):
    in0 = in0.contiguous()
    if out0 is None:
        out0 = torch.empty_like(in0)
    num_tasks = in0.numel()
    tile_size = 1024
    grid = (triton.cdiv(num_tasks, tile_size), 1, 1)
    _unary_pointwise_kernel[grid](in0, out0, num_tasks, FN=fn, tile_size=tile_size, num_warps=4)
    return out0


def gelu(self, *, approximate="none"):
    logger.debug("GEMS GELU FORWARD")
    if approximate == "tanh":
        out = _unary_pointwise(gelu_tanh, self)
    else:
        out = _unary_pointwise(gelu_none, self)
    return out


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return gelu(x, approximate="tanh")
