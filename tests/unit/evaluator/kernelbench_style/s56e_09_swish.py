# KernelBench level1/25_Swish (rewritten): x * sigmoid(x).
import torch
import torch.nn as nn


class Model(nn.Module):
    """Swish activation."""

    def __init__(self):
        super().__init__()

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return x * torch.sigmoid(x)


batch_size = 4096
dim = 393216


def get_inputs():
    return [torch.rand(batch_size, dim)]


def get_init_inputs():
    return []
