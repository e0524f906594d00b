"""Half-precision matrix product C = A @ B (fp16 in, fp16 out)."""
import torch
import torch.nn as nn

M = 4096
K = 4096
N = 4096


class Model(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, a: torch.Tensor, b: torch.Tensor) -> torch.Tensor:
        return a @ b


def get_inputs():
    scale = K ** -0.5  # keeps the outputs near unit size
    a = torch.randn(M, K, dtype=torch.float16)
    b = (torch.randn(K, N) * scale).to(torch.float16)
    return [a, b]


def get_init_inputs():
    return []
