"""GroupNorm of (batch, channels, height, width) feature maps with a learned per-channel affine."""
import torch
import torch.nn as nn

batch_size = 32
channels = 128
num_groups = 8
height = 64
width = 64


class Model(nn.Module):
    def __init__(self, num_groups: int, channels: int):
        super().__init__()
        self.gn = nn.GroupNorm(num_groups, channels)
        with torch.no_grad():
            self.gn.weight.normal_(1.0, 0.2)
            self.gn.bias.normal_(0.0, 0.2)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.gn(x)


def get_inputs():
    return [torch.randn(batch_size, channels, height, width)]


def get_init_inputs():
    return [num_groups, channels]
