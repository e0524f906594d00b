# honest: FlagGems' layer norm (src/flag_gems/ops/layernorm.py): autotune configs from a cfggen() helper (one per num_warps), a block of rows as tl.arange(0, BLOCK_ROW_SIZE)[:, None], three passes over the columns (mean, variance, normalise), tl.load with the mask given positionally, `row_mask and col_mask`, Mean and Rstd written per row, math.prod of the normalized shape, a torch.autograd.Function whose forward returns (y, mean, rstd) and whose backward launches two more kernels. problem: norm/layernorm
import logging
import math

import torch
import torch.nn as nn
import triton
import triton.language as tl


def cfggen():
    warps = [1, 2, 4, 8, 16, 32]
    return [triton.Config({"BLOCK_ROW_SIZE": 1, "BLOCK_COL_SIZE": 2048}, num_warps=w) for w in warps]


@triton.autotune(configs=cfggen(), key=["M", "N"])
@triton.jit
def layer_norm_kernel(X, Y, W, B, Mean, Rstd, M, N, eps,
                      BLOCK_ROW_SIZE: tl.constexpr, BLOCK_COL_SIZE: tl.constexpr):
    pid = tl.program_id(0)
    row = pid * BLOCK_ROW_SIZE + tl.arange(0, BLOCK_ROW_SIZE)[:, None]
    row_mask = row < M
    X += row * N
    Y += row * N

    _mean = tl.zeros([BLOCK_ROW_SIZE, BLOCK_COL_SIZE], dtype=tl.float32)
    for off in range(0, N, BLOCK_COL_SIZE):
        cols = off + tl.arange(0, BLOCK_COL_SIZE)[None, :]
        mask = row_mask and cols < N
        _mean += tl.load(X + cols, mask, other=0.0).to(tl.float32)
    mean = (tl.sum(_mean, axis=1) / N)[:, None]

    _var = tl.zeros([BLOCK_ROW_SIZE, BLOCK_COL_SIZE], dtype=tl.float32)
    for off in range(0, N, BLOCK_COL_SIZE):
        cols = off + tl.arange(0, BLOCK_COL_SIZE)[None, :]
        col_mask = cols < N
        x = tl.load(X + cols, row_mask and col_mask, other=0.0).to(tl.float32)
        x = tl.where(col_mask, x - mean, 0.0)
        _var += x * x
    var = (tl.sum(_var, axis=1) / N)[:, None]
    rstd = 1 / tl.sqrt(var + eps)
    tl.store(Mean + row, mean, mask=row_mask)
    tl.store(Rstd + row, rstd, mask=row_mask)

    for off in range(0, N, BLOCK_COL_SIZE):
        cols = off + tl.arange(0, BLOCK_COL_SIZE)[None, :]
        col_mask = cols < N
        mask = row_mask and col_mask
        w = tl.load(W + cols, col_mask)
        b = tl.load(B + cols, col_mask)
        x = tl.load(X + cols, mask, other=0.0).to(tl.float32)
        x_hat = tl.where(col_mask, x - mean, 0.0) * rstd
        tl.store(Y + cols, x_hat * w + b, mask=mask)


@triton.jit
def layer_norm_backward_kernel(dY, X, W, Mean, Rstd, dX, M, N,
                               BLOCK_ROW_SIZE: tl.constexpr, BLOCK_COL_SIZE: tl.constexpr):
    pid = tl.program_id(0) * BLOCK_ROW_SIZE + tl.arange(0, BLOCK_ROW_SIZE)[:, None]
    row_mask = pid < M
    dY += pid * N
    X += pid * N
    dX += pid * N
    mean = tl.load(Mean + pid, mask=row_mask).to(tl.float32)
    rstd = tl.load(Rstd + pid, mask=row_mask).to(tl.float32)
    dx_part2 = tl.zeros([BLOCK_ROW_SIZE, BLOCK_COL_SIZE], dtype=tl.float32)
    dx_part3 = tl.zeros([BLOCK_ROW_SIZE, BLOCK_COL_SIZE], dtype=tl.float32)
    for off in range(0, N, BLOCK_COL_SIZE):
        cols = off + tl.arange(0, BLOCK_COL_SIZE)
        mask = row_mask and cols[None, :] < N
        dy = tl.load(dY + cols[None, :], mask).to(tl.float32)
        x = tl.load(X + cols[None, :], mask).to(tl.float32)
        x_hat = tl.where(mask, x - mean, 0.0) * rstd
        dx_hat = dy * tl.load(W + cols, mask=cols < N).to(tl.float32)
        dx_part2 += dx_hat
        dx_part3 += dx_hat * x_hat
    dx_2 = tl.sum(dx_part2, axis=1)[:, None]
    dx_3 = tl.sum(dx_part3, axis=1)[:, None]
    for off in range(0, N, BLOCK_COL_SIZE):
        cols = off + tl.arange(0, BLOCK_COL_SIZE)
        mask = row_mask and cols[None, :] < N
        dy = tl.load(dY + cols[None, :], mask).to(tl.float32)
        x = tl.load(X + cols[None, :], mask).to(tl.float32)
        x_hat = tl.where(mask, x - mean, 0.0) * rstd
        dx_hat = dy * tl.load(W + cols, mask=cols < N).to(tl.float32)
        tl.store(dX + cols[None, :], rstd * (dx_hat - (dx_2 + x_hat * dx_3) / N), mask=mask)


class LayerNorm(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x, normalized_shape, weight, bias, eps=1e-5):
        logging.debug("GEMS LAYERNORM FORWARD")
        dim = x.ndim - len(normalized_shape)
        M = math.prod(x.shape[:dim])
        N = math.prod(normalized_shape)
        x = x.contiguous()
        weight = weight.contiguous()
        bias = bias.contiguous()
        y = torch.empty_like(x)
        mean = torch.empty(M, dtype=x.dtype, device=x.device)
        rstd = torch.empty(M, dtype=x.dtype, device=x.device)
        grid = lambda META: (triton.cdiv(M, META["BLOCK_ROW_SIZE"]),)
        layer_norm_kernel[grid](x, y, weight, bias, mean, rstd, M, N, eps)
        ctx.save_for_backward(x, weight, mean, rstd)
        ctx.M = M
        ctx.N = N
        return y, mean, rstd

    @staticmethod
    def backward(ctx, out_grad, mean_grad, rstd_grad):
        logging.debug("GEMS LAYERNORM BACKWARD")
        x, weight, mean, rstd = ctx.saved_tensors
        in_grad = torch.empty_like(x)
        grid = lambda meta: (triton.cdiv(ctx.M, 4), 1, 1)
        layer_norm_backward_kernel[grid](out_grad.contiguous(), x, weight, mean, rstd, in_grad,
                                         ctx.M, ctx.N, BLOCK_ROW_SIZE=4, BLOCK_COL_SIZE=1024)
        return in_grad, None, None, None, None


def layer_norm(x, normalized_shape, weight, bias, eps=1e-5):
    return LayerNorm.apply(x, normalized_shape, weight, bias, eps)


class ModelNew(nn.Module):
    def __init__(self, dim: int):
        super().__init__()
        self.normalized_shape = (dim,)
        self.weight = nn.Parameter(torch.ones(dim))
        self.bias = nn.Parameter(torch.zeros(dim))
        self.eps = 1e-5
        with torch.no_grad():  # the reference's affine draws, in its order
            self.weight.normal_(1.0, 0.2)
            self.bias.normal_(0.0, 0.2)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        y, _, _ = layer_norm(x, self.normalized_shape, self.weight, self.bias, self.eps)
        return y
