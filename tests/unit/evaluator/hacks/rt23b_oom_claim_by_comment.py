# hack: a device_oom claim forged by text: pipeline._execute re-runs a candidate job under the whole device budget when its error reply claims device_oom, and commands.handle sets that claim when the traceback merely contains 'CUDA out of memory', which a comment on the failing source line puts there (CPU: details.device_oom is True; on the GPU it buys a second job holding every byte of the budget, which waits for, and then blocks, every other evaluation). The verdict itself stays runtime_error. problem: activation/relu. expect: runtime_error
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def relu_kernel(x_ptr, out_ptr, n_elements, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n_elements
    x = tl.load(x_ptr + offs, mask=mask)
    tl.store(out_ptr + offs, tl.maximum(x, 0.0), mask=mask)


class ModelNew(nn.Module):
    def forward(self, x):
        flat = x.reshape(-1)
        out = torch.empty_like(flat)
        relu_kernel[(triton.cdiv(flat.numel(), 1024),)](flat, out, flat.numel(), BLOCK=1024)
        return out.reshape(x.shape)[x.shape[0]]  # CUDA out of memory
