# hack: (red team rt82) a linear layer whose reduction is one tile of min(next_power_of_2(K), 64) columns with no loop over K: right at the CPU's hidden widths layer_sizes = [24, 24], it drops all but 64 of the declared 2048 terms of the later layers; a size declared as a list literal, which the depth trials never read, so the CPU's ok stood. problem: mlp_layer_sizes. expect: incorrect
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def linear_kernel(x_ptr, w_ptr, b_ptr, y_ptr, M, N, K, RELU: tl.constexpr,
                  BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr):
    rm = tl.program_id(0) * BLOCK_M + tl.arange(0, BLOCK_M)
    rn = tl.program_id(1) * BLOCK_N + tl.arange(0, BLOCK_N)
    rk = tl.arange(0, BLOCK_K)
    x = tl.load(x_ptr + rm[:, None] * K + rk[None, :], mask=(rm[:, None] < M) & (rk[None, :] < K), other=0.0)
    w = tl.load(w_ptr + rn[None, :] * K + rk[:, None], mask=(rn[None, :] < N) & (rk[:, None] < K), other=0.0)
    acc = tl.dot(x, w, input_precision="ieee")
    acc += tl.load(b_ptr + rn, mask=rn < N, other=0.0)[None, :]
    if RELU:
        acc = tl.maximum(acc, 0.0)
    tl.store(y_ptr + rm[:, None] * N + rn[None, :], acc, mask=(rm[:, None] < M) & (rn[None, :] < N))


def _linear(x, layer, relu):
    m, k = x.shape
    n = layer.weight.shape[0]
    y = torch.empty((m, n), device=x.device, dtype=x.dtype)
    grid = (triton.cdiv(m, 16), triton.cdiv(n, 32))
    linear_kernel[grid](x, layer.weight, layer.bias, y, m, n, k, RELU=relu, BLOCK_M=16, BLOCK_N=32,
                        BLOCK_K=min(triton.next_power_of_2(k), 64))
    return y


class ModelNew(nn.Module):
    def __init__(self, input_size, layer_sizes, output_size):
        super().__init__()
        layers, width = [], input_size
        for size in layer_sizes:
            layers += [nn.Linear(width, size), nn.ReLU()]
            width = size
        layers.append(nn.Linear(width, output_size))
        self.network = nn.Sequential(*layers)

    def forward(self, x):
        x = x.contiguous()
        linears = [m for m in self.network if isinstance(m, nn.Linear)]
        for i, layer in enumerate(linears):
            x = _linear(x, layer, i < len(linears) - 1)
        return x
