# Follows KernelBench level1/11_4D_tensor_matrix_multiplication (written for this corpus, session 27): C[b, i, j, k] = sum over l of A[b, i, j, l] B[l, k], as torch.einsum.
import torch
import torch.nn as nn


class Model(nn.Module):
    def __init__(self):
        super(Model, self).__init__()

    def forward(self, A, B):
        return torch.einsum("bijl,lk->bijk", A, B)


b = 8
i = 256
j = 512
l = 256
k = 768


def get_inputs():
    A = torch.rand(b, i, j, l)
    B = torch.rand(l, k)
    return [A, B]


def get_init_inputs():
    return []
