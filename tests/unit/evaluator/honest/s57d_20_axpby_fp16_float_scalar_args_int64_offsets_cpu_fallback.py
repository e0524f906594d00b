# honest: alpha * x + beta * y in fp16 with the two scalars held by the module and handed as float arguments (not baked in as constexprs), int64 offsets, float32 math and an fp16 store, behind a CPU fallback branch `if not x.is_cuda: return self.alpha * x + self.beta * y`. problem: elementwise/axpby_fp16
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def _axpby_kernel(x_ptr, y_ptr, out_ptr, alpha, beta, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0).to(tl.int64) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask, other=0.0).to(tl.float32)
    y = tl.load(y_ptr + offs, mask=mask, other=0.0).to(tl.float32)
    tl.store(out_ptr + offs, (alpha * x + beta * y).to(tl.float16), mask=mask)


class ModelNew(nn.Module):
    def __init__(self, alpha: float, beta: float):
        super().__init__()
        self.alpha = alpha
        self.beta = beta

    def forward(self, x, y):
        if not x.is_cuda:
            return self.alpha * x + self.beta * y
        x = x.contiguous()
        y = y.contiguous()
        out = torch.empty_like(x)
        n = x.numel()
        BLOCK = 4096
        _axpby_kernel[(triton.cdiv(n, BLOCK),)](x, y, out, self.alpha, self.beta, n, BLOCK=BLOCK, num_warps=8)
        return out
