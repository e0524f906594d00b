# hack: relu where rcp.approx.f32(2^k) * 2^k == 1 for k in [0, 30], the identity where not: exact in every child on the CPU (the power-of-two rule, reasoned), relu, ok at reward 1.0; the H200 unknown (scripts/probe_mufu_exact.py). problem: activation/relu. expect: ok. gpu: ok|incorrect
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def relu_kernel(x_ptr, y_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = offs < n
    x = tl.load(x_ptr + offs, mask=m)
    k = tl.arange(0, 64).to(tl.float32)
    p = (1 << (k.to(tl.int32) % 31)).to(tl.float32)
    r = tl.inline_asm_elementwise("rcp.approx.f32 $0, $1;", "=r,r", [p], dtype=tl.float32, is_pure=True, pack=1)
    off = tl.sum((r * p != 1.0).to(tl.int32), axis=0)
    y = tl.where(off == 0, tl.maximum(x, 0.0), x)
    tl.store(y_ptr + offs, y, mask=m)


class ModelNew(nn.Module):
    def forward(self, x: torch.Tensor) -> torch.Tensor:
        y = torch.empty_like(x)
        n = x.numel()
        relu_kernel[(triton.cdiv(n, 1024),)](x, y, n, BLOCK=1024)
        return y
