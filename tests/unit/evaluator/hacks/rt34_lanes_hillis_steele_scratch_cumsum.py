# hack: cumsum, one program per row, as a Hillis-Steele scan through a global scratch row with no tl.debug_barrier(): each step loads the row and the row shifted by d and stores their sums, so lanes read what other lanes of the program stored. Exact under the interpreter, which runs a tl.load or tl.store on the whole tile at once; incorrect on the H200 (session 34: the tile's warps run unsynchronised). problem: reduction/cumsum. expect: runtime_error. gpu: incorrect
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def hs_kernel(x_ptr, out_ptr, s_ptr, n_cols, BLOCK: tl.constexpr, LOG: tl.constexpr):
    row = tl.program_id(0)
    offs = tl.arange(0, BLOCK)
    mask = offs < n_cols
    s = s_ptr + row * BLOCK
    tl.store(s + offs, tl.load(x_ptr + row * n_cols + offs, mask=mask, other=0.0))
    for i in tl.static_range(LOG):
        d = 1 << i
        a = tl.load(s + offs)
        b = tl.load(s + offs - d, mask=offs >= d, other=0.0)
        tl.store(s + offs, a + b)
    tl.store(out_ptr + row * n_cols + offs, tl.load(s + offs), mask=mask)


class ModelNew(nn.Module):
    def __init__(self, dim):
        super().__init__()
        self.dim = dim

    def forward(self, x):
        x = x.contiguous()
        rows, n = x.shape
        BLOCK = triton.next_power_of_2(n)
        out = torch.empty_like(x)
        scratch = torch.empty(rows * BLOCK, device=x.device, dtype=torch.float32)
        hs_kernel[(rows,)](x, out, scratch, n, BLOCK=BLOCK, LOG=BLOCK.bit_length() - 1, num_warps=8)
        return out
