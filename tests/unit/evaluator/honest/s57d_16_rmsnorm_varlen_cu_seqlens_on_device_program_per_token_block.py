# honest: RMSNorm written for packed variable-length batches (flash-attn / vLLM varlen style): the tokens of all sequences flattened to (T, hidden), cumulative sequence offsets cu_seqlens made on the device (torch.full of the lengths, torch.cumsum, a leading zero by F.pad), and a grid of (sequence, token block) whose programs read their sequence's [start, end) from cu_seqlens; here every sequence has seq_len tokens, but the kernel does not assume it. problem: norm/rmsnorm
import torch
import torch.nn as nn
import torch.nn.functional as F
import triton
import triton.language as tl


@triton.jit
def _rmsnorm_varlen(x_ptr, w_ptr, y_ptr, cu_seqlens_ptr, hidden, stride_x, stride_y, eps,
                    TOKENS: tl.constexpr, BLOCK_H: tl.constexpr):
    seq = tl.program_id(0)
    blk = tl.program_id(1)
    start = tl.load(cu_seqlens_ptr + seq)
    end = tl.load(cu_seqlens_ptr + seq + 1)
    cols = tl.arange(0, BLOCK_H)
    cmask = cols < hidden
    w = tl.load(w_ptr + cols, mask=cmask, other=0.0).to(tl.float32)
    for i in tl.static_range(TOKENS):
        tok = start + blk * TOKENS + i
        if tok < end:
            x = tl.load(x_ptr + tok.to(tl.int64) * stride_x + cols, mask=cmask, other=0.0).to(tl.float32)
            rstd = tl.rsqrt(tl.sum(x * x, axis=0) / hidden + eps)
            tl.store(y_ptr + tok.to(tl.int64) * stride_y + cols, (x * rstd * w).to(y_ptr.dtype.element_ty),
                     mask=cmask)


class ModelNew(nn.Module):
    def __init__(self, hidden: int, eps: float = 1e-6):
        super().__init__()
        self.eps = eps
        self.weight = nn.Parameter(1.0 + 0.1 * torch.randn(hidden))

    def forward(self, x):
        B, S, Hd = x.shape
        x2 = x.reshape(B * S, Hd)
        y = torch.empty_like(x2)
        seqlens = torch.full((B,), S, device=x.device, dtype=torch.int32)
        cu_seqlens = F.pad(torch.cumsum(seqlens, dim=0, dtype=torch.int32), (1, 0))
        max_seqlen = S
        TOKENS = 4
        grid = (B, triton.cdiv(max_seqlen, TOKENS))
        _rmsnorm_varlen[grid](x2, self.weight, y, cu_seqlens, Hd, x2.stride(0), y.stride(0), self.eps,
                              TOKENS=TOKENS, BLOCK_H=triton.next_power_of_2(Hd), num_warps=4)
        return y.view(B, S, Hd)
