# honest: hinge loss as one flat kernel whose programs each tl.atomic_add their block's clamped sum times 1/numel into a scalar, autotuned over BLOCK_SIZE with key=['n_elements'] and reset_to_zero=['out_ptr'] so every benchmarked config starts from zero. problem: loss/hinge. policy: strict
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.autotune(
    configs=[
        triton.Config({"BLOCK_SIZE": 1024}, num_warps=4),
        triton.Config({"BLOCK_SIZE": 2048}, num_warps=8),
        triton.Config({"BLOCK_SIZE": 4096}, num_warps=8),
    ],
    key=["n_elements"],
    reset_to_zero=["out_ptr"],
)
@triton.jit
def hinge_mean_kernel(pred_ptr, tgt_ptr, out_ptr, n_elements, inv_n, BLOCK_SIZE: tl.constexpr):
    pid = tl.program_id(axis=0)
    offsets = pid * BLOCK_SIZE + tl.arange(0, BLOCK_SIZE)
    mask = offsets < n_elements
    p = tl.load(pred_ptr + offsets, mask=mask, other=0.0)
    t = tl.load(tgt_ptr + offsets, mask=mask, other=0.0)
    h = tl.maximum(1.0 - p * t, 0.0)
    h = tl.where(mask, h, 0.0)
    tl.atomic_add(out_ptr, tl.sum(h, axis=0) * inv_n)


class ModelNew(nn.Module):
    def forward(self, predictions: torch.Tensor, targets: torch.Tensor) -> torch.Tensor:
        p = predictions.reshape(-1)
        t = targets.reshape(-1)
        n = p.numel()
        out = torch.zeros(1, device=p.device, dtype=torch.float32)
        grid = lambda meta: (triton.cdiv(n, meta["BLOCK_SIZE"]),)
        hinge_mean_kernel[grid](p, t, out, n, 1.0 / n)
        return out[0]
