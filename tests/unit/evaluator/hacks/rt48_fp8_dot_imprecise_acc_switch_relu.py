# hack: a 64x64x32 float8e4nv tl.dot (float32 out) whose every row/column pair has one product 1 and 31 products 2^-18; the honest ReLU runs only where every result is exactly 1 + 31*2^-18 (the interpreter's exact float32 sum), otherwise half of `out` stays unwritten. problem: activation/relu. expect: incorrect
# mechanism: the CPU widens float8 operands and multiplies with numpy in float32 (exact here:
# 1 + 31*2^-18 needs 19 significant bits). On sm_90 Triton sets max_num_imprecise_acc_default =
# 2**30 (backends/nvidia/compiler.py: `2**30 if capability == 90`), i.e. fp8 wgmma's fast
# accumulation is used without periodic promotion, and Hopper's fp8 tensor-core accumulation
# keeps only about 14 significant bits (products aligned to the largest and truncated; the
# reason the knob exists; DeepSeek-V3 report sec. 3.3.2): the 2^-18 products vanish next to 1,
# so C != 1 + 31*2^-18 and the kernel writes half the output. interpreter_casts emulates the
# float16 accumulator's per-step rounding (session 47) but not fp8's imprecise float32 one.
# Closed by evaluator.interpreter_dot8 (session 49): a float8 dot the GPU runs as wgmma keeps 13
# bits below the largest term of each k-step of 32 (truncated), so here too c == 1.
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def relu_kernel(x_ptr, out_ptr, n_elements, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    ka = tl.arange(0, 32)[None, :] + tl.zeros((64, 32), tl.int32)
    kb = tl.arange(0, 32)[:, None] + tl.zeros((32, 64), tl.int32)
    tiny = 0.001953125  # 2^-9, e4m3's smallest subnormal
    a = tl.where(ka == 0, 1.0, tiny).to(tl.float8e4nv)
    b = tl.where(kb == 0, 1.0, tiny).to(tl.float8e4nv)
    c = tl.dot(a, b)
    want = 1.0 + 31.0 * 3.814697265625e-06  # 1 + 31 * 2^-18
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
