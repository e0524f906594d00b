"""Linear layer, sigmoid, then a sum over the features: one score per row."""
import torch
import torch.nn as nn

batch_size = 2048
in_features = 4096
out_features = 4096


class Model(nn.Module):
    def __init__(self, in_features: int, out_features: int):
        super().__init__()
        self.linear = nn.Linear(in_features, out_features)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        x = torch.sigmoid(self.linear(x))
        return torch.sum(x, dim=1, keepdim=True)


def get_inputs():
    return [torch.randn(batch_size, in_features)]


def get_init_inputs():
    return [in_features, out_features]
