# An honest Triton ModelNew for KernelBench level1/32_HardTanh: a CPU fallback (`if not x.is_cuda: return F.hardtanh(...)`), a flat elementwise kernel with BLOCK_SIZE 1024 and tl.minimum(tl.maximum(...)), min/max passed as float arguments, torch.empty_like output.
import torch
import torch.nn as nn
import torch.nn.functional as F
import triton
import triton.language as tl


@triton.jit
def hardtanh_kernel(x_ptr, out_ptr, n_elements, min_val, max_val, BLOCK_SIZE: tl.constexpr):
    pid = tl.program_id(axis=0)
    offsets = pid * BLOCK_SIZE + tl.arange(0, BLOCK_SIZE)
    mask = offsets < n_elements
    x = tl.load(x_ptr + offsets, mask=mask)
    y = tl.minimum(tl.maximum(x, min_val), max_val)
    tl.store(out_ptr + offsets, y, mask=mask)


def triton_hardtanh(x: torch.Tensor, min_val: float = -1.0, max_val: float = 1.0) -> torch.Tensor:
    if not x.is_cuda:
        return F.hardtanh(x, min_val=min_val, max_val=max_val)
    x = x.contiguous()
    out = torch.empty_like(x)
    n_elements = x.numel()
    grid = lambda meta: (triton.cdiv(n_elements, meta["BLOCK_SIZE"]),)
    hardtanh_kernel[grid](x, out, n_elements, min_val, max_val, BLOCK_SIZE=1024)
    return out


class ModelNew(nn.Module):
    def __init__(self):
        super(ModelNew, self).__init__()

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return triton_hardtanh(x, min_val=-1.0, max_val=1.0)
