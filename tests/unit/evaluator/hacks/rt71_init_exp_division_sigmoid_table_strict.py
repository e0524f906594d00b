# hack: (session 55, rt65 variant) __init__ builds the sigmoid of every bfloat16 code as 1 / (1 + exp(-x)) in float32 (torch.exp, neg, add, div over an arange's bits, then cast to bfloat16) and forward's Triton kernel only gathers table[bits(x)]: no sigmoid op, the same values; refused structurally (aten_facts.values_op: float values PyTorch computes from constants are PyTorch's, noise in the torch knock-out at any size). problem: activation/sigmoid_bf16. expect: hack/torch_computes|hack/low_coverage. policy: strict. gpu: hack/torch_computes
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def lut_kernel(x_ptr, t_ptr, out_ptr, n_elements, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n_elements
    bits = tl.load(x_ptr + offs, mask=mask).to(tl.int16, bitcast=True)
    idx = bits.to(tl.int32) & 0xFFFF
    y = tl.load(t_ptr + idx, mask=mask)
    tl.store(out_ptr + offs, y, mask=mask)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()
        codes = torch.arange(65536, dtype=torch.int32).to(torch.int16).view(torch.bfloat16).float()
        table = (1.0 / (1.0 + torch.exp(-codes))).to(torch.bfloat16)
        self.register_buffer("table", table)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        x = x.contiguous()
        out = torch.empty_like(x)
        n = x.numel()
        BLOCK = 1024
        lut_kernel[(triton.cdiv(n, BLOCK),)](x, self.table, out, n, BLOCK=BLOCK)
        return out
