"""Hinge loss mean(max(0, 1 - prediction * target)) with targets in {-1, +1}."""
import torch
import torch.nn as nn

batch_size = 4096
dim = 8192


class Model(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, predictions: torch.Tensor, targets: torch.Tensor) -> torch.Tensor:
        return torch.mean(torch.clamp(1 - predictions * targets, min=0))


def get_inputs():
    predictions = torch.randn(batch_size, dim)
    targets = torch.randint(0, 2, (batch_size, dim)).float() * 2 - 1
    return [predictions, targets]


def get_init_inputs():
    return []
