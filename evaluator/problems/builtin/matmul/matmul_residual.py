"""A linear layer whose output is added to a residual stream: x @ W^T + b + residual."""
import torch
import torch.nn as nn

batch_size = 4096
in_features = 2048
out_features = 2048


class Model(nn.Module):
    def __init__(self, in_features: int, out_features: int):
        super().__init__()
        self.linear = nn.Linear(in_features, out_features)

    def forward(self, x: torch.Tensor, residual: torch.Tensor) -> torch.Tensor:
        return self.linear(x) + residual


def get_inputs():
    return [torch.randn(batch_size, in_features), torch.randn(batch_size, out_features)]


def get_init_inputs():
    return [in_features, out_features]
