"""Scaled dot-product attention (no mask) over (batch, heads, seq, head_dim) tensors."""
import torch
import torch.nn as nn
import torch.nn.functional as F

batch_size = 4
num_heads = 16
seq_len = 1024
head_dim = 64


class Model(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, q: torch.Tensor, k: torch.Tensor, v: torch.Tensor) -> torch.Tensor:
        return F.scaled_dot_product_attention(q, k, v)


def get_inputs():
    shape = (batch_size, num_heads, seq_len, head_dim)
    return [torch.randn(shape), torch.randn(shape), torch.randn(shape)]


def get_init_inputs():
    return []
