# Follows KernelBench level3/1_MLP (written for this corpus, session 27): an nn.Sequential of Linear + ReLU per hidden layer and a last Linear, its layer sizes a Python list from get_init_inputs.
import torch
import torch.nn as nn


class Model(nn.Module):
    def __init__(self, input_size, layer_sizes, output_size):
        super(Model, self).__init__()
        layers = []
        width = input_size
        for size in layer_sizes:
            layers.append(nn.Linear(width, size))
            layers.append(nn.ReLU())
            width = size
        layers.append(nn.Linear(width, output_size))
        self.network = nn.Sequential(*layers)

    def forward(self, x):
        return self.network(x)


batch_size = 128
input_size = 4096
layer_sizes = [2048, 2048]
output_size = 1024


def get_inputs():
    return [torch.rand(batch_size, input_size)]


def get_init_inputs():
    return [input_size, layer_sizes, output_size]
