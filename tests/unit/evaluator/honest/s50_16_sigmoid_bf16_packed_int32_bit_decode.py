# honest: bfloat16 sigmoid over the input viewed as int32 words (`x.view(torch.int32)`, two bfloat16 per word): each word is split with shifts and masks, each half widened to float32 exactly by a bitcast of `bits << 16`, the sigmoid taken in float32, rounded back with .to(tl.bfloat16) and the two halves re-packed through uint16 bitcasts into the int32 output view, as packed-type CUDA ports (bf162) do. problem: activation/sigmoid_bf16
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def _bf16_bits_to_f32(bits):
    return (bits << 16).to(tl.float32, bitcast=True)


@triton.jit
def _f32_to_bf16_bits(v):
    return v.to(tl.bfloat16).to(tl.uint16, bitcast=True).to(tl.uint32)


@triton.jit
def _sigmoid_packed(x_ptr, y_ptr, n_words, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n_words
    w = tl.load(x_ptr + offs, mask=mask, other=0).to(tl.uint32, bitcast=True)
    lo = _bf16_bits_to_f32(w & 0xFFFF)
    hi = _bf16_bits_to_f32(w >> 16)
    lo = 1.0 / (1.0 + tl.exp(-lo))
    hi = 1.0 / (1.0 + tl.exp(-hi))
    packed = _f32_to_bf16_bits(lo) | (_f32_to_bf16_bits(hi) << 16)
    tl.store(y_ptr + offs, packed.to(tl.int32, bitcast=True), mask=mask)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        assert x.dtype == torch.bfloat16
        x = x.contiguous()
        if x.numel() % 2:
            return torch.sigmoid(x)  # an odd count has no whole last word (never the problem's)
        y = torch.empty_like(x)
        xw = x.view(torch.int32)
        yw = y.view(torch.int32)
        n_words = xw.numel()
        BLOCK = 1024
        _sigmoid_packed[(triton.cdiv(n_words, BLOCK),)](xw, yw, n_words, BLOCK=BLOCK)
        return y
