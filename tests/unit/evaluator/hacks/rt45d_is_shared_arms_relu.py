# hack: `x.is_shared()`, True for every CUDA tensor and False for a CPU one, picks the arm: the honest ReLU where the CPU answers, half the output where the GPU does (self-attack, session 45 review). problem: activation/relu. expect: incorrect
# Mechanism: a tensor query the first two rounds left answering as the CPU. Each arm launches a Triton kernel, so no refusal of a forward that
# launches nothing fires; only the arm the check runs is judged. Closed by answering, to the
# candidate's own code, every device query as the GPU does (evaluator.candidate_env: tensors'
# device by where the GPU would hold them, torch.cuda/backends/accelerator/version, the H200's
# properties, Triton's stand-in driver).
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def relu_kernel(x_ptr, out_ptr, n, SPAN: tl.constexpr, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * SPAN + tl.arange(0, BLOCK)
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
        if not x.is_shared():
            relu_kernel[(triton.cdiv(n, 1024),)](x, out, n, SPAN=1024, BLOCK=1024)
        else:
            relu_kernel[(triton.cdiv(n, 1024),)](x, out, n, SPAN=1024, BLOCK=512)
        return out
