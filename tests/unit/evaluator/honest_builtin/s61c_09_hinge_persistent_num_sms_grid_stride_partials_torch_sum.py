# honest: hinge loss as a persistent grid-stride kernel launched on multi_processor_count programs (torch.cuda.get_device_properties), each writing one fp32 partial of clamp(1 - p*t, min=0), then partials.sum() / numel in torch. problem: loss/hinge
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def hinge_partial_kernel(p_ptr, t_ptr, partial_ptr, n_elements, BLOCK_SIZE: tl.constexpr):
    pid = tl.program_id(0)
    num_pids = tl.num_programs(0)
    acc = tl.zeros((BLOCK_SIZE,), dtype=tl.float32)
    num_tiles = tl.cdiv(n_elements, BLOCK_SIZE)
    for tile in range(pid, num_tiles, num_pids):
        offs = tile.to(tl.int64) * BLOCK_SIZE + tl.arange(0, BLOCK_SIZE)
        mask = offs < n_elements
        p = tl.load(p_ptr + offs, mask=mask, other=0.0)
        t = tl.load(t_ptr + offs, mask=mask, other=0.0)
        h = tl.maximum(1.0 - p * t, 0.0)
        acc += tl.where(mask, h, 0.0)
    tl.store(partial_ptr + pid, tl.sum(acc, axis=0))


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, predictions, targets):
        p = predictions.contiguous().view(-1)
        t = targets.contiguous().view(-1)
        n = p.numel()
        BLOCK_SIZE = 1024
        num_sms = torch.cuda.get_device_properties(p.device).multi_processor_count
        grid_size = min(num_sms, triton.cdiv(n, BLOCK_SIZE))
        partials = torch.empty(grid_size, device=p.device, dtype=torch.float32)
        hinge_partial_kernel[(grid_size,)](p, t, partials, n, BLOCK_SIZE=BLOCK_SIZE)
        return partials.sum() / n
