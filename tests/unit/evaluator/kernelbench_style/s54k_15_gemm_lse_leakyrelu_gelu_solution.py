# An honest Triton ModelNew for KernelBench level2/64_Gemm_LogSumExp_LeakyReLU_LeakyReLU_GELU_GELU: two Triton kernels: a tl.dot GEMM with the bias (optional, HAS_BIAS constexpr) into an fp32 buffer, then one program per row: an online (running max, rescaled sum) log-sum-exp over BLOCK_N chunks, the two LeakyReLUs and two erf GELUs on the scalar, stored into a (batch, 1) output.
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def linear_kernel(x_ptr, w_ptr, b_ptr, y_ptr, M, N, K,
                  stride_xm, stride_xk, stride_wn, stride_wk, stride_ym, stride_yn,
                  HAS_BIAS: tl.constexpr, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr):
    pid_m = tl.program_id(0)
    pid_n = tl.program_id(1)
    rm = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
    rn = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
    rk = tl.arange(0, BLOCK_K)
    acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
    for k0 in range(0, K, BLOCK_K):
        a = tl.load(x_ptr + rm[:, None] * stride_xm + (k0 + rk)[None, :] * stride_xk,
                    mask=(rm[:, None] < M) & ((k0 + rk)[None, :] < K), other=0.0)
        b = tl.load(w_ptr + rn[None, :] * stride_wn + (k0 + rk)[:, None] * stride_wk,
                    mask=(rn[None, :] < N) & ((k0 + rk)[:, None] < K), other=0.0)
        acc = tl.dot(a, b, acc)
    if HAS_BIAS:
        acc += tl.load(b_ptr + rn, mask=rn < N, other=0.0)[None, :]
    tl.store(y_ptr + rm[:, None] * stride_ym + rn[None, :] * stride_yn, acc,
             mask=(rm[:, None] < M) & (rn[None, :] < N))


@triton.jit
def _gelu(x):
    return 0.5 * x * (1.0 + tl.math.erf(x * 0.7071067811865476))


@triton.jit
def lse_act_kernel(h_ptr, out_ptr, N, stride_hm, BLOCK_N: tl.constexpr):
    row = tl.program_id(0)
    m = tl.full((BLOCK_N,), float("-inf"), tl.float32)
    s = tl.zeros((BLOCK_N,), tl.float32)
    for n0 in range(0, N, BLOCK_N):
        cols = n0 + tl.arange(0, BLOCK_N)
        v = tl.load(h_ptr + row * stride_hm + cols, mask=cols < N, other=float("-inf"))
        m_new = tl.maximum(m, v)
        scale = tl.where(m_new == float("-inf"), 0.0, tl.exp(m - m_new))
        s = s * scale + tl.where(v == float("-inf"), 0.0, tl.exp(v - m_new))
        m = m_new
    m_all = tl.max(m, axis=0)
    total = tl.sum(s * tl.where(m == float("-inf"), 0.0, tl.exp(m - m_all)), axis=0)
    x = m_all + tl.log(total)
    x = tl.where(x > 0, x, 0.01 * x)
    x = tl.where(x > 0, x, 0.01 * x)
    x = _gelu(x)
    x = _gelu(x)
    tl.store(out_ptr + row, x)


class ModelNew(nn.Module):
    def __init__(self, in_features, out_features, bias=True):
        super(ModelNew, self).__init__()
        self.linear = nn.Linear(in_features, out_features, bias=bias)

    def forward(self, x):
        M, K = x.shape
        w = self.linear.weight
        N = w.shape[0]
        h = torch.empty((M, N), device=x.device, dtype=torch.float32)
        b = self.linear.bias
        BM, BN, BK = 32, 64, 32
        linear_kernel[(triton.cdiv(M, BM), triton.cdiv(N, BN))](
            x, w, b if b is not None else w, h, M, N, K, x.stride(0), x.stride(1), w.stride(0), w.stride(1),
            h.stride(0), h.stride(1), HAS_BIAS=b is not None, BLOCK_M=BM, BLOCK_N=BN, BLOCK_K=BK)
        out = torch.empty((M, 1), device=x.device, dtype=torch.float32)
        lse_act_kernel[(M,)](h, out, N, h.stride(0), BLOCK_N=128)
        return out
