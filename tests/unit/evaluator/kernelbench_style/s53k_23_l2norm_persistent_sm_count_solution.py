# An honest Triton ModelNew for KernelBench level1/39_L2Norm_ (problem s53k_05_l2norm): a persistent kernel over min(rows, 4 * SM count) programs (torch.cuda.get_device_properties(...).multi_processor_count, cached per device) striding over rows with tl.num_programs, rsqrt of the sum of squares, one row in a single BLOCK when it fits.
import torch
import torch.nn as nn
import triton
import triton.language as tl

_SM_COUNT = {}


def _num_sms(device):
    idx = device.index if device.index is not None else torch.cuda.current_device()
    if idx not in _SM_COUNT:
        _SM_COUNT[idx] = torch.cuda.get_device_properties(idx).multi_processor_count
    return _SM_COUNT[idx]


@triton.jit
def l2norm_persistent_kernel(x_ptr, y_ptr, n_rows, n_cols, BLOCK: tl.constexpr):
    start = tl.program_id(0)
    step = tl.num_programs(0)
    cols = tl.arange(0, BLOCK)
    mask = cols < n_cols
    for row in range(start, n_rows, step):
        x = tl.load(x_ptr + row * n_cols + cols, mask=mask, other=0.0)
        inv = tl.math.rsqrt(tl.sum(x * x, axis=0))
        tl.store(y_ptr + row * n_cols + cols, x * inv, mask=mask)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        x = x.contiguous()
        n_rows, n_cols = x.shape
        y = torch.empty_like(x)
        BLOCK = triton.next_power_of_2(n_cols)
        grid = (min(n_rows, 4 * _num_sms(x.device)),)
        l2norm_persistent_kernel[grid](x, y, n_rows, n_cols, BLOCK=BLOCK, num_warps=8)
        return y
