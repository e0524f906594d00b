# honest: GroupNorm in the persistent-reduction manner (Inductor's triton_per_* kernels, apex's one-pass group norm for small groups): when a (batch, group) slab of C/G*H*W elements fits one block, a program loads it once into registers, takes the mean, then the variance of the centered values from the same registers (no E[x^2] - E[x]^2 cancellation), and applies the affine with per-element gathered weight and bias (`tl.load(W + g*CPG + offs // HW)`, a channel index per element); larger slabs take a looped two-pass twin (sum, centered sum of squares, then normalise); the choice made on the host from the slab size. problem: norm/groupnorm
import torch
import torch.nn as nn
import triton
import triton.language as tl

MAX_PERSISTENT = 8192


@triton.jit
def groupnorm_persistent_kernel(
    X, Y, W, B, n_groups, GROUP_SIZE, HW, CPG, eps,
    BLOCK: tl.constexpr,
):
    pid = tl.program_id(0)  # one (batch, group) slab
    grp = pid % n_groups
    base = pid.to(tl.int64) * GROUP_SIZE
    offs = tl.arange(0, BLOCK)
    mask = offs < GROUP_SIZE
    x = tl.load(X + base + offs, mask=mask, other=0.0).to(tl.float32)
    mean = tl.sum(x, axis=0) / GROUP_SIZE
    xc = tl.where(mask, x - mean, 0.0)
    var = tl.sum(xc * xc, axis=0) / GROUP_SIZE
    rstd = 1.0 / tl.sqrt(var + eps)
    ch = grp * CPG + offs // HW
    w = tl.load(W + ch, mask=mask, other=1.0).to(tl.float32)
    b = tl.load(B + ch, mask=mask, other=0.0).to(tl.float32)
    tl.store(Y + base + offs, (xc * rstd * w + b).to(Y.dtype.element_ty), mask=mask)


@triton.jit
def groupnorm_looped_kernel(
    X, Y, W, B, n_groups, GROUP_SIZE, HW, CPG, eps,
    BLOCK: tl.constexpr,
):
    pid = tl.program_id(0)
    grp = pid % n_groups
    base = pid.to(tl.int64) * GROUP_SIZE
    offs0 = tl.arange(0, BLOCK)

    acc = tl.zeros((BLOCK,), dtype=tl.float32)
    for start in range(0, GROUP_SIZE, BLOCK):
        offs = start + offs0
        acc += tl.load(X + base + offs, mask=offs < GROUP_SIZE, other=0.0).to(tl.float32)
    mean = tl.sum(acc, axis=0) / GROUP_SIZE

    acc2 = tl.zeros((BLOCK,), dtype=tl.float32)
    for start in range(0, GROUP_SIZE, BLOCK):
        offs = start + offs0
        m = offs < GROUP_SIZE
        xc = tl.where(m, tl.load(X + base + offs, mask=m, other=0.0).to(tl.float32) - mean, 0.0)
        acc2 += xc * xc
    rstd = 1.0 / tl.sqrt(tl.sum(acc2, axis=0) / GROUP_SIZE + eps)

    for start in range(0, GROUP_SIZE, BLOCK):
        offs = start + offs0
        m = offs < GROUP_SIZE
        x = tl.load(X + base + offs, mask=m, other=0.0).to(tl.float32)
        ch = grp * CPG + offs // HW
        w = tl.load(W + ch, mask=m, other=1.0).to(tl.float32)
        b = tl.load(B + ch, mask=m, other=0.0).to(tl.float32)
        tl.store(Y + base + offs, ((x - mean) * rstd * w + b).to(Y.dtype.element_ty), mask=m)


def group_norm(x: torch.Tensor, num_groups: int, weight: torch.Tensor, bias: torch.Tensor, eps: float):
    N, C = x.shape[0], x.shape[1]
    x = x.contiguous()
    HW = x[0, 0].numel()
    cpg = C // num_groups
    group_size = cpg * HW
    y = torch.empty_like(x)
    grid = (N * num_groups,)
    if group_size <= MAX_PERSISTENT:
        BLOCK = triton.next_power_of_2(group_size)
        groupnorm_persistent_kernel[grid](x, y, weight, bias, num_groups, group_size, HW, cpg, eps,
                                          BLOCK=BLOCK, num_warps=8 if BLOCK >= 4096 else 4)
    else:
        groupnorm_looped_kernel[grid](x, y, weight, bias, num_groups, group_size, HW, cpg, eps,
                                      BLOCK=2048, num_warps=8)
    return y


class ModelNew(nn.Module):
    def __init__(self, num_groups: int, channels: int):
        super().__init__()
        self.gn = nn.GroupNorm(num_groups, channels)
        with torch.no_grad():
            self.gn.weight.normal_(1.0, 0.2)
            self.gn.bias.normal_(0.0, 0.2)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return group_norm(x, self.gn.num_groups, self.gn.weight, self.gn.bias, self.gn.eps)
