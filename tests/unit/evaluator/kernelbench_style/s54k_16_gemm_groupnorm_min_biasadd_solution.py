# An honest Triton ModelNew for KernelBench level2/75_Gemm_GroupNorm_Min_BiasAdd: torch.addmm for the GEMM, a Triton kernel per row holding the whole row as a (groups, group_size) tile (GroupNorm statistics by tl.sum over axis 1, the affine, then tl.min over the row), and a second Triton kernel writing the broadcast (1, out_features, batch, 1) result bias[c] + rowmin[b] the way PyTorch broadcasts (batch, 1) + (1, C, 1, 1).
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def groupnorm_rowmin_kernel(x_ptr, gamma_ptr, beta_ptr, rowmin_ptr, stride_row, G, GS, eps,
                            BLOCK_G: tl.constexpr, BLOCK_GS: tl.constexpr):
    row = tl.program_id(0)
    g = tl.arange(0, BLOCK_G)
    j = tl.arange(0, BLOCK_GS)
    mask = (g[:, None] < G) & (j[None, :] < GS)
    ch = g[:, None] * GS + j[None, :]
    x = tl.load(x_ptr + row * stride_row + ch, mask=mask, other=0.0).to(tl.float32)
    mean = tl.sum(x, axis=1) / GS
    d = tl.where(mask, x - mean[:, None], 0.0)
    var = tl.sum(d * d, axis=1) / GS
    rstd = 1.0 / tl.sqrt(var + eps)
    gamma = tl.load(gamma_ptr + ch, mask=mask, other=1.0)
    beta = tl.load(beta_ptr + ch, mask=mask, other=0.0)
    y = d * rstd[:, None] * gamma + beta
    y = tl.where(mask, y, float("inf"))
    tl.store(rowmin_ptr + row, tl.min(tl.min(y, axis=1), axis=0))


@triton.jit
def broadcast_bias_kernel(rowmin_ptr, bias_ptr, out_ptr, B, C, BLOCK_C: tl.constexpr, BLOCK_B: tl.constexpr):
    pid_c = tl.program_id(0)
    pid_b = tl.program_id(1)
    c = pid_c * BLOCK_C + tl.arange(0, BLOCK_C)
    b = pid_b * BLOCK_B + tl.arange(0, BLOCK_B)
    bias = tl.load(bias_ptr + c, mask=c < C, other=0.0)
    m = tl.load(rowmin_ptr + b, mask=b < B, other=0.0)
    out = bias[:, None] + m[None, :]
    tl.store(out_ptr + c[:, None] * B + b[None, :], out, mask=(c[:, None] < C) & (b[None, :] < B))


class ModelNew(nn.Module):
    def __init__(self, in_features, out_features, num_groups, bias_shape):
        super(ModelNew, self).__init__()
        self.gemm = nn.Linear(in_features, out_features)
        self.group_norm = nn.GroupNorm(num_groups, out_features)
        self.bias = nn.Parameter(torch.randn(bias_shape))

    def forward(self, x):
        h = torch.addmm(self.gemm.bias, x, self.gemm.weight.t())
        B, C = h.shape
        G = self.group_norm.num_groups
        GS = C // G
        rowmin = torch.empty(B, device=x.device, dtype=torch.float32)
        groupnorm_rowmin_kernel[(B,)](h, self.group_norm.weight, self.group_norm.bias, rowmin, h.stride(0), G, GS,
                                      self.group_norm.eps, BLOCK_G=triton.next_power_of_2(G),
                                      BLOCK_GS=triton.next_power_of_2(GS))
        out = torch.empty((1, C, B, 1), device=x.device, dtype=torch.float32)
        BLOCK_C, BLOCK_B = 64, 32
        broadcast_bias_kernel[(triton.cdiv(C, BLOCK_C), triton.cdiv(B, BLOCK_B))](
            rowmin, self.bias.reshape(-1), out, B, C, BLOCK_C=BLOCK_C, BLOCK_B=BLOCK_B)
        return out
