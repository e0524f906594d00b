# An honest Triton ModelNew for KernelBench level1/34_InstanceNorm: one program per (sample, channel) plane, a first pass accumulating sum and sum of squares in float32 BLOCK-wide vectors, biased variance with eps 1e-5 (nn.InstanceNorm2d's), a second pass normalising; x read through its batch/channel strides so a non-contiguous batch needs no copy when planes stay contiguous.
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.autotune(
    configs=[triton.Config({"BLOCK": 1024}, num_warps=4), triton.Config({"BLOCK": 4096}, num_warps=8)],
    key=["HW"],
)
@triton.jit
def instance_norm_kernel(x_ptr, y_ptr, C, HW, stride_n, stride_c, eps, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    n = pid // C
    c = pid % C
    x_base = x_ptr + n.to(tl.int64) * stride_n + c.to(tl.int64) * stride_c
    y_base = y_ptr + pid.to(tl.int64) * HW
    s1 = tl.zeros((BLOCK,), dtype=tl.float32)
    s2 = tl.zeros((BLOCK,), dtype=tl.float32)
    for start in range(0, HW, BLOCK):
        offs = start + tl.arange(0, BLOCK)
        v = tl.load(x_base + offs, mask=offs < HW, other=0.0).to(tl.float32)
        s1 += v
        s2 += v * v
    mean = tl.sum(s1, axis=0) / HW
    var = tl.maximum(tl.sum(s2, axis=0) / HW - mean * mean, 0.0)
    rstd = 1.0 / tl.sqrt(var + eps)
    for start in range(0, HW, BLOCK):
        offs = start + tl.arange(0, BLOCK)
        m = offs < HW
        v = tl.load(x_base + offs, mask=m, other=0.0).to(tl.float32)
        tl.store(y_base + offs, (v - mean) * rstd, mask=m)


class ModelNew(nn.Module):
    def __init__(self, num_features: int):
        super().__init__()
        self.num_features = num_features
        self.eps = 1e-5

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        if not x.is_cuda:
            return torch.nn.functional.instance_norm(x, eps=self.eps)
        N, C, H, W = x.shape
        if x.stride(3) != 1 or x.stride(2) != W:
            x = x.contiguous()
        y = torch.empty((N, C, H, W), device=x.device, dtype=x.dtype)
        instance_norm_kernel[(N * C,)](x, y, C, H * W, x.stride(0), x.stride(1), self.eps)
        return y
