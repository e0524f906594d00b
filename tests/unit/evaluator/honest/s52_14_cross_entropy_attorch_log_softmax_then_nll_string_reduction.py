# honest: attorch's cross entropy written as its two layers, LogSoftmax then NLLLoss (BobMcDear/attorch attorch/softmax_kernels.py @ 39e9288 and attorch/nll_loss_kernels.py @ 0a14e70, nll_loss_layer.py): `softmax_forward_kernel(..., log=True)` and `nll_loss_forward_kernel` with the reduction as a string constexpr (`if reduction == 'none': ... elif reduction == 'mean': ... elif reduction == 'sum':`), `weighted: tl.constexpr` with weight_pointer / sum_weights_pointer None, the target loaded as a [batch, spatial] tile and used as a gather offset `input_feat_stride * target`, the loss negated in place (`output = -input`), one partial per program into a buffer sized cdiv(batch_dim, BLOCK_SIZE_BATCH_heuristic({...})) called on the host, then `.sum()`; each kernel under @triton.autotune(warps_kernel_configs()) over @triton.heuristics with its own BLOCK_SIZE_BATCH_heuristic (the NLL one keyed on spatial_dim, bound under another name here since attorch keeps the two in separate modules); inputs viewed as [batch, feat, spatial=1]. problem: loss/cross_entropy
from typing import Dict, List, Optional

import torch
from torch import Tensor, nn

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

    Args:
        args: Arguments to softmax kernel.

    Returns:
        Appropriate batch block size.
    """
    # This heuristic was derived manually.
    # Essentially, if the batch dimension is greater than 1024,
    # for small feature sizes (less than 64), it is much more efficient
    # to process multiple rows at once in a given program.
    # Specifically, each time the number of samples is doubled,
    # the block size across the batch dimension should be doubled too,
    # with an upper bound of 128.
    return (min(max(1, next_power_of_2(args['batch_dim'] // 2 ** 10)), 128)
            if args['feat_dim'] < 64 else 1)


@triton.autotune(
    configs=[triton.Config({}, num_warps=2**i) for i in range(6)],
    key=['batch_dim', 'feat_dim'],
)
@triton.heuristics({'BLOCK_SIZE_BATCH': BLOCK_SIZE_BATCH_heuristic,
                    'BLOCK_SIZE_FEAT': lambda args: next_power_of_2(args['feat_dim'])})
@triton.jit
def softmax_forward_kernel(
    input_pointer, output_pointer,
    batch_dim, feat_dim,
    input_batch_stride, input_feat_stride,
    log: tl.constexpr,
    BLOCK_SIZE_BATCH: tl.constexpr, BLOCK_SIZE_FEAT: tl.constexpr,
    ):
    """
    Normalizes the input using softmax.

    Args:
        input_pointer: Pointer to the input to normalize.
            The input must be of shape [batch_dim, feat_dim].
        output_pointer: Pointer to a container the result is written to.
            The container must be of shape [batch_dim, feat_dim] and contiguous.
        batch_dim: Batch dimension.
        feat_dim: Dimensionality of the features.
        input_batch_stride: Stride necessary to jump one element along the
            input's batch dimension.
        input_feat_stride: Stride necessary to jump one element along the
            input's feature dimension.
        log: Flag for indicating if the log of softmax should be taken.
        BLOCK_SIZE_BATCH: Block size across the batch dimension.
        BLOCK_SIZE_FEAT: Block size across the feature dimension.
    """
    # This program processes BLOCK_SIZE_BATCH rows and BLOCK_SIZE_FEAT columns.
    batch_pid = tl.program_id(axis=0)

    batch_offset = batch_pid * BLOCK_SIZE_BATCH + tl.arange(0, BLOCK_SIZE_BATCH)
    feat_offset = tl.arange(0, BLOCK_SIZE_FEAT)

    batch_mask = batch_offset < batch_dim
    feat_mask = feat_offset < feat_dim

    input_pointer += (input_batch_stride * batch_offset[:, None] +
                      input_feat_stride * feat_offset[None, :])
    output_pointer += feat_dim * batch_offset[:, None] + feat_offset[None, :]

    input = tl.load(input_pointer, mask=batch_mask[:, None] & feat_mask[None, :],
                    other=-float('inf'))
    input -= tl.max(input, axis=1)[:, None]
    numerator = tl.exp(input)
    denominator = tl.sum(numerator, axis=1)[:, None]

    if log:
        output = input - tl.log(denominator)

    else:
        output = numerator / denominator

    tl.store(output_pointer, output, mask=batch_mask[:, None] & feat_mask[None, :])



def nll_BLOCK_SIZE_BATCH_heuristic(args) -> int:
    """
    Approximates an appropriate batch block size for NLL loss using a heuristic.
    """
    return (min(max(1, next_power_of_2(args['batch_dim'] // 2 ** 10)), 128)
            if args['spatial_dim'] < 64 else 1)


@triton.autotune(
    configs=warps_kernel_configs(),
    key=['batch_dim', 'spatial_dim'],
)
@triton.heuristics({'BLOCK_SIZE_BATCH': nll_BLOCK_SIZE_BATCH_heuristic,
                    'BLOCK_SIZE_SPATIAL': lambda args: next_power_of_2(args['spatial_dim'])})
@triton.jit
def nll_loss_forward_kernel(
    input_pointer, target_pointer, weight_pointer,
    sum_weights_pointer, output_pointer,
    batch_dim, spatial_dim,
    input_batch_stride, input_feat_stride, input_spatial_stride,
    target_batch_stride, target_spatial_stride,
    output_batch_stride, output_spatial_stride,
    reduction: tl.constexpr, weighted: tl.constexpr,
    BLOCK_SIZE_BATCH: tl.constexpr, BLOCK_SIZE_SPATIAL: tl.constexpr,
    ):
    """
    Measures the negative log likelihood loss between the input and target,
    with optional reweighing of each class.
    """
    # This program processes BLOCK_SIZE_BATCH rows and
    # BLOCK_SIZE_SPATIAL spatial elements.
    batch_pid = tl.program_id(axis=0)

    batch_offset = batch_pid * BLOCK_SIZE_BATCH + tl.arange(0, BLOCK_SIZE_BATCH)
    spatial_offset = tl.arange(0, BLOCK_SIZE_SPATIAL)

    batch_mask = batch_offset < batch_dim
    spatial_mask = spatial_offset < spatial_dim

    target_pointer += (target_batch_stride * batch_offset[:, None] +
                       target_spatial_stride * spatial_offset[None, :])
    target = tl.load(target_pointer,
                     mask=batch_mask[:, None] & spatial_mask[None, :])

    input_pointer += (input_feat_stride * target +
                      input_batch_stride * batch_offset[:, None] +
                      input_spatial_stride * spatial_offset[None, :])
    input = tl.load(input_pointer,
                    mask=batch_mask[:, None] & spatial_mask[None, :])

    output = -input
    if weighted:
        weight = tl.load(weight_pointer + target,
                         mask=batch_mask[:, None] & spatial_mask[None, :])
        output *= weight

    if reduction == 'none':
        output_pointer += (output_batch_stride * batch_offset[:, None] +
                           output_spatial_stride * spatial_offset[None, :])
        tl.store(output_pointer, output,
                 mask=batch_mask[:, None] & spatial_mask[None, :])

    elif reduction == 'mean':
        if weighted:
            tl.store(sum_weights_pointer + batch_pid, tl.sum(weight))
            tl.store(output_pointer + batch_pid, tl.sum(output))

        else:
            tl.store(output_pointer + batch_pid,
                    tl.sum(output) / (batch_dim * spatial_dim))

    elif reduction == 'sum':
        tl.store(output_pointer + batch_pid, tl.sum(output))


def log_softmax(input: Tensor) -> Tensor:
    flattened_input = input.flatten(0, -2)
    batch_dim, feat_dim = flattened_input.shape
    output = torch.empty_like(flattened_input)
    # Launches 1D grid where each program operates over BLOCK_SIZE_BATCH rows.
    grid = lambda META: (cdiv(batch_dim, META['BLOCK_SIZE_BATCH']),)
    softmax_forward_kernel[grid](flattened_input, output, batch_dim, feat_dim,
                                 *flattened_input.stride(), log=True)
    return output.view_as(input)


def nll_loss(input: Tensor, target: Tensor, reduction: str = 'mean',
             weight: Optional[Tensor] = None) -> Tensor:
    flattened_input = input.unsqueeze(-1) if input.ndim == 2 else input
    flattened_input = flattened_input.flatten(2, -1)

    flattened_target = target.unsqueeze(-1) if target.ndim == 1 else target
    flattened_target = flattened_target.flatten(1, -1)

    batch_dim, _, spatial_dim = flattened_input.shape
    BLOCK_SIZE_BATCH = nll_BLOCK_SIZE_BATCH_heuristic({'batch_dim': batch_dim,
                                                       'spatial_dim': spatial_dim})
    out_batch_dim = batch_dim // BLOCK_SIZE_BATCH

    sum_weights = (torch.empty(out_batch_dim, dtype=torch.float32, device=input.device)
                   if reduction == 'mean' and weight is not None else None)
    output = (torch.empty_like(flattened_target, dtype=input.dtype)
              if reduction == 'none' else
              torch.empty(out_batch_dim, dtype=input.dtype, device=input.device))

    # Launches 1D grid where each program operates over BLOCK_SIZE_BATCH rows.
    grid = lambda META: (cdiv(batch_dim, META['BLOCK_SIZE_BATCH']),)
    nll_loss_forward_kernel[grid](flattened_input, flattened_target,
                                  weight, sum_weights, output,
                                  batch_dim, spatial_dim,
                                  *flattened_input.stride(),
                                  *flattened_target.stride(),
                                  *output.stride() if reduction == 'none' else (1, 1),
                                  reduction=reduction,
                                  weighted=weight is not None)

    if reduction != 'none':
        output = output.sum()

        if reduction == 'mean' and weight is not None:
            output /= sum_weights.sum()

    else:
        output = output.view_as(target)

    return output


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, logits: Tensor, targets: Tensor) -> Tensor:
        return nll_loss(log_softmax(logits), targets, reduction='mean')
