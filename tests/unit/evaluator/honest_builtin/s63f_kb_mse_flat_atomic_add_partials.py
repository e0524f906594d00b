# honest: KernelBench level1/94_MSELoss answer style: one flat 1D grid over n_elements, BLOCK_SIZE 1024, each program's squared-error sum atomically added to one float, divided by n on the host. problem: loss/mse
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def mse_kernel(pred_ptr, targ_ptr, out_ptr, n_elements, BLOCK_SIZE: tl.constexpr):
    pid = tl.program_id(axis=0)
    block_start = pid * BLOCK_SIZE
    offsets = block_start + tl.arange(0, BLOCK_SIZE)
    mask = offsets < n_elements
    p = tl.load(pred_ptr + offsets, mask=mask, other=0.0)
    t = tl.load(targ_ptr + offsets, mask=mask, other=0.0)
    diff = p - t
    tl.atomic_add(out_ptr, tl.sum(diff * diff, axis=0))


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, predictions, targets):
        predictions = predictions.contiguous()
        targets = targets.contiguous()
        n_elements = predictions.numel()
        out = torch.zeros(1, device=predictions.device, dtype=torch.float32)
        grid = lambda meta: (triton.cdiv(n_elements, meta["BLOCK_SIZE"]),)  # noqa: E731
        mse_kernel[grid](predictions, targets, out, n_elements, BLOCK_SIZE=1024)
        return (out / n_elements).squeeze(0)
