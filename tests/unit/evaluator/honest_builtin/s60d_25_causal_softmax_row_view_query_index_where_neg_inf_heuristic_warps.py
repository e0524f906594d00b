# honest: causal softmax over (B, H, N, N) scores viewed as B*H*N rows, one program per row whose query index is row % N, the future columns masked by tl.where(cols <= q, x, -inf) in one whole-row tile, exp of -inf writing the zeros; num_warps from a @triton.heuristics on the block size. problem: softmax/causal_softmax. policy: strict
import torch
import torch.nn as nn
import triton
import triton.language as tl


def _warps(args):
    block = args["BLOCK_N"]
    return 16 if block >= 8192 else 8 if block >= 2048 else 4


@triton.heuristics({"num_warps": _warps})
@triton.jit
def causal_softmax_rows(x_ptr, y_ptr, n_cols, stride_x, stride_y, BLOCK_N: tl.constexpr):
    row = tl.program_id(0)
    q = row % n_cols
    cols = tl.arange(0, BLOCK_N)
    valid = cols < n_cols
    x = tl.load(x_ptr + row.to(tl.int64) * stride_x + cols, mask=valid, other=float("-inf"))
    x = tl.where(cols <= q, x, float("-inf"))
    x = x - tl.max(x, axis=0)
    e = tl.exp(x)
    tl.store(y_ptr + row.to(tl.int64) * stride_y + cols, e / tl.sum(e, axis=0), mask=valid)


class ModelNew(nn.Module):
    def forward(self, scores: torch.Tensor) -> torch.Tensor:
        n = scores.shape[-1]
        assert scores.shape[-2] == n
        x = scores.reshape(-1, n)
        if x.stride(-1) != 1:
            x = x.contiguous()
        y = torch.empty_like(x)
        causal_softmax_rows[(x.shape[0],)](x, y, n, x.stride(0), y.stride(0), BLOCK_N=triton.next_power_of_2(n))
        return y.view(scores.shape)
