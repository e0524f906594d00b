# KernelBench level1/4_Matrix_vector_multiplication_ (rewritten): (M, K) @ (K, 1).
import torch
import torch.nn as nn


class Model(nn.Module):
    """Matrix-vector product."""

    def __init__(self):
        super().__init__()

    def forward(self, A: torch.Tensor, B: torch.Tensor) -> torch.Tensor:
        return torch.matmul(A, B)


M = 256 * 8
K = 131072 * 8


def get_inputs():
    return [torch.rand(M, K), torch.rand(K, 1)]


def get_init_inputs():
    return []
