# honest: a direct 1-D convolution with the taps unrolled by tl.static_range over a constexpr kernel size, stride_* arguments, a 2-D grid (batch x out-channel, length blocks), weights from the reference's own nn.Conv1d. problem: conv/conv1d_bias_relu
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def conv1d_bias_relu_kernel(
    x_ptr, w_ptr, b_ptr, y_ptr,
    C_in, C_out, L,
    stride_xb, stride_xc, stride_xl,
    stride_wo, stride_wi, stride_wk,
    stride_yb, stride_yc, stride_yl,
    KSIZE: tl.constexpr, PAD: tl.constexpr, BLOCK_L: tl.constexpr,
):
    pid_bc = tl.program_id(0)
    pid_l = tl.program_id(1)
    b = pid_bc // C_out
    co = pid_bc % C_out
    offs = pid_l * BLOCK_L + tl.arange(0, BLOCK_L)
    acc = tl.zeros((BLOCK_L,), dtype=tl.float32)
    for ci in range(0, C_in):
        for k in tl.static_range(KSIZE):
            pos = offs + k - PAD
            valid = (pos >= 0) & (pos < L)
            xv = tl.load(x_ptr + b * stride_xb + ci * stride_xc + pos * stride_xl, mask=valid,
                         other=0.0)
            wv = tl.load(w_ptr + co * stride_wo + ci * stride_wi + k * stride_wk)
            acc += xv * wv
    acc += tl.load(b_ptr + co)
    acc = tl.maximum(acc, 0.0)
    tl.store(y_ptr + b * stride_yb + co * stride_yc + offs * stride_yl, acc, mask=offs < L)


class ModelNew(nn.Module):
    def __init__(self, in_channels: int, out_channels: int, kernel_size: int):
        super().__init__()
        self.conv = nn.Conv1d(in_channels, out_channels, kernel_size, padding=kernel_size // 2)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        w, bias = self.conv.weight, self.conv.bias
        B, C_in, L = x.shape
        C_out, _, K = w.shape
        y = torch.empty((B, C_out, L), device=x.device, dtype=x.dtype)
        BLOCK_L = 128
        grid = (B * C_out, triton.cdiv(L, BLOCK_L))
        conv1d_bias_relu_kernel[grid](
            x, w, bias, y, C_in, C_out, L,
            x.stride(0), x.stride(1), x.stride(2),
            w.stride(0), w.stride(1), w.stride(2),
            y.stride(0), y.stride(1), y.stride(2),
            KSIZE=K, PAD=self.conv.padding[0], BLOCK_L=BLOCK_L,
        )
        return y
