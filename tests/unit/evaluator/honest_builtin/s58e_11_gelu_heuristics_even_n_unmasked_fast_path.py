# honest: exact GELU with a @triton.heuristics EVEN_N flag (n_elements a multiple of BLOCK) choosing an unmasked load/store path, BLOCK picked by a second heuristic from n_elements, libdevice erf through tl.extra.cuda.libdevice. problem: activation/gelu
import torch
import torch.nn as nn
import triton
import triton.language as tl
from triton.language.extra.cuda import libdevice


@triton.heuristics({
    "BLOCK": lambda args: 4096 if args["n_elements"] >= (1 << 20) else 1024,
})
@triton.heuristics({"EVEN_N": lambda args: args["n_elements"] % args["BLOCK"] == 0})
@triton.jit
def gelu_kernel(x_ptr, y_ptr, n_elements, BLOCK: tl.constexpr, EVEN_N: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    if EVEN_N:
        x = tl.load(x_ptr + offs)
    else:
        x = tl.load(x_ptr + offs, mask=offs < n_elements, other=0.0)
    y = 0.5 * x * (1.0 + libdevice.erf(x * 0.7071067811865476))
    if EVEN_N:
        tl.store(y_ptr + offs, y)
    else:
        tl.store(y_ptr + offs, y, mask=offs < n_elements)


class ModelNew(nn.Module):
    def forward(self, x):
        x = x.contiguous()
        y = torch.empty_like(x)
        n = x.numel()
        gelu_kernel[lambda meta: (triton.cdiv(n, meta["BLOCK"]),)](x, y, n)
        return y
