# KernelBench level2/28_BMM_InstanceNorm_Sum_ResidualAdd_Multiply (rewritten): Linear, InstanceNorm2d on
# (B, 1, 1, F) (each row normalised over its features), + y, * y.
import torch
import torch.nn as nn


class Model(nn.Module):
    """Linear, instance norm of each row, residual add, multiply."""

    def __init__(self, in_features, out_features, eps=1e-5, momentum=0.1):
        super().__init__()
        self.bmm = nn.Linear(in_features, out_features)
        self.instance_norm = nn.InstanceNorm2d(out_features, eps=eps, momentum=momentum)

    def forward(self, x, y):
        x = self.bmm(x)
        x = self.instance_norm(x.unsqueeze(1).unsqueeze(1)).squeeze(1).squeeze(1)
        x = x + y
        return x * y


batch_size = 1024
in_features = 8192
out_features = 8192


def get_inputs():
    return [torch.rand(batch_size, in_features), torch.rand(batch_size, out_features)]


def get_init_inputs():
    return [in_features, out_features]
