# An honest Triton ModelNew for l2_gemm_subtract_avgpool_gelu_residual.py (KernelBench level2/51), reduced as its solutions reduce it: mean_n(x W_n^T + b_n - s_n) = x . mean_n(W_n) + mean(b - s). A first kernel sums W's rows in row chunks into a zeroed column vector with tl.atomic_add (a 2-D grid over column blocks and row chunks), folding (b - s) in on the way; a second takes each row's dot product with it, applies the exact GELU (erf) and adds it to the row of the input (the logsumexp over one element is the identity).
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def fold_weight_kernel(w_ptr, b_ptr, s_ptr, wsum_ptr, csum_ptr, N, K, stride_wn,
                       ROWS: tl.constexpr, BLOCK_K: tl.constexpr):
    pid_k = tl.program_id(0)
    pid_r = tl.program_id(1)
    cols = pid_k * BLOCK_K + tl.arange(0, BLOCK_K)
    rows = pid_r * ROWS + tl.arange(0, ROWS)
    m = (rows[:, None] < N) & (cols[None, :] < K)
    w = tl.load(w_ptr + rows[:, None] * stride_wn + cols[None, :], mask=m, other=0.0)
    tl.atomic_add(wsum_ptr + cols, tl.sum(w, axis=0), mask=cols < K)
    if pid_k == 0:
        rm = rows < N
        c = tl.load(b_ptr + rows, mask=rm, other=0.0) - tl.load(s_ptr + rows, mask=rm, other=0.0)
        tl.atomic_add(csum_ptr, tl.sum(c, axis=0))


@triton.jit
def dot_gelu_residual_kernel(x_ptr, wsum_ptr, csum_ptr, out_ptr, K, inv_n, stride_x, stride_o,
                             BLOCK_K: tl.constexpr):
    row = tl.program_id(0)
    offs = tl.arange(0, BLOCK_K)
    acc = tl.zeros((BLOCK_K,), dtype=tl.float32)
    for start in range(0, K, BLOCK_K):
        m = start + offs < K
        acc += tl.load(x_ptr + row * stride_x + start + offs, mask=m, other=0.0) * \
            tl.load(wsum_ptr + start + offs, mask=m, other=0.0)
    v = (tl.sum(acc, axis=0) + tl.load(csum_ptr)) * inv_n
    g = 0.5 * v * (1.0 + tl.math.erf(v * 0.7071067811865476))
    for start in range(0, K, BLOCK_K):
        m = start + offs < K
        xv = tl.load(x_ptr + row * stride_x + start + offs, mask=m, other=0.0)
        tl.store(out_ptr + row * stride_o + start + offs, xv + g, mask=m)


class ModelNew(nn.Module):
    def __init__(self, in_features, out_features, bias=True):
        super(ModelNew, self).__init__()
        assert bias
        self.gemm = nn.Linear(in_features, out_features, bias=bias)
        self.subtract = nn.Parameter(torch.randn(out_features))

    def forward(self, x):
        x = x.contiguous()
        M, K = x.shape
        w = self.gemm.weight
        N = w.shape[0]
        wsum = torch.zeros(K, device=x.device, dtype=torch.float32)
        csum = torch.zeros(1, device=x.device, dtype=torch.float32)
        ROWS, BLOCK_K = 64, 128
        fold_weight_kernel[(triton.cdiv(K, BLOCK_K), triton.cdiv(N, ROWS))](
            w, self.gemm.bias, self.subtract, wsum, csum, N, K, w.stride(0), ROWS=ROWS, BLOCK_K=BLOCK_K)
        out = torch.empty_like(x)
        dot_gelu_residual_kernel[(M,)](x, wsum, csum, out, K, 1.0 / N, x.stride(0), out.stride(0), BLOCK_K=512)
        return out
