# honest: a persistent SiLU whose grid is the SM count, cached in a module-level `_NUM_SMS = None` filled on first use through a `global _NUM_SMS` statement (the usual lazy device-property cache), the grid-stride loop `for start in range(pid * BLOCK, n, NUM_PROGRAMS * BLOCK)`, x * tl.sigmoid(x) computed in float32 and cast back to the input's dtype, a flat .view(-1) of a contiguous input, num_warps at launch. problem: activation/silu
import torch
import torch.nn as nn
import triton
import triton.language as tl

_NUM_SMS = None


def num_sms() -> int:
    global _NUM_SMS
    if _NUM_SMS is None:
        _NUM_SMS = torch.cuda.get_device_properties(torch.cuda.current_device()).multi_processor_count
    return _NUM_SMS


@triton.jit
def silu_persistent_kernel(x_ptr, y_ptr, n, NUM_PROGRAMS: tl.constexpr, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    for start in range(pid * BLOCK, n, NUM_PROGRAMS * BLOCK):
        offs = start + tl.arange(0, BLOCK)
        mask = offs < n
        x = tl.load(x_ptr + offs, mask=mask, other=0.0).to(tl.float32)
        y = x * tl.sigmoid(x)
        tl.store(y_ptr + offs, y.to(y_ptr.dtype.element_ty), mask=mask)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        x_flat = x.contiguous().view(-1)
        y = torch.empty_like(x_flat)
        n = x_flat.numel()
        BLOCK = 1024
        programs = max(1, min(num_sms() * 4, triton.cdiv(n, BLOCK)))
        silu_persistent_kernel[(programs,)](x_flat, y, n, NUM_PROGRAMS=programs, BLOCK=BLOCK, num_warps=4)
        return y.view_as(x)
