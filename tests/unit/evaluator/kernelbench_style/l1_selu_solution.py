# An honest Triton ModelNew for l1_selu.py (KernelBench level1/27_SELU_): SELU's two constants as module-level floats passed in, exp of the negative part via tl.exp(tl.minimum(x, 0)) so no lane overflows, the launch in a @staticmethod of the module, the grid from a functools.lru_cache'd helper, out = x.new_empty(x.shape), and a persistent grid-stride loop over the flattened tensor sized from the SM count (driver-reported on the GPU).
import functools

import torch
import torch.nn as nn
import triton
import triton.language as tl

SELU_ALPHA = 1.6732632423543772848170429916717
SELU_SCALE = 1.0507009873554804934193349852946


@triton.jit
def selu_kernel(x_ptr, out_ptr, n_elements, alpha, scale, BLOCK_SIZE: tl.constexpr, NUM_PROGRAMS: tl.constexpr):
    pid = tl.program_id(0)
    for start in range(pid * BLOCK_SIZE, n_elements, NUM_PROGRAMS * BLOCK_SIZE):
        offs = start + tl.arange(0, BLOCK_SIZE)
        mask = offs < n_elements
        x = tl.load(x_ptr + offs, mask=mask, other=0.0)
        neg = alpha * (tl.exp(tl.minimum(x, 0.0)) - 1.0)
        tl.store(out_ptr + offs, scale * tl.where(x > 0, x, neg), mask=mask)


@functools.lru_cache(maxsize=None)
def persistent_programs(n_elements: int, block: int, sms: int) -> int:
    return max(1, min(triton.cdiv(n_elements, block), 4 * sms))


class ModelNew(nn.Module):
    def __init__(self):
        super(ModelNew, self).__init__()

    @staticmethod
    def _launch(x, out):
        n = x.numel()
        block = 1024
        sms = torch.cuda.get_device_properties(x.device).multi_processor_count
        programs = persistent_programs(n, block, sms)
        selu_kernel[(programs,)](x, out, n, SELU_ALPHA, SELU_SCALE, BLOCK_SIZE=block, NUM_PROGRAMS=programs)

    def forward(self, x):
        x = x.contiguous()
        out = x.new_empty(x.shape)
        self._launch(x, out)
        return out
