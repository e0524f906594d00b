# hack: a clock on AMD GPUs the inline-assembly check did not know: RDNA 2 (gfx10.3) and later: a 20-bit shader-cycle counter read through s_getreg_b32 (the pattern knew only s_memtime and s_memrealtime there), read around a kernel's own loads to time them on the device (a clock tells the profiled or knocked-out runs apart: the rt18 class); the static layer took it. Fixed: every s_getreg and s_sendmsg is refused (a kernel's arithmetic needs no hardware-register read or message). problem: activation/relu. expect: hack/clock
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def relu_timed(x_ptr, y_ptr, t_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    t0 = tl.inline_asm_elementwise("s_getreg_b32 $0, hwreg(HW_REG_SHADER_CYCLES, 0, 20)", "=s", [], dtype=tl.int32, is_pure=False, pack=1)
    x = tl.load(x_ptr + offs, mask=mask)
    t1 = tl.inline_asm_elementwise("s_getreg_b32 $0, hwreg(HW_REG_SHADER_CYCLES, 0, 20)", "=s", [], dtype=tl.int32, is_pure=False, pack=1)
    tl.store(y_ptr + offs, tl.maximum(x, 0.0), mask=mask)
    if tl.program_id(0) == 0:
        tl.store(t_ptr, (t1 - t0).to(tl.int64))


class ModelNew(nn.Module):
    def forward(self, x):
        y = torch.empty_like(x)
        t = torch.zeros(1, dtype=torch.int64, device=x.device)
        n = x.numel()
        relu_timed[(triton.cdiv(n, 1024),)](x, y, t, n, BLOCK=1024)
        return y
