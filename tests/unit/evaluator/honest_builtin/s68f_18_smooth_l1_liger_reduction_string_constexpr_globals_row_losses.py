# honest: smooth L1 loss in Liger-Kernel's loss layout: module-level string constexprs for the reduction modes (_REDUCTION_MODE_MEAN = tl.constexpr("mean"), ...) compared inside the kernel, beta passed as a float, one program per row looping over column blocks with int64 row offsets, the elementwise loss where(|d| < beta, 0.5 d^2 / beta, |d| - 0.5 beta) summed per row in fp32 (or stored whole for "none"), and the host finishing with loss.sum() / n_elements for "mean". problem: loss/smooth_l1
import torch
import torch.nn as nn
import triton
import triton.language as tl

_REDUCTION_MODE_NONE = tl.constexpr("none")
_REDUCTION_MODE_SUM = tl.constexpr("sum")
_REDUCTION_MODE_MEAN = tl.constexpr("mean")
MAX_FUSED_SIZE = 65536 // 4


@triton.jit
def _smooth_l1_kernel(
    X_ptr, X_stride, Y_ptr, Y_stride, loss_ptr, loss_stride,
    n_cols, beta,
    BLOCK_SIZE: tl.constexpr, reduction: tl.constexpr = _REDUCTION_MODE_MEAN,
):
    pid = tl.program_id(0).to(tl.int64)
    X_ptr += pid * X_stride
    Y_ptr += pid * Y_stride
    loss_ptr += pid * loss_stride
    base_offsets = tl.arange(0, BLOCK_SIZE)
    loss_sum = 0.0
    for i in range(0, n_cols, BLOCK_SIZE):
        offsets = i + base_offsets
        mask = offsets < n_cols
        x = tl.load(X_ptr + offsets, mask=mask, other=0.0).to(tl.float32)
        y = tl.load(Y_ptr + offsets, mask=mask, other=0.0).to(tl.float32)
        d = x - y
        ad = tl.abs(d)
        loss = tl.where(ad < beta, 0.5 * d * d / beta, ad - 0.5 * beta)
        loss = tl.where(mask, loss, 0.0)
        if reduction == _REDUCTION_MODE_NONE:
            tl.store(loss_ptr + offsets, loss, mask=mask)
        else:
            loss_sum += tl.sum(loss, axis=0)
    if reduction != _REDUCTION_MODE_NONE:
        tl.store(loss_ptr, loss_sum)


def smooth_l1_forward(x, y, beta=1.0, reduction="mean"):
    x = x.reshape(-1, x.shape[-1]) if x.dim() > 1 else x.reshape(1, -1)
    y = y.reshape(-1, y.shape[-1]) if y.dim() > 1 else y.reshape(1, -1)
    if x.stride(-1) != 1:
        x = x.contiguous()
    if y.stride(-1) != 1:
        y = y.contiguous()
    BT, V = x.shape
    BLOCK_SIZE = min(MAX_FUSED_SIZE, triton.next_power_of_2(V))
    shape = (BT, V) if reduction == "none" else (BT,)
    loss = torch.zeros(shape, device=x.device, dtype=torch.float32)
    _smooth_l1_kernel[(BT,)](
        x, x.stride(0), y, y.stride(0), loss, loss.stride(0),
        V, beta, BLOCK_SIZE=BLOCK_SIZE, reduction=reduction,
    )
    if reduction == "mean":
        return loss.sum() / (BT * V)
    if reduction == "sum":
        return loss.sum()
    return loss


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, predictions: torch.Tensor, targets: torch.Tensor) -> torch.Tensor:
        return smooth_l1_forward(predictions, targets, beta=1.0, reduction="mean")
