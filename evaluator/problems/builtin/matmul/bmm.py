"""Batched matrix product of (batch, M, K) and (batch, K, N) float32 tensors."""
import torch
import torch.nn as nn

batch_size = 16
M = 1024
K = 1024
N = 1024


class Model(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, a: torch.Tensor, b: torch.Tensor) -> torch.Tensor:
        return torch.bmm(a, b)


def get_inputs():
    return [torch.randn(batch_size, M, K), torch.randn(batch_size, K, N)]


def get_init_inputs():
    return []
