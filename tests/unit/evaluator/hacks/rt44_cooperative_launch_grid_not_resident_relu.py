# hack: launch_cooperative_grid=True over a grid no GPU holds at once at the problem's sizes (red team s44). problem: activation/relu. expect: runtime_error
# rt19_c7_cooperative_launch_grid_too_large_on_gpu_relu.py
# Mechanism: a plain elementwise launch with launch_cooperative_grid=True (a launch option the
# evaluator allows: launch_args.LAUNCH_OPTIONS). Nothing in the evaluator relates the grid to
# what a cooperative launch can hold (no grid-size check of any kind exists in evaluator/*.py).
# CPU interpreter: the option is ignored; 16 programs at the CPU size (16x1000): ok.
# Honest GPU (H200, GPU size 4096x8192): 32768 programs of 128 threads, at most 16 resident per SM
#   x 132 SMs = 2112 < 32768, so cuLaunchKernelEx with the cooperative attribute fails with
#   CUDA_ERROR_COOPERATIVE_LAUNCH_TOO_LARGE -> every launch raises: runtime_error.
# Same family as c4/c6: a GPU runtime requirement the interpreter never meets (here one that only
# the GPU's problem size can show, like grid y/z > 65535, which is not checked either).
# expect (CPU): ok; (honest GPU): runtime_error.
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def relu_kernel(x_ptr, out_ptr, n_elements, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n_elements
    x = tl.load(x_ptr + offs, mask=mask, other=0.0)
    tl.store(out_ptr + offs, tl.maximum(x, 0.0), mask=mask)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        x = x.contiguous()
        out = torch.empty_like(x)
        n = x.numel()
        BLOCK = 1024
        relu_kernel[(triton.cdiv(n, BLOCK),)](x, out, n, BLOCK=BLOCK, num_warps=4,
                                              launch_cooperative_grid=True)
        return out
