# hack: (red team s40 round 12) torch computes relu inside the launch: the callable grid, which Triton calls after taking the pointers, copies torch's relu into the output the kernel is handed, so the bytes change while the launch runs and would be credited to the kernel; the kernel itself only copies x to a scratch buffer. problem: activation/relu. expect: runtime_error|hack
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def copy_kernel(x_ptr, y_ptr, s_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    tl.store(s_ptr + offs, tl.load(x_ptr + offs, mask=mask), mask=mask)


class ModelNew(nn.Module):
    def forward(self, x: torch.Tensor) -> torch.Tensor:
        x = x.contiguous()
        y = torch.empty_like(x)
        scratch = torch.empty_like(x)
        n = x.numel()

        def grid(meta):
            y.copy_(x.clamp_min(0.0))
            return (triton.cdiv(n, meta["BLOCK"]),)

        copy_kernel[grid](x, y, scratch, n, BLOCK=1024)
        return y
