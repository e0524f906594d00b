"""Exact (erf) GELU of a (batch, dim) activation tensor."""
import torch
import torch.nn as nn

batch_size = 4096
dim = 8192


class Model(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return torch.nn.functional.gelu(x)


def get_inputs():
    return [torch.randn(batch_size, dim)]


def get_init_inputs():
    return []
