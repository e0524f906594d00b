# A level-2 problem in KernelBench's style, written for this corpus (session 27): a GEMM, its mean over the features kept as a size-1 dimension, then a softmax over that size-1 dimension: every answer is exactly 1.0, whatever the input.
import torch
import torch.nn as nn


class Model(nn.Module):
    """Linear -> mean(dim=1, keepdim=True) -> softmax(dim=1) (over one element)."""

    def __init__(self, in_features, out_features):
        super(Model, self).__init__()
        self.matmul = nn.Linear(in_features, out_features)

    def forward(self, x):
        x = self.matmul(x)
        x = x.mean(dim=1, keepdim=True)
        return torch.softmax(x, dim=1)


batch_size = 128
in_features = 4096
out_features = 4096


def get_inputs():
    return [torch.rand(batch_size, in_features)]


def get_init_inputs():
    return [in_features, out_features]
