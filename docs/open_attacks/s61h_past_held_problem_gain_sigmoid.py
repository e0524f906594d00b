"""A problem whose module binds one computed float (GAIN), held by problem_numbers: the
problem file for s61h_past_held_float32_codes_near_one_held_float_sigmoid.py."""
import math

import torch
import torch.nn as nn

GAIN = math.pi / 8  # a float the problem computed: problem_numbers records it
N = 65536


class Model(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return torch.sigmoid(x.float() * (GAIN / GAIN)).to(x.dtype)


def get_inputs():
    return [torch.randn(N, dtype=torch.bfloat16) * 4]


def get_init_inputs():
    return []
