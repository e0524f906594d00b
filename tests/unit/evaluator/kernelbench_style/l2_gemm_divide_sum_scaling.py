# After KernelBench level2/14_Gemm_Divide_Sum_Scaling (sizes shrunk): a parameter made with
# torch.randn in __init__, and an output reduced over the GEMM's whole width.
import torch
import torch.nn as nn


class Model(nn.Module):
    """x @ W.T, / 2, sum over features, * scaling_factor."""

    def __init__(self, input_size, hidden_size, scaling_factor):
        super(Model, self).__init__()
        self.weight = nn.Parameter(torch.randn(hidden_size, input_size))
        self.scaling_factor = scaling_factor

    def forward(self, x):
        x = torch.matmul(x, self.weight.T)
        x = x / 2
        x = torch.sum(x, dim=1, keepdim=True)
        x = x * self.scaling_factor
        return x


batch_size = 16
input_size = 128
hidden_size = 128
scaling_factor = 1.5


def get_inputs():
    return [torch.rand(batch_size, input_size)]


def get_init_inputs():
    return [input_size, hidden_size, scaling_factor]
