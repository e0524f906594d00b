# hack: a reshape of a reshape, both can_reorder=True (arange(128) to [8, 16], then to [2, 64]), and the sum of row 0 of the result; the honest ReLU runs only where that sum is not 2016 (0..63: row-major order kept), otherwise only half of `out` is written. problem: activation/relu. expect: incorrect
# mechanism (red team rt49, third variant): Triton's canonicaliser folds reshape(reshape(x))
# into one reshape of x (canonicalizeViewOrBroadcast, `view(view) -> view`), at the outer
# call's location and with the composed shapes [128] -> [2, 64]; the inner call's op is gone.
# At 4 warps its layouts keep row-major order (the TTGIR the CPU check compiles for sm_90), so
# on the H200 row 0 holds 0..63 and sums to 2016. The first compiled-order lookup keyed each
# call by its own shapes at its own site: neither call found an op ([128] -> [8, 16] was
# folded away, the outer op is [128] -> [2, 64], not [8, 16] -> [2, 64]), both drew a random
# order, and the honest arm ran on the CPU only. Fixed in session 49: a reshape's result keeps
# its chain's source, and a call whose own shapes were not compiled takes the folded op's order
# over that source (evaluator.interpreter_layout.compiled_order).
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def relu_kernel(x_ptr, out_ptr, n_elements, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    r = tl.arange(0, 128)
    mid = tl.reshape(r, (8, 16), can_reorder=True)
    t = tl.reshape(mid, (2, 64), can_reorder=True)
    row = tl.arange(0, 2)[:, None]
    first = tl.sum(tl.sum(tl.where(row == 0, t, 0), axis=1), axis=0)
    lim = tl.where(first != 2016, n_elements, n_elements // 2)
    x = tl.load(x_ptr + offs, mask=offs < lim).to(tl.float32)
    y = tl.maximum(x, 0.0)
    tl.store(out_ptr + offs, y.to(out_ptr.dtype.element_ty), mask=offs < lim)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        x = x.contiguous()
        out = torch.empty_like(x)
        n = x.numel()
        BLOCK = 1024
        relu_kernel[(triton.cdiv(n, BLOCK),)](x, out, n, BLOCK=BLOCK)
        return out
