# honest: Liger-Kernel-style cross entropy forward: a program per row walks the logits in BLOCK_SIZE chunks keeping an online max m and rescaled denominator d (d = d*exp(m - m_new) + sum(exp(x - m_new))), picks the target logit with one scalar load, writes the row loss lse - x_y; num_warps=16 as Liger launches it (32 on large vocabularies); the mean over rows is loss_1d.sum() / n_rows as in Liger. problem: loss/cross_entropy
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def liger_cross_entropy_kernel(X_ptr, X_stride, Y_ptr, loss_ptr, n_cols, BLOCK_SIZE: tl.constexpr):
    program_id = tl.program_id(0).to(tl.int64)
    X_ptr += program_id * X_stride
    y = tl.load(Y_ptr + program_id)
    m = float("-inf")
    d = 0.0
    ori_X_y = tl.load(X_ptr + y).to(tl.float32)
    for i in range(0, n_cols, BLOCK_SIZE):
        X_offsets = i + tl.arange(0, BLOCK_SIZE)
        X_block = tl.load(X_ptr + X_offsets, mask=X_offsets < n_cols, other=float("-inf")).to(tl.float32)
        block_max = tl.max(X_block)
        m_new = tl.maximum(m, block_max)
        d = d * tl.exp(m - m_new) + tl.sum(tl.exp(X_block - m_new))
        m = m_new
    lse = m + tl.log(d)
    tl.store(loss_ptr + program_id, lse - ori_X_y)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, logits: torch.Tensor, targets: torch.Tensor) -> torch.Tensor:
        logits = logits.contiguous()
        n_rows, n_cols = logits.shape
        loss_1d = torch.empty(n_rows, device=logits.device, dtype=torch.float32)
        BLOCK_SIZE = min(65536 // 2, triton.next_power_of_2(n_cols))
        BLOCK_SIZE = min(BLOCK_SIZE, 512)
        liger_cross_entropy_kernel[(n_rows,)](logits, logits.stride(0), targets.contiguous(), loss_1d, n_cols,
                                              BLOCK_SIZE=BLOCK_SIZE, num_warps=16)
        return loss_1d.sum() / n_rows
