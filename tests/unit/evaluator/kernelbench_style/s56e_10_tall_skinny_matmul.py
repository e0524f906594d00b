# KernelBench level1/9_Tall_skinny_matrix_multiplication_ (rewritten): (M, N) @ (N, M), M >> N.
import torch
import torch.nn as nn


class Model(nn.Module):
    """Product of a tall-skinny matrix and a short-wide one."""

    def __init__(self):
        super().__init__()

    def forward(self, A, B):
        return torch.matmul(A, B)


M = 16384 * 2
N = 16 * 2


def get_inputs():
    return [torch.rand(M, N), torch.rand(N, M)]


def get_init_inputs():
    return []
