# honest: pytorch/torchtitan (torchtitan/models/norms.py @ 8824727, before #826 removed fused_rmsnorm): _rms_norm_fwd_kernel verbatim under @triton.autotune over six num_warps-only configs keyed on N (block_N passed positionally, the rstd stored per row), and TritonFusedRMSNorm.forward (an autograd.Function @staticmethod), view(-1, last) with stride(-1) checks, `max_size = 65536 // x.element_size()`, a `{block_N=}` f-string in the ValueError, `grid = lambda meta: (M,)`, ctx.save_for_backward; FusedRMSNorm(nn.Module) keeping fused_rms_norm_fn as an attribute and reset_parameters. Adapted: torchtitan stacks `@partial(local_map, out_placements=[Shard(1)], in_placements=(None, [Shard(1)], [Replicate()], None))` over the @staticmethod (torch.distributed._tensor.experimental.local_map, a pass-through for plain tensors), refused as written: torch.distributed is outside the allowlist, and a functools.partial decorator hands a library the file's function; both left as a comment. Dropped: the backward (it needs torchtitan.utils.device_module), build_norm and the eager RMSNorm. problem: norm/rmsnorm
import math

import torch
import torch.nn as nn

import triton
import triton.language as tl



class FusedRMSNorm(nn.Module):
    """Fused RMS Norm, wraps a fused Triton Kernel"""

    def __init__(
        self,
        dim: int,
        eps: float = 1e-6,
    ):
        super().__init__()
        self.eps = eps
        self.weight = nn.Parameter(torch.ones(dim))
        self.fused_rms_norm_fn = fused_rms_norm_fn

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        """leverages Triton Fused RMS Norm kernel"""
        return self.fused_rms_norm_fn(
            x,
            self.weight,
            eps=self.eps,
        )

    def reset_parameters(self):
        torch.nn.init.ones_(self.weight)  # type: ignore




# FusedRMSNorm in Triton

# Credit
# Tri Dao's Triton LayerNorm: https://github.com/Dao-AILab/flash-attention/blob/main/flash_attn/ops/triton/layer_norm.py
# Triton LayerNorm tutorial: https://triton-lang.org/main/getting-started/tutorials/05-layer-norm.html


@triton.autotune(
    configs=[
        triton.Config({}, num_warps=1),
        triton.Config({}, num_warps=2),
        triton.Config({}, num_warps=4),
        triton.Config({}, num_warps=8),
        triton.Config({}, num_warps=16),
        triton.Config({}, num_warps=32),
    ],
    key=["N"],
)
@triton.jit
def _rms_norm_fwd_kernel(
    X,
    stride_x,
    Y,
    stride_y,
    W,
    Rstd,
    eps,
    M,  # num rows
    N,  # num cols
    block_N: tl.constexpr,
):
    row = tl.program_id(0)
    cols = tl.arange(0, block_N)

    # Load input data and weights
    mask = cols < N
    x = tl.load(X + row * stride_x + cols, mask=mask, other=0.0).to(tl.float32)
    w = tl.load(W + cols, mask=mask, other=0.0).to(tl.float32)

    # Compute mean and variance
    xbar = tl.where(cols < N, x, 0.0)
    var = tl.sum(xbar * xbar, axis=0) / N
    rstd = 1 / tl.sqrt(var + eps)

    # Store the reciprocal standard deviation
    tl.store(Rstd + row, rstd)

    # Normalize and apply linear transformation
    x_hat = x * rstd
    y = x_hat * w

    # Write output
    tl.store(Y + row * stride_y + cols, y, mask=mask)



class TritonFusedRMSNorm(torch.autograd.Function):
    # torchtitan: @partial(local_map, out_placements=[Shard(1)],
    #     in_placements=(None, [Shard(1)], [Replicate()], None)) on top
    @staticmethod
    def forward(ctx, x, weight, eps):
        x_shape_start = x.shape

        # Flatten input
        x = x.view(-1, x.shape[-1])
        if x.stride(-1) != 1:
            x = x.contiguous()
        if weight.stride(-1) != 1:
            weight = weight.contiguous()

        M, N = x.shape
        y = torch.empty_like(x)
        rstd = torch.empty((M,), dtype=torch.float32, device=x.device)

        max_size = 65536 // x.element_size()
        block_N = min(max_size, triton.next_power_of_2(N))

        if N > block_N:
            raise ValueError(f"N {N} must be <= {block_N=}")

        grid = lambda meta: (M,)
        _rms_norm_fwd_kernel[grid](
            x,
            x.stride(0),
            y,
            y.stride(0),
            weight,
            rstd,
            eps,
            M,
            N,
            block_N,
        )

        ctx.eps = eps
        ctx.save_for_backward(x, weight, rstd)
        ctx.x_shape_start = x_shape_start

        y = y.reshape(x_shape_start)
        return y


# expose fusedRMSNorm as a function
def fused_rms_norm_fn(
    x,
    weight,
    eps=1e-6,
):
    return TritonFusedRMSNorm.apply(
        x,
        weight,
        eps,
    )


class ModelNew(FusedRMSNorm):
    def __init__(self, hidden: int, eps: float = 1e-6):
        super().__init__(hidden, eps)
        with torch.no_grad():  # the reference's initialisation
            self.weight.copy_(1.0 + 0.1 * torch.randn(hidden))
