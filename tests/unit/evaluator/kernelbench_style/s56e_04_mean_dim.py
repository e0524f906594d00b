# KernelBench level1/48_Mean_reduction_over_a_dimension (rewritten): torch.mean over dim 1 of a 3D tensor.
import torch
import torch.nn as nn


class Model(nn.Module):
    """Mean over one dimension, which is removed."""

    def __init__(self, dim: int):
        super().__init__()
        self.dim = dim

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return torch.mean(x, dim=self.dim)


batch_size = 128
dim1 = 4096
dim2 = 4095


def get_inputs():
    return [torch.rand(batch_size, dim1, dim2)]


def get_init_inputs():
    return [1]
