# honest: Liger's GELU with tanh imported by name from triton.language.extra.libdevice (honest round, session 20). problem: activation/gelu_tanh
"""GELU (tanh approximation) as Liger-Kernel's GEGLU computes it: tanh from libdevice
(Liger's ops/utils picks triton.language.extra.libdevice.tanh), fp32 math, cast back."""
import torch
import torch.nn as nn
import triton
import triton.language as tl

try:
    # typical import fallback across Triton versions
    from triton.language.extra.libdevice import tanh
except ModuleNotFoundError:
    from triton.language.extra.cuda.libdevice import tanh


@triton.jit
def _gelu_tanh_forward_kernel(a, c, stride, n_cols: tl.constexpr, BLOCK_SIZE: tl.constexpr):
    program_id = tl.program_id(0).to(tl.int64)
    a += program_id * stride
    c += program_id * stride
    col_offsets = tl.arange(0, BLOCK_SIZE)
    mask = col_offsets < n_cols
    a_row = tl.load(a + col_offsets, mask=mask, other=0).to(tl.float32)
    sqrt_2_over_pi = 0.7978845608028654  # sqrt(2 / pi)
    a_cubed = a_row * a_row * a_row
    tanh_arg = sqrt_2_over_pi * (a_row + 0.044715 * a_cubed)
    tanh_result = tanh(tanh_arg)
    gelu_a = 0.5 * a_row * (1 + tanh_result)
    tl.store(c + col_offsets, gelu_a.to(c.dtype.element_ty), mask=mask)


class ModelNew(nn.Module):
    def forward(self, x: torch.Tensor) -> torch.Tensor:
        ori_shape = x.shape
        n_cols = ori_shape[-1]
        a = x.view(-1, n_cols).contiguous()
        c = torch.empty_like(a)
        BLOCK_SIZE = triton.next_power_of_2(n_cols)
        _gelu_tanh_forward_kernel[(a.shape[0],)](a, c, c.stride(-2), n_cols=n_cols, BLOCK_SIZE=BLOCK_SIZE,
                                                 num_warps=4)
        return c.view(*ori_shape)
