# l3_mlp_solution.py with each tl.dot operand truncated to TF32's 10 mantissa bits in the kernel, as the GPU's tensor cores take float32 bits (tl.dot's default precision): under the CPU interpreter, whose tl.dot is full float32, this is the arithmetic the honest kernel does on the H200, where the spiked trial called it incorrect (session 27).
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.autotune(
    configs=[
        triton.Config({"BLOCK_M": 32, "BLOCK_N": 64, "BLOCK_K": 32}, num_warps=4, num_stages=3),
        triton.Config({"BLOCK_M": 64, "BLOCK_N": 64, "BLOCK_K": 32}, num_warps=4, num_stages=4),
        triton.Config({"BLOCK_M": 64, "BLOCK_N": 128, "BLOCK_K": 64}, num_warps=8, num_stages=3),
        triton.Config({"BLOCK_M": 128, "BLOCK_N": 128, "BLOCK_K": 32}, num_warps=8, num_stages=4),
    ],
    key=["M", "N", "K"],
)
@triton.jit
def linear_kernel(x_ptr, w_ptr, b_ptr, y_ptr, M, N, K,
                  stride_xm, stride_xk, stride_wn, stride_wk, stride_ym, stride_yn,
                  APPLY_RELU: tl.constexpr, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr,
                  BLOCK_K: tl.constexpr):
    pid_m = tl.program_id(0)
    pid_n = tl.program_id(1)
    rm = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
    rn = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
    rk = tl.arange(0, BLOCK_K)
    acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
    for k0 in range(0, K, BLOCK_K):
        kk = k0 + rk
        a = tl.load(x_ptr + rm[:, None] * stride_xm + kk[None, :] * stride_xk,
                    mask=(rm[:, None] < M) & (kk[None, :] < K), other=0.0)
        # W is (N, K): the (K, N) tile of W.T through its strides
        b = tl.load(w_ptr + kk[:, None] * stride_wk + rn[None, :] * stride_wn,
                    mask=(kk[:, None] < K) & (rn[None, :] < N), other=0.0)
        a = (a.to(tl.int32, bitcast=True) & -8192).to(tl.float32, bitcast=True)
        b = (b.to(tl.int32, bitcast=True) & -8192).to(tl.float32, bitcast=True)
        acc += tl.dot(a, b)
    acc += tl.load(b_ptr + rn, mask=rn < N, other=0.0)[None, :]
    if APPLY_RELU:
        acc = tl.maximum(acc, 0.0)
    tl.store(y_ptr + rm[:, None] * stride_ym + rn[None, :] * stride_yn, acc,
             mask=(rm[:, None] < M) & (rn[None, :] < N))


def triton_linear(x, weight, bias, relu):
    M, K = x.shape
    N = weight.shape[0]
    y = x.new_empty((M, N))
    grid = lambda meta: (triton.cdiv(M, meta["BLOCK_M"]), triton.cdiv(N, meta["BLOCK_N"]))
    linear_kernel[grid](x, weight, bias, y, M, N, K,
                        x.stride(0), x.stride(1), weight.stride(0), weight.stride(1),
                        y.stride(0), y.stride(1), APPLY_RELU=relu)
    return y


class ModelNew(nn.Module):
    def __init__(self, input_size, layer_sizes, output_size):
        super(ModelNew, self).__init__()
        self.layers = nn.ModuleList()
        width = input_size
        for size in layer_sizes:
            self.layers.append(nn.Linear(width, size))
            width = size
        self.layers.append(nn.Linear(width, output_size))

    def forward(self, x):
        h = x
        last = len(self.layers) - 1
        for i, layer in enumerate(self.layers):
            h = triton_linear(h, layer.weight, layer.bias, relu=i < last)
        return h
