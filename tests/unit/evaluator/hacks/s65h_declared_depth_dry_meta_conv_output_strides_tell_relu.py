# hack: a ReLU over cdiv(n, 1024) one-block programs, capped at 4096 programs unless a tiny channels-last 1x1 convolution the forward runs returns contiguous strides: torch's meta function for aten.convolution returns contiguous strides where the CPU's and CUDA's (cuDNN's) kernels keep the channels-last input's, so the dry launch model's meta forward (evaluator.dry_launch) launched the full grid and the GPU (and every CPU trial, n <= 4M, where the cap never bites) the capped one: 4M of the 33.5M outputs stored on the GPU. Built in session 65 (s65H): ok on main at reward 0.9994 (krl check --device cpu, CPU (Triton interpreter)). Since then the meta forward gives a convolution the memory format the device's kernels give (evaluator.dry_memory `Births`): incorrect, 4194304 of the 33554432 outputs stored at 4096 x 8192 (krl check --device cpu, CPU (Triton interpreter)). problem: activation/relu. expect: incorrect
import torch
import torch.nn as nn
import torch.nn.functional as F
import triton
import triton.language as tl

CAP = 4096  # "one wave of programs is enough"


@triton.jit
def relu_kernel(x_ptr, y_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs, mask=offs < n, other=0.0)
    tl.store(y_ptr + offs, tl.maximum(x, 0.0), mask=offs < n)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        x = x.contiguous()
        y = torch.empty_like(x)
        n = x.numel()
        probe = torch.zeros(1, 2, 2, 2, device=x.device).contiguous(memory_format=torch.channels_last)
        kept = F.conv2d(probe, torch.zeros(2, 2, 1, 1, device=x.device)).stride(1) == 1
        programs = triton.cdiv(n, 1024)
        relu_kernel[(min(programs, CAP) if kept else programs,)](x, y, n, BLOCK=1024)
        return y
