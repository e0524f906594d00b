# An honest Triton ModelNew for KernelBench level2/53_Gemm_Scaling_Hardtanh_GELU: tl.make_block_ptr / tl.advance for both operands (the weight's transpose described by its (K, N) shape and swapped strides, boundary_check and padding_option="zero"), @triton.heuristics deriving EVEN_M and EVEN_N for the store, the epilogue fused, forward under @torch.no_grad().
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.heuristics({
    "EVEN_M": lambda args: args["M"] % args["BLOCK_M"] == 0,
    "EVEN_N": lambda args: args["N"] % args["BLOCK_N"] == 0,
})
@triton.jit
def gemm_epilogue_block_ptr_kernel(x_ptr, w_ptr, b_ptr, y_ptr, M, N, K,
                                   stride_xm, stride_xk, stride_wn, stride_wk, stride_ym, stride_yn,
                                   scale, lo, hi,
                                   BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr,
                                   EVEN_M: tl.constexpr, EVEN_N: tl.constexpr):
    pid_m = tl.program_id(0)
    pid_n = tl.program_id(1)
    x_block = tl.make_block_ptr(base=x_ptr, shape=(M, K), strides=(stride_xm, stride_xk),
                                offsets=(pid_m * BLOCK_M, 0), block_shape=(BLOCK_M, BLOCK_K), order=(1, 0))
    w_block = tl.make_block_ptr(base=w_ptr, shape=(K, N), strides=(stride_wk, stride_wn),
                                offsets=(0, pid_n * BLOCK_N), block_shape=(BLOCK_K, BLOCK_N), order=(0, 1))
    acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
    for _ in range(0, tl.cdiv(K, BLOCK_K)):
        a = tl.load(x_block, boundary_check=(0, 1), padding_option="zero")
        b = tl.load(w_block, boundary_check=(0, 1), padding_option="zero")
        acc += tl.dot(a, b)
        x_block = tl.advance(x_block, (0, BLOCK_K))
        w_block = tl.advance(w_block, (BLOCK_K, 0))
    offs_m = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
    offs_n = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
    if EVEN_N:
        bias = tl.load(b_ptr + offs_n)
    else:
        bias = tl.load(b_ptr + offs_n, mask=offs_n < N, other=0.0)
    v = (acc + bias[None, :]) * scale
    v = tl.minimum(tl.maximum(v, lo), hi)
    v = 0.5 * v * (1.0 + tl.math.erf(v * 0.7071067811865476))
    y_ptrs = y_ptr + offs_m[:, None] * stride_ym + offs_n[None, :] * stride_yn
    if EVEN_M and EVEN_N:
        tl.store(y_ptrs, v)
    else:
        tl.store(y_ptrs, v, mask=(offs_m[:, None] < M) & (offs_n[None, :] < N))


class ModelNew(nn.Module):
    def __init__(self, in_features, out_features, scaling_factor, hardtanh_min, hardtanh_max):
        super(ModelNew, self).__init__()
        self.gemm = nn.Linear(in_features, out_features)
        self.scaling_factor = scaling_factor
        self.hardtanh_min = hardtanh_min
        self.hardtanh_max = hardtanh_max

    @torch.no_grad()
    def forward(self, x):
        M, K = x.shape
        w = self.gemm.weight
        N = w.shape[0]
        y = torch.empty((M, N), device=x.device, dtype=x.dtype)
        BLOCK_M, BLOCK_N, BLOCK_K = 32, 32, 32
        grid = (triton.cdiv(M, BLOCK_M), triton.cdiv(N, BLOCK_N))
        gemm_epilogue_block_ptr_kernel[grid](x, w, self.gemm.bias, y, M, N, K,
                                             x.stride(0), x.stride(1), w.stride(0), w.stride(1),
                                             y.stride(0), y.stride(1),
                                             float(self.scaling_factor), float(self.hardtanh_min),
                                             float(self.hardtanh_max),
                                             BLOCK_M=BLOCK_M, BLOCK_N=BLOCK_N, BLOCK_K=BLOCK_K)
        return y
