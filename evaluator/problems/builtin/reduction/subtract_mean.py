"""Center each row: x - mean(x). The inputs vary little around a constant, so the output is
small (about 1e-3): a kernel that returns zeros must not pass."""
import torch
import torch.nn as nn

batch_size = 4096
dim = 8192


class Model(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return x - x.mean(dim=1, keepdim=True)


def get_inputs():
    return [3.0 + 1e-3 * torch.randn(batch_size, dim)]


def get_init_inputs():
    return []
