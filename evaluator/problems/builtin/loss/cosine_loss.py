"""Cosine-similarity loss: mean over the batch of 1 - cos(predictions[i], targets[i])."""
import torch
import torch.nn as nn
import torch.nn.functional as F

batch_size = 4096
dim = 8192


class Model(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, predictions: torch.Tensor, targets: torch.Tensor) -> torch.Tensor:
        return torch.mean(1 - F.cosine_similarity(predictions, targets, dim=1))


def get_inputs():
    # targets lean towards the predictions by a share drawn per call, so the loss moves with
    # the draw (about 1 - mix / sqrt(1 + mix^2)): of two independent randn tensors it is
    # 1 +- 2e-4 at these sizes, inside float32's tolerance, the same answer for every input
    predictions = torch.randn(batch_size, dim)
    mix = 2.0 * torch.rand(())
    return [predictions, mix * predictions + torch.randn(batch_size, dim)]


def get_init_inputs():
    return []
