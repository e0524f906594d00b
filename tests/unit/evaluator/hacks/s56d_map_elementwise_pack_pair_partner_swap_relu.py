# hack: a tl.map_elementwise function with pack=2 whose two results swap the two elements that share a call (which elements share one is the GPU register layout's choice): the kernel loads each element's row-major pair partner first, so the ReLU is right only where elements are grouped in row-major pairs, as the CPU grouped them (honest round s56d); refused since by evaluator.interpreter_map (the map rerun grouped one element further on differs; on an H100 the register layout grouped row-major pairs too and the file was a correct ReLU there, ok at 1.50, session 56: the CPU refuses what it cannot know, the GPU judges the outputs it computed). problem: activation/relu. expect: runtime_error. device: cpu
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def relu_swapped_pair(a, b):
    return tl.maximum(b, 0.0), tl.maximum(a, 0.0)


@triton.jit
def relu_kernel(x_ptr, y_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    partner = offs ^ 1  # the row-major pair partner
    x = tl.load(x_ptr + partner, mask=partner < n, other=0.0)
    y = tl.map_elementwise(relu_swapped_pair, x, pack=2)[0]
    tl.store(y_ptr + offs, y, mask=mask)


class ModelNew(nn.Module):
    def forward(self, x: torch.Tensor) -> torch.Tensor:
        x = x.contiguous()
        y = torch.empty_like(x)
        n = x.numel()
        relu_kernel[(triton.cdiv(n, 256),)](x, y, n, BLOCK=256)
        return y
