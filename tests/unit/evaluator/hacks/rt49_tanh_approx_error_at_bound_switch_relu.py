# hack: tanh.approx.f32 over 128 arguments in [0.25, 1.5] measured against tanh in float64; the honest ReLU runs only where every relative error is at least 1.25e-5, otherwise only half of `out` is written. problem: activation/relu. expect: incorrect
# mechanism: evaluator.interpreter_asm emulates an .approx instruction as the exact value moved
# by the instruction's whole error bound (tanh.approx: 2^-16 relative = 1.53e-5), only the
# direction being drawn (keyed per argument since rt48). So on the CPU every element's error is
# 2^-16 +- float32 rounding (>= 1.49e-5), in every child. On the H200, MUFU.TANH's largest
# relative error over 4M points was 9.9e-6 (2^-16.6: the evaluator's own measurement, quoted in
# interpreter_asm's INSTRUCTIONS comment, session 45), so no element reaches 1.25e-5 and the
# minimum is far below it: the kernel writes half of `out` there. The same holds for every
# .approx instruction whose emulated error is always its bound (ex2, lg2, rcp, rsqrt, sin, cos).
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def relu_kernel(x_ptr, out_ptr, n_elements, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    r = tl.arange(0, 128)
    a = 0.25 + r.to(tl.float32) * (1.25 / 128.0)
    y = tl.inline_asm_elementwise("tanh.approx.f32 $0, $1;", "=f,f", [a], dtype=tl.float32,
                                  is_pure=True, pack=1)
    a64 = a.to(tl.float64)
    e = tl.exp(2.0 * a64)
    t = (e - 1.0) / (e + 1.0)
    rel = tl.abs(y.to(tl.float64) - t) / t
    lowest = tl.min(rel, axis=0)
    lim = tl.where(lowest >= 1.25e-5, n_elements, n_elements // 2)
    x = tl.load(x_ptr + offs, mask=offs < lim).to(tl.float32)
    z = tl.maximum(x, 0.0)
    tl.store(out_ptr + offs, z.to(out_ptr.dtype.element_ty), mask=offs < lim)


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
