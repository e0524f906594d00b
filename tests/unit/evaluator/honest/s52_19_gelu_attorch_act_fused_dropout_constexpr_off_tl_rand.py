# honest: attorch's activation layer with fused dropout (BobMcDear/attorch attorch/act_kernels.py @ 1547a7d, dropout_kernels.py, act_layers.py) as nn.GELU: `act_func_forward_kernel(input_pointer, output_pointer, size, drop_p, seed, act_func: tl.constexpr, dropout: tl.constexpr, BLOCK_SIZE)` autotuned over element_wise_kernel_configs() keyed on size, the activation picked by a string constexpr in the @triton.jit helper apply_act_func (`if act_func != 'relu': input = input.to(tl.float32)`, an if/elif chain over 'sigmoid'/'tanh'/'relu'/'gelu'/'silu' calling @triton.jit helpers whose parameter is named `input`), the exact GELU through tl.math.erf, and `if dropout: output = apply_dropout(output, drop_p, seed, offset)` whose helper draws `tl.rand(seed, offset)`: in evaluation `ctx.dropout = drop_p > 0 and training` is False, so the draw is a dead constexpr branch; the layer `class GELU(nn.GELU)` taking drop_p and passing self.training. Adapted: attorch seeds with np.random.randint (numpy is not importable here): torch.randint(...).item(); its tanh helper's tl.math.tanh (gone from Triton 3.x: compile_error against the GPU image's 3.6, a genuine incompatibility) through libdevice.tanh. problem: activation/gelu
from typing import List

import torch
from torch import Tensor, nn
from torch.amp import custom_fwd

import triton
import triton.language as tl
from triton import cdiv
from triton.language.extra import libdevice


def element_wise_kernel_configs(
    block_name: str = 'BLOCK_SIZE',
    ) -> List[triton.Config]:
    """
    Returns kernel configurations for element-wise operations.
    """
    return [triton.Config({block_name: 64}, num_warps=2),
            triton.Config({block_name: 128}, num_warps=2),
            triton.Config({block_name: 256}, num_warps=4),
            triton.Config({block_name: 512}, num_warps=4),
            triton.Config({block_name: 1024}, num_warps=4)]


@triton.jit
def apply_dropout(input, drop_p, seed, offset):
    """
    Randomly zeroes elements in the input.
    """
    random = tl.rand(seed, offset)
    return tl.where(random < drop_p, 0, input / (1 - drop_p))


@triton.jit
def sigmoid(input):
    return (1 / (1 + tl.exp(-input)))


@triton.jit
def tanh(input):
    # attorch: tl.math.tanh, which Triton 3.x no longer has (the GPU image's 3.6 refuses it)
    return libdevice.tanh(input)


@triton.jit
def relu(input):
    return tl.maximum(0, input)


@triton.jit
def gelu(input):
    cdf = 0.5 * (1 + tl.math.erf(0.707106781 * input))
    return cdf * input


@triton.jit
def silu(input):
    return (input * sigmoid(input))


@triton.jit
def apply_act_func(input, drop_p, seed, offset,
                   act_func: tl.constexpr, dropout: tl.constexpr):
    """
    Applies an activation function to the input, optionally fusing dropout.
    """
    # All activation functions, except ReLU, require FP32 inputs.
    if act_func != 'relu':
        input = input.to(tl.float32)

    if act_func == 'sigmoid':
        output = sigmoid(input)

    elif act_func == 'tanh':
        output = tanh(input)

    elif act_func == 'relu':
        output = relu(input)

    elif act_func == 'gelu':
        output = gelu(input)

    elif act_func == 'silu':
        output = silu(input)

    if dropout:
        output = apply_dropout(output, drop_p, seed, offset)

    return output


@triton.autotune(
    configs=element_wise_kernel_configs(),
    key=['size'],
)
@triton.jit
def act_func_forward_kernel(
    input_pointer, output_pointer, size,
    drop_p, seed,
    act_func: tl.constexpr, dropout: tl.constexpr,
    BLOCK_SIZE: tl.constexpr,
    ):
    """
    Applies an activation function to the input, optionally fusing dropout.
    """
    # This program processes BLOCK_SIZE rows.
    pid = tl.program_id(axis=0)
    offset = pid * BLOCK_SIZE + tl.arange(0, BLOCK_SIZE)
    mask = offset < size

    input = tl.load(input_pointer + offset, mask=mask)
    tl.store(output_pointer + offset,
             apply_act_func(input, drop_p, seed, offset, act_func, dropout),
             mask=mask)


class ActFuncAutoGrad(torch.autograd.Function):
    """
    Autodiff for activation functions.
    """
    @staticmethod
    @custom_fwd(device_type='cuda')
    def forward(
        ctx,
        input: Tensor,
        act_func: str,
        drop_p: float,
        training: bool,
        ) -> Tensor:
        ctx.act_func = act_func
        ctx.drop_p = drop_p
        ctx.dropout = drop_p > 0 and training
        seed = torch.randint(0, 65536, (1,)).item() if ctx.dropout else 0
        ctx.seed = seed

        ori_shape = input.shape
        flattened_input = input.flatten()
        size = len(flattened_input)
        output = torch.empty_like(flattened_input)

        # Launches 1D grid where each program operates over BLOCK_SIZE elements.
        grid = lambda META: (cdiv(size, META['BLOCK_SIZE']),)
        act_func_forward_kernel[grid](flattened_input, output, size,
                                      drop_p, seed, act_func, ctx.dropout)

        ctx.save_for_backward(input)
        return output.view(ori_shape)


class GELU(nn.GELU):
    """
    Applies GELU to the input, optionally fusing dropout.
    See also base class.
    """
    def __init__(self, approximate: str = 'none', drop_p: float = 0.0) -> None:
        super().__init__(approximate)
        self.drop_p = drop_p

    def forward(self, input: Tensor) -> Tensor:
        return ActFuncAutoGrad.apply(input, 'gelu', self.drop_p, self.training)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()
        self.gelu = GELU()

    def forward(self, x: Tensor) -> Tensor:
        return self.gelu(x)
