# honest: FlagGems-style GroupNorm forward: a program per (sample, group) loads the whole group as a [BLOCK_GROUP_SIZE, BLOCK_HW_SIZE] tile and reduces it with tl.sum(X) (no axis: the whole 2-D tile) for the mean and then the centred variance, rsqrt, per-channel affine; the module keeps nn.GroupNorm with the reference's weight/bias init. num_warps=8. problem: norm/groupnorm
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def group_norm_kernel(X, Y, W, B, group_size, C, HW, num_groups, eps,
                      BLOCK_GROUP_SIZE: tl.constexpr, BLOCK_HW_SIZE: tl.constexpr):
    pid = tl.program_id(0)
    group = pid % num_groups
    num_elements = group_size * HW
    group_offset = tl.arange(0, BLOCK_GROUP_SIZE)
    hw_offset = tl.arange(0, BLOCK_HW_SIZE)
    wb_offset = group * group_size + group_offset
    wb_mask = group_offset < group_size
    xy_offset = pid * num_elements + group_offset[:, None] * HW + hw_offset[None, :]
    xy_mask = wb_mask[:, None] & (hw_offset[None, :] < HW)
    X_val = tl.load(X + xy_offset, mask=xy_mask, other=0.0).to(tl.float32)
    mean = tl.sum(X_val) / num_elements
    x = tl.where(xy_mask, X_val - mean, 0.0)
    var = tl.sum(x * x) / num_elements
    rstd = tl.math.rsqrt(var + eps)
    x_hat = x * rstd
    W_val = tl.load(W + wb_offset, mask=wb_mask, other=0.0)
    B_val = tl.load(B + wb_offset, mask=wb_mask, other=0.0)
    Y_val = x_hat * W_val[:, None] + B_val[:, None]
    tl.store(Y + xy_offset, Y_val, mask=xy_mask)


class ModelNew(nn.Module):
    def __init__(self, num_groups: int, channels: int):
        super().__init__()
        self.gn = nn.GroupNorm(num_groups, channels)
        with torch.no_grad():
            self.gn.weight.normal_(1.0, 0.2)
            self.gn.bias.normal_(0.0, 0.2)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        x = x.contiguous()
        N, C, H, W = x.shape
        G = self.gn.num_groups
        group_size = C // G
        HW = H * W
        y = torch.empty_like(x)
        group_norm_kernel[(N * G,)](x, y, self.gn.weight, self.gn.bias, group_size, C, HW, G, self.gn.eps,
                                    BLOCK_GROUP_SIZE=triton.next_power_of_2(group_size),
                                    BLOCK_HW_SIZE=triton.next_power_of_2(HW), num_warps=8)
        return y
