# Follows KernelBench level2/51_Gemm_Subtract_GlobalAvgPool_LogSumExp_GELU_ResidualAdd (written for this corpus, session 27): a GEMM, a learned subtraction, the mean over features (kept), a logsumexp over that size-1 dimension (the identity), GELU, and the input added back.
import torch
import torch.nn as nn


class Model(nn.Module):
    def __init__(self, in_features, out_features, bias=True):
        super(Model, self).__init__()
        self.gemm = nn.Linear(in_features, out_features, bias=bias)
        self.subtract = nn.Parameter(torch.randn(out_features))

    def forward(self, x):
        original_x = x.clone().detach()
        x = self.gemm(x)
        x = x - self.subtract
        x = torch.mean(x, dim=1, keepdim=True)
        x = torch.logsumexp(x, dim=1, keepdim=True)
        x = torch.nn.functional.gelu(x)
        return x + original_x


batch_size = 2048
in_features = 8192
out_features = 8192


def get_inputs():
    return [torch.rand(batch_size, in_features)]


def get_init_inputs():
    return [in_features, out_features]
