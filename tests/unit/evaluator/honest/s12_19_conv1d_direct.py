"""Direct 1D convolution (stride 1, 'same' padding) + bias + ReLU in one Triton kernel."""
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def conv1d_bias_relu_kernel(
    x_ptr, w_ptr, b_ptr, y_ptr,
    C_in, C_out, L, PAD,
    stride_xn, stride_xc,
    stride_wo, stride_wi,
    stride_yn, stride_yc,
    KSIZE: tl.constexpr,
    BLOCK_CO: tl.constexpr, BLOCK_L: tl.constexpr,
):
    pid_n = tl.program_id(0)
    pid_co = tl.program_id(1)
    pid_l = tl.program_id(2)
    co = pid_co * BLOCK_CO + tl.arange(0, BLOCK_CO)
    l = pid_l * BLOCK_L + tl.arange(0, BLOCK_L)
    co_mask = co < C_out
    acc = tl.zeros((BLOCK_CO, BLOCK_L), dtype=tl.float32)
    for ci in range(0, C_in):
        for k in tl.static_range(KSIZE):
            pos = l + k - PAD
            xv = tl.load(x_ptr + pid_n * stride_xn + ci * stride_xc + pos,
                         mask=(pos >= 0) & (pos < L), other=0.0)
            wv = tl.load(w_ptr + co * stride_wo + ci * stride_wi + k, mask=co_mask, other=0.0)
            acc += wv[:, None] * xv[None, :]
    bias = tl.load(b_ptr + co, mask=co_mask, other=0.0)
    acc = tl.maximum(acc + bias[:, None], 0.0)
    out_ptrs = y_ptr + pid_n * stride_yn + co[:, None] * stride_yc + l[None, :]
    tl.store(out_ptrs, acc, mask=co_mask[:, None] & (l[None, :] < L))


class ModelNew(nn.Module):
    def __init__(self, in_channels: int, out_channels: int, kernel_size: int):
        super().__init__()
        self.conv = nn.Conv1d(in_channels, out_channels, kernel_size, padding=kernel_size // 2)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        x = x.contiguous()
        N, C_in, L = x.shape
        w = self.conv.weight.contiguous()
        C_out, _, K = w.shape
        y = torch.empty((N, C_out, L), device=x.device, dtype=x.dtype)
        BLOCK_CO = 32
        BLOCK_L = 64
        grid = (N, triton.cdiv(C_out, BLOCK_CO), triton.cdiv(L, BLOCK_L))
        conv1d_bias_relu_kernel[grid](
            x, w, self.conv.bias, y,
            C_in, C_out, L, K // 2,
            x.stride(0), x.stride(1),
            w.stride(0), w.stride(1),
            y.stride(0), y.stride(1),
            KSIZE=K, BLOCK_CO=BLOCK_CO, BLOCK_L=BLOCK_L,
        )
        return y
