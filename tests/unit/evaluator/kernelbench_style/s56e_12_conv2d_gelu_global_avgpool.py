# KernelBench level2/67_Conv2d_GELU_GlobalAvgPool (rewritten): conv, GELU, adaptive_avg_pool2d(1), squeeze.
import torch
import torch.nn as nn


class Model(nn.Module):
    """Convolution, GELU, global average pooling."""

    def __init__(self, in_channels, out_channels, kernel_size):
        super().__init__()
        self.conv = nn.Conv2d(in_channels, out_channels, kernel_size)

    def forward(self, x):
        x = self.conv(x)
        x = torch.nn.functional.gelu(x)
        x = torch.nn.functional.adaptive_avg_pool2d(x, 1)
        return x.squeeze(-1).squeeze(-1)


batch_size = 128
in_channels = 8
out_channels = 64
height, width = 256, 256
kernel_size = 3


def get_inputs():
    return [torch.rand(batch_size, in_channels, height, width)]


def get_init_inputs():
    return [in_channels, out_channels, kernel_size]
