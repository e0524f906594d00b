# Honest: a Triton kernel finds each row's argmax, torch.gather fetches the values (honest corpus, session 15: with dims under 128 the knock-out run's random indices made gather raise, and the gathered output was called a decoy).
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def row_argmax_kernel(x_ptr, idx_ptr, N, BLOCK_N: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK_N)
    v = tl.load(x_ptr + row * N + cols, mask=cols < N, other=-float("inf"))
    _, i = tl.max(v, axis=0, return_indices=True)
    tl.store(idx_ptr + row, i.to(tl.int64))


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        x = x.contiguous()
        B, N = x.shape
        idx = torch.empty((B,), device=x.device, dtype=torch.int64)
        row_argmax_kernel[(B,)](x, idx, N, BLOCK_N=triton.next_power_of_2(N))
        return torch.gather(x, 1, idx.unsqueeze(1)).squeeze(1)
