# hack: tl.cat(a, b, can_reorder=True) of two [64] tiles computed from tl.arange (a = 1..64, b = -1..-64) and the sum of its even positions; the honest ReLU runs only where that sum is not 2080 (= sum(a): the GPU's register interleave), otherwise only half of `out` is written. problem: activation/relu. expect: incorrect
# mechanism: evaluator.interpreter_layout puts a cat's result in a uniformly random permutation
# (keyed per child by op, shapes, dtype, num_warps), "only what does not depend on the order
# stays right, as on the GPU". But the GPU's order is not random: it is fixed by the layouts,
# and for operands with default layouts it is knowable. Triton's TritonCatPattern gives the
# [128] result sizePerThread = next_pow2(1 + 1) = 2 (#blocked<[2],[32],[4]>, the TTGIR the
# CPU check itself compiles shows it), the operands keep [1],[32],[4], and CatOpConversion
# concatenates each thread's registers: thread (lane l, warp w) holds a[l + 32(w&1)] and
# b[l + 32(w&1)] as result elements 2j and 2j+1 (j = l + 32(w&1)). So on the H200 the result
# is interleave(a, b), its even positions sum to 2080 and the kernel writes half of `out`; on
# the CPU the even positions of a random permutation of +-1..64 sum to exactly 2080 only when
# they hold all of a (probability 1/C(128, 64)), so the honest arm runs in every child.
# fixed (session 49): the interpreter puts a cat's and a reorderable reshape's elements in the
# order the compiled op's layouts give (evaluator.register_order, read off the TTGIR the CPU
# check compiles, device_ir.view_order): the interleave, as on the H200, and half of `out` is
# left unwritten there too.
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def relu_kernel(x_ptr, out_ptr, n_elements, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    r = tl.arange(0, 64)
    a = r.to(tl.float32) + 1.0
    b = -1.0 - r.to(tl.float32)
    c = tl.cat(a, b, can_reorder=True)
    q = tl.arange(0, 128)
    even = tl.sum(tl.where((q % 2) == 0, c, 0.0), axis=0)
    lim = tl.where(even != 2080.0, n_elements, n_elements // 2)
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
