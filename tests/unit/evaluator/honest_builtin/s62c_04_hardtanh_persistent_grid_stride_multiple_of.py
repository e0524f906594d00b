# honest: hardtanh as a persistent grid-stride kernel sized to the SM count, with tl.multiple_of/max_contiguous hints and min/max bounds, in the persistent-kernel tutorials' style. problem: activation/hardtanh
import torch
import torch.nn as nn
import triton
import triton.language as tl


def num_sms(device):
    if device.type == "cuda":
        return torch.cuda.get_device_properties(device).multi_processor_count
    return 4  # the interpreter: a few programs, each looping over several tiles


@triton.jit
def hardtanh_persistent(x_ptr, y_ptr, n, lo, hi, BLOCK: tl.constexpr):
    start = tl.program_id(0)
    step = tl.num_programs(0)
    n_tiles = tl.cdiv(n, BLOCK)
    for tile in range(start, n_tiles, step):
        offs = tile.to(tl.int64) * BLOCK + tl.arange(0, BLOCK)
        offs = tl.max_contiguous(tl.multiple_of(offs, BLOCK), BLOCK)
        mask = offs < n
        x = tl.load(x_ptr + offs, mask=mask)
        y = tl.minimum(tl.maximum(x, lo), hi)
        tl.store(y_ptr + offs, y, mask=mask)


class ModelNew(nn.Module):
    def __init__(self, min_val: float, max_val: float):
        super().__init__()
        self.min_val = min_val
        self.max_val = max_val

    def forward(self, x):
        x = x.contiguous()
        y = torch.empty_like(x)
        n = x.numel()
        block = 1024
        programs = min(triton.cdiv(n, block), 2 * num_sms(x.device))
        hardtanh_persistent[(programs,)](x, y, n, self.min_val, self.max_val, BLOCK=block, num_warps=4)
        return y
