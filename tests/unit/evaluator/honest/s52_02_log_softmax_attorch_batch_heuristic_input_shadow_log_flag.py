# honest: attorch's softmax kernels (BobMcDear/attorch attorch/softmax_kernels.py @ 39e9288, softmax_layers.py) used as LogSoftmax: `softmax_forward_kernel` with the `log: tl.constexpr` flag, @triton.autotune over `[triton.Config({}, num_warps=2**i) for i in range(6)]` keyed on batch_dim/feat_dim over @triton.heuristics({'BLOCK_SIZE_BATCH': BLOCK_SIZE_BATCH_heuristic, 'BLOCK_SIZE_FEAT': lambda args: next_power_of_2(args['feat_dim'])}), `from triton import next_power_of_2`, a kernel local named `input` updated by `input -= tl.max(input, axis=1)[:, None]`, `input_pointer +=` pointer bumps, the grid `lambda META: (cdiv(batch_dim, META['BLOCK_SIZE_BATCH']),)`, a SoftmaxAutoGrad Function with custom_fwd(device_type='cuda') and the layer subclassing nn.LogSoftmax. problem: softmax/log_softmax
from typing import Dict

import torch
from torch import Tensor, nn
from torch.amp import custom_bwd, custom_fwd

import triton
import triton.language as tl
from triton import cdiv, next_power_of_2


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


class SoftmaxAutoGrad(torch.autograd.Function):
    """
    Autodiff for softmax and related functions.
    """
    @staticmethod
    @custom_fwd(device_type='cuda')
    def forward(
        ctx,
        input: Tensor,
        log: bool,
        ) -> Tensor:
        """
        Normalizes the input using softmax.

        Args:
            ctx: Context for variable storage.
            input: Input to normalize.
                Can have arbitrary shape.
            log: Flag for indicating if the log of softmax should be taken.

        Returns:
            Input normalized by softmax.
        """
        flattened_input = input.unsqueeze(0) if input.ndim == 1 else input
        flattened_input = flattened_input.flatten(0, -2)
        batch_dim, feat_dim = flattened_input.shape

        output = torch.empty_like(flattened_input)

        # Launches 1D grid where each program operates over BLOCK_SIZE_BATCH rows.
        grid = lambda META: (cdiv(batch_dim, META['BLOCK_SIZE_BATCH']),)
        softmax_forward_kernel[grid](flattened_input, output, batch_dim, feat_dim,
                                     *flattened_input.stride(), log=log)

        ctx.log = log
        if input.requires_grad:
            ctx.save_for_backward(output)

        return output.view_as(input)

    @staticmethod
    @custom_bwd(device_type='cuda')
    def backward(ctx, output_grad: Tensor):
        raise NotImplementedError('inference-only copy')


class LogSoftmax(nn.LogSoftmax):
    """
    Normalizes the input using softmax and takes its log.
    See also base class.

    Note: The dimension to normalize is always the last one.
    """
    def forward(self, input: Tensor) -> Tensor:
        return SoftmaxAutoGrad.apply(input, True)


class ModelNew(nn.Module):
    def __init__(self, dim: int = 1):
        super().__init__()
        self.log_softmax = LogSoftmax(dim=-1)

    def forward(self, x: Tensor) -> Tensor:
        return self.log_softmax(x)
