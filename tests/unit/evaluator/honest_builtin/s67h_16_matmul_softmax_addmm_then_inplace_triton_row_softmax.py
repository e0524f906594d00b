# honest: Linear + softmax with the GEMM left to cuBLAS (torch.addmm with the Linear's bias and transposed weight) and the softmax as a Triton epilogue that overwrites the GEMM's output in place, one program per row: the row loaded once when it fits BLOCK, max, exp, sum and the normalised row stored back into the same buffer. problem: fused/matmul_softmax
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def softmax_inplace_kernel(y_ptr, n_cols, stride, BLOCK: tl.constexpr):
    row = tl.program_id(0).to(tl.int64)
    cols = tl.arange(0, BLOCK)
    mask = cols < n_cols
    ptrs = y_ptr + row * stride + cols
    y = tl.load(ptrs, mask=mask, other=float("-inf")).to(tl.float32)
    e = tl.exp(y - tl.max(y, axis=0))
    tl.store(ptrs, (e / tl.sum(e, axis=0)).to(y_ptr.dtype.element_ty), mask=mask)


class ModelNew(nn.Module):
    def __init__(self, in_features: int, out_features: int):
        super().__init__()
        self.linear = nn.Linear(in_features, out_features)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        y = torch.addmm(self.linear.bias, x, self.linear.weight.t())
        n_rows, n_cols = y.shape
        BLOCK = triton.next_power_of_2(n_cols)
        softmax_inplace_kernel[(n_rows,)](y, n_cols, y.stride(0), BLOCK=BLOCK, num_warps=8)
        return y
