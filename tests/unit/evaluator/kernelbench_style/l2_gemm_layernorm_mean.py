# A level-2 problem in KernelBench's style, written for this corpus (session 27): a GEMM, a LayerNorm over its features, then the mean over the features just normalised: with the LayerNorm's default affine (weight 1, bias 0) the answer is ~0 per row, its float32 reference rounding noise (as KernelBench level2/23's).
import torch
import torch.nn as nn


class Model(nn.Module):
    """Linear -> LayerNorm(out_features) -> mean over the normalised axis."""

    def __init__(self, in_features, out_features):
        super(Model, self).__init__()
        self.gemm = nn.Linear(in_features, out_features)
        self.norm = nn.LayerNorm(out_features)

    def forward(self, x):
        x = self.gemm(x)
        x = self.norm(x)
        return x.mean(dim=1, keepdim=True)


batch_size = 256
in_features = 1024
out_features = 2048


def get_inputs():
    return [torch.rand(batch_size, in_features)]


def get_init_inputs():
    return [in_features, out_features]
