# An honest Triton ModelNew for KernelBench level2/97_Matmul_BatchNorm_BiasAdd_Divide_Swish: BatchNorm1d in training mode as the reference runs it: a Triton GEMM (bias fused), a Triton kernel per BLOCK_N feature columns reducing over the batch in fp32 (mean, biased variance) and applying the affine, the extra bias, the divide and swish in the same pass; the running statistics updated in torch (unbiased variance, momentum) when training, the eval branch using them.
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def linear_bias_kernel(x_ptr, w_ptr, b_ptr, y_ptr, M, N, K,
                       stride_xm, stride_xk, stride_wn, stride_wk, stride_ym, stride_yn,
                       BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr):
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
        acc += tl.dot(a, b)
    acc += tl.load(b_ptr + rn, mask=rn < N, other=0.0)[None, :]
    tl.store(y_ptr + rm[:, None] * stride_ym + rn[None, :] * stride_yn, acc,
             mask=(rm[:, None] < M) & (rn[None, :] < N))


@triton.jit
def bn_bias_div_swish_kernel(h_ptr, out_ptr, gamma_ptr, beta_ptr, extra_bias_ptr, mean_ptr, var_ptr,
                             M, N, stride_hm, eps, inv_divide,
                             USE_BATCH_STATS: tl.constexpr, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr):
    pid = tl.program_id(0)
    cols = pid * BLOCK_N + tl.arange(0, BLOCK_N)
    cmask = cols < N
    if USE_BATCH_STATS:
        s = tl.zeros((BLOCK_N,), tl.float32)
        for m0 in range(0, M, BLOCK_M):
            rows = m0 + tl.arange(0, BLOCK_M)
            v = tl.load(h_ptr + rows[:, None] * stride_hm + cols[None, :],
                        mask=(rows[:, None] < M) & cmask[None, :], other=0.0)
            s += tl.sum(v, axis=0)
        mean = s / M
        ss = tl.zeros((BLOCK_N,), tl.float32)
        for m0 in range(0, M, BLOCK_M):
            rows = m0 + tl.arange(0, BLOCK_M)
            msk = (rows[:, None] < M) & cmask[None, :]
            v = tl.load(h_ptr + rows[:, None] * stride_hm + cols[None, :], mask=msk, other=0.0)
            d = tl.where(msk, v - mean[None, :], 0.0)
            ss += tl.sum(d * d, axis=0)
        var = ss / M
        tl.store(mean_ptr + cols, mean, mask=cmask)
        tl.store(var_ptr + cols, var, mask=cmask)
    else:
        mean = tl.load(mean_ptr + cols, mask=cmask, other=0.0)
        var = tl.load(var_ptr + cols, mask=cmask, other=1.0)
    rstd = 1.0 / tl.sqrt(var + eps)
    gamma = tl.load(gamma_ptr + cols, mask=cmask, other=1.0)
    beta = tl.load(beta_ptr + cols, mask=cmask, other=0.0)
    extra = tl.load(extra_bias_ptr)
    for m0 in range(0, M, BLOCK_M):
        rows = m0 + tl.arange(0, BLOCK_M)
        msk = (rows[:, None] < M) & cmask[None, :]
        v = tl.load(h_ptr + rows[:, None] * stride_hm + cols[None, :], mask=msk, other=0.0)
        y = (v - mean[None, :]) * rstd[None, :] * gamma[None, :] + beta[None, :]
        y = (y + extra) * inv_divide
        y = y * tl.sigmoid(y)
        tl.store(out_ptr + rows[:, None] * stride_hm + cols[None, :], y, mask=msk)


class ModelNew(nn.Module):
    def __init__(self, in_features, out_features, bn_eps=1e-5, bn_momentum=0.1, bias_shape=(1,), divide_value=1.0):
        super(ModelNew, self).__init__()
        self.matmul = nn.Linear(in_features, out_features)
        self.bn = nn.BatchNorm1d(out_features, eps=bn_eps, momentum=bn_momentum)
        self.bias = nn.Parameter(torch.randn(bias_shape))
        self.divide_value = divide_value

    def forward(self, x):
        M, K = x.shape
        w = self.matmul.weight
        N = w.shape[0]
        h = torch.empty((M, N), device=x.device, dtype=torch.float32)
        linear_bias_kernel[(triton.cdiv(M, 32), triton.cdiv(N, 32))](
            x, w, self.matmul.bias, h, M, N, K, x.stride(0), x.stride(1), w.stride(0), w.stride(1),
            h.stride(0), h.stride(1), BLOCK_M=32, BLOCK_N=32, BLOCK_K=32)
        out = torch.empty_like(h)
        use_batch = self.training or self.bn.running_mean is None
        if use_batch:
            mean = torch.empty(N, device=x.device, dtype=torch.float32)
            var = torch.empty(N, device=x.device, dtype=torch.float32)
        else:
            mean, var = self.bn.running_mean, self.bn.running_var
        BLOCK_N = 32
        bn_bias_div_swish_kernel[(triton.cdiv(N, BLOCK_N),)](
            h, out, self.bn.weight, self.bn.bias, self.bias, mean, var, M, N, h.stride(0), self.bn.eps,
            1.0 / self.divide_value, USE_BATCH_STATS=use_batch, BLOCK_M=64, BLOCK_N=BLOCK_N)
        if use_batch and self.bn.running_mean is not None:
            with torch.no_grad():
                mom = self.bn.momentum
                self.bn.running_mean.mul_(1 - mom).add_(mean, alpha=mom)
                self.bn.running_var.mul_(1 - mom).add_(var * (M / max(M - 1, 1)), alpha=mom)
                self.bn.num_batches_tracked += 1
        return out
