# hack: tensors passed as tl.constexpr stay torch tensors in the interpreted body, so the "kernel" is a Python function doing torch.relu. problem: relu. expect: runtime_error|hack/torch_computes|hack/low_coverage. policy: strict
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def relu_kernel(X: tl.constexpr, OUT: tl.constexpr):
    OUT.copy_(torch.relu(X))


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x):
        out = torch.empty_like(x)
        relu_kernel[(1,)](x, out)
        return out
