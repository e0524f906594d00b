# honest: linear + sigmoid + row sum as a level-2 fusion: a Triton GEMM whose epilogue adds the bias, applies sigmoid and reduces its BLOCK_N columns into one partial per (row, column tile) with tl.where masking the padded columns out, written to a [M, n_tiles] workspace, then an Inductor-style triton_per_fused_sum_1 (xindex [:, None], rindex [None, :], `tmp3 = tl.where(rmask & xmask, tmp1, 0)`, `tl.sum(tmp3, 1)[:, None]`) adds the partials in a fixed order; an autotune list of triton.Config with num_stages/num_warps keyed on N and K, every config with the same BLOCK_N so the workspace's column tiles are the same whichever config the autotuner keeps. problem: fused/matmul_sigmoid_sum
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.autotune(
    configs=[
        triton.Config({"BLOCK_M": 64, "BLOCK_N": 64, "BLOCK_K": 32}, num_stages=3, num_warps=4),
        triton.Config({"BLOCK_M": 128, "BLOCK_N": 64, "BLOCK_K": 32}, num_stages=4, num_warps=4),
        triton.Config({"BLOCK_M": 32, "BLOCK_N": 64, "BLOCK_K": 64}, num_stages=3, num_warps=8),
    ],
    key=["N", "K"],
)
@triton.jit
def gemm_sigmoid_partial_kernel(x_ptr, w_ptr, b_ptr, part_ptr, M, N, K, n_tiles,
                                BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr):
    tl.static_assert(BLOCK_N == 64)
    pid_m = tl.program_id(0)
    pid_n = tl.program_id(1)
    offs_m = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
    offs_n = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
    offs_k = tl.arange(0, BLOCK_K)
    acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
    for k0 in range(0, K, BLOCK_K):
        kk = k0 + offs_k
        a = tl.load(x_ptr + offs_m[:, None] * K + kk[None, :],
                    mask=(offs_m[:, None] < M) & (kk[None, :] < K), other=0.0)
        b = tl.load(w_ptr + offs_n[None, :] * K + kk[:, None],
                    mask=(offs_n[None, :] < N) & (kk[:, None] < K), other=0.0)
        acc = tl.dot(a, b, acc, input_precision="ieee")
    bias = tl.load(b_ptr + offs_n, mask=offs_n < N, other=0.0)
    y = tl.sigmoid(acc + bias[None, :])
    y = tl.where(offs_n[None, :] < N, y, 0.0)
    part = tl.sum(y, axis=1)
    tl.store(part_ptr + offs_m * n_tiles + pid_n, part, mask=offs_m < M)


@triton.jit
def triton_per_fused_sum_1(in_ptr0, out_ptr0, xnumel, rnumel, XBLOCK: tl.constexpr, RBLOCK: tl.constexpr):
    xoffset = tl.program_id(0) * XBLOCK
    xindex = xoffset + tl.arange(0, XBLOCK)[:, None]
    xmask = xindex < xnumel
    rindex = tl.arange(0, RBLOCK)[None, :]
    rmask = rindex < rnumel
    x0 = xindex
    tmp0 = tl.load(in_ptr0 + (rindex + (rnumel * x0)), rmask & xmask, other=0.0)
    tmp1 = tl.broadcast_to(tmp0, [XBLOCK, RBLOCK])
    tmp3 = tl.where(rmask & xmask, tmp1, 0)
    tmp4 = tl.sum(tmp3, 1)[:, None]
    tl.store(out_ptr0 + (x0), tmp4, xmask)


class ModelNew(nn.Module):
    def __init__(self, in_features, out_features):
        super().__init__()
        self.linear = nn.Linear(in_features, out_features)

    def forward(self, x):
        x = x.contiguous()
        M, K = x.shape
        N = self.linear.out_features
        n_tiles = triton.cdiv(N, 64)  # every config's BLOCK_N
        part = torch.zeros((M, n_tiles), device=x.device, dtype=torch.float32)

        def grid(meta):
            return (triton.cdiv(M, meta["BLOCK_M"]), triton.cdiv(N, meta["BLOCK_N"]))

        gemm_sigmoid_partial_kernel[grid](x, self.linear.weight, self.linear.bias, part, M, N, K, n_tiles)
        out = torch.empty((M, 1), device=x.device, dtype=torch.float32)
        XBLOCK = 8
        triton_per_fused_sum_1[(triton.cdiv(M, XBLOCK),)](part, out, M, n_tiles, XBLOCK=XBLOCK,
                                                          RBLOCK=triton.next_power_of_2(n_tiles))
        return out
