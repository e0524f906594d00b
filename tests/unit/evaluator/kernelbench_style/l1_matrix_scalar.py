# After KernelBench level1/5_Matrix_scalar_multiplication (sizes shrunk): get_inputs returns
# a Python float beside the tensor.
import torch
import torch.nn as nn


class Model(nn.Module):
    """C = A * s."""

    def __init__(self):
        super(Model, self).__init__()

    def forward(self, A: torch.Tensor, s: float) -> torch.Tensor:
        return A * s


M = 64
N = 128


def get_inputs():
    A = torch.rand(M, N)
    s = 3.14
    return [A, s]


def get_init_inputs():
    return []
