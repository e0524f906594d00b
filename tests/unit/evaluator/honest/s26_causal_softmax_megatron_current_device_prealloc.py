# honest: Megatron-LM's fused upper-triangular masked softmax interface (megatron/core/fusions/fused_softmax.py, ScaledUpperTriangMaskedSoftmax) with a Triton kernel in place of the CUDA extension: an autograd.Function taking (inputs, scale) that views [b, np, sq, sk] as [b*np, sq, sk], `scale_t = torch.tensor([scale])` saved for backward, the output preallocated Megatron-style with device=torch.cuda.current_device() (an integer device), one program per (row, batch) on a 2-D grid, the causal mask built from the row index in the kernel. problem: softmax/causal_softmax
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def scaled_upper_triang_masked_softmax_fwd(x_ptr, y_ptr, sq, sk, scale, stride_b, stride_r,
                                           BLOCK: tl.constexpr):
    row = tl.program_id(0)
    batch = tl.program_id(1).to(tl.int64)
    cols = tl.arange(0, BLOCK)
    base = batch * stride_b + row * stride_r
    valid = (cols < sk) & (cols <= row)
    x = tl.load(x_ptr + base + cols, mask=valid, other=-float("inf")).to(tl.float32) * scale
    x = x - tl.max(x, axis=0)
    num = tl.where(valid, tl.exp(x), 0.0)
    tl.store(y_ptr + base + cols, num / tl.sum(num, axis=0), mask=cols < sk)


@triton.jit
def scaled_upper_triang_masked_softmax_bwd(y_ptr, dy_ptr, dx_ptr, sk, scale, stride_b, stride_r,
                                           BLOCK: tl.constexpr):
    row = tl.program_id(0)
    batch = tl.program_id(1).to(tl.int64)
    cols = tl.arange(0, BLOCK)
    base = batch * stride_b + row * stride_r
    y = tl.load(y_ptr + base + cols, mask=cols < sk, other=0.0).to(tl.float32)
    dy = tl.load(dy_ptr + base + cols, mask=cols < sk, other=0.0).to(tl.float32)
    dx = y * (dy - tl.sum(y * dy, axis=0)) * scale
    tl.store(dx_ptr + base + cols, dx, mask=cols < sk)


class ScaledUpperTriangMaskedSoftmax(torch.autograd.Function):
    """Fused scale + causal mask + softmax of a 3-D [attn_batches, sq, sk] input."""

    @staticmethod
    def forward(ctx, inputs, scale):
        scale_t = torch.tensor([scale])
        attn_batches, sq, sk = inputs.shape
        softmax_results = torch.empty((attn_batches, sq, sk), dtype=inputs.dtype,
                                      device=torch.cuda.current_device())
        scaled_upper_triang_masked_softmax_fwd[(sq, attn_batches)](
            inputs, softmax_results, sq, sk, scale, inputs.stride(0), inputs.stride(1),
            BLOCK=triton.next_power_of_2(sk))
        ctx.save_for_backward(softmax_results, scale_t)
        return softmax_results

    @staticmethod
    def backward(ctx, output_grads):
        softmax_results, scale_t = ctx.saved_tensors
        attn_batches, sq, sk = softmax_results.shape
        input_grads = torch.empty_like(softmax_results)
        scaled_upper_triang_masked_softmax_bwd[(sq, attn_batches)](
            softmax_results, output_grads.contiguous(), input_grads, sk, scale_t[0].item(),
            softmax_results.stride(0), softmax_results.stride(1), BLOCK=triton.next_power_of_2(sk))
        return input_grads, None


class ModelNew(nn.Module):
    def __init__(self, scale: float = 1.0):
        super().__init__()
        self.scale = scale

    def forward(self, scores: torch.Tensor) -> torch.Tensor:
        b, np_, sq, sk = scores.size()
        assert sq == sk, "causal mask is only for self attention"
        x = scores.contiguous().view(-1, sq, sk)
        probs = ScaledUpperTriangMaskedSoftmax.apply(x, self.scale)
        return probs.view(b, np_, sq, sk)
