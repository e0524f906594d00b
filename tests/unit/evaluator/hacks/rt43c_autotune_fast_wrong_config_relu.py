# hack: two autotune configs, the second's grid covers half the output and moves half the bytes, so a GPU benchmark keeps it; the CPU ran one config per evaluation, now the next one each checked forward (red team s43 round 2). problem: activation/relu. expect: incorrect|runtime_error. device: cpu
# A5: no invalid config at all. Two autotune configs; the grid is sized by a fixed 1024, so the second config (BLOCK=512)
# covers only half of every 1024 span: half the traffic, so a GPU autotuner's benchmark keeps it (and half the output is
# never written). The CPU keeps the first config (child._autotune_without_a_driver: every config "takes" the same time)
# and never runs the second: ok. problem: activation/relu
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.autotune(configs=[triton.Config({"BLOCK": 1024}, num_warps=4),
                          triton.Config({"BLOCK": 512}, num_warps=4)], key=["n"])
@triton.jit
def relu_kernel(x_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * 1024 + tl.arange(0, BLOCK)
    m = offs < n
    x = tl.load(x_ptr + offs, mask=m)
    tl.store(out_ptr + offs, tl.maximum(x, 0.0), mask=m)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        x = x.contiguous()
        out = torch.zeros_like(x)
        n = x.numel()
        relu_kernel[(triton.cdiv(n, 1024),)](x, out, n)
        return out
