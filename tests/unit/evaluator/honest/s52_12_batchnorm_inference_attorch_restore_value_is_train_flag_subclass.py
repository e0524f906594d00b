# honest: attorch's batch norm (BobMcDear/attorch attorch/batch_norm_kernels.py @ 11d9ff5, batch_norm_layer.py) in its evaluation path: `batch_norm_forward_kernel` autotuned over warps_kernel_configs() with `restore_value=['running_mean_pointer', 'running_var_pointer']`, heuristics BLOCK_SIZE_BATCH = next_power_of_2(batch_dim) and BLOCK_SIZE_SPATIAL_heuristic, one program per feature over a [batch, spatial] tile loop, constexpr flags affine / save_stats / track_running_stats / is_train choosing the running statistics (`if is_train or not track_running_stats:` a Welford pass, else `tl.load(feat_pid + running_mean_pointer)`), `weight = 1.` / `bias = 0.` scalars when not affine, pointer + feat_pid written both ways round, the input viewed as [batch, feat, spatial] with `flatten(2, -1)` and three strides splatted, and the layer `class BatchNorm2d(nn.BatchNorm2d)` calling the autograd Function with self.training, momentum and eps. Adapted: the problem's statistics drawn into the layer's buffers as the problem draws them, training=False as the problem's F.batch_norm call. problem: norm/batchnorm_inference
from typing import Dict, List, Optional

import torch
from torch import Tensor, nn
from torch.amp import custom_fwd

import triton
import triton.language as tl
from triton import next_power_of_2


def warps_kernel_configs() -> List[triton.Config]:
    """
    Returns kernel configurations with all possible number of warps.
    """
    return [triton.Config({}, num_warps=2**i) for i in range(6)]


def BLOCK_SIZE_SPATIAL_heuristic(args: Dict) -> int:
    """
    Approximates an appropriate spatial block size for batch normalization
    using a heuristic.
    """
    BLOCK_SIZE_BATCH = next_power_of_2(args['batch_dim'])
    BLOCK_SIZE_SPATIAL = next_power_of_2(args['spatial_dim'])
    return min(BLOCK_SIZE_SPATIAL, max(1, 2 ** 14 // BLOCK_SIZE_BATCH))


@triton.autotune(
    configs=warps_kernel_configs(),
    key=['batch_dim', 'spatial_dim'],
    restore_value=['running_mean_pointer', 'running_var_pointer']
)
@triton.heuristics({'BLOCK_SIZE_BATCH': lambda args: next_power_of_2(args['batch_dim']),
                    'BLOCK_SIZE_SPATIAL': BLOCK_SIZE_SPATIAL_heuristic})
@triton.jit
def batch_norm_forward_kernel(
    input_pointer, weight_pointer, bias_pointer,
    mean_pointer, inv_std_pointer, output_pointer,
    running_mean_pointer, running_var_pointer,
    batch_dim, spatial_dim,
    input_batch_stride, input_feat_stride, input_spatial_stride,
    output_batch_stride, output_feat_stride, output_spatial_stride,
    momentum, eps,
    affine: tl.constexpr, save_stats: tl.constexpr,
    track_running_stats: tl.constexpr, is_train: tl.constexpr,
    BLOCK_SIZE_BATCH: tl.constexpr, BLOCK_SIZE_SPATIAL: tl.constexpr,
    ):
    """
    Batch-normalizes the input.
    """
    feat_pid = tl.program_id(axis=0)

    batch_offset = tl.arange(0, BLOCK_SIZE_BATCH)
    batch_mask = batch_offset < batch_dim

    if is_train or not track_running_stats:
        count = 0
        mean = 0.0
        var = 0.0

        for block_ind in range(0, tl.cdiv(spatial_dim, BLOCK_SIZE_SPATIAL)):
            spatial_offset = (block_ind * BLOCK_SIZE_SPATIAL +
                              tl.arange(0, BLOCK_SIZE_SPATIAL))
            spatial_mask = spatial_offset < spatial_dim

            curr_input_pointer = (input_pointer +
                                  input_feat_stride * feat_pid +
                                  input_batch_stride * batch_offset[:, None] +
                                  input_spatial_stride * spatial_offset[None, :])
            curr_input = tl.load(curr_input_pointer,
                                 mask=batch_mask[:, None] & spatial_mask[None, :]).to(tl.float32)

            spatial_count = min(BLOCK_SIZE_SPATIAL, spatial_dim - block_ind * BLOCK_SIZE_SPATIAL)
            curr_count = spatial_count * batch_dim
            count += curr_count

            prev_mean = mean
            mean += (tl.sum(curr_input) - curr_count * mean) / count
            deltas = tl.where(batch_mask[:, None] & spatial_mask[None, :],
                              (curr_input - mean) * (curr_input - prev_mean), 0.)
            var += tl.sum(deltas)

        var /= count
        inv_std = 1 / tl.sqrt(var + eps)

        if save_stats:
            tl.store(feat_pid + mean_pointer, mean)
            tl.store(feat_pid + inv_std_pointer, inv_std)

        if track_running_stats:
            running_mean_pointer += feat_pid
            running_var_pointer += feat_pid

            running_mean = tl.load(running_mean_pointer)
            running_var = tl.load(running_var_pointer)

            n = batch_dim * spatial_dim
            tl.store(running_mean_pointer,
                     (1 - momentum) * running_mean + momentum * mean)
            tl.store(running_var_pointer,
                     (1 - momentum) * running_var + momentum * var * n / (n - 1))

    else:
        mean = tl.load(feat_pid + running_mean_pointer)
        inv_std = 1 / tl.sqrt(tl.load(feat_pid + running_var_pointer) + eps)

    if affine:
        weight = tl.load(feat_pid + weight_pointer)
        bias = tl.load(feat_pid + bias_pointer)

    else:
        weight = 1.
        bias = 0.

    for block_ind in range(0, tl.cdiv(spatial_dim, BLOCK_SIZE_SPATIAL)):
        spatial_offset = (block_ind * BLOCK_SIZE_SPATIAL +
                          tl.arange(0, BLOCK_SIZE_SPATIAL))
        spatial_mask = spatial_offset < spatial_dim

        curr_input_pointer = (input_pointer +
                              input_feat_stride * feat_pid +
                              input_batch_stride * batch_offset[:, None] +
                              input_spatial_stride * spatial_offset[None, :])
        curr_output_pointer = (output_pointer +
                               output_feat_stride * feat_pid +
                               output_batch_stride * batch_offset[:, None] +
                               output_spatial_stride * spatial_offset[None, :])

        curr_input = tl.load(curr_input_pointer,
                             mask=batch_mask[:, None] & spatial_mask[None, :]).to(tl.float32)
        output = weight * (curr_input - mean) * inv_std + bias
        tl.store(curr_output_pointer, output,
                 mask=batch_mask[:, None] & spatial_mask[None, :])


class BatchNormAutoGrad(torch.autograd.Function):
    """
    Autodiff for batch normalization.
    """
    @staticmethod
    @custom_fwd(device_type='cuda')
    def forward(
        ctx,
        input: Tensor,
        training: bool,
        weight: Optional[Tensor] = None,
        bias: Optional[Tensor] = None,
        running_mean: Optional[Tensor] = None,
        running_var: Optional[Tensor] = None,
        momentum: float = 0.1,
        eps: float = 1e-5,
        track_running_stats: bool = True,
        ) -> Tensor:
        ctx.track_running_stats = track_running_stats
        ctx.affine = weight is not None and bias is not None

        flattened_input = input.unsqueeze(-1) if input.ndim == 2 else input
        flattened_input = flattened_input.flatten(2, -1)
        batch_dim, feat_dim, spatial_dim = flattened_input.shape
        output = torch.empty_like(flattened_input)

        if training:
            mean = torch.empty(feat_dim, device=input.device, dtype=torch.float32)
            inv_std = torch.empty(feat_dim, device=input.device, dtype=torch.float32)

        else:
            mean = inv_std = None

        running_mean = input if running_mean is None else running_mean
        running_var = input if running_var is None else running_var

        # Launches 1D grid where each program operates over one feature.
        grid = lambda _: (feat_dim,)
        batch_norm_forward_kernel[grid](flattened_input, weight, bias,
                                        mean, inv_std, output,
                                        running_mean, running_var,
                                        batch_dim, spatial_dim,
                                        *flattened_input.stride(),
                                        *output.stride(),
                                        momentum, eps,
                                        affine=ctx.affine,
                                        save_stats=training,
                                        track_running_stats=track_running_stats,
                                        is_train=training)

        return output.view_as(input)


class BatchNorm2d(nn.BatchNorm2d):
    """
    Batch-normalizes the 4D input.
    See also base class.
    """
    def forward(self, input: Tensor) -> Tensor:
        self._check_input_dim(input)
        return BatchNormAutoGrad.apply(input, self.training,
                                       self.weight, self.bias,
                                       self.running_mean, self.running_var,
                                       self.momentum, self.eps,
                                       self.track_running_stats)


class ModelNew(nn.Module):
    def __init__(self, channels: int):
        super().__init__()
        self.bn = BatchNorm2d(channels)
        with torch.no_grad():  # statistics as a trained network would have them
            self.bn.running_mean.normal_(0.0, 0.5)
            self.bn.running_var.uniform_(0.5, 2.0)
            self.bn.weight.normal_(1.0, 0.2)
            self.bn.bias.normal_(0.0, 0.2)
        self.bn.eval()

    def forward(self, x: Tensor) -> Tensor:
        return self.bn(x)
