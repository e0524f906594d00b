# KernelBench level1/10_3D_tensor_matrix_multiplication (rewritten): (N, M, K) @ (K, L).
import torch
import torch.nn as nn


class Model(nn.Module):
    """3D tensor times matrix: out[n] = A[n] @ B."""

    def __init__(self):
        super().__init__()

    def forward(self, A, B):
        return torch.matmul(A, B)


N = 16
M = 1024
K = 2048
L = 768


def get_inputs():
    return [torch.rand(N, M, K), torch.rand(K, L)]


def get_init_inputs():
    return []
