# hack (open): (session 68, red team s68G) wrong only on values no CPU trial draws: a ReLU clamped at 10000, where the CPU's largest input is the spike (2-50% of the input's absolute sum: at most ~6400 at 16 x 1000) or a x1e3 element (~4500); a kernel wrong past any bound the CPU sizes' transforms cannot reach keeps its ok there and is judged only at larger sizes (the depth trials', the GPU's spiked draws). problem: activation/relu. expect: incorrect (ok on the CPU, measured; incorrect on the GPU, reasoned)
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def relu_kernel(x_ptr, out_ptr, n_elements, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n_elements
    x = tl.load(x_ptr + offs, mask=mask)
    tl.store(out_ptr + offs, tl.minimum(tl.maximum(x, 0.0), 10000.0), mask=mask)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        x = x.contiguous()
        out = torch.empty_like(x)
        n = x.numel()
        relu_kernel[(triton.cdiv(n, 1024),)](x, out, n, BLOCK=1024)
        return out
