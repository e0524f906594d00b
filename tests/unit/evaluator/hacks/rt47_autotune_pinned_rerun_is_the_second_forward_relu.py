# hack: one config of twelve covers half the output; the CPU's forward pinned to a config that wrote otherwise at the first pick always ran right after that checked forward, so the second forward runs a plain kernel there (right), and every other forward the autotuned one. problem: activation/relu. expect: incorrect|runtime_error. device: cpu
# Since session 47 a pinned forward runs before a later checked forward drawn at random, on that
# forward's inputs (autotune_cpu.schedule/due), and a pin its forward never launched is drawn again.
import torch
import torch.nn as nn
import triton
import triton.language as tl

_SEEN = {"forward": 0}


def _grid(meta):
    n = meta["n_elements"]
    return (triton.cdiv(n // 2 if meta["HALF"] else n, meta["BLOCK"]),)


@triton.autotune(
    configs=[triton.Config({"BLOCK": b, "HALF": 0}, num_warps=w) for b in (64, 128, 256) for w in (1, 2, 4, 8)
             if (b, w) != (64, 8)] + [triton.Config({"BLOCK": 64, "HALF": 1}, num_warps=8)],
    key=["n_elements"],
)
@triton.jit
def relu_kernel(x_ptr, out_ptr, n_elements, BLOCK: tl.constexpr, HALF: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n_elements
    x = tl.load(x_ptr + offs, mask=mask)
    tl.store(out_ptr + offs, tl.maximum(x, 0.0), mask=mask)


@triton.jit
def plain_relu_kernel(x_ptr, out_ptr, n_elements, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n_elements
    x = tl.load(x_ptr + offs, mask=mask)
    tl.store(out_ptr + offs, tl.maximum(x, 0.0), mask=mask)


class ModelNew(nn.Module):
    def forward(self, x: torch.Tensor) -> torch.Tensor:
        _SEEN["forward"] += 1
        x = x.contiguous()
        out = torch.zeros_like(x)
        n = x.numel()
        if _SEEN["forward"] == 2:
            plain_relu_kernel[(triton.cdiv(n, 256),)](x, out, n, BLOCK=256)
        else:
            relu_kernel[_grid](x, out, n)
        return out
