# honest: hinge loss in attorch's style (a torch.autograd.Function whose forward launches a per-block partial kernel then a single-program finisher, backward unused; reduction as a constexpr string compare; a torch fallback for CPU tensors of non-float dtype). problem: loss/hinge
import torch
import torch.nn as nn
import triton
import triton.language as tl


def warps_kernel_configs():
    return [triton.Config({}, num_warps=2 ** i) for i in range(6)]


@triton.jit
def hinge_loss_forward_kernel(
    input_pointer, target_pointer, output_pointer, size,
    reduction: tl.constexpr, BLOCK_SIZE: tl.constexpr,
):
    pid = tl.program_id(axis=0)
    offset = pid * BLOCK_SIZE + tl.arange(0, BLOCK_SIZE)
    mask = offset < size
    input = tl.load(input_pointer + offset, mask=mask).to(tl.float32)
    target = tl.load(target_pointer + offset, mask=mask).to(tl.float32)
    output = tl.maximum(1.0 - input * target, 0.0)
    output = tl.where(mask, output, 0.0)
    if reduction == "none":
        tl.store(output_pointer + offset, output, mask=mask)
    else:
        tl.store(output_pointer + pid, tl.sum(output))


@triton.jit
def partials_finish_kernel(partial_pointer, output_pointer, n_partials, scale,
                           BLOCK_SIZE: tl.constexpr):
    acc = tl.zeros((BLOCK_SIZE,), dtype=tl.float32)
    for start in range(0, n_partials, BLOCK_SIZE):
        offset = start + tl.arange(0, BLOCK_SIZE)
        acc += tl.load(partial_pointer + offset, mask=offset < n_partials, other=0.0)
    tl.store(output_pointer, tl.sum(acc) * scale)


class HingeLoss(torch.autograd.Function):
    @staticmethod
    def forward(ctx, input, target, reduction="mean"):
        if not input.is_floating_point():
            return torch.clamp(1 - input * target, min=0).mean()
        flat_input = input.flatten()
        flat_target = target.flatten()
        size = len(flat_input)
        BLOCK_SIZE = 2048
        n_blocks = triton.cdiv(size, BLOCK_SIZE)
        partials = torch.empty(n_blocks, device=input.device, dtype=torch.float32)
        hinge_loss_forward_kernel[(n_blocks,)](
            flat_input, flat_target, partials, size,
            reduction=reduction, BLOCK_SIZE=BLOCK_SIZE,
        )
        output = torch.empty((), device=input.device, dtype=torch.float32)
        scale = 1.0 / size if reduction == "mean" else 1.0
        partials_finish_kernel[(1,)](partials, output, n_blocks, scale, BLOCK_SIZE=1024)
        ctx.save_for_backward(input, target)
        return output.to(input.dtype)

    @staticmethod
    def backward(ctx, output_grad):
        raise NotImplementedError("forward only")


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, predictions: torch.Tensor, targets: torch.Tensor) -> torch.Tensor:
        return HingeLoss.apply(predictions, targets, "mean")
