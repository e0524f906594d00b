"""LayerNorm with the optional-dependency guard Megatron-style code uses: apex's fused
kernel is preferred where apex is installed, and the Triton kernel below runs otherwise
(apex is not installed here, so the Triton path is what runs)."""
import torch
import torch.nn as nn
import triton
import triton.language as tl

try:
    from apex.normalization.fused_layer_norm import fused_layer_norm_affine
    HAVE_APEX = True
except ImportError:
    HAVE_APEX = False


@triton.jit
def _layernorm_fwd(x_ptr, y_ptr, w_ptr, b_ptr, stride, N, eps, BLOCK: tl.constexpr):
    row = tl.program_id(0).to(tl.int64)
    cols = tl.arange(0, BLOCK)
    mask = cols < N
    x = tl.load(x_ptr + row * stride + cols, mask=mask, other=0.0).to(tl.float32)
    mean = tl.sum(x, axis=0) / N
    xc = tl.where(mask, x - mean, 0.0)
    rstd = tl.rsqrt(tl.sum(xc * xc, axis=0) / N + eps)
    w = tl.load(w_ptr + cols, mask=mask)
    b = tl.load(b_ptr + cols, mask=mask)
    tl.store(y_ptr + row * stride + cols, xc * rstd * w + b, mask=mask)


def triton_layer_norm(x, weight, bias, eps):
    x2 = x.reshape(-1, x.shape[-1]).contiguous()
    y = torch.empty_like(x2)
    N = x2.shape[1]
    _layernorm_fwd[(x2.shape[0],)](x2, y, weight, bias, x2.stride(0), N, eps,
                                   BLOCK=triton.next_power_of_2(N), num_warps=8)
    return y.view_as(x)


class ModelNew(nn.Module):
    def __init__(self, dim: int):
        super().__init__()
        self.norm = nn.LayerNorm(dim)
        with torch.no_grad():
            self.norm.weight.normal_(1.0, 0.2)
            self.norm.bias.normal_(0.0, 0.2)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        if HAVE_APEX and x.is_cuda:
            return fused_layer_norm_affine(x, self.norm.weight, self.norm.bias,
                                           self.norm.normalized_shape, self.norm.eps)
        return triton_layer_norm(x, self.norm.weight, self.norm.bias, self.norm.eps)
