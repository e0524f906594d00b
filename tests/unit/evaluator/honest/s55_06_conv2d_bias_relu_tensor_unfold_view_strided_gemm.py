# honest: conv2d + bias + ReLU as an implicit im2col GEMM over a no-copy window view: the input is zero-padded by F.pad, then `xp.unfold(2, kh, 1).unfold(3, kw, 1)` (Tensor.unfold: a (N, C, OH, OW, KH, KW) view of strides, no gather) is read by a Triton GEMM through its six strides, the reduction index r = (c, i, j) decomposed in-kernel (r // (KH*KW), r // KW % KH, r % KW), the output-pixel index p = (n, oh, ow) likewise; weight read as (C_out, C*KH*KW) through its strides; bias + ReLU in the epilogue, stores straight into NCHW; fp32 tl.dot at its default TF32 (KernelBench conv answers' common form). problem: conv/conv2d_bias_relu
import torch
import torch.nn as nn
import torch.nn.functional as F
import triton
import triton.language as tl


@triton.jit
def conv_window_gemm_kernel(
    win_ptr, w_ptr, b_ptr, out_ptr,
    P, R, C_OUT, OH, OW,
    s_wn, s_wc, s_woh, s_wow, s_wkh, s_wkw,   # strides of the (N, C, OH, OW, KH, KW) window view
    s_oc, s_or,                               # strides of the (C_OUT, R) weight
    s_on, s_oco, s_ooh, s_oow,                # strides of the NCHW output
    KH: tl.constexpr, KW: tl.constexpr,
    BLOCK_P: tl.constexpr, BLOCK_CO: tl.constexpr, BLOCK_R: tl.constexpr,
):
    pid_p = tl.program_id(0)
    pid_c = tl.program_id(1)
    offs_p = pid_p * BLOCK_P + tl.arange(0, BLOCK_P)
    offs_c = pid_c * BLOCK_CO + tl.arange(0, BLOCK_CO)
    p_mask = offs_p < P
    c_mask = offs_c < C_OUT

    n = offs_p // (OH * OW)
    rem = offs_p % (OH * OW)
    oh = rem // OW
    ow = rem % OW
    row_base = n.to(tl.int64) * s_wn + oh * s_woh + ow * s_wow

    acc = tl.zeros((BLOCK_P, BLOCK_CO), dtype=tl.float32)
    for r0 in range(0, R, BLOCK_R):
        offs_r = r0 + tl.arange(0, BLOCK_R)
        r_mask = offs_r < R
        ci = offs_r // (KH * KW)
        ki = (offs_r // KW) % KH
        kj = offs_r % KW
        col_off = ci * s_wc + ki * s_wkh + kj * s_wkw
        a = tl.load(win_ptr + row_base[:, None] + col_off[None, :],
                    mask=p_mask[:, None] & r_mask[None, :], other=0.0)
        w = tl.load(w_ptr + offs_r[:, None] * s_or + offs_c[None, :] * s_oc,
                    mask=r_mask[:, None] & c_mask[None, :], other=0.0)
        acc = tl.dot(a, w, acc)

    bias = tl.load(b_ptr + offs_c, mask=c_mask, other=0.0)
    acc = tl.maximum(acc + bias[None, :], 0.0)
    out_off = (n.to(tl.int64) * s_on + oh * s_ooh + ow * s_oow)[:, None] + offs_c[None, :] * s_oco
    tl.store(out_ptr + out_off, acc, mask=p_mask[:, None] & c_mask[None, :])


def conv2d_bias_relu(x: torch.Tensor, weight: torch.Tensor, bias: torch.Tensor, padding: int) -> torch.Tensor:
    N, C, H, W = x.shape
    C_out, _, KH, KW = weight.shape
    xp = F.pad(x, (padding, padding, padding, padding))
    win = xp.unfold(2, KH, 1).unfold(3, KW, 1)  # (N, C, OH, OW, KH, KW), a view
    OH, OW = win.shape[2], win.shape[3]
    w2 = weight.reshape(C_out, C * KH * KW)
    out = torch.empty((N, C_out, OH, OW), device=x.device, dtype=x.dtype)
    P, R = N * OH * OW, C * KH * KW
    BLOCK_P, BLOCK_CO, BLOCK_R = 64, 64, 32
    grid = (triton.cdiv(P, BLOCK_P), triton.cdiv(C_out, BLOCK_CO))
    conv_window_gemm_kernel[grid](
        win, w2, bias, out,
        P, R, C_out, OH, OW,
        *win.stride(),
        w2.stride(0), w2.stride(1),
        *out.stride(),
        KH=KH, KW=KW, BLOCK_P=BLOCK_P, BLOCK_CO=BLOCK_CO, BLOCK_R=BLOCK_R,
        num_warps=4,
    )
    return out


class ModelNew(nn.Module):
    def __init__(self, in_channels: int, out_channels: int, kernel_size: int):
        super().__init__()
        self.conv = nn.Conv2d(in_channels, out_channels, kernel_size, padding=kernel_size // 2)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return conv2d_bias_relu(x, self.conv.weight, self.conv.bias, self.conv.padding[0])
