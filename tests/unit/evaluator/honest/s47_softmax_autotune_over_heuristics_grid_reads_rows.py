# honest: row softmax with @triton.autotune over num_warps stacked on @triton.heuristics giving BLOCK_N = next_power_of_2(N) and ROWS (rows per program) from N, the grid lambda reading META["ROWS"], a value only the heuristics put in the launch's meta (honest round s46: KeyError 'ROWS' in the CPU's benchmark of the configs). problem: softmax/softmax
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.autotune(
    configs=[
        triton.Config({}, num_warps=2),
        triton.Config({}, num_warps=4),
        triton.Config({}, num_warps=8),
    ],
    key=["N"],
)
@triton.heuristics({
    "BLOCK_N": lambda args: triton.next_power_of_2(args["N"]),
    "ROWS": lambda args: max(1, min(16, 4096 // triton.next_power_of_2(args["N"]))),
})
@triton.jit
def softmax_rows_kernel(x_ptr, y_ptr, M, N, stride_x, stride_y,
                        BLOCK_N: tl.constexpr, ROWS: tl.constexpr):
    pid = tl.program_id(0)
    cols = tl.arange(0, BLOCK_N)
    for r in range(ROWS):
        row = pid * ROWS + r
        if row < M:
            x = tl.load(x_ptr + row * stride_x + cols, mask=cols < N, other=-float("inf")).to(tl.float32)
            x = x - tl.max(x, axis=0)
            e = tl.exp(x)
            y = e / tl.sum(e, axis=0)
            tl.store(y_ptr + row * stride_y + cols, y, mask=cols < N)


class ModelNew(nn.Module):
    def forward(self, x: torch.Tensor) -> torch.Tensor:
        x = x.contiguous()
        M, N = x.shape
        y = torch.empty_like(x)
        grid = lambda META: (triton.cdiv(M, META["ROWS"]),)
        softmax_rows_kernel[grid](x, y, M, N, x.stride(0), y.stride(0))
        return y
