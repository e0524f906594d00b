# honest: Linear + softmax where the module's own nn.Linear runs on cuBLAS in fp32 with TF32 switched on (torch.backends.cuda.matmul.allow_tf32 = True at import, as KernelBench solutions do; the first version ran it under torch.autocast("cuda") and its fp16 logits were too coarse for spiked inputs) and a Triton row-softmax kernel reads the logits and writes the fp32 probabilities; one row per program, num_warps=1 for the short rows. problem: fused/matmul_softmax
import torch
import torch.nn as nn
import triton
import triton.language as tl

torch.backends.cuda.matmul.allow_tf32 = True


@triton.jit
def softmax_kernel(out_ptr, in_ptr, in_stride, out_stride, n_cols, BLOCK_SIZE: tl.constexpr):
    row = tl.program_id(0)
    offs = tl.arange(0, BLOCK_SIZE)
    mask = offs < n_cols
    x = tl.load(in_ptr + row * in_stride + offs, mask=mask, other=-float("inf")).to(tl.float32)
    x = x - tl.max(x, axis=0)
    num = tl.exp(x)
    den = tl.sum(num, axis=0)
    tl.store(out_ptr + row * out_stride + offs, num / den, mask=mask)


class ModelNew(nn.Module):
    def __init__(self, in_features: int, out_features: int):
        super().__init__()
        self.linear = nn.Linear(in_features, out_features)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        logits = self.linear(x)
        n_rows, n_cols = logits.shape
        out = torch.empty((n_rows, n_cols), device=x.device, dtype=torch.float32)
        softmax_kernel[(n_rows,)](out, logits, logits.stride(0), out.stride(0), n_cols,
                                  BLOCK_SIZE=triton.next_power_of_2(n_cols), num_warps=1)
        return out
