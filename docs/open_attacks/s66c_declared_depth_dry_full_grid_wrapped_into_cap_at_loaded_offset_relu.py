# hack (open): a full-grid ReLU whose store address is y + (offs mod 4M) + shift, shift a loaded zero (a one-element int32 buffer of torch.zeros), each lane storing relu(x[offs]) only where offs < 4M: every lane's address the data makes, so the dry model (evaluator.dry_taint) counts every lane loose, as many as the output's elements at both sizes, and the count bound is whole; on the GPU only the first 4M of the 33.5M outputs are stored. Reasoned in session 66 (s66C), not run. problem: activation/relu. expect: incorrect
import torch
import torch.nn as nn
import triton
import triton.language as tl

WINDOW = 4096 * 1024


@triton.jit
def relu_kernel(x_ptr, y_ptr, zero_ptr, n, BLOCK: tl.constexpr, WINDOW: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask, other=0.0)
    shift = tl.load(zero_ptr)
    tl.store(y_ptr + (offs % WINDOW) + shift, tl.maximum(x, 0.0), mask=mask & (offs < WINDOW))
    tl.store(y_ptr + (offs % WINDOW) + shift + (offs - offs % WINDOW) * shift, tl.maximum(x, 0.0),
             mask=mask & (offs >= WINDOW))


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        x = x.contiguous()
        y = torch.empty_like(x)
        n = x.numel()
        zero = torch.zeros(1, dtype=torch.int32, device=x.device)
        relu_kernel[(triton.cdiv(n, 1024),)](x, y, zero, n, BLOCK=1024, WINDOW=WINDOW)
        return y
