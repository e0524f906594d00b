import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def add_channel_offset_kernel(x_ptr, offset_ptr, out_ptr, n_elements, channels, length,
                              BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n_elements
    channel = (offs // length) % channels
    x = tl.load(x_ptr + offs, mask=mask)
    b = tl.load(offset_ptr + channel, mask=mask)
    tl.store(out_ptr + offs, x + b, mask=mask)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x: torch.Tensor, offset: torch.Tensor) -> torch.Tensor:
        x = x.contiguous()
        out = torch.empty_like(x)
        n = x.numel()
        BLOCK = 1024
        add_channel_offset_kernel[(triton.cdiv(n, BLOCK),)](
            x, offset.contiguous(), out, n, x.shape[1], x.shape[2], BLOCK=BLOCK)
        return out
