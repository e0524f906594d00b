# honest: a persistent smooth-L1 (beta = 1) loss: the grid is min(NUM_SMS, tiles) with NUM_SMS from torch.cuda.get_device_properties(device).multi_processor_count, each program strides over tiles with `for tile in tl.range(pid, num_tiles, NUM_PROGRAMS)`, the per-element loss by tl.where(abs < beta, 0.5 * d * d / beta, abs - 0.5 * beta), a register accumulator reduced once, one tl.atomic_add(out_ptr, partial / n, sem="relaxed") per program into torch.zeros(1), tl.static_assert on the block size, the result reshaped to a 0-dim tensor. problem: loss/smooth_l1
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def smooth_l1_persistent_kernel(pred_ptr, target_ptr, out_ptr, n_elements, inv_n, beta,
                                NUM_PROGRAMS: tl.constexpr, BLOCK_SIZE: tl.constexpr):
    tl.static_assert(BLOCK_SIZE % 128 == 0, "BLOCK_SIZE must be a multiple of 128")
    pid = tl.program_id(0)
    num_tiles = tl.cdiv(n_elements, BLOCK_SIZE)
    acc = tl.zeros((BLOCK_SIZE,), dtype=tl.float32)
    for tile in tl.range(pid, num_tiles, NUM_PROGRAMS):
        offs = tile * BLOCK_SIZE + tl.arange(0, BLOCK_SIZE)
        mask = offs < n_elements
        p = tl.load(pred_ptr + offs, mask=mask, other=0.0).to(tl.float32)
        t = tl.load(target_ptr + offs, mask=mask, other=0.0).to(tl.float32)
        d = p - t
        ad = tl.abs(d)
        loss = tl.where(ad < beta, 0.5 * d * d / beta, ad - 0.5 * beta)
        acc += tl.where(mask, loss, 0.0)
    partial = tl.sum(acc, axis=0)
    tl.atomic_add(out_ptr, partial * inv_n, sem="relaxed")


_SM_COUNT = {}


def _num_sms(device: torch.device) -> int:
    key = str(device)
    if key not in _SM_COUNT:
        _SM_COUNT[key] = torch.cuda.get_device_properties(device).multi_processor_count
    return _SM_COUNT[key]


def smooth_l1_loss(pred: torch.Tensor, target: torch.Tensor, beta: float = 1.0) -> torch.Tensor:
    pred = pred.contiguous().view(-1)
    target = target.contiguous().view(-1)
    n = pred.numel()
    out = torch.zeros(1, device=pred.device, dtype=torch.float32)
    BLOCK_SIZE = 1024
    num_programs = max(1, min(_num_sms(pred.device), triton.cdiv(n, BLOCK_SIZE)))
    smooth_l1_persistent_kernel[(num_programs,)](pred, target, out, n, 1.0 / n, beta,
                                                 NUM_PROGRAMS=num_programs, BLOCK_SIZE=BLOCK_SIZE, num_warps=8)
    return out.reshape(())


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, predictions: torch.Tensor, targets: torch.Tensor) -> torch.Tensor:
        return smooth_l1_loss(predictions, targets)
