# After KernelBench level1/1_Square_matrix_multiplication_ (sizes shrunk for the CPU).
# An fp32 GEMM: on the GPU the reference may run in TF32 (the precision contract).
import torch
import torch.nn as nn


class Model(nn.Module):
    """C = A @ B for square matrices."""

    def __init__(self):
        super(Model, self).__init__()

    def forward(self, A: torch.Tensor, B: torch.Tensor) -> torch.Tensor:
        return torch.matmul(A, B)


N = 64


def get_inputs():
    A = torch.rand(N, N)
    B = torch.rand(N, N)
    return [A, B]


def get_init_inputs():
    return []
