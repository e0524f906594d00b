# honest: row scaling through a launcher cache (a module-level dict keyed on (shape, dtype, device) holding a closure that launches the 2-D tiled kernel with the grid and block sizes worked out once), called from a torch.autograd.Function's forward (backward never used) instead of torch.library registration. problem: elementwise/mul_broadcast
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def scale_rows_kernel(x_ptr, s_ptr, y_ptr, n_rows, n_cols, stride_x, stride_y,
                      BLOCK_R: tl.constexpr, BLOCK_C: tl.constexpr):
    pid_r = tl.program_id(0)
    pid_c = tl.program_id(1)
    rows = pid_r * BLOCK_R + tl.arange(0, BLOCK_R)
    cols = pid_c * BLOCK_C + tl.arange(0, BLOCK_C)
    rmask = rows < n_rows
    mask = rmask[:, None] & (cols[None, :] < n_cols)
    s = tl.load(s_ptr + rows, mask=rmask, other=0.0)
    x = tl.load(x_ptr + rows[:, None].to(tl.int64) * stride_x + cols[None, :], mask=mask, other=0.0)
    tl.store(y_ptr + rows[:, None].to(tl.int64) * stride_y + cols[None, :], x * s[:, None], mask=mask)


_LAUNCHERS = {}


def _get_launcher(shape, dtype, device):
    key = (tuple(shape), dtype, str(device))
    launcher = _LAUNCHERS.get(key)
    if launcher is None:
        n_rows, n_cols = shape
        BLOCK_R = 8
        BLOCK_C = min(1024, triton.next_power_of_2(n_cols))
        grid = (triton.cdiv(n_rows, BLOCK_R), triton.cdiv(n_cols, BLOCK_C))

        def launcher(x, s, y):
            scale_rows_kernel[grid](x, s, y, n_rows, n_cols, x.stride(0), y.stride(0),
                                    BLOCK_R=BLOCK_R, BLOCK_C=BLOCK_C, num_warps=4)

        _LAUNCHERS[key] = launcher
    return launcher


class RowScale(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x, s):
        x = x.contiguous()
        s = s.reshape(-1).contiguous()
        y = torch.empty_like(x)
        _get_launcher(x.shape, x.dtype, x.device)(x, s, y)
        return y

    @staticmethod
    def backward(ctx, grad_out):
        raise NotImplementedError


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x: torch.Tensor, row_scale: torch.Tensor) -> torch.Tensor:
        return RowScale.apply(x, row_scale)
