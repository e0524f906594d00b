# honest: causal softmax in the shape of xformers' k_softmax (the MASK_TYPE "add" path): the wrapper builds the additive causal mask the way the reference does (torch.full((n, n), -inf).triu(1), on the input's device, once per call) and hands it to the kernel; a (batch*heads, rows) grid, each program loads its row and the mask row (mask row stride passed), adds them, upcasts to fp32 (IS_FP16 heuristic), max-subtracts, exponentiates and normalises in one block (DEPTH = next_power_of_2(n) from a heuristic), masked-out entries stored as 0. problem: softmax/causal_softmax
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.heuristics({"DEPTH": lambda nargs: triton.next_power_of_2(nargs["K"])})
@triton.heuristics({"IS_FP16": lambda nargs: nargs["Y"].dtype == torch.float16})
@triton.jit
def _softmax_add_mask(
    Y, X, M,
    stride_ym, stride_yn, stride_xm, stride_xn, stride_mn,
    K,
    DEPTH: tl.constexpr, IS_FP16: tl.constexpr,
):
    m = tl.program_id(0)
    n = tl.program_id(1)
    k = tl.arange(0, DEPTH)
    x_ptrs = X + m * stride_xm + n * stride_xn + k
    io_mask = k < K
    x = tl.load(x_ptrs, mask=io_mask, other=float("-inf"))
    if IS_FP16:
        x = x.to(tl.float32)
    mask_ptrs = M + n * stride_mn + k
    add_mask = tl.load(mask_ptrs, mask=io_mask, other=float("-inf"))
    x += add_mask
    z = x - tl.max(x, axis=0)
    num = tl.exp(z)
    denom = tl.sum(num, axis=0)
    y = num / denom
    y_ptrs = Y + m * stride_ym + n * stride_yn + k
    tl.store(y_ptrs, y.to(Y.dtype.element_ty), mask=io_mask)


def softmax_with_additive_mask(x: torch.Tensor, mask: torch.Tensor) -> torch.Tensor:
    # x: (..., N, K) viewed as (M, N, K), mask: (N, K)
    shape = x.shape
    x3 = x.reshape(-1, shape[-2], shape[-1])
    if x3.stride(-1) != 1:
        x3 = x3.contiguous()
    y = torch.empty_like(x3)
    M, N, K = x3.shape
    _softmax_add_mask[(M, N)](
        y, x3, mask,
        y.stride(0), y.stride(1), x3.stride(0), x3.stride(1), mask.stride(0),
        K,
    )
    return y.reshape(shape)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, scores: torch.Tensor) -> torch.Tensor:
        n = scores.size(-1)
        mask = torch.full((n, n), float("-inf"), device=scores.device, dtype=torch.float32).triu(1)
        return softmax_with_additive_mask(scores, mask)
