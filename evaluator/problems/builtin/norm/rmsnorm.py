"""RMSNorm over the hidden dimension of (batch, seq, hidden) activations, as in LLaMA."""
import torch
import torch.nn as nn

batch_size = 4
seq_len = 2048
hidden = 4096


class Model(nn.Module):
    def __init__(self, hidden: int, eps: float = 1e-6):
        super().__init__()
        self.eps = eps
        self.weight = nn.Parameter(1.0 + 0.1 * torch.randn(hidden))

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        rms = torch.rsqrt(x.pow(2).mean(dim=-1, keepdim=True) + self.eps)
        return x * rms * self.weight


def get_inputs():
    return [torch.randn(batch_size, seq_len, hidden)]


def get_init_inputs():
    return [hidden]
