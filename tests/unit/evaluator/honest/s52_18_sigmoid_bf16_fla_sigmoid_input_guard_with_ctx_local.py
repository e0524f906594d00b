# honest: flash-linear-attention's sigmoid (fla/modules/activations.py: sigmoid_fwd_kernel, `@triton.jit(do_not_specialize=['T'])` under @triton.autotune(configs=_activation_autotune_configs(), key=['D']), rows through their stride, the fp32 compute stored as `b_y.to(y.dtype.element_ty)`) on bf16, behind fla.utils' input_guard in the form fla released it before its inspect-based rewrite (and vLLM vendors it in vllm/model_executor/layers/fla/ops/utils.py): contiguous *args by a generator, **kwargs by a dict comprehension, the first tensor found by loops over args and kwargs.values(), then `ctx = custom_device_ctx(tensor.device.index)` or `ctx = contextlib.nullcontext()` and `with ctx: return fn(...)` (refused before this round: a manager held in a local). Adapted: custom_device_ctx returns torch.cuda.device(index) (fla: `device_torch_lib.device(index)` with `device_torch_lib = getattr(torch, device)`, refused: a getattr by a computed name). problem: activation/sigmoid_bf16
import contextlib
import functools

import torch
import torch.nn as nn
import triton
import triton.language as tl

IS_AMD = torch.version.hip is not None


def custom_device_ctx(index: int):
    return torch.cuda.device(index)


def input_guard(fn):
    """
    A decorator to make sure all input tensors are contiguous and set the device based on input tensors.
    """

    @functools.wraps(fn)
    def wrapper(*args, **kwargs):
        contiguous_args = (i if not isinstance(i, torch.Tensor) else i.contiguous() for i in args)
        contiguous_kwargs = {k: (v if not isinstance(v, torch.Tensor) else v.contiguous()) for k, v in kwargs.items()}

        tensor = None
        for arg in args:
            if isinstance(arg, torch.Tensor):
                tensor = arg
                break
        if tensor is None:
            for value in kwargs.values():
                if isinstance(value, torch.Tensor):
                    tensor = value
                    break

        if tensor is not None:
            ctx = custom_device_ctx(tensor.device.index)
        else:
            ctx = contextlib.nullcontext()

        with ctx:
            return fn(*contiguous_args, **contiguous_kwargs)

    return wrapper


def _activation_autotune_configs():
    if IS_AMD:
        bs_list = [512, 1024, 2048, 4096, 8192]
        nw_list = [1, 2, 4, 8, 16]
    else:
        bs_list = [512, 1024, 2048, 4096, 8192]
        nw_list = [1, 2, 4, 8, 16, 32]
    return [triton.Config({'B': bs}, num_warps=nw) for bs in bs_list for nw in nw_list]


def _get_stride(x: torch.Tensor) -> int:
    if x.ndim < 2:
        return 0
    return x.stride(-2)


@triton.autotune(
    configs=_activation_autotune_configs(),
    key=['D'],
)
@triton.jit(do_not_specialize=['T'])
def sigmoid_fwd_kernel(
    x, y,
    stride_x_row,
    stride_y_row,
    T,
    D: tl.constexpr,
    B: tl.constexpr,
):
    i_n = tl.program_id(0).to(tl.int64)
    offs = i_n * B + tl.arange(0, B)
    mask = offs < T
    row = offs // D
    col = offs % D
    b_x = tl.load(x + row * stride_x_row + col, mask=mask, other=0.).to(tl.float32)
    b_y = tl.sigmoid(b_x)
    tl.store(y + row * stride_y_row + col, b_y.to(y.dtype.element_ty), mask=mask)


def sigmoid_fwd(x: torch.Tensor) -> torch.Tensor:
    T, D = x.numel(), x.shape[-1]
    y = torch.empty_like(x)
    sigmoid_fwd_kernel[lambda meta: (triton.cdiv(T, meta['B']),)](
        x=x,
        y=y,
        stride_x_row=_get_stride(x),
        stride_y_row=_get_stride(y),
        T=T,
        D=D,
    )
    return y


class SigmoidFunction(torch.autograd.Function):

    @staticmethod
    @input_guard
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return sigmoid_fwd(x)


sigmoid = SigmoidFunction.apply


class ModelNew(nn.Module):
    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return sigmoid(x)
