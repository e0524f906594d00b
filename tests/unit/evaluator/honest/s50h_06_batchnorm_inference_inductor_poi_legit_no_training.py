# honest: Inductor's inference BatchNorm (triton_poi_fused__native_batch_norm_legit_no_training_0) pasted and tidied: one flat pointwise kernel over N*C*H*W with the channel recovered as `x1 = (xindex // ks0) % ks1`, eviction_policy="evict_last" loads of the four per-channel vectors, `tmp6 = libdevice.sqrt(tmp5)`, `tmp7 = tl.full([1], 1, tl.int32)` divided by it for the reciprocal, `tmp9 = 1.0` multiplies kept, and the grid from a `grid(xnumel)` helper. problem: norm/batchnorm_inference
import torch
import torch.nn as nn
import torch.nn.functional as F
import triton
import triton.language as tl
from triton.language.extra import libdevice


@triton.jit
def triton_poi_fused__native_batch_norm_legit_no_training_0(in_ptr0, in_ptr1, in_ptr2, in_ptr3, in_ptr4, out_ptr0,
                                                            ks0, ks1, eps, xnumel, XBLOCK: tl.constexpr):
    xoffset = tl.program_id(0) * XBLOCK
    xindex = xoffset + tl.arange(0, XBLOCK)[:]
    xmask = xindex < xnumel
    x3 = xindex
    x1 = (xindex // ks0) % ks1
    tmp0 = tl.load(in_ptr0 + (x3), xmask)
    tmp1 = tl.load(in_ptr1 + (x1), xmask, eviction_policy="evict_last")
    tmp3 = tl.load(in_ptr2 + (x1), xmask, eviction_policy="evict_last")
    tmp12 = tl.load(in_ptr3 + (x1), xmask, eviction_policy="evict_last")
    tmp14 = tl.load(in_ptr4 + (x1), xmask, eviction_policy="evict_last")
    tmp2 = tmp0 - tmp1
    tmp5 = tmp3 + eps
    tmp6 = libdevice.sqrt(tmp5)
    tmp7 = tl.full([1], 1, tl.int32)
    tmp8 = tmp7 / tmp6
    tmp9 = 1.0
    tmp10 = tmp8 * tmp9
    tmp11 = tmp2 * tmp10
    tmp13 = tmp11 * tmp12
    tmp15 = tmp13 + tmp14
    tl.store(out_ptr0 + (x3), tmp15, xmask)


def grid(xnumel, XBLOCK=1024):
    return (triton.cdiv(xnumel, XBLOCK),)


class ModelNew(nn.Module):
    def __init__(self, channels):
        super().__init__()
        self.bn = nn.BatchNorm2d(channels)
        with torch.no_grad():
            self.bn.running_mean.normal_(0.0, 0.5)
            self.bn.running_var.uniform_(0.5, 2.0)
            self.bn.weight.normal_(1.0, 0.2)
            self.bn.bias.normal_(0.0, 0.2)

    def forward(self, x):
        if x.dim() != 4:
            return F.batch_norm(x, self.bn.running_mean, self.bn.running_var, self.bn.weight,
                                self.bn.bias, training=False, eps=self.bn.eps)
        x = x.contiguous()
        n, c, h, w = x.shape
        buf0 = torch.empty_strided((n, c, h, w), (c * h * w, h * w, w, 1), device=x.device, dtype=torch.float32)
        xnumel = x.numel()
        triton_poi_fused__native_batch_norm_legit_no_training_0[grid(xnumel)](
            x, self.bn.running_mean, self.bn.running_var, self.bn.weight, self.bn.bias, buf0,
            h * w, c, self.bn.eps, xnumel, XBLOCK=1024, num_warps=4, num_stages=1)
        return buf0
