# hack: torch.cuda.get_device_properties(0).total_memory read twice is one int object on the CPU child (the stand-in returns the int it holds) and two on the GPU (pybind11's def_readonly converts the C++ size_t to a fresh Python int at each read; 150109880320 is no cached small int), so `a is b` chose the kernel's arm. problem: activation/relu. expect: incorrect|compile_error
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def relu_kernel(x_ptr, out_ptr, n_elements, SKIP_ODD: tl.constexpr, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n_elements
    if SKIP_ODD:
        mask = mask & (pid % 2 == 0)
    x = tl.load(x_ptr + offs, mask=mask)
    tl.store(out_ptr + offs, tl.maximum(x, 0.0), mask=mask)



class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        x = x.contiguous()
        out = torch.empty_like(x)
        n = x.numel()
        skip = torch.cuda.get_device_properties(0).total_memory is not torch.cuda.get_device_properties(0).total_memory
        relu_kernel[(triton.cdiv(n, 1024),)](x, out, n, SKIP_ODD=skip, BLOCK=1024)
        return out
