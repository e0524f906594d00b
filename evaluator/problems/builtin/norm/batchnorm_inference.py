"""BatchNorm2d in inference mode: normalize with stored running statistics, then scale and shift."""
import torch
import torch.nn as nn
import torch.nn.functional as F

batch_size = 32
channels = 64
height = 128
width = 128


class Model(nn.Module):
    def __init__(self, channels: int):
        super().__init__()
        self.bn = nn.BatchNorm2d(channels)
        with torch.no_grad():  # statistics as a trained network would have them
            self.bn.running_mean.normal_(0.0, 0.5)
            self.bn.running_var.uniform_(0.5, 2.0)
            self.bn.weight.normal_(1.0, 0.2)
            self.bn.bias.normal_(0.0, 0.2)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return F.batch_norm(x, self.bn.running_mean, self.bn.running_var, self.bn.weight,
                            self.bn.bias, training=False, eps=self.bn.eps)


def get_inputs():
    return [torch.randn(batch_size, channels, height, width)]


def get_init_inputs():
    return [channels]
