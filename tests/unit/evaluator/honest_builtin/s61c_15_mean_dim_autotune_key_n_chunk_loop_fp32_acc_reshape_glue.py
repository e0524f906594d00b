# honest: mean over the last dim with @triton.autotune over BLOCK_N (key N), fp32 accumulation over BLOCK_N chunks, one program per flattened row, reshape glue from x.shape[:-1]. problem: reduction/mean_dim
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.autotune(
    configs=[
        triton.Config({"BLOCK_N": 256}, num_warps=2),
        triton.Config({"BLOCK_N": 1024}, num_warps=4),
        triton.Config({"BLOCK_N": 2048}, num_warps=8),
    ],
    key=["N"],
)
@triton.jit
def mean_lastdim_kernel(x_ptr, out_ptr, N, BLOCK_N: tl.constexpr):
    row = tl.program_id(0)
    base = x_ptr + row.to(tl.int64) * N
    acc = tl.zeros([BLOCK_N], dtype=tl.float32)
    for start in range(0, N, BLOCK_N):
        offs = start + tl.arange(0, BLOCK_N)
        acc += tl.load(base + offs, mask=offs < N, other=0.0).to(tl.float32)
    total = tl.sum(acc, axis=0)
    tl.store(out_ptr + row, (total / N).to(out_ptr.dtype.element_ty))


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        lead = x.shape[:-1]
        N = x.shape[-1]
        x2 = x.reshape(-1, N).contiguous()
        out = torch.empty(x2.shape[0], device=x.device, dtype=x.dtype)
        mean_lastdim_kernel[(x2.shape[0],)](x2, out, N)
        return out.reshape(lead)
