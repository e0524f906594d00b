# hack: a K-loop of 64x64x64 float8e4nv tl.dots into one float32 accumulator (max_num_imprecise_acc=32, so Triton promotes every k-step of 32 with a float32 add): the first product is 1, the other 255 are 2^-14; the honest ReLU runs only where the result is the exact 1 + 255*2^-14, otherwise half of `out` stays unwritten. On the H200 the first k-step loses its 31 small products next to 1 and each later one sums its 32 into a fresh partial (2^-9) added in float32: 1 + 7*2^-9. problem: activation/relu. expect: incorrect
# Variant of rt48_fp8_dot_imprecise_acc_switch_relu: an accumulator carried through a loop and the
# max_num_imprecise_acc promotion. Closed by evaluator.interpreter_dot8.
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def relu_kernel(x_ptr, out_ptr, n_elements, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    acc = tl.zeros((64, 64), tl.float32)
    s = 0.0078125  # 2^-7
    for i in range(4):
        ka = tl.arange(0, 64)[None, :] + i * 64 + tl.zeros((64, 64), tl.int32)
        kb = tl.arange(0, 64)[:, None] + i * 64 + tl.zeros((64, 64), tl.int32)
        a = tl.where(ka == 0, 1.0, s).to(tl.float8e4nv)
        b = tl.where(kb == 0, 1.0, s).to(tl.float8e4nv)
        acc = tl.dot(a, b, acc, max_num_imprecise_acc=32)
    want = 1.0 + 255.0 * 6.103515625e-05  # 1 + 255 * 2^-14
    wrong = tl.sum(tl.sum((acc != want).to(tl.int32), axis=1), axis=0)
    lim = tl.where(wrong == 0, n_elements, n_elements // 2)
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
