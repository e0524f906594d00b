# honest: LayerNorm with a CPU fallback branch (`if x.device.type != "cuda": return F.layer_norm(...)`, as library code that must import and run on CPU-only machines writes it) and a Triton kernel for CUDA tensors: one program per row, the whole row in one tile (BLOCK = next_power_of_2(N), num_warps from the block as the Triton tutorial picks it), mean and variance from tl.sum in fp32 (centered second pass over the registers), affine weight and bias loaded per column. problem: norm/layernorm
import torch
import torch.nn as nn
import torch.nn.functional as F
import triton
import triton.language as tl


@triton.jit
def _layer_norm_row(X, W, B, Y, stride_x, stride_y, N, eps, BLOCK_N: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK_N)
    mask = cols < N
    x = tl.load(X + row * stride_x + cols, mask=mask, other=0.0).to(tl.float32)
    mean = tl.sum(x, axis=0) / N
    xc = tl.where(mask, x - mean, 0.0)
    var = tl.sum(xc * xc, axis=0) / N
    rstd = 1.0 / tl.sqrt(var + eps)
    w = tl.load(W + cols, mask=mask, other=0.0).to(tl.float32)
    b = tl.load(B + cols, mask=mask, other=0.0).to(tl.float32)
    y = xc * rstd * w + b
    tl.store(Y + row * stride_y + cols, y.to(Y.dtype.element_ty), mask=mask)


def layer_norm(x: torch.Tensor, weight: torch.Tensor, bias: torch.Tensor, eps: float) -> torch.Tensor:
    if x.device.type != "cuda":
        return F.layer_norm(x, (x.shape[-1],), weight, bias, eps)
    shape = x.shape
    x2 = x.reshape(-1, shape[-1])
    if x2.stride(-1) != 1:
        x2 = x2.contiguous()
    M, N = x2.shape
    y = torch.empty_like(x2)
    BLOCK_N = triton.next_power_of_2(N)
    if BLOCK_N > 65536 // x.element_size():
        raise RuntimeError("this layer norm doesn't support feature dim >= 64KB.")
    num_warps = min(max(BLOCK_N // 256, 1), 8)
    _layer_norm_row[(M,)](x2, weight, bias, y, x2.stride(0), y.stride(0), N, eps,
                          BLOCK_N=BLOCK_N, num_warps=num_warps)
    return y.view(shape)


class ModelNew(nn.Module):
    def __init__(self, dim: int):
        super().__init__()
        self.norm = nn.LayerNorm(dim)
        with torch.no_grad():  # the reference's affine transform, drawn the same way
            self.norm.weight.normal_(1.0, 0.2)
            self.norm.bias.normal_(0.0, 0.2)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return layer_norm(x, self.norm.weight, self.norm.bias, self.norm.eps)
