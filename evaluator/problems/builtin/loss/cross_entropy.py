"""Cross-entropy of (batch, classes) logits against integer class targets, averaged."""
import torch
import torch.nn as nn
import torch.nn.functional as F

batch_size = 4096
num_classes = 16384


class Model(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, logits: torch.Tensor, targets: torch.Tensor) -> torch.Tensor:
        return F.cross_entropy(logits, targets)


def get_inputs():
    logits = torch.randn(batch_size, num_classes)
    targets = torch.randint(0, num_classes, (batch_size,))
    return [logits, targets]


def get_init_inputs():
    return []
