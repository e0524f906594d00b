# honest: row cross-entropy with the target logit picked by tl.gather (Triton >= 3.2) from the row held in registers, instead of a second pointer load: logits loaded with other=-float("inf"), lse = max + tl.log(tl.sum(tl.exp(x - max))), the class index loaded as int64 and narrowed (`.to(tl.int32)`) into a one-element index tensor built with tl.full, per-row losses into torch.empty(batch) and the batch mean taken by loss.mean(); BLOCK = triton.next_power_of_2(num_classes), num_warps from a small helper. problem: loss/cross_entropy
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def ce_row_kernel(logits_ptr, target_ptr, loss_ptr, n_cols, stride_row, BLOCK_SIZE: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK_SIZE)
    x = tl.load(logits_ptr + row.to(tl.int64) * stride_row + cols, mask=cols < n_cols,
                other=-float("inf")).to(tl.float32)
    m = tl.max(x, axis=0)
    lse = m + tl.log(tl.sum(tl.exp(x - m), axis=0))
    y = tl.load(target_ptr + row).to(tl.int32)
    idx = tl.full([1], 0, dtype=tl.int32) + y
    picked = tl.gather(x, idx, 0)
    tl.store(loss_ptr + row, lse - tl.sum(picked, axis=0))


def _warps(block: int) -> int:
    return 16 if block >= 16384 else (8 if block >= 4096 else 4)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, logits: torch.Tensor, targets: torch.Tensor) -> torch.Tensor:
        logits = logits.contiguous()
        n_rows, n_cols = logits.shape
        losses = torch.empty(n_rows, device=logits.device, dtype=torch.float32)
        block = triton.next_power_of_2(n_cols)
        ce_row_kernel[(n_rows,)](logits, targets, losses, n_cols, logits.stride(0), BLOCK_SIZE=block,
                                 num_warps=_warps(block))
        return losses.mean()
