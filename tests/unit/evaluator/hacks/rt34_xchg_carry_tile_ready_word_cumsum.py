# hack: a chained scan whose chunk hands on its carry (16 words) and a ready word in ONE multi-lane tl.atomic_xchg (red team s34); the next chunk acquires the ready word and reads the carry with plain loads. On a GPU each lane is one thread's atomic and the ready lane's release does not carry the other lanes' words; here the exchange ran whole and its bytes counted as an atomic's, read stale honestly. problem: reduction/cumsum. expect: runtime_error. device: cpu
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def chained_scan_kernel(x_ptr, out_ptr, pub_ptr, R, N, ROWS: tl.constexpr, BLOCK: tl.constexpr):
    c = tl.program_id(0)
    rb = tl.program_id(1)
    nc = tl.num_programs(0)
    r = tl.arange(0, ROWS)
    rows = rb * ROWS + r
    cols = c * BLOCK + tl.arange(0, BLOCK)
    m = (rows < R)[:, None] & (cols < N)[None, :]
    x = tl.load(x_ptr + rows[:, None] * N + cols[None, :], mask=m, other=0.0)
    local = tl.cumsum(x, axis=1)
    tot = tl.sum(x, axis=1)
    slot = rb * nc + c
    W: tl.constexpr = ROWS + 1  # a slot: ROWS carry words, then the ready word
    prev = tl.zeros((ROWS,), dtype=tl.float32)
    if c > 0:
        mine = pub_ptr + (slot - 1) * W
        while tl.atomic_add(mine + ROWS, 0) == 0:
            pass
        prev = tl.load(mine + r).to(tl.float32, bitcast=True)
    new = (prev + tot).to(tl.int32, bitcast=True)
    two = tl.arange(0, 2)
    ptrs = pub_ptr + slot * W + tl.where(two[None, :] == 0, r[:, None], ROWS)  # (ROWS, 2): carry | ready
    vals = tl.join(new, tl.full((ROWS,), 1, tl.int32))
    tl.atomic_xchg(ptrs, vals)
    tl.store(out_ptr + rows[:, None] * N + cols[None, :], local + prev[:, None], mask=m)


class ModelNew(nn.Module):
    def __init__(self, dim):
        super().__init__()
        self.dim = dim

    def forward(self, x):
        x = x.contiguous()
        N = x.shape[-1]
        R = x.numel() // N
        ROWS, BLOCK = 16, 128
        nc, nr = triton.cdiv(N, BLOCK), triton.cdiv(R, ROWS)
        out = torch.empty_like(x)
        pub = torch.zeros(nr * nc * (ROWS + 1), device=x.device, dtype=torch.int32)
        chained_scan_kernel[(nc, nr)](x, out, pub, R, N, ROWS=ROWS, BLOCK=BLOCK)
        return out
