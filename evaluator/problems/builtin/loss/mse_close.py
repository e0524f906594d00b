"""Mean squared error between predictions and targets that are very close: the true
loss is about 1e-6, so a kernel that returns zero must not pass."""
import torch
import torch.nn as nn

batch_size = 4096
dim = 8192


class Model(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, predictions: torch.Tensor, targets: torch.Tensor) -> torch.Tensor:
        return torch.mean((predictions - targets) ** 2)


def get_inputs():
    predictions = torch.randn(batch_size, dim)
    return [predictions, predictions + 1e-3 * torch.randn(batch_size, dim)]


def get_init_inputs():
    return []
