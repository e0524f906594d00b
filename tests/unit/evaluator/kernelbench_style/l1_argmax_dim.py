# After KernelBench level1/51_Argmax_over_a_dimension (sizes shrunk): an int64 output.
import torch
import torch.nn as nn


class Model(nn.Module):
    """argmax over one dimension."""

    def __init__(self, dim: int):
        super(Model, self).__init__()
        self.dim = dim

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return torch.argmax(x, dim=self.dim)


batch_size = 8
dim1 = 64
dim2 = 63


def get_inputs():
    x = torch.rand(batch_size, dim1, dim2)
    return [x]


def get_init_inputs():
    return [1]
