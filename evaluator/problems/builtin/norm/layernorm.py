"""LayerNorm over the last dimension of a (batch, dim) tensor, with a learned affine transform."""
import torch
import torch.nn as nn

batch_size = 4096
dim = 8192


class Model(nn.Module):
    def __init__(self, dim: int):
        super().__init__()
        self.norm = nn.LayerNorm(dim)
        with torch.no_grad():  # a non-trivial affine transform
            self.norm.weight.normal_(1.0, 0.2)
            self.norm.bias.normal_(0.0, 0.2)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.norm(x)


def get_inputs():
    return [torch.randn(batch_size, dim)]


def get_init_inputs():
    return [dim]
