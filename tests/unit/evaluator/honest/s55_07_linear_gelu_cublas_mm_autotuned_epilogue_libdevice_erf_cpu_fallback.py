# honest: linear + exact GELU the way many KernelBench level-2 answers split it: cuBLAS does the GEMM (torch.mm(x, weight.t()), no bias), then one Triton epilogue adds the bias and applies 0.5*x*(1+erf(x/sqrt2)) with libdevice.erf (from triton.language.extra import libdevice) over 2-D tiles; the epilogue @triton.autotune'd over twelve (BLOCK_M, BLOCK_N, num_warps) configs keyed on M/N, the bias loaded once per column tile; forward keeps a plain-PyTorch fallback `if not x.is_cuda: return F.gelu(F.linear(...))` for CPU tensors. problem: matmul/linear_gelu
import torch
import torch.nn as nn
import torch.nn.functional as F
import triton
import triton.language as tl
from triton.language.extra import libdevice


def _epilogue_configs():
    return [
        triton.Config({"BLOCK_M": bm, "BLOCK_N": bn}, num_warps=w)
        for bm in (16, 32, 64)
        for bn in (64, 128)
        for w in (4, 8)
    ]


@triton.autotune(configs=_epilogue_configs(), key=["M", "N"])
@triton.jit
def bias_gelu_epilogue_kernel(
    y_ptr, bias_ptr, out_ptr,
    M, N,
    stride_ym, stride_yn,
    stride_om, stride_on,
    BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr,
):
    pid_m = tl.program_id(0)
    pid_n = tl.program_id(1)
    rm = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
    rn = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
    mask = (rm[:, None] < M) & (rn[None, :] < N)

    bias = tl.load(bias_ptr + rn, mask=rn < N, other=0.0).to(tl.float32)
    y = tl.load(y_ptr + rm[:, None] * stride_ym + rn[None, :] * stride_yn, mask=mask, other=0.0).to(tl.float32)
    y = y + bias[None, :]
    out = 0.5 * y * (1.0 + libdevice.erf(y * 0.7071067811865476))
    tl.store(out_ptr + rm[:, None] * stride_om + rn[None, :] * stride_on,
             out.to(out_ptr.dtype.element_ty), mask=mask)


def linear_gelu(x: torch.Tensor, weight: torch.Tensor, bias: torch.Tensor) -> torch.Tensor:
    if not x.is_cuda:
        return F.gelu(F.linear(x, weight, bias))
    y = torch.mm(x, weight.t())
    M, N = y.shape
    out = torch.empty_like(y)
    grid = lambda meta: (triton.cdiv(M, meta["BLOCK_M"]), triton.cdiv(N, meta["BLOCK_N"]))  # noqa: E731
    bias_gelu_epilogue_kernel[grid](
        y, bias, out, M, N,
        y.stride(0), y.stride(1),
        out.stride(0), out.stride(1),
    )
    return out


class ModelNew(nn.Module):
    def __init__(self, in_features: int, out_features: int):
        super().__init__()
        self.linear = nn.Linear(in_features, out_features)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return linear_gelu(x, self.linear.weight, self.linear.bias)
