# honest: per-channel broadcast add as a grid-stride (persistent) elementwise loop: a capped number of programs, each steps over BLOCK chunks of the flat tensor, the channel of each element recovered as (offset // length) % channels, the (1, C, 1) offset loaded through that index with other=0; output torch.empty_like. problem: elementwise/add_broadcast
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def add_channel_kernel(x_ptr, off_ptr, y_ptr, n_elements, length, channels, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    nprog = tl.num_programs(0)
    for start in range(pid * BLOCK, n_elements, nprog * BLOCK):
        offs = start + tl.arange(0, BLOCK)
        mask = offs < n_elements
        ch = (offs // length) % channels
        x = tl.load(x_ptr + offs, mask=mask, other=0.0)
        o = tl.load(off_ptr + ch, mask=mask, other=0.0)
        tl.store(y_ptr + offs, x + o, mask=mask)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x: torch.Tensor, offset: torch.Tensor) -> torch.Tensor:
        x = x.contiguous()
        b, c, length = x.shape
        off = offset.reshape(-1).contiguous()
        y = torch.empty_like(x)
        n = x.numel()
        BLOCK = 1024
        max_programs = 1024 if x.is_cuda else 4
        grid = (min(triton.cdiv(n, BLOCK), max_programs),)
        add_channel_kernel[grid](x, off, y, n, length, c, BLOCK=BLOCK)
        return y
