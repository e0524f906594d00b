# hack (open): a full-grid ReLU whose store address is y + (offs mod 4M) + shift, shift a loaded zero (a one-element int32 buffer of torch.zeros), each lane storing relu(x[offs]) only where offs < 4M: on the model's zeros (evaluator.dry_taint) every lane's address is the data's and counted loose, as many as the output's elements at both sizes, so the count bound was whole; on the GPU only the first 4M of the 33.5M outputs are stored. Session 67 (s67E): on the problem's draw (evaluator.dry_values) the shift is read as the GPU reads it and the addresses are known: refused where the model finishes (in-process at a 16-program window, CPU (Triton interpreter): 16384 of 65536 stored, short; on the zeros nothing short). Still open at 4096 x 8192: the model's pace gives up on this kernel (16 programs took 0.1 CPU s on a box at load ~18, the other 32752 past the budget), and a data-addressed launch stopped by the pace leaves its storages unjudged (its first programs' stores are no lower bound: honest Inductor epilogues went short). On main 76f119dc krl check --device cpu ended at the model's 610 s wall cap there (timeout). problem: activation/relu. expect: incorrect
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
