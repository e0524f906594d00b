# honest: BatchNorm in inference in FlagGems' batch_norm layout (src/flag_gems/ops/batch_norm.py): the input made 3-D (N, C, spatial) by a make_3d helper, one program per feature (program_id(0) = channel), the (batch, spatial) plane walked in 2-D [BLOCK_M, BLOCK_N] tiles with the 3-D strides, an IS_TRAINING tl.constexpr whose training branch (batch statistics by sums) is compiled out here and whose inference branch loads running_mean / running_var as scalars, inv_std = 1 / sqrt(var + eps), weight and bias folded into one scale and shift per program. problem: norm/batchnorm_inference
import torch
import torch.nn as nn
import triton
import triton.language as tl


def make_3d_for_bn(x: torch.Tensor) -> torch.Tensor:
    if x.ndim == 2:
        x = x.unsqueeze(-1)
    elif x.ndim >= 4:
        x = x.flatten(2, -1)
    return x


@triton.jit
def batch_norm_forward_kernel(
    input_ptr, weight_ptr, bias_ptr, running_mean_ptr, running_var_ptr, output_ptr,
    batch_dim, spatial_dim,
    input_batch_stride, input_feat_stride, input_spatial_stride,
    output_batch_stride, output_feat_stride, output_spatial_stride,
    eps,
    IS_TRAINING: tl.constexpr, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr,
):
    feat_pid = tl.program_id(axis=0)
    if IS_TRAINING:
        m_num_steps = tl.cdiv(batch_dim, BLOCK_M)
        n_num_steps = tl.cdiv(spatial_dim, BLOCK_N)
        acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
        acc_sq = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
        for m_step in range(0, m_num_steps):
            for n_step in range(0, n_num_steps):
                m_offset = m_step * BLOCK_M + tl.arange(0, BLOCK_M)
                n_offset = n_step * BLOCK_N + tl.arange(0, BLOCK_N)
                mask = (m_offset[:, None] < batch_dim) & (n_offset[None, :] < spatial_dim)
                curr = tl.load(input_ptr + feat_pid * input_feat_stride
                               + m_offset[:, None] * input_batch_stride
                               + n_offset[None, :] * input_spatial_stride,
                               mask=mask, other=0.0).to(tl.float32)
                acc += curr
                acc_sq += curr * curr
        count = batch_dim * spatial_dim
        mean = tl.sum(acc) / count
        var = tl.sum(acc_sq) / count - mean * mean
    else:
        mean = tl.load(running_mean_ptr + feat_pid).to(tl.float32)
        var = tl.load(running_var_ptr + feat_pid).to(tl.float32)
    inv_std = 1.0 / tl.sqrt(var + eps)
    weight = tl.load(weight_ptr + feat_pid).to(tl.float32)
    bias = tl.load(bias_ptr + feat_pid).to(tl.float32)
    scale = weight * inv_std
    shift = bias - mean * scale
    for m_step in range(0, tl.cdiv(batch_dim, BLOCK_M)):
        for n_step in range(0, tl.cdiv(spatial_dim, BLOCK_N)):
            m_offset = m_step * BLOCK_M + tl.arange(0, BLOCK_M)
            n_offset = n_step * BLOCK_N + tl.arange(0, BLOCK_N)
            mask = (m_offset[:, None] < batch_dim) & (n_offset[None, :] < spatial_dim)
            curr = tl.load(input_ptr + feat_pid * input_feat_stride
                           + m_offset[:, None] * input_batch_stride
                           + n_offset[None, :] * input_spatial_stride,
                           mask=mask, other=0.0).to(tl.float32)
            out = curr * scale + shift
            tl.store(output_ptr + feat_pid * output_feat_stride
                     + m_offset[:, None] * output_batch_stride
                     + n_offset[None, :] * output_spatial_stride,
                     out.to(output_ptr.dtype.element_ty), mask=mask)


def batch_norm(input, weight, bias, running_mean, running_var, training=False, eps=1e-5):
    input_3d = make_3d_for_bn(input)
    batch_dim, feat_dim, spatial_dim = input_3d.shape
    output = torch.empty_like(input_3d)
    BLOCK_M = min(triton.next_power_of_2(batch_dim), 4)
    BLOCK_N = min(triton.next_power_of_2(spatial_dim), 1024)
    batch_norm_forward_kernel[(feat_dim,)](
        input_3d, weight, bias, running_mean, running_var, output,
        batch_dim, spatial_dim,
        *input_3d.stride(), *output.stride(),
        eps, IS_TRAINING=training, BLOCK_M=BLOCK_M, BLOCK_N=BLOCK_N,
    )
    return output.view_as(input)


class ModelNew(nn.Module):
    def __init__(self, channels: int):
        super().__init__()
        self.bn = nn.BatchNorm2d(channels)
        with torch.no_grad():
            self.bn.running_mean.normal_(0.0, 0.5)
            self.bn.running_var.uniform_(0.5, 2.0)
            self.bn.weight.normal_(1.0, 0.2)
            self.bn.bias.normal_(0.0, 0.2)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return batch_norm(x, self.bn.weight, self.bn.bias, self.bn.running_mean,
                          self.bn.running_var, training=False, eps=self.bn.eps)
