# honest: a persistent row-mean: the grid is min(n_rows, 4 * SM count) programs (SM count from torch.cuda.get_device_properties(...).multi_processor_count), each strides over rows with `for row in tl.range(pid, n_rows, tl.num_programs(0))`, int64 row offsets from `row.to(tl.int64) * stride`, each row walked in chunks with a float32 accumulator (fp16/bf16 inputs upcast on load) and the mean stored in the input dtype; keepdim and a negative dim resolved in host glue; an empty row count returns before any launch. problem: reduction/mean_dim
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def persistent_row_mean_kernel(
    x_ptr, out_ptr, n_rows, n_cols, stride_row, inv_n,
    BLOCK_N: tl.constexpr,
):
    pid = tl.program_id(0)
    lanes = tl.arange(0, BLOCK_N)
    for row in tl.range(pid, n_rows, tl.num_programs(0)):
        base = x_ptr + row.to(tl.int64) * stride_row
        acc = tl.zeros((BLOCK_N,), dtype=tl.float32)
        for start in tl.range(0, n_cols, BLOCK_N):
            cols = start + lanes
            acc += tl.load(base + cols, mask=cols < n_cols, other=0.0).to(tl.float32)
        mean = tl.sum(acc, axis=0) * inv_n
        tl.store(out_ptr + row, mean.to(out_ptr.dtype.element_ty))


_SM_COUNT = {}


def _num_sms(device: torch.device) -> int:
    key = str(device)
    if key not in _SM_COUNT:
        _SM_COUNT[key] = torch.cuda.get_device_properties(device).multi_processor_count
    return _SM_COUNT[key]


def mean_dim(x: torch.Tensor, dim: int = -1, keepdim: bool = False) -> torch.Tensor:
    dim = dim % x.ndim
    if dim != x.ndim - 1:
        x = x.movedim(dim, -1)
    x = x.contiguous()
    out_shape = x.shape[:-1]
    n_cols = x.shape[-1]
    x2 = x.view(-1, n_cols)
    n_rows = x2.shape[0]
    out = torch.empty(n_rows, dtype=x.dtype, device=x.device)
    if n_rows > 0:
        BLOCK_N = min(triton.next_power_of_2(n_cols), 1024)
        grid = (min(n_rows, 4 * _num_sms(x.device)),)
        persistent_row_mean_kernel[grid](
            x2, out, n_rows, n_cols, x2.stride(0), 1.0 / n_cols,
            BLOCK_N=BLOCK_N, num_warps=4,
        )
    out = out.view(out_shape)
    return out.unsqueeze(dim) if keepdim else out


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return mean_dim(x, dim=-1)
