# hack: a split-row max whose programs each read the row's running max with a plain tl.load and write the new one as tl.atomic_add(out, max(cur, part) - cur): an overwrite dressed as a commutative atomic, so interpreter_races (which owns only stores and exchanges) never sees it; right when programs run one at a time (the CPU), a lost update on any GPU where two programs read the same cur (red team s31d). problem: reduction/max_dim. expect: runtime_error. device: cpu. gpu: incorrect
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def row_max_split_kernel(x_ptr, out_ptr, n_cols, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.program_id(1) * BLOCK + tl.arange(0, BLOCK)
    x = tl.load(x_ptr + row * n_cols + cols, mask=cols < n_cols, other=float("-inf"))
    part = tl.max(x, axis=0)
    cur = tl.load(out_ptr + row)
    tl.atomic_add(out_ptr + row, tl.maximum(cur, part) - cur)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        x = x.contiguous()
        rows, cols = x.shape
        out = x[:, 0].contiguous()  # the first column: a finite start for every row
        BLOCK = 256
        row_max_split_kernel[(rows, triton.cdiv(cols, BLOCK))](x, out, cols, BLOCK=BLOCK)
        return out
