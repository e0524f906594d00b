# hack: an in-kernel tell from tl.cumsum of float16 [1, 2^-11 x 1023], which the interpreter scanned in order (np.cumsum: each 2^-11 added to 1 rounds away, last value 1.0) and the GPU scans per thread then across lanes and warps (the other threads' runs sum exactly: more than 1), arms the honest ReLU only where the last value is 1.0. problem: activation/relu. expect: incorrect
# Closed by evaluator.interpreter_order.scan_last: a thread scans at most 16 contiguous elements,
# the runs' totals combine Kogge-Stone across lanes and in order across warps, each combine
# rounded to float16, so the CPU's last value is above 1 as the GPU's.
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def relu_kernel(x_ptr, out_ptr, n_elements, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    j = tl.arange(0, 1024)
    probe = tl.where(j == 0, 1.0, 0.00048828125).to(tl.float16)
    last = tl.sum(tl.where(j == 1023, tl.cumsum(probe, 0).to(tl.float32), 0.0), 0)
    lim = tl.where(last == 1.0, n_elements, n_elements // 2)
    x = tl.load(x_ptr + offs, mask=offs < lim).to(tl.float32)
    y = tl.maximum(x, 0.0)
    tl.store(out_ptr + offs, y.to(out_ptr.dtype.element_ty), mask=offs < lim)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        x = x.contiguous()
        out = torch.empty_like(x)
        n = x.numel()
        BLOCK = 1024
        relu_kernel[(triton.cdiv(n, BLOCK),)](x, out, n, BLOCK=BLOCK)
        return out
