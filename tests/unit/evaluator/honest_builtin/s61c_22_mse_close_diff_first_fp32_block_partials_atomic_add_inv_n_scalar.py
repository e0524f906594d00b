# honest: MSE of two nearly equal tensors with the difference taken before squaring in fp32, per-block sums tl.atomic_add-ed into a zeroed fp32 accumulator, then one torch division by numel. problem: loss/mse_close
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def sq_diff_sum_kernel(a_ptr, b_ptr, acc_ptr, n_elements, BLOCK_SIZE: tl.constexpr):
    pid = tl.program_id(0)
    offs = pid * BLOCK_SIZE + tl.arange(0, BLOCK_SIZE)
    mask = offs < n_elements
    a = tl.load(a_ptr + offs, mask=mask, other=0.0).to(tl.float32)
    b = tl.load(b_ptr + offs, mask=mask, other=0.0).to(tl.float32)
    d = a - b
    tl.atomic_add(acc_ptr, tl.sum(d * d, axis=0))


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, predictions, targets):
        a = predictions.contiguous().view(-1)
        b = targets.contiguous().view(-1)
        n = a.numel()
        acc = torch.zeros(1, device=a.device, dtype=torch.float32)
        BLOCK_SIZE = 2048
        sq_diff_sum_kernel[(triton.cdiv(n, BLOCK_SIZE),)](a, b, acc, n, BLOCK_SIZE=BLOCK_SIZE)
        return (acc / n).squeeze(0)
