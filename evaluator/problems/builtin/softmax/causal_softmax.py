"""Softmax of attention scores under a causal mask: query i sees keys 0..i only."""
import torch
import torch.nn as nn

batch_size = 2
num_heads = 16
seq_len = 1024


class Model(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, scores: torch.Tensor) -> torch.Tensor:
        n = scores.size(-1)
        future = torch.ones(n, n, dtype=torch.bool, device=scores.device).triu(1)
        return torch.softmax(scores.masked_fill(future, float("-inf")), dim=-1)


def get_inputs():
    return [torch.randn(batch_size, num_heads, seq_len, seq_len)]


def get_init_inputs():
    return []
