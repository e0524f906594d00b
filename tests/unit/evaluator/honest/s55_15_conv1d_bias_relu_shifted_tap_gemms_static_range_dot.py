# honest: Conv1d + bias + ReLU as a sum of shifted GEMMs, one per tap (the "conv as K accumulated matmuls" form of CUTLASS's and many KernelBench answers' 1-D convolutions): each program owns a (BLOCK_CO output channels x BLOCK_L positions) tile of one batch element and, for every tap k unrolled by tl.static_range, accumulates tl.dot(W[:, :, k] tile (BLOCK_CO x BLOCK_CI), X tile at positions l + k - pad (BLOCK_CI x BLOCK_L)) over input-channel chunks, out-of-range positions zeroed by the load mask (the padding); the weight re-laid (K, C_out, C_in) once per forward; bias + ReLU in the epilogue; fp32 tl.dot at its default TF32. problem: conv/conv1d_bias_relu
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def conv1d_taps_kernel(
    x_ptr, w_ptr, b_ptr, y_ptr,
    C_IN, C_OUT, L_IN, L_OUT,
    sxb, sxc, sxl,
    swk, swo, swi,
    syb, syc, syl,
    PAD: tl.constexpr, KSIZE: tl.constexpr,
    BLOCK_CO: tl.constexpr, BLOCK_L: tl.constexpr, BLOCK_CI: tl.constexpr,
):
    pid_l = tl.program_id(0)
    pid_co = tl.program_id(1)
    b = tl.program_id(2).to(tl.int64)

    offs_co = pid_co * BLOCK_CO + tl.arange(0, BLOCK_CO)
    offs_l = pid_l * BLOCK_L + tl.arange(0, BLOCK_L)
    co_mask = offs_co < C_OUT
    l_mask = offs_l < L_OUT

    acc = tl.zeros((BLOCK_CO, BLOCK_L), dtype=tl.float32)
    for k in tl.static_range(KSIZE):
        pos = offs_l + k - PAD
        pos_ok = (pos >= 0) & (pos < L_IN)
        for ci0 in range(0, C_IN, BLOCK_CI):
            offs_ci = ci0 + tl.arange(0, BLOCK_CI)
            ci_mask = offs_ci < C_IN
            w = tl.load(w_ptr + k * swk + offs_co[:, None] * swo + offs_ci[None, :] * swi,
                        mask=co_mask[:, None] & ci_mask[None, :], other=0.0)
            x = tl.load(x_ptr + b * sxb + offs_ci[:, None] * sxc + pos[None, :] * sxl,
                        mask=ci_mask[:, None] & pos_ok[None, :], other=0.0)
            acc = tl.dot(w, x, acc)

    bias = tl.load(b_ptr + offs_co, mask=co_mask, other=0.0)
    acc = tl.maximum(acc + bias[:, None], 0.0)
    tl.store(y_ptr + b * syb + offs_co[:, None] * syc + offs_l[None, :] * syl, acc,
             mask=co_mask[:, None] & l_mask[None, :])


class ModelNew(nn.Module):
    def __init__(self, in_channels: int, out_channels: int, kernel_size: int):
        super().__init__()
        self.conv = nn.Conv1d(in_channels, out_channels, kernel_size, padding=kernel_size // 2)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        B, C_in, L = x.shape
        C_out, _, K = self.conv.weight.shape
        pad = self.conv.padding[0]
        L_out = L + 2 * pad - K + 1
        w = self.conv.weight.permute(2, 0, 1).contiguous()  # (K, C_out, C_in)
        y = torch.empty((B, C_out, L_out), device=x.device, dtype=x.dtype)
        BLOCK_CO, BLOCK_L, BLOCK_CI = 64, 64, 32
        grid = (triton.cdiv(L_out, BLOCK_L), triton.cdiv(C_out, BLOCK_CO), B)
        conv1d_taps_kernel[grid](
            x, w, self.conv.bias, y,
            C_in, C_out, L, L_out,
            *x.stride(), *w.stride(), *y.stride(),
            PAD=pad, KSIZE=K, BLOCK_CO=BLOCK_CO, BLOCK_L=BLOCK_L, BLOCK_CI=BLOCK_CI, num_warps=4,
        )
        return y
