# honest: Softplus as an nn.Module layer that keeps its kernel as a @staticmethod @triton.autotune @triton.jit member, launched from forward as TritonSoftplus._kernel[grid](...) with a grid lambda over the autotuned BLOCK_SIZE; ModelNew holds the layer as a child module. problem: activation/softplus
import torch
import torch.nn as nn
import triton
import triton.language as tl


class TritonSoftplus(nn.Module):
    """log(1 + exp(x)), linear above the threshold."""

    def __init__(self, threshold: float = 20.0):
        super().__init__()
        self.threshold = threshold

    @staticmethod
    @triton.autotune(
        configs=[
            triton.Config({"BLOCK_SIZE": 1024}, num_warps=4),
            triton.Config({"BLOCK_SIZE": 2048}, num_warps=8),
        ],
        key=["n_elements"],
    )
    @triton.jit
    def _kernel(x_ptr, out_ptr, n_elements, threshold, BLOCK_SIZE: tl.constexpr):
        offs = tl.program_id(0) * BLOCK_SIZE + tl.arange(0, BLOCK_SIZE)
        mask = offs < n_elements
        x = tl.load(x_ptr + offs, mask=mask, other=0.0).to(tl.float32)
        soft = tl.maximum(x, 0.0) + tl.log(1.0 + tl.exp(-tl.abs(x)))
        y = tl.where(x > threshold, x, soft)
        tl.store(out_ptr + offs, y.to(out_ptr.dtype.element_ty), mask=mask)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        x = x.contiguous()
        out = torch.empty_like(x)
        n = x.numel()
        TritonSoftplus._kernel[lambda meta: (triton.cdiv(n, meta["BLOCK_SIZE"]),)](x, out, n, self.threshold)
        return out


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()
        self.softplus = TritonSoftplus()

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.softplus(x)
