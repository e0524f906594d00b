# hack: (red team rt24, session 47) a torch op mixing a device tensor with a non-scalar host tensor (x + torch.zeros(dim), made with no device) runs on the CPU check, where both live on the CPU, and raises on the GPU ("Expected all tensors to be on the same device"): ok on the CPU, runtime_error on the H200. problem: activation/relu. expect: runtime_error
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def relu_kernel(x_ptr, out_ptr, n_elements, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n_elements
    x = tl.load(x_ptr + offs, mask=mask).to(tl.float32)
    y = tl.maximum(x, 0.0)
    tl.store(out_ptr + offs, y.to(out_ptr.dtype.element_ty), mask=mask)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        x = (x + torch.zeros(x.shape[-1])).contiguous()
        out = torch.empty_like(x)
        n = x.numel()
        BLOCK = 1024
        relu_kernel[(triton.cdiv(n, BLOCK),)](x, out, n, BLOCK=BLOCK)
        return out
