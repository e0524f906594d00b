"""Hardtanh: clamp activations into [min_val, max_val]."""
import torch
import torch.nn as nn

batch_size = 4096
dim = 8192


class Model(nn.Module):
    def __init__(self, min_val: float, max_val: float):
        super().__init__()
        self.min_val = min_val
        self.max_val = max_val

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return torch.nn.functional.hardtanh(x, min_val=self.min_val, max_val=self.max_val)


def get_inputs():
    return [torch.randn(batch_size, dim)]


def get_init_inputs():
    return [-0.5, 2.0]
