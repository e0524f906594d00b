# honest: bf16 sigmoid through the fast-math path of FlashInfer/flash-attn style kernels: exp(-x) as ex2.approx.ftz.f32 of -x*log2(e) (inline PTX) and the reciprocal as rcp.approx.ftz.f32, fp32 math on the upcast bf16 input, stored back as bf16; flat 1-D blocks of 1024, num_warps=4. problem: activation/sigmoid_bf16
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def ex2_approx(x):
    return tl.inline_asm_elementwise("ex2.approx.ftz.f32 $0, $1;", "=f,f", [x], dtype=tl.float32,
                                     is_pure=True, pack=1)


@triton.jit
def rcp_approx(x):
    return tl.inline_asm_elementwise("rcp.approx.ftz.f32 $0, $1;", "=f,f", [x], dtype=tl.float32,
                                     is_pure=True, pack=1)


@triton.jit
def sigmoid_bf16_kernel(x_ptr, y_ptr, n, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask, other=0.0).to(tl.float32)
    y = rcp_approx(1.0 + ex2_approx(x * -1.4426950408889634))
    tl.store(y_ptr + offs, y.to(tl.bfloat16), mask=mask)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        x = x.contiguous()
        y = torch.empty_like(x)
        n = x.numel()
        sigmoid_bf16_kernel[(triton.cdiv(n, 1024),)](x, y, n, BLOCK=1024, num_warps=4)
        return y
