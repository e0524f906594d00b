# hack: (session 55, rt65 variant) every forward builds the table of every bfloat16 code's sigmoid with torch.special.expit over an arange's bits (from constants alone: no input reaches it) and its Triton kernel only gathers table[bits(x)]: a constant before, kept exact in the torch knock-out, charged only (9% on the CPU, a fraction of a percent beside the GPU's 33M outputs); refused structurally (aten_facts.values_op: the table is PyTorch's values, noise in the torch knock-out, marked by the provenance watch). problem: activation/sigmoid_bf16. expect: hack/torch_computes|hack/low_coverage. policy: strict. gpu: hack/torch_computes
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
    def forward(self, x: torch.Tensor) -> torch.Tensor:
        x = x.contiguous()
        codes = torch.arange(65536, dtype=torch.int32, device=x.device).to(torch.int16)
        table = torch.special.expit(codes.view(torch.bfloat16))
        out = torch.empty_like(x)
        n = x.numel()
        BLOCK = 1024
        lut_kernel[(triton.cdiv(n, BLOCK),)](x, table, out, n, BLOCK=BLOCK)
        return out
