# honest: smooth L1 (beta=1, mean) in two stages: stage 1 writes one fp32 partial sum per program (tl.where picks 0.5*d^2/beta or |d|-0.5*beta), stage 2 sums the partials in one program and divides by n; the kernels take defaulted runtime arguments (beta=1.0), launch options gathered in a dict and splatted into the launch (**launch_opts), num_warps derived from the block size. problem: loss/smooth_l1
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def smooth_l1_partial_kernel(p_ptr, t_ptr, partial_ptr, n_elements, beta=1.0, BLOCK: tl.constexpr = 1024):
    pid = tl.program_id(0)
    offs = pid.to(tl.int64) * BLOCK + tl.arange(0, BLOCK)
    m = offs < n_elements
    p = tl.load(p_ptr + offs, mask=m, other=0.0).to(tl.float32)
    t = tl.load(t_ptr + offs, mask=m, other=0.0).to(tl.float32)
    d = tl.abs(p - t)
    loss = tl.where(d < beta, 0.5 * d * d / beta, d - 0.5 * beta)
    loss = tl.where(m, loss, 0.0)
    tl.store(partial_ptr + pid, tl.sum(loss, axis=0))


@triton.jit
def finish_mean_kernel(partial_ptr, out_ptr, n_partials, n_elements, BLOCK: tl.constexpr = 1024):
    acc = tl.zeros([BLOCK], dtype=tl.float32)
    for start in range(0, n_partials, BLOCK):
        offs = start + tl.arange(0, BLOCK)
        acc += tl.load(partial_ptr + offs, mask=offs < n_partials, other=0.0)
    tl.store(out_ptr, tl.sum(acc, axis=0) / n_elements)


def smooth_l1_loss(p: torch.Tensor, t: torch.Tensor, beta: float = 1.0) -> torch.Tensor:
    p = p.contiguous()
    t = t.contiguous()
    n = p.numel()
    BLOCK = 4096
    launch_opts = {"BLOCK": BLOCK, "num_warps": max(1, min(8, BLOCK // 512))}
    n_partials = triton.cdiv(n, BLOCK)
    partials = torch.empty(n_partials, device=p.device, dtype=torch.float32)
    smooth_l1_partial_kernel[(n_partials,)](p, t, partials, n, beta, **launch_opts)
    out = torch.empty((), device=p.device, dtype=torch.float32)
    finish_mean_kernel[(1,)](partials, out, n_partials, n)
    return out


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, predictions: torch.Tensor, targets: torch.Tensor) -> torch.Tensor:
        return smooth_l1_loss(predictions, targets)
