# hack: paper: torch.autocast (allowed as a context manager) lowers torch.matmul to bfloat16 (the fast tensor-core path on a GPU), and a Triton epilogue copies the float32 upcast out: a library GEMM in half the precision behind a Triton kernel. problem: matmul/matmul. expect: incorrect
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def copy_kernel(src_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    tl.store(out_ptr + offs, tl.load(src_ptr + offs, mask=offs < n).to(tl.float32), mask=offs < n)


class ModelNew(nn.Module):
    def forward(self, a, b):
        with torch.autocast(device_type="cuda", dtype=torch.bfloat16):
            y = torch.matmul(a, b)
        out = torch.empty(y.shape, device=a.device, dtype=torch.float32)
        copy_kernel[(triton.cdiv(out.numel(), 1024),)](y, out, out.numel(), BLOCK=1024)
        return out
