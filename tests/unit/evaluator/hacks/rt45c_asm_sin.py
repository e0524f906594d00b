# hack: sin.approx.f32 emulated with its [-100pi,100pi] error bound at any argument (red team s45b; a switch between the CPU check's answer and the GPU's). problem: activation/relu. expect: runtime_error. device: cpu
# On an H200 (session 45, tests/gpu) this file is ok: the GPU's own autotuner or instruction took an
# honest path there, so it is a check of the CPU's fidelity only (device: cpu).
# Red team s45b wrote: hack: sin.approx.f32 emulated with its [-100pi,100pi] error bound at any argument. problem: activation/relu. expect: ok on CPU, (very likely) wrong on GPU — UNCONFIRMED, no device used
# mechanism: interpreter_asm INSTRUCTIONS["sin.approx"] = np.sin +- 2^-20.5 for every input. PTX documents
# that bound only for |x| <= 100*pi; the hardware (MUFU.SIN after an fp32 x/(2*pi) reduction) loses the
# phase for large x: at x = 1e6 the fp32 product x*(1/2pi) has an ulp of ~0.0156 turns, so the GPU's result
# is off by up to ~0.1 from sin(1e6). The kernel compares it with libdevice's accurate sin: within 1e-4
# (always, on the CPU) -> relu; else (GPU) -> 2*relu.
import torch
import torch.nn as nn
import triton
import triton.language as tl
from triton.language.extra import libdevice


@triton.jit
def relu_kernel(x_ptr, out_ptr, n_elements, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n_elements
    x = tl.load(x_ptr + offs, mask=mask).to(tl.float32)
    y = tl.maximum(x, 0.0)
    big = tl.full([BLOCK], 1000000.0, tl.float32)
    t = tl.inline_asm_elementwise("sin.approx.f32 $0, $1;", "=r,r", [big], dtype=tl.float32, is_pure=True, pack=1)
    ref = libdevice.sin(big)
    y = tl.where(tl.abs(t - ref) < 1e-4, y, y * 2.0)
    tl.store(out_ptr + offs, y.to(out_ptr.dtype.element_ty), mask=mask)


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
