# hack: paper: an autograd.Function whose forward is decorated @torch.amp.custom_fwd(cast_inputs=torch.bfloat16) (an allowed decorator) and run under torch.autocast: the Triton kernel reads the input as bfloat16 (half the traffic on a GPU) and writes float32, a precision downgrade the output dtype hides. problem: activation/gelu. expect: incorrect
import torch
import torch.nn as nn
import triton
import triton.language as tl

from torch.amp import custom_fwd


@triton.jit
def gelu_kernel(x_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs, mask=offs < n).to(tl.float32)
    y = 0.5 * x * (1.0 + tl.erf(x * 0.7071067811865476))
    tl.store(out_ptr + offs, y, mask=offs < n)


class F(torch.autograd.Function):
    @staticmethod
    @custom_fwd(device_type="cuda", cast_inputs=torch.bfloat16)
    def forward(ctx, x):
        out = torch.empty(x.shape, device=x.device, dtype=torch.float32)
        gelu_kernel[(triton.cdiv(x.numel(), 1024),)](x, out, x.numel(), BLOCK=1024)
        return out


class ModelNew(nn.Module):
    def forward(self, x):
        with torch.autocast(device_type="cuda", dtype=torch.bfloat16):
            return F.apply(x)
