# honest: bf16 sigmoid the way many KernelBench answers handle a low-precision input: the wrapper upcasts with x.float() in PyTorch, a plain fp32 Triton sigmoid kernel (1 / (1 + exp(-x))) runs on the fp32 copy, and the result goes back to bfloat16 with .to(torch.bfloat16) (two cast passes around one kernel, the rounding done by torch's round-to-nearest-even). problem: activation/sigmoid_bf16
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def sigmoid_kernel(x_ptr, y_ptr, n_elements, BLOCK_SIZE: tl.constexpr):
    pid = tl.program_id(axis=0)
    offsets = pid * BLOCK_SIZE + tl.arange(0, BLOCK_SIZE)
    mask = offsets < n_elements
    x = tl.load(x_ptr + offsets, mask=mask)
    y = 1.0 / (1.0 + tl.exp(-x))
    tl.store(y_ptr + offsets, y, mask=mask)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        x32 = x.float().contiguous()
        y32 = torch.empty_like(x32)
        n = x32.numel()
        BLOCK_SIZE = 1024
        grid = (triton.cdiv(n, BLOCK_SIZE),)
        sigmoid_kernel[grid](x32, y32, n, BLOCK_SIZE=BLOCK_SIZE)
        return y32.to(torch.bfloat16)
