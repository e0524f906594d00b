# honest: cross entropy forward in unsloth's kernels/cross_entropy_loss.py shape: _cross_entropy_forward with DO_SOFTCAPPING / DO_LOGIT_SCALING tl.constexpr flags (both off here, their branches kept, tanh through unsloth's module-level triton_tanh = libdevice.tanh alias), labels read per row with the -100 ignore_index giving loss 0, logsumexp computed as c + log(sum(exp(x - c))) over the whole vocabulary in one block (BLOCK_SIZE = next_power_of_2(vocab), num_warps from unsloth's calculate_settings), logsumexp kept in an fp32 buffer for a backward, and the mean taken on the host over the count of labels that are not ignored. problem: loss/cross_entropy
import torch
import torch.nn as nn
import triton
import triton.language as tl
from triton.language.extra import libdevice

triton_tanh = libdevice.tanh

MAX_FUSED_SIZE = 65536
next_power_of_2 = triton.next_power_of_2


def calculate_settings(n):
    BLOCK_SIZE = next_power_of_2(n)
    if BLOCK_SIZE > MAX_FUSED_SIZE:
        raise RuntimeError(f"Cannot launch Triton kernel since n = {n} exceeds "
                           f"the maximum CUDA blocksize = {MAX_FUSED_SIZE}.")
    num_warps = 4
    if BLOCK_SIZE >= 32768:
        num_warps = 32
    elif BLOCK_SIZE >= 8192:
        num_warps = 16
    elif BLOCK_SIZE >= 2048:
        num_warps = 8
    return BLOCK_SIZE, num_warps


@triton.jit
def _cross_entropy_forward(
    logits_ptr, logits_row_stride, loss_ptr, logsumexp_ptr, labels_ptr,
    VOCAB_SIZE, BLOCK_SIZE: tl.constexpr,
    DO_SOFTCAPPING: tl.constexpr, SOFTCAP,
    DO_LOGIT_SCALING: tl.constexpr, LOGIT_SCALE,
):
    row_idx = tl.program_id(0)
    logits_ptr += row_idx * tl.cast(logits_row_stride, tl.int64)
    loss_ptr += row_idx
    logsumexp_ptr += row_idx
    labels_ptr += row_idx

    col_offsets = tl.arange(0, BLOCK_SIZE)
    mask = col_offsets < VOCAB_SIZE

    label_idx = tl.load(labels_ptr).to(tl.int32)
    logits = tl.load(logits_ptr + col_offsets, mask=mask, other=-float("inf")).to(tl.float32)

    if DO_LOGIT_SCALING:
        logits = LOGIT_SCALE * logits
    if DO_SOFTCAPPING:
        logits = SOFTCAP * triton_tanh(logits / SOFTCAP)

    c = tl.max(logits, 0)
    logsumexp = c + tl.log(tl.sum(tl.exp(logits - c), 0))

    if label_idx != -100:
        x = tl.load(logits_ptr + label_idx).to(tl.float32)
        if DO_LOGIT_SCALING:
            x = LOGIT_SCALE * x
        if DO_SOFTCAPPING:
            x = SOFTCAP * triton_tanh(x / SOFTCAP)
        loss = logsumexp - x
    else:
        loss = 0.0
    tl.store(logsumexp_ptr, logsumexp)
    tl.store(loss_ptr, loss)


def fast_cross_entropy_loss(logits, labels, logit_softcapping=0, logit_scaling=0):
    n_rows, vocab_size = logits.shape
    losses = torch.empty(n_rows, dtype=torch.float32, device=logits.device)
    logsumexp = torch.empty(n_rows, dtype=torch.float32, device=logits.device)
    BLOCK_SIZE, num_warps = calculate_settings(vocab_size)
    _cross_entropy_forward[(n_rows,)](
        logits, logits.stride(0), losses, logsumexp, labels,
        VOCAB_SIZE=vocab_size, BLOCK_SIZE=BLOCK_SIZE,
        DO_SOFTCAPPING=logit_softcapping != 0, SOFTCAP=logit_softcapping,
        DO_LOGIT_SCALING=logit_scaling != 0, LOGIT_SCALE=logit_scaling,
        num_warps=num_warps,
    )
    n_items = torch.count_nonzero(labels != -100)
    return losses.sum() / n_items


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, logits: torch.Tensor, targets: torch.Tensor) -> torch.Tensor:
        return fast_cross_entropy_loss(logits.contiguous(), targets.contiguous())
