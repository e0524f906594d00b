"""ELU with a configurable alpha."""
import torch
import torch.nn as nn

batch_size = 4096
dim = 8192


class Model(nn.Module):
    def __init__(self, alpha: float):
        super().__init__()
        self.alpha = alpha

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return torch.nn.functional.elu(x, alpha=self.alpha)


def get_inputs():
    return [torch.randn(batch_size, dim)]


def get_init_inputs():
    return [0.8]
