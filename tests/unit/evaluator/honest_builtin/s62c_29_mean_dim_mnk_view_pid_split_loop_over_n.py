# honest: mean over one dimension with the input viewed as (M, N, K) (N reduced), each program owning one (m, k) pair and looping over N with stride arguments, in vLLM's batch-invariant mean kernel style. problem: reduction/mean_dim. policy: strict
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def mean_mnk(in_ptr, out_ptr, s0, s1, s2, os0, os1, M, N, K, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    m = pid // K
    k = pid % K
    if m >= M:
        return
    acc = tl.zeros((BLOCK,), tl.float32)
    for n0 in range(0, N, BLOCK):
        n = n0 + tl.arange(0, BLOCK)
        ptr = in_ptr + m.to(tl.int64) * s0 + n * s1 + k * s2
        acc += tl.load(ptr, mask=n < N, other=0.0).to(tl.float32)
    tl.store(out_ptr + m * os0 + k * os1, (tl.sum(acc, 0) / N).to(out_ptr.dtype.element_ty))


def mean_dim(x, dim):
    dim = dim % x.dim()
    shape = list(x.shape)
    M = 1
    for d in shape[:dim]:
        M *= d
    N = shape[dim]
    K = x.numel() // (M * N)
    x3 = x.reshape(M, N, K)
    out = torch.empty((M, K), device=x.device, dtype=x.dtype)
    mean_mnk[(M * K,)](x3, out, *x3.stride(), *out.stride(), M, N, K, BLOCK=1024)
    return out.view(shape[:dim] + shape[dim + 1:])


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x):
        return mean_dim(x, -1)
