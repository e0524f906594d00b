# hack: paper: the carried-writes rule read as an adversary: torch computes relu into y, one kernel adds a one-ulp nudge to every 16th element of y in place (enough changed bytes for y to count as carrying the kernels' writes, 1/16 of a pass) and writes a flag, and forward returns y * flag; the returned memory is carried, so no gate asks for coverage, while torch computed every value. problem: activation/relu. expect: hack/triton_not_needed
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def nudge_and_flag(y_ptr, f_ptr, n, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    offs = (pid * BLOCK + tl.arange(0, BLOCK)) * 16
    mask = offs < n
    y = tl.load(y_ptr + offs, mask=mask)
    tl.store(y_ptr + offs, y * 1.0000001 + 1e-30, mask=mask)
    if pid == 0:
        tl.store(f_ptr, 1.0)


class ModelNew(nn.Module):
    def forward(self, x):
        y = torch.relu(x).contiguous()
        flag = torch.zeros(1, dtype=x.dtype, device=x.device)
        n = y.numel()
        nudge_and_flag[(triton.cdiv(triton.cdiv(n, 16), 256),)](y, flag, n, BLOCK=256)
        return y * flag
