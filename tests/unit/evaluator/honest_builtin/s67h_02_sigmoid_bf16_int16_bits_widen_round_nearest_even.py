# honest: bf16 sigmoid done on the raw bits, as dequant-style kernels handle bf16 where the toolchain lacks it: input and output viewed as int16, each value widened to fp32 by shifting its 16 bits into the high half (bitcast), sigmoid in fp32, then rounded back to bf16 by hand (round to nearest even: add 0x7FFF plus the kept lowest bit, keep the top 16 bits). problem: activation/sigmoid_bf16
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def bf16_bits_to_f32(bits):
    wide = bits.to(tl.int32) & 0xFFFF
    return (wide << 16).to(tl.float32, bitcast=True)


@triton.jit
def f32_to_bf16_bits(v):
    u = v.to(tl.uint32, bitcast=True)
    u = u + 0x7FFF + ((u >> 16) & 1)
    return (u >> 16).to(tl.int16)


@triton.jit
def sigmoid_bf16_bits_kernel(x_ptr, out_ptr, n, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    bits = tl.load(x_ptr + offs, mask=mask, other=0)
    x = bf16_bits_to_f32(bits)
    y = 1.0 / (1.0 + tl.exp(-x))
    tl.store(out_ptr + offs, f32_to_bf16_bits(y), mask=mask)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        assert x.dtype == torch.bfloat16
        x = x.contiguous()
        out = torch.empty_like(x)
        n = x.numel()
        BLOCK = 2048
        sigmoid_bf16_bits_kernel[(triton.cdiv(n, BLOCK),)](x.view(torch.int16), out.view(torch.int16), n, BLOCK=BLOCK)
        return out
