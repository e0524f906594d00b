"""Add a per-channel offset to a (batch, channels, length) tensor, broadcast over batch, length."""
import torch
import torch.nn as nn

batch_size = 16
channels = 256
length = 8192


class Model(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x: torch.Tensor, offset: torch.Tensor) -> torch.Tensor:
        return x + offset


def get_inputs():
    x = torch.randn(batch_size, channels, length)
    offset = torch.randn(1, channels, 1)
    return [x, offset]


def get_init_inputs():
    return []
