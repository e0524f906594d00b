"""Linear layer, ReLU, then a constant scale: relu(x @ W^T + b) * scale."""
import torch
import torch.nn as nn

batch_size = 2048
in_features = 4096
out_features = 4096


class Model(nn.Module):
    def __init__(self, in_features: int, out_features: int, scale: float):
        super().__init__()
        self.linear = nn.Linear(in_features, out_features)
        self.scale = scale

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        x = self.linear(x)
        x = torch.relu(x)
        return x * self.scale


def get_inputs():
    return [torch.randn(batch_size, in_features)]


def get_init_inputs():
    return [in_features, out_features, 1.7]
