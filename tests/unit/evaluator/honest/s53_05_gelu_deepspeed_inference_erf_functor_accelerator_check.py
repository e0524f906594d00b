# honest: deepspeedai/DeepSpeed deepspeed/ops/transformer/inference/triton/gelu.py @ edaa7221267243c7be7fb49c5d5f5c4fb97b4641: DeepSpeed-Inference's Triton GELU verbatim: a jit gelu_functor with tl.math.erf and the literal 1.41421356237, a `lambda meta:` grid reading BLOCK_SIZE=1024 handed at the launch, `assert get_accelerator().on_accelerator(activations)` (deepspeed.accelerator's object stubbed by a small local class answering is_cuda). problem: activation/gelu
# Copyright (c) Microsoft Corporation.
# SPDX-License-Identifier: Apache-2.0

# DeepSpeed Team

import torch
import triton
import triton.language as tl
import torch.nn as nn


class _CUDA_Accelerator:
    # deepspeed.accelerator.get_accelerator(), reduced to the query gelu() makes
    def on_accelerator(self, tensor):
        device_str = str(tensor.device)
        return device_str.startswith('cuda:') or tensor.is_cuda


_ds_accelerator = _CUDA_Accelerator()


def get_accelerator():
    return _ds_accelerator

@triton.jit
def gelu_functor(x):
    # Using approximation introduces greater parity errors.
    # return tl.sigmoid(1.702 * x) * x
    return x * 0.5 * (1.0 + tl.math.erf(x / 1.41421356237))


@triton.jit
def gelu_kernel(x_ptr, output_ptr, n_elements, BLOCK_SIZE: tl.constexpr):
    pid = tl.program_id(axis=0)
    block_start = pid * BLOCK_SIZE
    offsets = block_start + tl.arange(0, BLOCK_SIZE)
    mask = offsets < n_elements
    x = tl.load(x_ptr + offsets, mask=mask)
    output = gelu_functor(x)
    tl.store(output_ptr + offsets, output, mask=mask)


def gelu(activations: torch.Tensor) -> torch.Tensor:
    assert activations.is_contiguous()
    assert get_accelerator().on_accelerator(activations)

    output = torch.empty_like(activations)
    n_elements = output.numel()
    grid = lambda meta: (triton.cdiv(n_elements, meta['BLOCK_SIZE']), )
    gelu_kernel[grid](activations, output, n_elements, BLOCK_SIZE=1024)
    return output


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return gelu(x.contiguous())
