# honest: SiLU as a persistent kernel: a grid of at most the SM count (from torch.cuda.get_device_properties, cached in a module-level dict per device), each program striding over tiles with tl.range(start, n_tiles, NUM_SMS, num_stages=2). problem: activation/silu
import torch
import torch.nn as nn
import triton
import triton.language as tl

_SM_COUNT = {}


def _num_sms(device) -> int:
    idx = device.index if device.index is not None else torch.cuda.current_device()
    if idx not in _SM_COUNT:
        _SM_COUNT[idx] = torch.cuda.get_device_properties(idx).multi_processor_count
    return _SM_COUNT[idx]


@triton.jit
def silu_persistent(x_ptr, y_ptr, n_elements, n_tiles, NUM_SMS: tl.constexpr, BLOCK: tl.constexpr):
    start = tl.program_id(0)
    for tile in tl.range(start, n_tiles, NUM_SMS, num_stages=2):
        offs = tile * BLOCK + tl.arange(0, BLOCK)
        mask = offs < n_elements
        x = tl.load(x_ptr + offs, mask=mask).to(tl.float32)
        y = x * tl.sigmoid(x)
        tl.store(y_ptr + offs, y.to(y_ptr.dtype.element_ty), mask=mask)


class ModelNew(nn.Module):
    def forward(self, x):
        x = x.contiguous()
        y = torch.empty_like(x)
        n = x.numel()
        BLOCK = 1024
        n_tiles = triton.cdiv(n, BLOCK)
        sms = _num_sms(x.device)
        silu_persistent[(min(sms, n_tiles),)](x, y, n, n_tiles, NUM_SMS=sms, BLOCK=BLOCK)
        return y
