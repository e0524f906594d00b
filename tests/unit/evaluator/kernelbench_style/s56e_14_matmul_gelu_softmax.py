# KernelBench level2/99_Matmul_GELU_Softmax (rewritten): Linear, GELU, softmax over dim 1.
import torch
import torch.nn as nn


class Model(nn.Module):
    """Linear, GELU, softmax."""

    def __init__(self, in_features, out_features):
        super().__init__()
        self.linear = nn.Linear(in_features, out_features)

    def forward(self, x):
        x = self.linear(x)
        x = torch.nn.functional.gelu(x)
        return torch.nn.functional.softmax(x, dim=1)


batch_size = 1024
in_features = 8192
out_features = 8192


def get_inputs():
    return [torch.rand(batch_size, in_features)]


def get_init_inputs():
    return [in_features, out_features]
