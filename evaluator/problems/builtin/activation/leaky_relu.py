"""Leaky ReLU with a configurable negative slope."""
import torch
import torch.nn as nn

batch_size = 4096
dim = 8192


class Model(nn.Module):
    def __init__(self, negative_slope: float):
        super().__init__()
        self.negative_slope = negative_slope

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return torch.nn.functional.leaky_relu(x, negative_slope=self.negative_slope)


def get_inputs():
    return [torch.randn(batch_size, dim)]


def get_init_inputs():
    return [0.02]
