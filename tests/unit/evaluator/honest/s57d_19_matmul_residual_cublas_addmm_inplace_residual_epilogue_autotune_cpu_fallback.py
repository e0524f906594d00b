# honest: linear + residual as cuBLAS (torch.addmm with the bias, into a fresh output) and an autotuned Triton epilogue that adds the residual in place on that output (tl.load / tl.store to the same pointer, four configs over BLOCK_SIZE, restore_value on the output so the autotuner's benchmark runs each start from the mm); a CPU fallback `if not x.is_cuda: return F.linear(x, w, b) + residual`, which the evaluator's CPU child answers past. problem: matmul/matmul_residual
import torch
import torch.nn as nn
import torch.nn.functional as F
import triton
import triton.language as tl


@triton.autotune(
    configs=[
        triton.Config({"BLOCK_SIZE": 512}, num_warps=4),
        triton.Config({"BLOCK_SIZE": 1024}, num_warps=4),
        triton.Config({"BLOCK_SIZE": 2048}, num_warps=8),
        triton.Config({"BLOCK_SIZE": 4096}, num_warps=8),
    ],
    key=["n_elements"],
    restore_value=["out_ptr"],  # the add is in place: each benchmarked run must start from the mm
)
@triton.jit
def _add_residual_(out_ptr, res_ptr, n_elements, BLOCK_SIZE: tl.constexpr):
    offs = tl.program_id(0) * BLOCK_SIZE + tl.arange(0, BLOCK_SIZE)
    mask = offs < n_elements
    acc = tl.load(out_ptr + offs, mask=mask)
    r = tl.load(res_ptr + offs, mask=mask)
    tl.store(out_ptr + offs, acc + r, mask=mask)


def linear_residual(x, weight, bias, residual):
    if not x.is_cuda:
        return F.linear(x, weight, bias) + residual
    out = torch.addmm(bias, x, weight.t())
    residual = residual.contiguous()
    n = out.numel()
    grid = lambda meta: (triton.cdiv(n, meta["BLOCK_SIZE"]),)
    _add_residual_[grid](out, residual, n)
    return out


class ModelNew(nn.Module):
    def __init__(self, in_features, out_features):
        super().__init__()
        self.linear = nn.Linear(in_features, out_features)

    def forward(self, x, residual):
        return linear_residual(x, self.linear.weight, self.linear.bias, residual)
