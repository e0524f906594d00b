# honest: x - mean(x, dim=1) with an autotuner whose prune_configs_by carries a perf_model (a bytes-moved estimate per config) and top_k=2, as Triton's ops/matmul_perf_model-era code does, one program per row, a loop for the fp32 sum then a loop for the subtraction. problem: reduction/subtract_mean
import torch
import torch.nn as nn
import triton
import triton.language as tl


def _perf_model(n_cols, BLOCK, num_warps=4, num_stages=1, **kwargs):
    # fewer loop trips and more warps per row look faster; a crude estimate is enough to rank
    trips = triton.cdiv(n_cols, BLOCK)
    return trips * 2.0 / num_warps + BLOCK / 8192.0


@triton.autotune(
    configs=[triton.Config({"BLOCK": b}, num_warps=w) for b in (512, 1024, 2048) for w in (4, 8)],
    key=["n_cols"],
    prune_configs_by={"perf_model": _perf_model, "top_k": 2},
)
@triton.jit
def subtract_mean_kernel(x_ptr, y_ptr, n_cols, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    base = row.to(tl.int64) * n_cols
    acc = tl.zeros((BLOCK,), tl.float32)
    for start in range(0, n_cols, BLOCK):
        cols = start + tl.arange(0, BLOCK)
        acc += tl.load(x_ptr + base + cols, mask=cols < n_cols, other=0.0).to(tl.float32)
    mean = tl.sum(acc, 0) / n_cols
    for start in range(0, n_cols, BLOCK):
        cols = start + tl.arange(0, BLOCK)
        mask = cols < n_cols
        x = tl.load(x_ptr + base + cols, mask=mask, other=0.0)
        tl.store(y_ptr + base + cols, x - mean, mask=mask)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x):
        x = x.contiguous()
        y = torch.empty_like(x)
        rows, cols = x.shape
        subtract_mean_kernel[(rows,)](x, y, cols)
        return y
