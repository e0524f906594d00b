# honest: torch.sum over the middle axis of a (B, D1, D2) tensor with a rank-3 tile: each program loads (BLOCK_B, BLOCK_R, BLOCK_C) through the three strides, sums axis 1 in float32 and walks the reduced axis in chunks; block sizes rounded to powers of two with the int.bit_length idiom `1 << (n - 1).bit_length()`. problem: reduction/sum_dim
import torch
import torch.nn as nn
import triton
import triton.language as tl


def _pow2_at_least(n: int) -> int:
    return 1 if n <= 1 else 1 << (n - 1).bit_length()


@triton.jit
def _sum_mid_kernel(x_ptr, y_ptr, B, R, C, sxb, sxr, sxc, syb, syc,
                    BLOCK_B: tl.constexpr, BLOCK_R: tl.constexpr, BLOCK_C: tl.constexpr):
    pid_b = tl.program_id(0)
    pid_c = tl.program_id(1)
    ob = pid_b * BLOCK_B + tl.arange(0, BLOCK_B)
    oc = pid_c * BLOCK_C + tl.arange(0, BLOCK_C)
    orr = tl.arange(0, BLOCK_R)
    acc = tl.zeros((BLOCK_B, BLOCK_C), dtype=tl.float32)
    for r0 in range(0, R, BLOCK_R):
        rr = r0 + orr
        ptrs = x_ptr + ob[:, None, None] * sxb + rr[None, :, None] * sxr + oc[None, None, :] * sxc
        mask = (ob[:, None, None] < B) & (rr[None, :, None] < R) & (oc[None, None, :] < C)
        tile = tl.load(ptrs, mask=mask, other=0.0).to(tl.float32)
        acc += tl.sum(tile, axis=1)
    out_ptrs = y_ptr + ob[:, None] * syb + oc[None, :] * syc
    tl.store(out_ptrs, acc, mask=(ob[:, None] < B) & (oc[None, :] < C))


class ModelNew(nn.Module):
    def __init__(self, dim: int):
        super().__init__()
        self.dim = dim

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        assert x.dim() == 3 and self.dim == 1, "reduces the middle axis of a 3-D tensor"
        B, R, C = x.shape
        y = torch.empty((B, C), device=x.device, dtype=x.dtype)
        bb = min(2, _pow2_at_least(B))
        bc = min(64, _pow2_at_least(C))
        br = min(32, _pow2_at_least(R))
        grid = (triton.cdiv(B, bb), triton.cdiv(C, bc))
        _sum_mid_kernel[grid](x, y, B, R, C, x.stride(0), x.stride(1), x.stride(2),
                              y.stride(0), y.stride(1), BLOCK_B=bb, BLOCK_R=br, BLOCK_C=bc)
        return y
