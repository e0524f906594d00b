# An honest Triton ModelNew for KernelBench level2/86_Matmul_Divide_GELU (problem s53k_11_matmul_divide_gelu): W.T made contiguous on the first forward and cached, refreshed when the weight's data_ptr or device changes; the reciprocal of the divisor passed as a float tl.constexpr; a tl.dot GEMM at ieee precision with the bias/scale/erf-GELU epilogue.
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def gemm_div_gelu_kernel(x_ptr, wt_ptr, b_ptr, y_ptr, M, N, K,
                         INV_DIV: tl.constexpr, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr):
    pid_m = tl.program_id(0)
    pid_n = tl.program_id(1)
    rm = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
    rn = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
    acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
    for k0 in range(0, K, BLOCK_K):
        rk = k0 + tl.arange(0, BLOCK_K)
        a = tl.load(x_ptr + rm[:, None] * K + rk[None, :], mask=(rm[:, None] < M) & (rk[None, :] < K), other=0.0)
        b = tl.load(wt_ptr + rk[:, None] * N + rn[None, :], mask=(rk[:, None] < K) & (rn[None, :] < N), other=0.0)
        acc += tl.dot(a, b, input_precision="ieee")
    acc += tl.load(b_ptr + rn, mask=rn < N, other=0.0)[None, :]
    acc = acc * INV_DIV
    y = acc * 0.5 * (1.0 + tl.erf(acc * 0.7071067811865476))
    tl.store(y_ptr + rm[:, None] * N + rn[None, :], y, mask=(rm[:, None] < M) & (rn[None, :] < N))


class ModelNew(nn.Module):
    def __init__(self, input_size, output_size, divisor):
        super(ModelNew, self).__init__()
        self.linear = nn.Linear(input_size, output_size)
        self.divisor = divisor
        self._wt = None
        self._wt_key = None

    def _weight_t(self):
        w = self.linear.weight
        key = (w.data_ptr(), w.device)
        if self._wt is None or self._wt_key != key:
            self._wt = w.t().contiguous()
            self._wt_key = key
        return self._wt

    def forward(self, x):
        x = x.contiguous()
        M, K = x.shape
        wt = self._weight_t()
        N = wt.shape[1]
        y = torch.empty((M, N), device=x.device, dtype=torch.float32)
        grid = (triton.cdiv(M, 32), triton.cdiv(N, 32))
        gemm_div_gelu_kernel[grid](x, wt, self.linear.bias, y, M, N, K, INV_DIV=1.0 / self.divisor,
                                   BLOCK_M=32, BLOCK_N=32, BLOCK_K=32)
        return y
