import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def groupnorm_kernel(x_ptr, w_ptr, b_ptr, out_ptr, group_size, channels_per_group, hw,
                     num_groups, eps, BLOCK: tl.constexpr):
    # one program per (sample, group); a group is group_size contiguous elements
    pid = tl.program_id(0)
    base = pid * group_size
    first_channel = (pid % num_groups) * channels_per_group
    acc = tl.zeros((BLOCK,), dtype=tl.float32)
    for i0 in range(0, group_size, BLOCK):
        idx = i0 + tl.arange(0, BLOCK)
        acc += tl.load(x_ptr + base + idx, mask=idx < group_size, other=0.0)
    mean = tl.sum(acc, axis=0) / group_size
    acc = tl.zeros((BLOCK,), dtype=tl.float32)
    for i0 in range(0, group_size, BLOCK):
        idx = i0 + tl.arange(0, BLOCK)
        mask = idx < group_size
        d = tl.where(mask, tl.load(x_ptr + base + idx, mask=mask, other=0.0) - mean, 0.0)
        acc += d * d
    rstd = 1.0 / tl.sqrt(tl.sum(acc, axis=0) / group_size + eps)
    for i0 in range(0, group_size, BLOCK):
        idx = i0 + tl.arange(0, BLOCK)
        mask = idx < group_size
        c = first_channel + idx // hw
        x = tl.load(x_ptr + base + idx, mask=mask)
        w = tl.load(w_ptr + c, mask=mask)
        b = tl.load(b_ptr + c, mask=mask)
        tl.store(out_ptr + base + idx, (x - mean) * rstd * w + b, mask=mask)


class ModelNew(nn.Module):
    def __init__(self, num_groups: int, channels: int):
        super().__init__()
        self.gn = nn.GroupNorm(num_groups, channels)
        with torch.no_grad():
            self.gn.weight.normal_(1.0, 0.2)
            self.gn.bias.normal_(0.0, 0.2)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        x = x.contiguous()
        out = torch.empty_like(x)
        n, c = x.shape[:2]
        hw = x[0, 0].numel()
        groups = self.gn.num_groups
        cpg = c // groups
        groupnorm_kernel[(n * groups,)](
            x, self.gn.weight, self.gn.bias, out, cpg * hw, cpg, hw, groups, self.gn.eps,
            BLOCK=1024)
        return out
