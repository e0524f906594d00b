# honest: attorch's activation layers (attorch/act_kernels.py, act_layers.py, utils.py): the activation's name as a string constexpr (act_func: tl.constexpr = 'silu') dispatched by `if act_func == ...` in a @triton.jit helper, autotune configs from an element_wise_kernel_configs() helper, `from triton import cdiv`, an autograd.Function with the bare @custom_fwd / @custom_bwd of torch.cuda.amp, `len(flattened_input)` (the model an nn.Module: attorch subclasses nn.SiLU, which stays refused). problem: activation/silu
from typing import List, Optional, Tuple

import torch
from torch import Tensor, nn
from torch.cuda.amp import custom_bwd, custom_fwd
import triton
import triton.language as tl
from triton import cdiv


def element_wise_kernel_configs(block_name: str = "BLOCK_SIZE") -> List[triton.Config]:
    return [triton.Config({block_name: 64}, num_warps=2),
            triton.Config({block_name: 128}, num_warps=2),
            triton.Config({block_name: 256}, num_warps=4),
            triton.Config({block_name: 512}, num_warps=4),
            triton.Config({block_name: 1024}, num_warps=4)]


@triton.jit
def sigmoid(input):
    return 1 / (1 + tl.exp(-input))


@triton.jit
def silu(input):
    return input * sigmoid(input)


@triton.jit
def silu_grad(input):
    output_sigmoid = sigmoid(input)
    return output_sigmoid * (input * (1 - output_sigmoid) + 1)


@triton.jit
def relu(input):
    return tl.maximum(0, input)


@triton.jit
def apply_act_func(input, act_func: tl.constexpr):
    # every activation but ReLU needs FP32 inputs
    if act_func != "relu":
        input = input.to(tl.float32)
    if act_func == "sigmoid":
        output = sigmoid(input)
    elif act_func == "relu":
        output = relu(input)
    elif act_func == "silu":
        output = silu(input)
    return output


@triton.autotune(configs=element_wise_kernel_configs(), key=["size"])
@triton.jit
def act_func_forward_kernel(input_pointer, output_pointer, size, act_func: tl.constexpr, BLOCK_SIZE: tl.constexpr):
    pid = tl.program_id(axis=0)
    offset = pid * BLOCK_SIZE + tl.arange(0, BLOCK_SIZE)
    mask = offset < size
    input = tl.load(input_pointer + offset, mask=mask)
    tl.store(output_pointer + offset, apply_act_func(input, act_func), mask=mask)


@triton.autotune(configs=element_wise_kernel_configs(), key=["size"])
@triton.jit
def act_func_backward_kernel(output_grad_pointer, input_pointer, input_grad_pointer, size,
                             act_func: tl.constexpr, BLOCK_SIZE: tl.constexpr):
    pid = tl.program_id(axis=0)
    offset = pid * BLOCK_SIZE + tl.arange(0, BLOCK_SIZE)
    mask = offset < size
    output_grad = tl.load(output_grad_pointer + offset, mask=mask)
    input = tl.load(input_pointer + offset, mask=mask).to(tl.float32)
    tl.store(input_grad_pointer + offset, output_grad * silu_grad(input), mask=mask)


class ActFuncAutoGrad(torch.autograd.Function):
    @staticmethod
    @custom_fwd
    def forward(ctx, input: Tensor, act_func: str) -> Tensor:
        ctx.act_func = act_func
        if input.requires_grad:
            ctx.save_for_backward(input)
        flattened_input = input.flatten()
        size = len(flattened_input)
        output = torch.empty_like(flattened_input)
        # a 1-D grid, each program over BLOCK_SIZE elements
        grid = lambda META: (cdiv(size, META["BLOCK_SIZE"]),)
        act_func_forward_kernel[grid](flattened_input, output, size, act_func)
        return output.view_as(input)

    @staticmethod
    @custom_bwd
    def backward(ctx, output_grad: Tensor) -> Tuple[Optional[Tensor], ...]:
        (input,) = ctx.saved_tensors
        flattened_input = input.flatten()
        output_grad = output_grad.flatten()
        size = len(flattened_input)
        input_grad = torch.empty_like(flattened_input)
        grid = lambda META: (cdiv(size, META["BLOCK_SIZE"]),)
        act_func_backward_kernel[grid](output_grad, flattened_input, input_grad, size, ctx.act_func)
        return input_grad.view_as(input), None


class ModelNew(nn.Module):
    """Applies SiLU to the input (see the base class)."""

    def __init__(self, inplace: bool = False) -> None:
        super().__init__()
        self.inplace = inplace

    def forward(self, input: Tensor) -> Tensor:
        return ActFuncAutoGrad.apply(input, "silu")
