# honest: GroupNorm with a channel-start table per group built in __init__ from the module's own sizes (g * channels // groups, torch.tensor as int32, a registered buffer) and a small typed table of the order the kernel's two passes visit a group's quarters in (torch.tensor([0, 2, 1, 3])); one program per (sample, group). problem: norm/groupnorm. policy: strict
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def groupnorm_kernel(x_ptr, w_ptr, b_ptr, out_ptr, starts_ptr, quarter_ptr, C, HW, G, eps,
                     BLOCK: tl.constexpr):
    n = tl.program_id(0)
    g = tl.program_id(1)
    c0 = tl.load(starts_ptr + g)
    c1 = tl.load(starts_ptr + g + 1)
    size = (c1 - c0) * HW
    base = x_ptr + n * C * HW + c0 * HW
    quarter = tl.cdiv(size, 4)
    acc = tl.zeros([BLOCK], dtype=tl.float32)
    acc2 = tl.zeros([BLOCK], dtype=tl.float32)
    for q in range(4):
        part = tl.load(quarter_ptr + q)
        for i in range(0, quarter, BLOCK):
            offs = part * quarter + i + tl.arange(0, BLOCK)
            mask = (offs < size) & (i + tl.arange(0, BLOCK) < quarter)
            v = tl.load(base + offs, mask=mask, other=0.0).to(tl.float32)
            acc += v
            acc2 += v * v
    mean = tl.sum(acc, axis=0) / size
    var = tl.maximum(tl.sum(acc2, axis=0) / size - mean * mean, 0.0)
    rstd = tl.rsqrt(var + eps)
    out_base = out_ptr + n * C * HW + c0 * HW
    for i in range(0, size, BLOCK):
        offs = i + tl.arange(0, BLOCK)
        mask = offs < size
        c = c0 + offs // HW
        v = tl.load(base + offs, mask=mask, other=0.0).to(tl.float32)
        w = tl.load(w_ptr + c, mask=mask, other=1.0)
        b = tl.load(b_ptr + c, mask=mask, other=0.0)
        tl.store(out_base + offs, ((v - mean) * rstd * w + b).to(out_ptr.dtype.element_ty), mask=mask)


class ModelNew(nn.Module):
    def __init__(self, num_groups: int, channels: int):
        super().__init__()
        self.gn = nn.GroupNorm(num_groups, channels)
        with torch.no_grad():
            self.gn.weight.normal_(1.0, 0.2)
            self.gn.bias.normal_(0.0, 0.2)
        self.num_groups = num_groups
        per = channels // num_groups
        self.register_buffer("starts", torch.tensor([g * per for g in range(num_groups + 1)], dtype=torch.int32))
        self.register_buffer("quarters", torch.tensor([0, 2, 1, 3], dtype=torch.int32))

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        x = x.contiguous()
        n, c = x.shape[0], x.shape[1]
        hw = x.numel() // (n * c)
        out = torch.empty_like(x)
        groupnorm_kernel[(n, self.num_groups)](x, self.gn.weight, self.gn.bias, out, self.starts, self.quarters,
                                               c, hw, self.num_groups, self.gn.eps, BLOCK=256)
        return out
