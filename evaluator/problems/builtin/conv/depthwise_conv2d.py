"""Depthwise 3x3 convolution (one filter per channel, padding 1) with bias."""
import torch
import torch.nn as nn

batch_size = 16
channels = 64
height = 128
width = 128
kernel_size = 3


class Model(nn.Module):
    def __init__(self, channels: int, kernel_size: int):
        super().__init__()
        self.conv = nn.Conv2d(channels, channels, kernel_size, padding=kernel_size // 2,
                              groups=channels)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.conv(x)


def get_inputs():
    return [torch.randn(batch_size, channels, height, width)]


def get_init_inputs():
    return [channels, kernel_size]
