# honest: MSE loss as per-block partial sums of squared differences in Triton, finished by torch (partials.sum() / n). problem: loss/mse
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def _sq_diff_partials(p_ptr, t_ptr, out_ptr, n, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    p = tl.load(p_ptr + offs, mask=mask, other=0.0).to(tl.float32)
    t = tl.load(t_ptr + offs, mask=mask, other=0.0).to(tl.float32)
    d = p - t
    tl.store(out_ptr + pid, tl.sum(d * d, axis=0))


class ModelNew(nn.Module):
    def forward(self, predictions: torch.Tensor, targets: torch.Tensor) -> torch.Tensor:
        p = predictions.contiguous()
        t = targets.contiguous()
        n = p.numel()
        BLOCK = 1024
        n_blocks = triton.cdiv(n, BLOCK)
        partials = torch.empty(n_blocks, device=p.device, dtype=torch.float32)
        _sq_diff_partials[(n_blocks,)](p, t, partials, n, BLOCK=BLOCK)
        return partials.sum() / n
