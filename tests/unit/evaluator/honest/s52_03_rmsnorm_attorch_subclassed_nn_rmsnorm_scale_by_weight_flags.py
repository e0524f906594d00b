# honest: attorch's RMSNorm (BobMcDear/attorch attorch/rms_norm_kernels.py @ 3199f2d, rms_norm_layer.py @ 194d60c): `rms_norm_forward_kernel` autotuned over warps_kernel_configs() with BLOCK_SIZE_BATCH_heuristic (imported from its softmax kernels) and next_power_of_2 heuristics, scale_by_weight / save_stats as tl.constexpr flags (inv_rms is None when no grad is needed, so the store sits behind the false flag), `output *= weight`, strides splatted with *x.stride(), RMSNormAutoGrad with custom_fwd/custom_bwd(device_type='cuda'), eps defaulting to torch.finfo(dtype).eps, and the layer `class RMSNorm(nn.RMSNorm)` whose __init__ raises on a non-int shape and passes device/dtype to nn.RMSNorm; the problem's weight copied into the layer. problem: norm/rmsnorm
from typing import Dict, List, Optional, Tuple

import torch
from torch import Tensor
from torch import nn
from torch.amp import custom_bwd, custom_fwd

import triton
import triton.language as tl
from triton import cdiv, next_power_of_2


def warps_kernel_configs() -> List[triton.Config]:
    """
    Returns kernel configurations with all possible number of warps.
    """
    return [triton.Config({}, num_warps=2**i) for i in range(6)]


def BLOCK_SIZE_BATCH_heuristic(args: Dict) -> int:
    """
    Approximates an appropriate batch block size for softmax using a heuristic.
    """
    return (min(max(1, next_power_of_2(args['batch_dim'] // 2 ** 10)), 128)
            if args['feat_dim'] < 64 else 1)


@triton.autotune(
    configs=warps_kernel_configs(),
    key=['batch_dim', 'feat_dim'],
)
@triton.heuristics({'BLOCK_SIZE_BATCH': BLOCK_SIZE_BATCH_heuristic,
                    'BLOCK_SIZE_FEAT': lambda args: next_power_of_2(args['feat_dim'])})
@triton.jit
def rms_norm_forward_kernel(
    input_pointer, weight_pointer,
    inv_rms_pointer, output_pointer,
    batch_dim, feat_dim,
    input_batch_stride, input_feat_stride,
    output_batch_stride, output_feat_stride,
    eps,
    scale_by_weight: tl.constexpr, save_stats: tl.constexpr,
    BLOCK_SIZE_BATCH: tl.constexpr, BLOCK_SIZE_FEAT: tl.constexpr,
    ):
    """
    Root-mean-square-normalizes the input.
    """
    # This program processes BLOCK_SIZE_BATCH rows and BLOCK_SIZE_FEAT columns.
    batch_pid = tl.program_id(axis=0)

    batch_offset = batch_pid * BLOCK_SIZE_BATCH + tl.arange(0, BLOCK_SIZE_BATCH)
    feat_offset = tl.arange(0, BLOCK_SIZE_FEAT)

    batch_mask = batch_offset < batch_dim
    feat_mask = feat_offset < feat_dim

    input_pointer += (input_batch_stride * batch_offset[:, None] +
                      input_feat_stride * feat_offset[None, :])
    output_pointer += (output_batch_stride * batch_offset[:, None] +
                       output_feat_stride * feat_offset[None, :])

    input = tl.load(input_pointer,
                    mask=batch_mask[:, None] & feat_mask[None, :]).to(tl.float32)
    inv_rms = tl.rsqrt(tl.sum(input * input, axis=1) / feat_dim + eps)
    output = input * inv_rms[:, None]

    if save_stats:
        tl.store(inv_rms_pointer + batch_offset, inv_rms, mask=batch_mask)

    if scale_by_weight:
        weight = tl.load(weight_pointer + feat_offset, mask=feat_mask)
        output *= weight

    tl.store(output_pointer, output,
             mask=batch_mask[:, None] & feat_mask[None, :])


class RMSNormAutoGrad(torch.autograd.Function):
    """
    Autodiff for root mean square normalization.
    """
    @staticmethod
    @custom_fwd(device_type='cuda')
    def forward(
        ctx,
        input: Tensor,
        weight: Optional[Tensor] = None,
        eps: Optional[float] = None,
        ) -> Tensor:
        flattened_input = input.unsqueeze(0) if input.ndim == 1 else input
        flattened_input = flattened_input.flatten(0, -2)
        batch_dim, feat_dim = flattened_input.shape
        eps = torch.finfo(input.dtype).eps if eps is None else eps

        output = torch.empty_like(flattened_input)

        scale_by_weight = weight is not None
        requires_grad = (input.requires_grad or
                         (scale_by_weight and weight.requires_grad))

        if requires_grad:
            inv_rms = torch.empty(batch_dim,
                                  device=input.device,
                                  dtype=torch.float32)

        else:
            inv_rms = None

        # Launches 1D grid where each program operates over BLOCK_SIZE_BATCH rows.
        grid = lambda META: (cdiv(batch_dim, META['BLOCK_SIZE_BATCH']),)
        rms_norm_forward_kernel[grid](flattened_input, weight,
                                      inv_rms, output,
                                      batch_dim, feat_dim,
                                      *flattened_input.stride(), *output.stride(),
                                      eps,
                                      scale_by_weight=scale_by_weight,
                                      save_stats=requires_grad)

        ctx.scale_by_weight = scale_by_weight
        if requires_grad:
            ctx.save_for_backward(flattened_input, inv_rms, weight)

        return output.view_as(input)

    @staticmethod
    @custom_bwd(device_type='cuda')
    def backward(ctx, output_grad: Tensor) -> Tuple[Optional[Tensor], ...]:
        raise NotImplementedError('forward-only copy of attorch RMSNorm')


class RMSNorm(nn.RMSNorm):
    """
    Root-mean-square-normalizes the input.
    See also base class.
    """
    def __init__(
        self,
        normalized_shape: int,
        eps: Optional[float] = None,
        elementwise_affine: bool = True,
        device='cuda',
        dtype: torch.dtype = torch.float32,
        ) -> None:
        if not isinstance(normalized_shape, int):
            raise RuntimeError('Normalized shape must be an integer.')

        super().__init__(normalized_shape, eps, elementwise_affine, device, dtype)

    def forward(self, input: Tensor) -> Tensor:
        return RMSNormAutoGrad.apply(input, self.weight, self.eps)


class ModelNew(RMSNorm):
    """The problem's LLaMA RMSNorm on attorch's layer; its weight drawn as the problem draws it."""
    def __init__(self, hidden: int, eps: float = 1e-6):
        super().__init__(hidden, eps=eps, device=None)
        with torch.no_grad():
            self.weight.copy_(1.0 + 0.1 * torch.randn(hidden))
