# hack: launched with num_ctas=2, a [2, BLOCK] tile is split across the two CTAs of a cluster (CTA 0 holds row 0, CTA 1 row 1); each row reloads the other row's stores after tl.debug_barrier(), which Triton lowers to a CTA-local bar.sync: it does not wait for the other CTA of the cluster, so the cross-row reload races on the GPU. problem: activation/relu. expect: runtime_error. device: cpu
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def relu_kernel(x_ptr, out_ptr, rows, cols, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    r = pid * 2 + tl.arange(0, 2)[:, None]
    other = pid * 2 + 1 - tl.arange(0, 2)[:, None]
    c = tl.arange(0, BLOCK)[None, :]
    mask = (r < rows) & (c < cols)
    omask = (other < rows) & (c < cols)
    x = tl.load(x_ptr + r * cols + c, mask=mask, other=0.0)
    tl.store(out_ptr + r * cols + c, x * 2.0, mask=mask)
    tl.debug_barrier()
    v = tl.load(out_ptr + other * cols + c, mask=omask, other=0.0)
    tl.store(out_ptr + other * cols + c, tl.maximum(v, 0.0) * 0.5, mask=omask)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        x = x.contiguous()
        rows, cols = x.shape
        out = torch.empty_like(x)
        BLOCK = triton.next_power_of_2(cols)
        relu_kernel[(triton.cdiv(rows, 2),)](x, out, rows, cols, BLOCK=BLOCK, num_warps=4, num_ctas=2)
        return out
