# honest: attorch's fused linear layer (attorch/linear_kernels.py, linear_layer.py, utils.py): autotune configs built by a linear_forward_config(...) helper, add_bias / act_func (a string or None) / save_pre_act / fp16 as constexpr flags with `if act_func is not None`, GROUP_SIZE_BATCH rebound by min() inside the kernel for grouped ordering, the nn.Linear weight read transposed through (stride(1), stride(0)), the pre-activation optionally stored, fp16 chosen from torch.is_autocast_enabled(), get_n_stages from torch.cuda.get_device_capability(). problem: matmul/matmul_bias_relu
from typing import Optional

import torch
import torch.nn as nn
import triton
import triton.language as tl


def get_n_stages(n_stages: int = 2) -> int:
    """n_stages on Ampere or newer, 2 before."""
    return 2 if torch.cuda.get_device_capability()[0] < 8 else n_stages


def linear_forward_config(BLOCK_SIZE_BATCH: int, BLOCK_SIZE_IN_FEAT: int, BLOCK_SIZE_OUT_FEAT: int,
                          GROUP_SIZE_BATCH: int = 8, n_warps: int = 4, n_stages: int = 2) -> triton.Config:
    return triton.Config({"BLOCK_SIZE_BATCH": BLOCK_SIZE_BATCH, "BLOCK_SIZE_IN_FEAT": BLOCK_SIZE_IN_FEAT,
                          "BLOCK_SIZE_OUT_FEAT": BLOCK_SIZE_OUT_FEAT, "GROUP_SIZE_BATCH": GROUP_SIZE_BATCH},
                         num_warps=n_warps, num_stages=n_stages)


@triton.jit
def apply_act_func(input, act_func: tl.constexpr):
    if act_func == "relu":
        output = tl.maximum(0, input)
    elif act_func == "sigmoid":
        output = 1 / (1 + tl.exp(-input))
    else:
        output = input
    return output


@triton.autotune(
    configs=[
        linear_forward_config(32, 32, 32, n_warps=2, n_stages=2),
        linear_forward_config(64, 32, 32, n_warps=2, n_stages=5),
        linear_forward_config(64, 32, 128, n_warps=4, n_stages=4),
        linear_forward_config(128, 32, 64, n_warps=4, n_stages=4),
    ],
    key=["batch_dim", "in_feat_dim", "out_feat_dim", "fp16"],
)
@triton.jit
def linear_forward_kernel(
    input_pointer, weight_pointer, bias_pointer, pre_act_pointer, output_pointer,
    batch_dim, in_feat_dim, out_feat_dim,
    input_batch_stride, input_in_feat_stride,
    weight_in_feat_stride, weight_out_feat_stride,
    pre_act_batch_stride, pre_act_out_feat_stride,
    output_batch_stride, output_out_feat_stride,
    add_bias: tl.constexpr, act_func: tl.constexpr, save_pre_act: tl.constexpr, fp16: tl.constexpr,
    BLOCK_SIZE_BATCH: tl.constexpr, BLOCK_SIZE_IN_FEAT: tl.constexpr,
    BLOCK_SIZE_OUT_FEAT: tl.constexpr, GROUP_SIZE_BATCH: tl.constexpr,
):
    # programs are grouped GROUP_SIZE_BATCH rows at a time to cut L2 misses
    pid = tl.program_id(axis=0)
    n_batch_pids = tl.cdiv(batch_dim, BLOCK_SIZE_BATCH)
    n_out_feat_pids = tl.cdiv(out_feat_dim, BLOCK_SIZE_OUT_FEAT)
    pids_per_group = GROUP_SIZE_BATCH * n_out_feat_pids
    group_id = pid // pids_per_group
    first_batch_pid = group_id * GROUP_SIZE_BATCH
    GROUP_SIZE_BATCH = min(n_batch_pids - first_batch_pid, GROUP_SIZE_BATCH)
    batch_pid = first_batch_pid + (pid % GROUP_SIZE_BATCH)
    out_feat_pid = (pid % pids_per_group) // GROUP_SIZE_BATCH

    batch_offset = batch_pid * BLOCK_SIZE_BATCH + tl.arange(0, BLOCK_SIZE_BATCH)
    out_feat_offset = out_feat_pid * BLOCK_SIZE_OUT_FEAT + tl.arange(0, BLOCK_SIZE_OUT_FEAT)
    batch_mask = batch_offset < batch_dim
    out_feat_mask = out_feat_offset < out_feat_dim

    input_pointer += input_batch_stride * batch_offset[:, None]
    weight_pointer += weight_out_feat_stride * out_feat_offset[None, :]
    accum = tl.zeros((BLOCK_SIZE_BATCH, BLOCK_SIZE_OUT_FEAT), dtype=tl.float32)
    for block_ind in range(0, tl.cdiv(in_feat_dim, BLOCK_SIZE_IN_FEAT)):
        in_feat_offset = block_ind * BLOCK_SIZE_IN_FEAT + tl.arange(0, BLOCK_SIZE_IN_FEAT)
        in_feat_mask = in_feat_offset < in_feat_dim
        curr_input_pointer = input_pointer + input_in_feat_stride * in_feat_offset[None, :]
        curr_weight_pointer = weight_pointer + weight_in_feat_stride * in_feat_offset[:, None]
        input_block = tl.load(curr_input_pointer, mask=batch_mask[:, None] & in_feat_mask[None, :])
        weight_block = tl.load(curr_weight_pointer, mask=out_feat_mask[None, :] & in_feat_mask[:, None])
        if fp16:
            input_block = input_block.to(tl.float16)
            weight_block = weight_block.to(tl.float16)
        accum += tl.dot(input_block, weight_block)

    if add_bias:
        bias = tl.load(bias_pointer + out_feat_offset, mask=out_feat_mask)
        if fp16:
            bias = bias.to(tl.float16)
        accum += bias[None, :]

    if act_func is not None:
        if save_pre_act:
            pre_act_pointer += (pre_act_batch_stride * batch_offset[:, None] +
                                pre_act_out_feat_stride * out_feat_offset[None, :])
            tl.store(pre_act_pointer, accum, mask=batch_mask[:, None] & out_feat_mask[None, :])
        accum = apply_act_func(accum, act_func)

    output_pointer += output_batch_stride * batch_offset[:, None] + output_out_feat_stride * out_feat_offset[None, :]
    tl.store(output_pointer, accum, mask=batch_mask[:, None] & out_feat_mask[None, :])


class LinearAutoGrad(torch.autograd.Function):
    @staticmethod
    def forward(ctx, input: torch.Tensor, weight: torch.Tensor, bias: Optional[torch.Tensor] = None,
                act_func: Optional[str] = None) -> torch.Tensor:
        assert weight.ndim == 2, f"Weights must be 2D, received shape {weight.shape}"
        assert bias is None or bias.ndim == 1, f"Bias must be 1D, received shape {bias.shape}"
        flattened_input = input.flatten(0, -2) if input.ndim > 2 else input
        batch_dim, in_feat_dim = flattened_input.shape
        out_feat_dim = len(weight)
        requires_grad = input.requires_grad or weight.requires_grad
        save_pre_act = requires_grad and act_func is not None
        fp16 = torch.is_autocast_enabled()
        output_dtype = torch.float16 if fp16 else input.dtype
        pre_act = torch.empty((batch_dim, out_feat_dim), device=input.device,
                              dtype=output_dtype) if save_pre_act else flattened_input
        output = torch.empty((batch_dim, out_feat_dim), device=input.device, dtype=output_dtype)

        grid = lambda META: (triton.cdiv(batch_dim, META["BLOCK_SIZE_BATCH"]) *
                             triton.cdiv(out_feat_dim, META["BLOCK_SIZE_OUT_FEAT"]),)
        linear_forward_kernel[grid](
            flattened_input, weight, bias if bias is not None else flattened_input, pre_act, output,
            batch_dim, in_feat_dim, out_feat_dim,
            *flattened_input.stride(), weight.stride(1), weight.stride(0),
            *pre_act.stride(), *output.stride(),
            add_bias=bias is not None, act_func=act_func, save_pre_act=save_pre_act, fp16=fp16,
        )
        ctx.act_func = act_func
        if requires_grad:
            ctx.save_for_backward(input, pre_act if save_pre_act else None, weight)
        return output.view(*input.shape[:-1], out_feat_dim)


class ModelNew(nn.Module):
    def __init__(self, in_features: int, out_features: int):
        super().__init__()
        self.linear = nn.Linear(in_features, out_features)
        self.act_func = "relu"
        self.n_stages = get_n_stages(4)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return LinearAutoGrad.apply(x, self.linear.weight, self.linear.bias, self.act_func)
