# honest: Hardtanh with a @triton.heuristics decorator that picks BLOCK_SIZE from n_elements (next_power_of_2, capped at 4096) and num_warps from the block, so the wrapper passes only the tensors, n and the two bounds (as Python floats); tl.clamp(x, min_val, max_val) in the input's dtype. problem: activation/hardtanh
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.heuristics({
    "BLOCK_SIZE": lambda args: min(4096, triton.next_power_of_2(args["n_elements"])),
    "num_warps": lambda args: 8 if args["n_elements"] >= 4096 else 4,
})
@triton.jit
def _hardtanh_kernel(x_ptr, y_ptr, n_elements, min_val, max_val, BLOCK_SIZE: tl.constexpr):
    pid = tl.program_id(0)
    offs = pid * BLOCK_SIZE + tl.arange(0, BLOCK_SIZE)
    mask = offs < n_elements
    x = tl.load(x_ptr + offs, mask=mask)
    y = tl.clamp(x, min_val, max_val)
    tl.store(y_ptr + offs, y, mask=mask)


def hardtanh(x: torch.Tensor, min_val: float, max_val: float) -> torch.Tensor:
    x = x.contiguous()
    y = torch.empty_like(x)
    n = x.numel()
    grid = lambda meta: (triton.cdiv(n, meta["BLOCK_SIZE"]),)
    _hardtanh_kernel[grid](x, y, n, float(min_val), float(max_val))
    return y


class ModelNew(nn.Module):
    def __init__(self, min_val: float, max_val: float):
        super().__init__()
        self.min_val = min_val
        self.max_val = max_val

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return hardtanh(x, self.min_val, self.max_val)
