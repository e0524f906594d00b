# honest: mean squared error as a grid-stride persistent kernel: autotuned BLOCK and program count, each program accumulates (p - t)^2 in a [BLOCK] fp32 vector over its strided blocks, one tl.atomic_add(sem="relaxed") per program into an fp32 scalar that the autotuner zeroes before every benchmark run (reset_to_zero); the sum is scaled by 1/n in the kernel. problem: loss/mse
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.autotune(
    configs=[
        triton.Config({"BLOCK": 1024, "PROGRAMS": 264}, num_warps=4),
        triton.Config({"BLOCK": 2048, "PROGRAMS": 132}, num_warps=8),
        triton.Config({"BLOCK": 4096, "PROGRAMS": 132}, num_warps=8),
    ],
    key=["n_elements"],
    reset_to_zero=["out_ptr"],
)
@triton.jit
def mse_grid_stride_kernel(p_ptr, t_ptr, out_ptr, n_elements, inv_n, BLOCK: tl.constexpr, PROGRAMS: tl.constexpr):
    pid = tl.program_id(0)
    acc = tl.zeros([BLOCK], dtype=tl.float32)
    step = PROGRAMS * BLOCK
    for start in range(pid * BLOCK, n_elements, step):
        offs = start + tl.arange(0, BLOCK)
        m = offs < n_elements
        p = tl.load(p_ptr + offs, mask=m, other=0.0).to(tl.float32)
        t = tl.load(t_ptr + offs, mask=m, other=0.0).to(tl.float32)
        d = p - t
        acc += d * d
    tl.atomic_add(out_ptr, tl.sum(acc, axis=0) * inv_n, sem="relaxed")


def mse_loss(p: torch.Tensor, t: torch.Tensor) -> torch.Tensor:
    assert p.shape == t.shape
    p = p.contiguous()
    t = t.contiguous()
    n = p.numel()
    out = torch.zeros((), dtype=torch.float32, device=p.device)
    grid = lambda meta: (min(meta["PROGRAMS"], triton.cdiv(n, meta["BLOCK"])),)
    mse_grid_stride_kernel[grid](p, t, out, n, 1.0 / n)
    return out


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, predictions: torch.Tensor, targets: torch.Tensor) -> torch.Tensor:
        return mse_loss(predictions, targets)
