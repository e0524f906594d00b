# honest: causal softmax over scores[b, h] views, one launch per (batch, head) and per block of query rows, each handed its first row index so the kernel masks keys past the diagonal (row blocks of 48, ragged last). problem: softmax/causal_softmax. policy: strict
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def _causal_rows(s_ptr, o_ptr, n_cols, stride, row0, BLOCK: tl.constexpr):
    r = tl.program_id(0)
    q = row0 + r
    cols = tl.arange(0, BLOCK)
    valid = (cols < n_cols) & (cols <= q)
    s = tl.load(s_ptr + r * stride + cols, mask=valid, other=float("-inf")).to(tl.float32)
    m = tl.max(s, 0)
    e = tl.exp(s - m)
    e = tl.where(valid, e, 0.0)
    tl.store(o_ptr + r * stride + cols, e / tl.sum(e, 0), mask=cols < n_cols)


class ModelNew(nn.Module):
    ROWS = 48

    def forward(self, scores):
        scores = scores.contiguous()
        out = torch.empty_like(scores)
        B, H, S, T = scores.shape
        BLOCK = triton.next_power_of_2(T)
        for b in range(B):
            for h in range(H):
                for r0 in range(0, S, self.ROWS):
                    s, o = scores[b, h, r0:r0 + self.ROWS], out[b, h, r0:r0 + self.ROWS]
                    _causal_rows[(s.shape[0],)](s, o, T, s.stride(0), r0, BLOCK=BLOCK)
        return out
