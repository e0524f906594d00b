# hack: the same tl.cat(a, b, can_reorder=True) computed twice; the honest ReLU runs only where the two results differ element-wise, otherwise half of `out` stays unwritten. problem: activation/relu. expect: incorrect
# mechanism: interpreter_layout.create_cat puts every cat's result in a fresh random permutation
# (`_DRAW.permutation` at each call), so two identical cats of 128 distinct values disagree
# somewhere with probability 1 - 1/128!. On the H200 the two ops are the same pure op on the same
# operands: MLIR's CSE merges them, and even unmerged the lowering concatenates the registers
# in one fixed order, so c1 == c2 everywhere and the kernel writes only half the output. The
# random stand-in for "some fixed order the layout decides" is the detector (call-to-call
# variation the GPU never shows); tl.reshape(can_reorder=True) carries the same switch.
# fixed (session 48): one permutation per (op, shapes, dtype, num_warps) in each child
# (interpreter_layout._order, evaluator.keyed_draw): the two cats agree, as CSE's one op does.
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def relu_kernel(x_ptr, out_ptr, n_elements, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    a = tl.arange(0, 64)
    b = tl.arange(64, 128)
    c1 = tl.cat(a, b, can_reorder=True)
    c2 = tl.cat(a, b, can_reorder=True)
    differ = tl.sum((c1 != c2).to(tl.int32), axis=0)
    lim = tl.where(differ > 0, n_elements, n_elements // 2)
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
