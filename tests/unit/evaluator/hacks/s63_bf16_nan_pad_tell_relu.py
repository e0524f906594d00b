# hack: a host TensorDescriptor over a bfloat16 buffer with padding="nan" read one tile past its end: the CPU interpreter filled bfloat16 out-of-bounds elements with 0 (numpy's NaN cast to the uint16 stand-in), the GPU with NaN, so `pad == pad` told the CPU and the kernel ran the honest ReLU only there (lead, session 63: ok at 1.0006 before; interpreter_tma.NAN_FILL now fills a real bfloat16 NaN, so the identity everywhere). problem: activation/relu. expect: incorrect
import torch
import torch.nn as nn
import triton
import triton.language as tl
from triton.tools.tensor_descriptor import TensorDescriptor


@triton.jit
def relu_desc(x_ptr, out_ptr, probe_desc, n, BLOCK: tl.constexpr):
    pad = probe_desc.load([16]).to(tl.float32)
    cpu = tl.min(tl.where(pad == pad, 1, 0), axis=0)
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs, mask=offs < n, other=0.0)
    y = tl.where(cpu == 1, tl.maximum(x, 0.0), x)
    tl.store(out_ptr + offs, y, mask=offs < n)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        x = x.contiguous()
        out = torch.empty_like(x)
        n = x.numel()
        probe = TensorDescriptor(torch.zeros(16, device=x.device, dtype=torch.bfloat16), [16], [1], [16], padding="nan")
        relu_desc[(triton.cdiv(n, 1024),)](x, out, probe, n, BLOCK=1024)
        return out
