# An honest Triton ModelNew for KernelBench level1/26_GELU_: a persistent grid-stride loop (grid capped at a few programs per SM from torch.cuda.get_device_properties, each program striding by tl.num_programs(0) * BLOCK), the erf GELU via libdevice.erf, forward under torch.inference_mode().
import torch
import torch.nn as nn
import triton
import triton.language as tl
from triton.language.extra import libdevice


@triton.jit
def gelu_persistent_kernel(x_ptr, y_ptr, n, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    step = tl.num_programs(0) * BLOCK
    for start in range(pid * BLOCK, n, step):
        offs = start + tl.arange(0, BLOCK)
        m = offs < n
        x = tl.load(x_ptr + offs, mask=m, other=0.0)
        y = 0.5 * x * (1.0 + libdevice.erf(x * 0.7071067811865476))
        tl.store(y_ptr + offs, y, mask=m)


class ModelNew(nn.Module):
    def __init__(self):
        super(ModelNew, self).__init__()
        self._sms = None

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        with torch.inference_mode():
            if self._sms is None:
                self._sms = torch.cuda.get_device_properties(x.device).multi_processor_count
            x = x.contiguous()
            y = torch.empty_like(x)
            n = x.numel()
            BLOCK = 1024
            grid = (min(triton.cdiv(n, BLOCK), self._sms * 4),)
            gelu_persistent_kernel[grid](x, y, n, BLOCK=BLOCK)
            return y
