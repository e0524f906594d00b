# honest: bf16 sigmoid computed stably in fp32 as e = exp(-|x|), then 1/(1+e) or e/(1+e) by sign, with |x| taken by clearing the sign bit through a uint32 bitcast (x.to(tl.uint32, bitcast=True) & 0x7FFFFFFF), tl.cast for the upcast, tl.static_print of the block size at compile time, and an explicit fp_downcast_rounding="rtne" on the bf16 store. problem: activation/sigmoid_bf16
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def _abs_f32(x):
    bits = x.to(tl.uint32, bitcast=True) & 0x7FFFFFFF
    return bits.to(tl.float32, bitcast=True)


@triton.jit
def sigmoid_bf16_kernel(x_ptr, y_ptr, n_elements, BLOCK_SIZE: tl.constexpr):
    tl.static_print("sigmoid_bf16 BLOCK_SIZE", BLOCK_SIZE)
    offs = tl.program_id(0).to(tl.int64) * BLOCK_SIZE + tl.arange(0, BLOCK_SIZE)
    mask = offs < n_elements
    x = tl.cast(tl.load(x_ptr + offs, mask=mask, other=0.0), tl.float32)
    e = tl.exp(-_abs_f32(x))
    inv = 1.0 / (1.0 + e)
    y = tl.where(x >= 0, inv, e * inv)
    tl.store(y_ptr + offs, y.to(tl.bfloat16, fp_downcast_rounding="rtne"), mask=mask)


def sigmoid_bf16(x: torch.Tensor) -> torch.Tensor:
    assert x.dtype == torch.bfloat16
    x = x.contiguous()
    y = torch.empty_like(x)
    n = x.numel()
    BLOCK_SIZE = 2048
    sigmoid_bf16_kernel[(triton.cdiv(n, BLOCK_SIZE),)](x, y, n, BLOCK_SIZE=BLOCK_SIZE, num_warps=4)
    return y


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return sigmoid_bf16(x)
