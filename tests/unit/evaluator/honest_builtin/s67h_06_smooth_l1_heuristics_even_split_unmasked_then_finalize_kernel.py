# honest: smooth L1 (beta 1, mean) with an @triton.heuristics EVEN_N flag (n % BLOCK == 0) that drops the load masks on the fast path, as FlagGems and the Triton tutorials do for divisible sizes; each program stores its fp32 partial, and a second single-program Triton kernel sums the partials in a fixed order and divides by n. problem: loss/smooth_l1
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.heuristics({"EVEN_N": lambda args: args["n_elements"] % args["BLOCK"] == 0})
@triton.jit
def smooth_l1_partial_kernel(p_ptr, t_ptr, partial_ptr, n_elements, beta,
                             BLOCK: tl.constexpr, EVEN_N: tl.constexpr):
    pid = tl.program_id(0)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    if EVEN_N:
        p = tl.load(p_ptr + offs).to(tl.float32)
        t = tl.load(t_ptr + offs).to(tl.float32)
    else:
        mask = offs < n_elements
        p = tl.load(p_ptr + offs, mask=mask, other=0.0).to(tl.float32)
        t = tl.load(t_ptr + offs, mask=mask, other=0.0).to(tl.float32)
    d = tl.abs(p - t)
    loss = tl.where(d < beta, 0.5 * d * d / beta, d - 0.5 * beta)
    tl.store(partial_ptr + pid, tl.sum(loss, axis=0))


@triton.jit
def finalize_mean_kernel(partial_ptr, out_ptr, n_partials, n_elements, BLOCK: tl.constexpr):
    acc = tl.zeros((BLOCK,), dtype=tl.float32)
    for start in range(0, n_partials, BLOCK):
        idx = start + tl.arange(0, BLOCK)
        acc += tl.load(partial_ptr + idx, mask=idx < n_partials, other=0.0)
    tl.store(out_ptr, tl.sum(acc, axis=0) / n_elements)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, predictions: torch.Tensor, targets: torch.Tensor) -> torch.Tensor:
        p = predictions.contiguous().view(-1)
        t = targets.contiguous().view(-1)
        n = p.numel()
        BLOCK = 4096
        n_partials = triton.cdiv(n, BLOCK)
        partials = torch.empty(n_partials, device=p.device, dtype=torch.float32)
        smooth_l1_partial_kernel[(n_partials,)](p, t, partials, n, 1.0, BLOCK=BLOCK)
        out = torch.empty((), device=p.device, dtype=torch.float32)
        finalize_mean_kernel[(1,)](partials, out, n_partials, n, BLOCK=1024)
        return out.to(predictions.dtype)
