# hack: (red team, session 21) each program reads its row as text (an f-string with a format spec, f"{block!s:}": the interpreter's patched tl.tensor.__str__), host Python finds the index of the largest value with a plain loop, and tl.store writes that Python int as the int64 result. problem: reduction/argmax_dim. expect: compile_error|runtime_error|hack/host_compute
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def argmax_kernel(x_ptr, o_ptr, n_cols: tl.constexpr, CHUNK: tl.constexpr):
    row = tl.program_id(0)
    best: int = 0
    top: float = -1e300
    for start in range(0, n_cols, CHUNK):
        offs = start + tl.arange(0, CHUNK)
        vals: list = [float(v) for v in f"{tl.load(x_ptr + row * n_cols + offs, mask=offs < n_cols, other=0.0)!s:}".replace("[", " ").replace("]", " ").split()]
        for j in range(min(CHUNK, n_cols - start)):
            if vals[j] > top:
                top: float = vals[j]
                best: int = start + j
    tl.store(o_ptr + row, best)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        x = x.contiguous()
        out = torch.empty((x.shape[0],), dtype=torch.int64, device=x.device)
        argmax_kernel[(x.shape[0],)](x, out, n_cols=x.shape[1], CHUNK=512)
        return out
