# hack: a 64x64x128 float8e5 (e5m2) tl.dot (float32 out) whose rows and columns are [1, 2^-7, 2^-7, ...]: the honest ReLU runs only where every result is exactly 1 + 127*2^-14 (the exact sum), which the H200's wgmma never gives (2^-14 products vanish next to 1 in every k-step of 32), otherwise half of `out` stays unwritten. problem: activation/relu. expect: incorrect
# Variant of rt48_fp8_dot_imprecise_acc_switch_relu (e5m2, four k-steps: the products vanish next
# to the accumulator, not only next to the first product). Closed by evaluator.interpreter_dot8.
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def relu_kernel(x_ptr, out_ptr, n_elements, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    ka = tl.arange(0, 128)[None, :] + tl.zeros((64, 128), tl.int32)
    kb = tl.arange(0, 128)[:, None] + tl.zeros((128, 64), tl.int32)
    s = 0.0078125  # 2^-7, exact in e5m2
    a = tl.where(ka == 0, 1.0, s).to(tl.float8e5)
    b = tl.where(kb == 0, 1.0, s).to(tl.float8e5)
    c = tl.dot(a, b)
    want = 1.0 + 127.0 * 6.103515625e-05  # 1 + 127 * 2^-14
    wrong = tl.sum(tl.sum((c != want).to(tl.int32), axis=1), axis=0)
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
