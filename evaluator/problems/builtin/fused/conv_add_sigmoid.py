"""3x3 convolution, plus a learned per-channel bias, then sigmoid."""
import torch
import torch.nn as nn

batch_size = 16
in_channels = 32
out_channels = 64
height = 64
width = 64
kernel_size = 3


class Model(nn.Module):
    def __init__(self, in_channels: int, out_channels: int, kernel_size: int):
        super().__init__()
        self.conv = nn.Conv2d(in_channels, out_channels, kernel_size, padding=1)
        self.extra_bias = nn.Parameter(0.1 * torch.randn(out_channels, 1, 1))

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        x = self.conv(x)
        x = x + self.extra_bias
        return torch.sigmoid(x)


def get_inputs():
    return [torch.randn(batch_size, in_channels, height, width)]


def get_init_inputs():
    return [in_channels, out_channels, kernel_size]
