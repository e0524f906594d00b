"""Sum a (batch, dim1, dim2) tensor over its middle dimension."""
import torch
import torch.nn as nn

batch_size = 16
dim1 = 2048
dim2 = 1024


class Model(nn.Module):
    def __init__(self, dim: int):
        super().__init__()
        self.dim = dim

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return torch.sum(x, dim=self.dim)


def get_inputs():
    return [torch.randn(batch_size, dim1, dim2)]


def get_init_inputs():
    return [1]
