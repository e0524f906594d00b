# honest: linear -> relu -> scale as KernelBench level-2 answers often ship it: module-level `torch.backends.cuda.matmul.allow_tf32 = True` / `torch.backends.cudnn.allow_tf32 = True`, cuBLAS for the GEMM with its bias (F.linear), then a flat Triton epilogue applying relu and the scale in place over the GEMM's output (no second buffer), @triton.autotune over BLOCK_SIZE x num_warps keyed on n_elements with restore_value=["y_ptr"] (the benchmark's reruns of an in-place update would otherwise compound); the scale a Python float passed as a runtime argument. problem: fused/linear_relu_scale
import torch
import torch.nn as nn
import torch.nn.functional as F
import triton
import triton.language as tl

torch.backends.cuda.matmul.allow_tf32 = True
torch.backends.cudnn.allow_tf32 = True


@triton.autotune(
    configs=[
        triton.Config({"BLOCK_SIZE": 256}, num_warps=2),
        triton.Config({"BLOCK_SIZE": 512}, num_warps=4),
        triton.Config({"BLOCK_SIZE": 1024}, num_warps=4),
        triton.Config({"BLOCK_SIZE": 2048}, num_warps=8),
        triton.Config({"BLOCK_SIZE": 4096}, num_warps=8),
    ],
    key=["n_elements"],
    restore_value=["y_ptr"],  # the benchmark reruns the in-place update: put y back around each run
)
@triton.jit
def relu_scale_inplace_kernel(y_ptr, n_elements, scale, BLOCK_SIZE: tl.constexpr):
    pid = tl.program_id(axis=0)
    offsets = pid * BLOCK_SIZE + tl.arange(0, BLOCK_SIZE)
    mask = offsets < n_elements
    y = tl.load(y_ptr + offsets, mask=mask)
    y = tl.maximum(y, 0.0) * scale
    tl.store(y_ptr + offsets, y, mask=mask)


class ModelNew(nn.Module):
    def __init__(self, in_features: int, out_features: int, scale: float):
        super().__init__()
        self.linear = nn.Linear(in_features, out_features)
        self.scale = scale

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        y = F.linear(x, self.linear.weight, self.linear.bias)
        n_elements = y.numel()
        grid = lambda meta: (triton.cdiv(n_elements, meta["BLOCK_SIZE"]),)  # noqa: E731
        relu_scale_inplace_kernel[grid](y, n_elements, float(self.scale))
        return y
