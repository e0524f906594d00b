"""KL divergence between two nearly equal distributions, averaged over the batch: the
true value is about 5e-5, so a kernel that returns zero must not pass."""
import torch
import torch.nn as nn
import torch.nn.functional as F

batch_size = 4096
dim = 8192


class Model(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, predictions: torch.Tensor, targets: torch.Tensor) -> torch.Tensor:
        return F.kl_div(predictions, targets, reduction="batchmean")


def get_inputs():
    logits = torch.randn(batch_size, dim)
    log_probs = torch.log_softmax(logits, dim=-1)
    probs = torch.softmax(logits + 0.01 * torch.randn(batch_size, dim), dim=-1)
    return [log_probs, probs]


def get_init_inputs():
    return []
