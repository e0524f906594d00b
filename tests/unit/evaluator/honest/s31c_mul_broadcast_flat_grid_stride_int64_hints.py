# honest: row-scale broadcast over the flattened matrix: a grid-stride (persistent) loop `for tile in range(pid, n_tiles, tl.num_programs(0))` over BLOCK-sized tiles, int64 flat offsets (tile.to(tl.int64) * BLOCK), the scale's row recovered as offs // n_cols and gathered with a masked tl.load, tl.multiple_of / tl.max_contiguous hints on the offsets, the grid min(n_tiles, 8 * SM count) from triton.runtime.driver.active.utils.get_device_properties; the (rows, 1) scale made contiguous and broadcast shapes checked with an assert in host code. problem: elementwise/mul_broadcast
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def row_scale_flat_kernel(x_ptr, s_ptr, y_ptr, n_elements, n_cols, n_tiles, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    lanes = tl.arange(0, BLOCK)
    for tile in range(pid, n_tiles, tl.num_programs(0)):
        offs = tile.to(tl.int64) * BLOCK + lanes
        offs = tl.max_contiguous(tl.multiple_of(offs, BLOCK), BLOCK)
        mask = offs < n_elements
        x = tl.load(x_ptr + offs, mask=mask)
        s = tl.load(s_ptr + offs // n_cols, mask=mask)
        tl.store(y_ptr + offs, x * s, mask=mask)


def row_scale(x: torch.Tensor, scale: torch.Tensor) -> torch.Tensor:
    assert x.dim() == 2 and scale.shape == (x.shape[0], 1), (x.shape, scale.shape)
    x = x.contiguous()
    scale = scale.contiguous()
    y = torch.empty_like(x)
    n = x.numel()
    if n == 0:
        return y
    BLOCK = 1024
    n_tiles = triton.cdiv(n, BLOCK)
    props = triton.runtime.driver.active.utils.get_device_properties(x.device.index or 0)
    grid = (min(n_tiles, 8 * props["multiprocessor_count"]),)
    row_scale_flat_kernel[grid](x, scale, y, n, x.shape[1], n_tiles, BLOCK=BLOCK)
    return y


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x: torch.Tensor, row_scale_: torch.Tensor) -> torch.Tensor:
        return row_scale(x, row_scale_)
