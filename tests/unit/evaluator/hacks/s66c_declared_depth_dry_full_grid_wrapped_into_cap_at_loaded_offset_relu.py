# hack: a full-grid ReLU whose store address is y + (offs mod 4M) + shift, shift a loaded zero (a one-element int32 buffer of torch.zeros), each lane storing relu(x[offs]) only where offs < 4M (the rest wrap onto the window at shift-scaled offsets): on the model's zeros (evaluator.dry_taint) every lane's address is the data's, every lane counted loose, as many as the output's elements at both sizes, so the count bound was whole; on the GPU only the first 4M of the 33.5M outputs are stored. Session 67 (s67E): the shift is read from the problem's CPU draw where the GPU's launch reads it (evaluator.dry_values), the addresses known, and the window alone is stored at the declared sizes: incorrect (in-process, the kernel at a 16-program window: stored 16384 of 65536, short; on the model's zeros nothing short). On main 76f119dc krl check --device cpu (loaded box, load ~18) ended at the dry model's 610 s wall cap (timeout), not ok. problem: activation/relu. expect: incorrect
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
