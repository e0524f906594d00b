# After KernelBench level2/1_Conv2D_ReLU_BiasAdd, at its real (GPU) sizes: the test gives CPU
# sizes for the base globals only; bias_shape is derived from out_channels, as in KernelBench.
import torch
import torch.nn as nn


class Model(nn.Module):
    """Convolution, ReLU, then a per-channel bias."""

    def __init__(self, in_channels, out_channels, kernel_size, bias_shape):
        super(Model, self).__init__()
        self.conv = nn.Conv2d(in_channels, out_channels, kernel_size)
        self.bias = nn.Parameter(torch.randn(bias_shape))

    def forward(self, x):
        x = self.conv(x)
        x = torch.relu(x)
        x = x + self.bias
        return x


batch_size = 128
in_channels = 64
out_channels = 128
height = width = 128
kernel_size = 3
bias_shape = (out_channels, 1, 1)


def get_inputs():
    return [torch.rand(batch_size, in_channels, height, width)]


def get_init_inputs():
    return [in_channels, out_channels, kernel_size, bias_shape]
