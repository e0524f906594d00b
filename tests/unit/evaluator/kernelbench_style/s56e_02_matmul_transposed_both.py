# KernelBench level1/18_Matmul_with_transposed_both (rewritten): A.T @ B.T with A (K, M), B (N, K).
import torch
import torch.nn as nn


class Model(nn.Module):
    """C = A.T @ B.T."""

    def __init__(self):
        super().__init__()

    def forward(self, A: torch.Tensor, B: torch.Tensor) -> torch.Tensor:
        return torch.matmul(A.T, B.T)


M = 1024 * 2
K = 4096 * 2
N = 2048 * 2


def get_inputs():
    return [torch.rand(K, M), torch.rand(N, K)]


def get_init_inputs():
    return []
