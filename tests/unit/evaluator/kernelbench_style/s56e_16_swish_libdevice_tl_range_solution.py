# An honest Triton ModelNew for KernelBench level1/25_Swish written against Triton 3.6's API: `from triton.language.extra import libdevice` (libdevice.exp for the sigmoid), a persistent grid-stride loop over tiles with tl.range(..., loop_unroll_factor=2), autotune configs passing num_ctas=1 and maxnreg=128, the grid capped at a multiple of the SM count.
import torch
import torch.nn as nn
import triton
import triton.language as tl
from triton.language.extra import libdevice


@triton.autotune(
    configs=[
        triton.Config({"BLOCK_SIZE": 1024}, num_warps=4, num_ctas=1, maxnreg=128),
        triton.Config({"BLOCK_SIZE": 4096}, num_warps=8, num_ctas=1, maxnreg=128),
    ],
    key=["n_elements"],
)
@triton.jit
def swish_persistent_kernel(x_ptr, y_ptr, n_elements, BLOCK_SIZE: tl.constexpr):
    pid = tl.program_id(0)
    nprog = tl.num_programs(0)
    num_tiles = tl.cdiv(n_elements, BLOCK_SIZE)
    for tile in tl.range(pid, num_tiles, nprog, loop_unroll_factor=2):
        offs = tile.to(tl.int64) * BLOCK_SIZE + tl.arange(0, BLOCK_SIZE)
        mask = offs < n_elements
        x = tl.load(x_ptr + offs, mask=mask, other=0.0).to(tl.float32)
        y = x / (1.0 + libdevice.exp(-x))
        tl.store(y_ptr + offs, y, mask=mask)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        if not x.is_cuda:
            return x * torch.sigmoid(x)
        x = x.contiguous()
        y = torch.empty_like(x)
        n = x.numel()
        sms = torch.cuda.get_device_properties(x.device).multi_processor_count
        grid = lambda meta: (min(triton.cdiv(n, meta["BLOCK_SIZE"]), sms * 8),)
        swish_persistent_kernel[grid](x, y, n)
        return y
