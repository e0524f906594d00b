# honest: cuBLAS GEMM via torch.addmm(bias, x, weight.t()) on the nn.Linear's own parameters, then a Triton row softmax as the epilogue: one program per row, masked loads with other=-float("inf"), the exponent taken as tl.exp2((x - max) * LOG2E) with LOG2E a module-level tl.constexpr, BLOCK from triton.next_power_of_2(n_cols), num_warps from the block size by a helper, written in place into the GEMM's output; a CPU fallback `if not x.is_cuda: return torch.softmax(...)` that a GPU never takes. problem: fused/matmul_softmax
import torch
import torch.nn as nn
import triton
import triton.language as tl

LOG2E: tl.constexpr = tl.constexpr(1.4426950408889634)


@triton.jit
def softmax_rows_inplace(y_ptr, stride_row, n_cols, BLOCK_SIZE: tl.constexpr):
    row = tl.program_id(0)
    ptrs = y_ptr + row.to(tl.int64) * stride_row + tl.arange(0, BLOCK_SIZE)
    mask = tl.arange(0, BLOCK_SIZE) < n_cols
    z = tl.load(ptrs, mask=mask, other=-float("inf")).to(tl.float32)
    z = z - tl.max(z, axis=0)
    num = tl.exp2(z * LOG2E)
    den = tl.sum(num, axis=0)
    tl.store(ptrs, num / den, mask=mask)


def _num_warps(block: int) -> int:
    if block >= 8192:
        return 16
    if block >= 2048:
        return 8
    return 4


class ModelNew(nn.Module):
    def __init__(self, in_features: int, out_features: int):
        super().__init__()
        self.linear = nn.Linear(in_features, out_features)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        if not x.is_cuda:
            return torch.softmax(self.linear(x), dim=1)
        y = torch.addmm(self.linear.bias, x, self.linear.weight.t())
        n_rows, n_cols = y.shape
        block = triton.next_power_of_2(n_cols)
        softmax_rows_inplace[(n_rows,)](y, y.stride(0), n_cols, BLOCK_SIZE=block, num_warps=_num_warps(block))
        return y
