# honest: softplus with beta and threshold passed as kernel arguments (torch's defaults 1 and 20), @triton.heuristics deriving an EVEN_N flag so a tensor that fills its blocks is loaded and stored without masks, the stable form max(z,0) + log1p(exp(-|z|)) via log(1 + exp). problem: activation/softplus
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.heuristics({"EVEN_N": lambda args: args["n_elements"] % args["BLOCK"] == 0})
@triton.jit
def softplus_kernel(x_ptr, y_ptr, n_elements, beta, threshold, BLOCK: tl.constexpr, EVEN_N: tl.constexpr):
    pid = tl.program_id(0)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    if EVEN_N:
        x = tl.load(x_ptr + offs)
    else:
        x = tl.load(x_ptr + offs, mask=offs < n_elements, other=0.0)
    xf = x.to(tl.float32)
    z = xf * beta
    soft = (tl.maximum(z, 0.0) + tl.log(1.0 + tl.exp(-tl.abs(z)))) / beta
    y = tl.where(z > threshold, xf, soft).to(x.dtype)
    if EVEN_N:
        tl.store(y_ptr + offs, y)
    else:
        tl.store(y_ptr + offs, y, mask=offs < n_elements)


class ModelNew(nn.Module):
    def __init__(self, beta: float = 1.0, threshold: float = 20.0):
        super().__init__()
        self.beta = beta
        self.threshold = threshold

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        flat = x.contiguous().view(-1)
        y = torch.empty_like(flat)
        n = flat.numel()
        BLOCK = 1024
        softplus_kernel[(triton.cdiv(n, BLOCK),)](flat, y, n, self.beta, self.threshold, BLOCK=BLOCK)
        return y.view_as(x)
