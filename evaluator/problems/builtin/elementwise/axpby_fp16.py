"""alpha * x + beta * y on half-precision tensors."""
import torch
import torch.nn as nn

n_elements = 33554432


class Model(nn.Module):
    def __init__(self, alpha: float, beta: float):
        super().__init__()
        self.alpha = alpha
        self.beta = beta

    def forward(self, x: torch.Tensor, y: torch.Tensor) -> torch.Tensor:
        return self.alpha * x + self.beta * y


def get_inputs():
    x = torch.randn(n_elements, dtype=torch.float16)
    y = torch.randn(n_elements, dtype=torch.float16)
    return [x, y]


def get_init_inputs():
    return [1.5, -0.75]
