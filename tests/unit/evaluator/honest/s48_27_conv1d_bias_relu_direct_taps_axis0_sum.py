# honest: direct Conv1d + bias + ReLU: a program per (batch, out channel, BLOCK_L output positions) gathers the [BLOCK_R, BLOCK_L] window tile (R = in_channels * kernel_size taps, zero padding by masks), multiplies by the weight column and reduces the taps with tl.sum(axis=0); R done in BLOCK_R chunks, num_warps=2; the module keeps the reference's nn.Conv1d (its seeded weights). problem: conv/conv1d_bias_relu
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def conv1d_bias_relu_kernel(x_ptr, w_ptr, b_ptr, y_ptr, C_in, L, C_out, R, PAD,
                            KS: tl.constexpr, BLOCK_R: tl.constexpr, BLOCK_L: tl.constexpr):
    pid_nc = tl.program_id(0)
    pid_l = tl.program_id(1)
    n = pid_nc // C_out
    co = pid_nc % C_out
    offs_l = pid_l * BLOCK_L + tl.arange(0, BLOCK_L)
    acc = tl.zeros([BLOCK_L], dtype=tl.float32)
    for r0 in range(0, R, BLOCK_R):
        r = r0 + tl.arange(0, BLOCK_R)
        ci = r // KS
        k = r % KS
        pos = offs_l[None, :] + k[:, None] - PAD
        m = (r[:, None] < R) & (pos >= 0) & (pos < L) & (offs_l[None, :] < L)
        xv = tl.load(x_ptr + (n * C_in + ci[:, None]) * L + pos, mask=m, other=0.0)
        wv = tl.load(w_ptr + co * R + r, mask=r < R, other=0.0)
        acc += tl.sum(xv * wv[:, None], axis=0)
    bias = tl.load(b_ptr + co)
    out = tl.maximum(acc + bias, 0.0)
    tl.store(y_ptr + (n * C_out + co) * L + offs_l, out, mask=offs_l < L)


class ModelNew(nn.Module):
    def __init__(self, in_channels: int, out_channels: int, kernel_size: int):
        super().__init__()
        self.conv = nn.Conv1d(in_channels, out_channels, kernel_size, padding=kernel_size // 2)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        x = x.contiguous()
        N, C_in, L = x.shape
        w = self.conv.weight.contiguous()
        C_out, _, KS = w.shape
        y = torch.empty(N, C_out, L, device=x.device, dtype=x.dtype)
        R = C_in * KS
        BLOCK_L = 64
        grid = (N * C_out, triton.cdiv(L, BLOCK_L))
        conv1d_bias_relu_kernel[grid](x, w, self.conv.bias, y, C_in, L, C_out, R, self.conv.padding[0],
                                      KS=KS, BLOCK_R=16, BLOCK_L=BLOCK_L, num_warps=2)
        return y
