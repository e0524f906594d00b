"""Per-feature affine transform of a (tokens, features) matrix with learned scale and bias."""
import torch
import torch.nn as nn

n_tokens = 16384
num_features = 2048


class Model(nn.Module):
    def __init__(self, num_features: int):
        super().__init__()
        self.weight = nn.Parameter(torch.randn(num_features))
        self.bias = nn.Parameter(torch.randn(num_features))

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return x * self.weight + self.bias


def get_inputs():
    return [torch.randn(n_tokens, num_features)]


def get_init_inputs():
    return [num_features]
