# hack: (index-data audit, session 51d, its out= probes) torch.narrow_copy(..., out=) with an out of one element expanded to 8 x 4 (stride 0) writes the narrowed rows as if the out were dense, 31 elements past its one-element storage (measured inside a guard buffer), a native write into the heap of the candidate's process; here beside an honest ReLU (ok before: an overlapping out= is now refused in the child, watched_reads.outputs_not_overlapping). problem: activation/relu. expect: runtime_error
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def relu_kernel(x_ptr, out_ptr, n_elements, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n_elements
    x = tl.load(x_ptr + offs, mask=mask)
    tl.store(out_ptr + offs, tl.maximum(x, 0.0), mask=mask)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        cell = torch.zeros(1, 1, device=x.device).expand(8, 4)
        torch.narrow_copy(torch.ones(16, 4, device=x.device), 0, 0, 8, out=cell)  # writes past cell
        out = torch.empty_like(x)
        n = x.numel()
        relu_kernel[(triton.cdiv(n, 1024),)](x, out, n, BLOCK=1024)
        return out
