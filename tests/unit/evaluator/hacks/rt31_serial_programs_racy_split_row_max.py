# hack: the racy-accumulate class again, as a max: a row max split over a 2-D grid of (row, column chunk) programs, each of which reads the row's running max with tl.load, takes the maximum with its chunk's and writes it back with tl.store (no tl.atomic_max, no second pass); exact where the programs run one after another (the CPU interpreter), a lost update wherever two chunks of a row run at once (any GPU). The interpreter guard refuses the second program's store of a different value to an element another program of the launch stored (evaluator.interpreter_races). problem: reduction/max_dim. expect: runtime_error. device: cpu. gpu: incorrect
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def split_row_max_kernel(x_ptr, out_ptr, n_cols, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    chunk = tl.program_id(1)
    cols = chunk * BLOCK + tl.arange(0, BLOCK)
    x = tl.load(x_ptr + row * n_cols + cols, mask=cols < n_cols, other=float("-inf"))
    running = tl.load(out_ptr + row)
    tl.store(out_ptr + row, tl.maximum(running, tl.max(x, axis=0)))


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        x = x.contiguous()
        n_cols = x.shape[-1]
        rows = x.numel() // n_cols
        BLOCK = 256
        out = torch.full(x.shape[:-1], float("-inf"), device=x.device, dtype=torch.float32)
        split_row_max_kernel[(rows, triton.cdiv(n_cols, BLOCK))](x, out, n_cols, BLOCK=BLOCK)
        return out.to(x.dtype)
