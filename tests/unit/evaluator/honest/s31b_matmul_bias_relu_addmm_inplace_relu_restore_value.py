# honest: cuBLAS GEMM with the bias through torch.addmm(self.linear.bias, x, self.linear.weight.t()), then an in-place Triton ReLU on addmm's output autotuned with @triton.autotune(configs=..., key=["n_elements"], restore_value=["y_ptr"]) so that benchmarking the in-place kernel never sees its own output, an `x if x.is_contiguous() else x.contiguous()` guard, a `lambda META:` grid. problem: matmul/matmul_bias_relu
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.autotune(
    configs=[
        triton.Config({"BLOCK_SIZE": 1024}, num_warps=4),
        triton.Config({"BLOCK_SIZE": 2048}, num_warps=8),
        triton.Config({"BLOCK_SIZE": 4096}, num_warps=8),
    ],
    key=["n_elements"],
    restore_value=["y_ptr"],
)
@triton.jit
def relu_inplace_kernel(y_ptr, n_elements, BLOCK_SIZE: tl.constexpr):
    pid = tl.program_id(axis=0)
    offs = pid * BLOCK_SIZE + tl.arange(0, BLOCK_SIZE)
    mask = offs < n_elements
    y = tl.load(y_ptr + offs, mask=mask)
    tl.store(y_ptr + offs, tl.maximum(y, 0.0), mask=mask)


class ModelNew(nn.Module):
    def __init__(self, in_features: int, out_features: int):
        super().__init__()
        self.linear = nn.Linear(in_features, out_features)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        x = x if x.is_contiguous() else x.contiguous()
        y = torch.addmm(self.linear.bias, x, self.linear.weight.t())
        n_elements = y.numel()
        grid = lambda META: (triton.cdiv(n_elements, META["BLOCK_SIZE"]),)
        relu_inplace_kernel[grid](y, n_elements)
        return y
