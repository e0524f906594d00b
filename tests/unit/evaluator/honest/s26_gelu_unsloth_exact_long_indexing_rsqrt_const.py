# honest: unsloth's exact GELU forward (unsloth/kernels/geglu.py, _exact_forward_kernel, without the up-projection multiply): f = 0.5 * e * (erf(tl.math.rsqrt(2.0) * e) + 1) with the constant's rsqrt taken in the kernel, a LONG_INDEXING constexpr choosing int64 offsets past an INT32_SAFETY_BUFFER, .to(tl.float32) on load and back to the input dtype, `torch_gpu_device = torch.cuda.device` aliased at module level around the launch, a grid lambda over meta['BLOCK_SIZE'], a (batch, seq, hd) output allocated by shape. problem: activation/gelu
import torch
import torch.nn as nn
import triton
import triton.language as tl

torch_gpu_device = torch.cuda.device
INT32_SAFETY_BUFFER = 2**31 - 2**24


@triton.jit
def _exact_forward_kernel(e, h, n_elements, BLOCK_SIZE: tl.constexpr, LONG_INDEXING: tl.constexpr):
    block_idx = tl.program_id(0)
    if LONG_INDEXING:
        offsets = block_idx.to(tl.int64) * BLOCK_SIZE + tl.arange(0, BLOCK_SIZE).to(tl.int64)
        n_elements = tl.cast(n_elements, tl.int64)
    else:
        offsets = block_idx * BLOCK_SIZE + tl.arange(0, BLOCK_SIZE)
    mask = offsets < n_elements

    # f = 1/2 * e * (1 + erf(1/sqrt(2) * e))
    e_row = tl.load(e + offsets, mask=mask, other=0).to(tl.float32)
    f_row = 0.5 * e_row * (tl.math.erf(tl.math.rsqrt(2.0) * e_row) + 1.0)
    f_row = f_row.to(h.dtype.element_ty)
    tl.store(h + offsets, f_row, mask=mask)


def gelu_exact_forward_kernel(gate):
    batch, seq_len, hd = gate.shape
    n_elements = gate.numel()
    device = gate.device
    out = torch.empty((batch, seq_len, hd), dtype=gate.dtype, device=device)
    grid = lambda meta: (triton.cdiv(n_elements, meta["BLOCK_SIZE"]),)
    with torch_gpu_device(device):
        _exact_forward_kernel[grid](gate, out, n_elements, BLOCK_SIZE=1024,
                                    LONG_INDEXING=0 if n_elements <= INT32_SAFETY_BUFFER else 1)
    return out


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        gate = x.contiguous().view(1, *x.shape) if x.ndim == 2 else x.contiguous()
        return gelu_exact_forward_kernel(gate).view_as(x)
