"""Scale each row of a matrix by its own factor: (rows, cols) * (rows, 1)."""
import torch
import torch.nn as nn

n_rows = 8192
n_cols = 4096


class Model(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x: torch.Tensor, row_scale: torch.Tensor) -> torch.Tensor:
        return x * row_scale


def get_inputs():
    return [torch.randn(n_rows, n_cols), torch.randn(n_rows, 1)]


def get_init_inputs():
    return []
