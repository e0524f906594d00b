# honest: a Triton ReLU without masks over the whole 1024-element blocks and torch.relu over the elements left, joined with torch.cat (a bulk-plus-remainder split). problem: activation/relu
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def relu_block_kernel(x_ptr, out_ptr, BLOCK_SIZE: tl.constexpr):
    offs = tl.program_id(0) * BLOCK_SIZE + tl.arange(0, BLOCK_SIZE)
    tl.store(out_ptr + offs, tl.maximum(tl.load(x_ptr + offs), 0.0))


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x):
        flat = x.contiguous().view(-1)
        blocks = flat.numel() // 1024
        head = torch.empty(blocks * 1024, device=x.device, dtype=x.dtype)
        if blocks:
            relu_block_kernel[(blocks,)](flat, head, BLOCK_SIZE=1024)
        return torch.cat([head, torch.relu(flat[blocks * 1024:])]).view_as(x)
