# honest: linear + ReLU + scale launched per chunk of 96 input rows (x[m0:m0+96], out[m0:m0+96], a ragged last chunk), the scale rounded to float32 on the host through a 0-d tensor and handed as a float. problem: fused/linear_relu_scale
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def _lin_relu_scale(x_ptr, w_ptr, b_ptr, y_ptr, M, N, K, scale,
                    BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr):
    rm = tl.program_id(0) * BM + tl.arange(0, BM)
    rn = tl.program_id(1) * BN + tl.arange(0, BN)
    acc = tl.zeros((BM, BN), tl.float32)
    for k0 in range(0, K, BK):
        rk = k0 + tl.arange(0, BK)
        x = tl.load(x_ptr + rm[:, None] * K + rk[None, :], mask=(rm[:, None] < M) & (rk[None, :] < K), other=0.0)
        w = tl.load(w_ptr + rn[None, :] * K + rk[:, None], mask=(rn[None, :] < N) & (rk[:, None] < K), other=0.0)
        acc = tl.dot(x, w, acc, input_precision="ieee")
    acc += tl.load(b_ptr + rn, mask=rn < N, other=0.0)[None, :]
    acc = tl.maximum(acc, 0.0) * scale
    tl.store(y_ptr + rm[:, None] * N + rn[None, :], acc, mask=(rm[:, None] < M) & (rn[None, :] < N))


def _f32(v: float) -> float:
    return torch.tensor(v, dtype=torch.float32).item()


class ModelNew(nn.Module):
    ROWS = 96

    def __init__(self, in_features, out_features, scale):
        super().__init__()
        self.linear = nn.Linear(in_features, out_features)
        self.scale = _f32(scale)

    def forward(self, x):
        x = x.contiguous()
        M, K = x.shape
        N = self.linear.weight.shape[0]
        y = torch.empty((M, N), device=x.device, dtype=x.dtype)
        for m0 in range(0, M, self.ROWS):
            xs, ys = x[m0:m0 + self.ROWS], y[m0:m0 + self.ROWS]
            grid = (triton.cdiv(xs.shape[0], 32), triton.cdiv(N, 32))
            _lin_relu_scale[grid](xs, self.linear.weight, self.linear.bias, ys, xs.shape[0], N, K, self.scale,
                                  BM=32, BN=32, BK=32)
        return y
