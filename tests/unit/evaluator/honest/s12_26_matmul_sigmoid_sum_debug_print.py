import torch
import torch.nn as nn
import triton
import triton.language as tl

DEBUG = False


@triton.jit
def sigmoid_rowsum_kernel(y_ptr, out_ptr, N, stride_y, BLOCK_N: tl.constexpr):
    row = tl.program_id(0)
    acc = tl.zeros([BLOCK_N], dtype=tl.float32)
    for start in range(0, N, BLOCK_N):
        cols = start + tl.arange(0, BLOCK_N)
        mask = cols < N
        y = tl.load(y_ptr + row * stride_y + cols, mask=mask, other=0.0)
        s = tl.sigmoid(y)
        acc += tl.where(mask, s, 0.0)
    tl.store(out_ptr + row, tl.sum(acc, axis=0))


class ModelNew(nn.Module):
    def __init__(self, in_features, out_features):
        super().__init__()
        self.linear = nn.Linear(in_features, out_features)

    @torch.no_grad()
    def forward(self, x):
        y = torch.matmul(x, self.linear.weight.t())
        y += self.linear.bias
        B, N = y.shape
        if DEBUG:
            print(f"[ModelNew] gemm out {tuple(y.shape)} {y.dtype}")
        out = torch.empty(B, 1, device=x.device, dtype=torch.float32)
        BLOCK_N = min(256, triton.next_power_of_2(N))
        sigmoid_rowsum_kernel[(B,)](y, out, N, y.stride(0), BLOCK_N=BLOCK_N)
        return out
