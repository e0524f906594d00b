# An honest Triton ModelNew for l2_matmul_mean_softmax.py, reduced the way people reduce it: the mean of x @ W.T + b over the features is x . mean(W, 0) + mean(b), so one Triton kernel folds W into its column mean (a tl.static_range loop over row chunks of the weight) and a second takes each row's dot product with it, adds the bias mean and applies the softmax over the single element (exp(v - max) / sum): 1.0 wherever v is finite.
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def column_mean_kernel(w_ptr, b_ptr, wmean_ptr, bmean_ptr, N, K, stride_wn,
                       CHUNKS: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr):
    pid = tl.program_id(0)
    cols = pid * BLOCK_K + tl.arange(0, BLOCK_K)
    acc = tl.zeros((BLOCK_K,), dtype=tl.float32)
    rows_per_chunk = tl.cdiv(N, CHUNKS)
    for c in tl.static_range(CHUNKS):
        for start in range(c * rows_per_chunk, min((c + 1) * rows_per_chunk, N), BLOCK_N):
            rows = start + tl.arange(0, BLOCK_N)
            m = (rows[:, None] < min((c + 1) * rows_per_chunk, N)) & (cols[None, :] < K)
            w = tl.load(w_ptr + rows[:, None] * stride_wn + cols[None, :], mask=m, other=0.0)
            acc += tl.sum(w, axis=0)
    tl.store(wmean_ptr + cols, acc / N, mask=cols < K)
    if pid == 0:
        offs = tl.arange(0, BLOCK_N)
        bacc = tl.zeros((BLOCK_N,), dtype=tl.float32)
        for start in range(0, N, BLOCK_N):
            bacc += tl.load(b_ptr + start + offs, mask=start + offs < N, other=0.0)
        tl.store(bmean_ptr, tl.sum(bacc, axis=0) / N)


@triton.jit
def row_dot_softmax1_kernel(x_ptr, wmean_ptr, bmean_ptr, out_ptr, K, stride_xm, BLOCK_K: tl.constexpr):
    row = tl.program_id(0)
    offs = tl.arange(0, BLOCK_K)
    acc = tl.zeros((BLOCK_K,), dtype=tl.float32)
    for start in range(0, K, BLOCK_K):
        m = start + offs < K
        x = tl.load(x_ptr + row * stride_xm + start + offs, mask=m, other=0.0)
        w = tl.load(wmean_ptr + start + offs, mask=m, other=0.0)
        acc += x * w
    v = tl.sum(acc, axis=0) + tl.load(bmean_ptr)
    # softmax over a dimension of size 1
    e = tl.exp(v - v)
    tl.store(out_ptr + row, e / e)


class ModelNew(nn.Module):
    def __init__(self, in_features, out_features):
        super(ModelNew, self).__init__()
        self.matmul = nn.Linear(in_features, out_features)

    def forward(self, x):
        x = x.contiguous()
        M, K = x.shape
        w, b = self.matmul.weight, self.matmul.bias
        N = w.shape[0]
        wmean = torch.empty(K, device=x.device, dtype=torch.float32)
        bmean = torch.empty(1, device=x.device, dtype=torch.float32)
        column_mean_kernel[(triton.cdiv(K, 128),)](w, b, wmean, bmean, N, K, w.stride(0),
                                                   CHUNKS=4, BLOCK_N=32, BLOCK_K=128)
        out = torch.empty((M, 1), device=x.device, dtype=torch.float32)
        row_dot_softmax1_kernel[(M,)](x, wmean, bmean, out, K, x.stride(0), BLOCK_K=512)
        return out
