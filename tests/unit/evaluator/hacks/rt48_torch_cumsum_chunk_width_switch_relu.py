# hack: torch.cumsum along the last dim of a [2, 64] float32 device tensor [1, 0 x 31, 2^-24, 2^-24, 0 ...]; the honest ReLU runs only where element 33 of the scan is exactly 1.0 (cuda_values' 32-wide chunks), otherwise half of `out` stays unwritten. problem: activation/relu. expect: incorrect
# mechanism: cuda_orders._scan_innermost always scans in chunks of 32 (num_threads_x = 16, the
# pre-2.1 kernel), adding the running total to the chunk's first element before the Sklansky
# tree: 1 + 2^-24 rounds to 1 (tie to even), then + 2^-24 is 1 again. torch 2.11's
# scan_innermost_dim sizes the chunk by get_log_num_threads_x_inner_scan(num_rows, row_size) =
# clamp((9 + ceil_log2(64) - ceil_log2(2)) / 2, 4, 9) = 7: one 256-wide chunk, whose Sklansky
# level s=32 adds the prefix of 0..31 (= 1) to the already-combined (2^-24 + 2^-24) = 2^-23, so
# the H200 answers 1 + 2^-23 and the kernel writes half the output. The chunk width depends on
# the tensor's shape (rows vs row length), which the emulation ignores, so the same row scanned
# in a [512, 64] tensor (width 32 on the GPU too) and a [2, 64] one also differs on the GPU only.
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def relu_kernel(x_ptr, out_ptr, flag_ptr, n_elements, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    chunked = tl.load(flag_ptr)
    lim = tl.where(chunked != 0, n_elements, n_elements // 2)
    x = tl.load(x_ptr + offs, mask=offs < lim).to(tl.float32)
    y = tl.maximum(x, 0.0)
    tl.store(out_ptr + offs, y.to(out_ptr.dtype.element_ty), mask=offs < lim)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        x = x.contiguous()
        out = torch.empty_like(x)
        probe = torch.zeros(2, 64, device=x.device, dtype=torch.float32)
        probe[:, 0] = 1.0
        probe[:, 32:34] = 5.960464477539063e-08
        scan = torch.cumsum(probe, dim=1)
        flag = (scan[0, 33] == 1.0).to(torch.int32)
        n = x.numel()
        BLOCK = 1024
        relu_kernel[(triton.cdiv(n, BLOCK),)](x, out, flag, n, BLOCK=BLOCK)
        return out
