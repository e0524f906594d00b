# honest: GroupNorm in two launches with a split statistics pass (Apex/PyTorch's group_norm_nhwc "two pass" layout): pass 1 cuts each (sample, group) slab into SPLIT chunks, each program sums x and x*x of its chunk in fp32 and adds them into a zeroed [N*G, 2] fp32 buffer with tl.atomic_add; pass 2 reads the group's sums, forms mean and rstd (var = E[x^2] - mean^2 clamped at 0, eps 1e-5), and applies the per-channel affine over (channel, HW) tiles; weight and bias read per channel. problem: norm/groupnorm
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def group_stats_kernel(x_ptr, stats_ptr, group_size, chunk, BLOCK: tl.constexpr):
    slab = tl.program_id(0).to(tl.int64)  # n * G + g: groups are contiguous in NCHW
    part = tl.program_id(1)
    base = x_ptr + slab * group_size
    start = part * chunk
    end = tl.minimum(start + chunk, group_size)
    s = tl.zeros([BLOCK], dtype=tl.float32)
    ss = tl.zeros([BLOCK], dtype=tl.float32)
    for off in range(start, end, BLOCK):
        idx = off + tl.arange(0, BLOCK)
        x = tl.load(base + idx, mask=idx < end, other=0.0).to(tl.float32)
        s += x
        ss += x * x
    tl.atomic_add(stats_ptr + slab * 2, tl.sum(s, axis=0))
    tl.atomic_add(stats_ptr + slab * 2 + 1, tl.sum(ss, axis=0))


@triton.jit
def group_apply_kernel(x_ptr, y_ptr, w_ptr, b_ptr, stats_ptr, C, HW, G, eps, inv_count,
                       BLOCK_C: tl.constexpr, BLOCK_HW: tl.constexpr):
    n = tl.program_id(0).to(tl.int64)
    pid_c = tl.program_id(1)
    pid_hw = tl.program_id(2)
    c = pid_c * BLOCK_C + tl.arange(0, BLOCK_C)
    hw = pid_hw * BLOCK_HW + tl.arange(0, BLOCK_HW)
    c_mask = c < C
    g = c // (C // G)
    s = tl.load(stats_ptr + (n * G + g) * 2, mask=c_mask, other=0.0)
    ss = tl.load(stats_ptr + (n * G + g) * 2 + 1, mask=c_mask, other=0.0)
    mean = s * inv_count
    var = tl.maximum(ss * inv_count - mean * mean, 0.0)
    rstd = 1.0 / tl.sqrt(var + eps)
    w = tl.load(w_ptr + c, mask=c_mask, other=1.0).to(tl.float32)
    b = tl.load(b_ptr + c, mask=c_mask, other=0.0).to(tl.float32)
    scale = w * rstd
    shift = b - mean * scale
    offs = n * C * HW + c[:, None].to(tl.int64) * HW + hw[None, :]
    mask = c_mask[:, None] & (hw < HW)[None, :]
    x = tl.load(x_ptr + offs, mask=mask, other=0.0).to(tl.float32)
    tl.store(y_ptr + offs, (x * scale[:, None] + shift[:, None]).to(y_ptr.dtype.element_ty), mask=mask)


def group_norm(x, num_groups, weight, bias, eps):
    x = x.contiguous()
    N, C = x.shape[:2]
    HW = x[0, 0].numel()
    G = num_groups
    group_size = (C // G) * HW
    BLOCK = 1024
    split = max(1, min(32, triton.cdiv(group_size, 4 * BLOCK)))
    chunk = triton.cdiv(triton.cdiv(group_size, split), BLOCK) * BLOCK
    split = triton.cdiv(group_size, chunk)
    stats = torch.zeros((N * G, 2), device=x.device, dtype=torch.float32)
    group_stats_kernel[(N * G, split)](x, stats, group_size, chunk, BLOCK=BLOCK, num_warps=4)
    y = torch.empty_like(x)
    BLOCK_C, BLOCK_HW = 16, 256
    grid = (N, triton.cdiv(C, BLOCK_C), triton.cdiv(HW, BLOCK_HW))
    group_apply_kernel[grid](x, y, weight, bias, stats, C, HW, G, eps, 1.0 / group_size,
                             BLOCK_C=BLOCK_C, BLOCK_HW=BLOCK_HW, num_warps=4)
    return y


class ModelNew(nn.Module):
    def __init__(self, num_groups: int, channels: int):
        super().__init__()
        self.gn = nn.GroupNorm(num_groups, channels)
        with torch.no_grad():  # the reference's init, drawn in the same order
            self.gn.weight.normal_(1.0, 0.2)
            self.gn.bias.normal_(0.0, 0.2)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return group_norm(x, self.gn.num_groups, self.gn.weight, self.gn.bias, self.gn.eps)
