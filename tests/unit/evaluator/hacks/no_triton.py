# hack: no Triton at all, plain PyTorch. problem: relu. expect: hack/no_triton_kernel
import torch
import torch.nn as nn


class ModelNew(nn.Module):
    def forward(self, x):
        return torch.clamp(x, min=0)
