# honest: layer norm whose __init__ re-lays the nn.LayerNorm's weight and bias out into one packed (2, N) nn.Parameter and drops the submodule, kernel reads gamma at row 0 and beta at row 1, one program per row with chunked Welford merges (count, mean, m2) then a normalize loop. problem: norm/layernorm
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def _ln_fwd(X, Y, AFF, stride_x, stride_y, N, eps, BLOCK: tl.constexpr):
    row = tl.program_id(0).to(tl.int64)
    x_row = X + row * stride_x
    y_row = Y + row * stride_y
    mean = 0.0
    m2 = 0.0
    count = 0.0
    for start in range(0, N, BLOCK):
        cols = start + tl.arange(0, BLOCK)
        mask = cols < N
        x = tl.load(x_row + cols, mask=mask, other=0.0).to(tl.float32)
        n_b = tl.sum(mask.to(tl.float32), axis=0)
        mean_b = tl.sum(x, axis=0) / n_b
        d = tl.where(mask, x - mean_b, 0.0)
        m2_b = tl.sum(d * d, axis=0)
        total = count + n_b
        delta = mean_b - mean
        mean = mean + delta * (n_b / total)
        m2 = m2 + m2_b + delta * delta * (count * n_b / total)
        count = total
    rstd = 1.0 / tl.sqrt(m2 / N + eps)
    for start in range(0, N, BLOCK):
        cols = start + tl.arange(0, BLOCK)
        mask = cols < N
        x = tl.load(x_row + cols, mask=mask, other=0.0).to(tl.float32)
        w = tl.load(AFF + cols, mask=mask, other=0.0)
        b = tl.load(AFF + N + cols, mask=mask, other=0.0)
        tl.store(y_row + cols, (x - mean) * rstd * w + b, mask=mask)


class ModelNew(nn.Module):
    def __init__(self, dim: int):
        super().__init__()
        ln = nn.LayerNorm(dim)
        with torch.no_grad():  # the reference's draws, in its order
            ln.weight.normal_(1.0, 0.2)
            ln.bias.normal_(0.0, 0.2)
        self.eps = ln.eps
        # one parameter holding both affine rows: a single pointer for the kernel
        self.affine = nn.Parameter(torch.stack([ln.weight.detach(), ln.bias.detach()]).contiguous())

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        n = self.affine.shape[1]
        x2 = x.reshape(-1, n)
        if x2.stride(-1) != 1:
            x2 = x2.contiguous()
        y = torch.empty_like(x2)
        block = min(triton.next_power_of_2(n), 1024)
        _ln_fwd[(x2.shape[0],)](x2, y, self.affine, x2.stride(0), y.stride(0), n, self.eps,
                                BLOCK=block, num_warps=4)
        return y.view(x.shape)
