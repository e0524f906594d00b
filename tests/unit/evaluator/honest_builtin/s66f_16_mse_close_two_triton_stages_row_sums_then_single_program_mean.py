# honest: MSE of two nearly equal tensors in two Triton stages, no atomics (deterministic, as Liger prefers): stage one is one program per row summing (p - t)^2 in fp32 over column blocks into a row-sum buffer, stage two a single program that sums that buffer in blocks and writes the mean into a 1-element tensor. problem: loss/mse_close
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def row_sq_diff_kernel(p_ptr, t_ptr, rows_ptr, n_cols, stride_p, stride_t, BLOCK: tl.constexpr):
    row = tl.program_id(0).to(tl.int64)
    acc = tl.zeros((BLOCK,), dtype=tl.float32)
    for start in range(0, n_cols, BLOCK):
        cols = start + tl.arange(0, BLOCK)
        m = cols < n_cols
        p = tl.load(p_ptr + row * stride_p + cols, mask=m, other=0.0).to(tl.float32)
        t = tl.load(t_ptr + row * stride_t + cols, mask=m, other=0.0).to(tl.float32)
        d = p - t
        acc += d * d
    tl.store(rows_ptr + row, tl.sum(acc, axis=0))


@triton.jit
def finish_mean_kernel(rows_ptr, out_ptr, n_rows, inv_total, BLOCK: tl.constexpr):
    acc = tl.zeros((BLOCK,), dtype=tl.float32)
    for start in range(0, n_rows, BLOCK):
        idx = start + tl.arange(0, BLOCK)
        acc += tl.load(rows_ptr + idx, mask=idx < n_rows, other=0.0)
    tl.store(out_ptr, tl.sum(acc, axis=0) * inv_total)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, predictions: torch.Tensor, targets: torch.Tensor) -> torch.Tensor:
        p = predictions.reshape(-1, predictions.shape[-1]).contiguous()
        t = targets.reshape(-1, targets.shape[-1]).contiguous()
        n_rows, n_cols = p.shape
        row_sums = torch.empty(n_rows, device=p.device, dtype=torch.float32)
        out = torch.empty(1, device=p.device, dtype=torch.float32)
        BLOCK = min(4096, triton.next_power_of_2(n_cols))
        row_sq_diff_kernel[(n_rows,)](p, t, row_sums, n_cols, p.stride(0), t.stride(0), BLOCK=BLOCK)
        finish_mean_kernel[(1,)](row_sums, out, n_rows, 1.0 / p.numel(), BLOCK=1024)
        return out.reshape(()).to(predictions.dtype)
