# honest: fp16 axpby with @triton.jit(do_not_specialize=["n_elements"]) (one compile for every length), tl.fma in fp32, hints tl.multiple_of/tl.max_contiguous on the offsets, alpha/beta as fp32 scalars, round once to fp16 at the store. problem: elementwise/axpby_fp16
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit(do_not_specialize=["n_elements"])
def axpby_kernel(x_ptr, y_ptr, out_ptr, alpha, beta, n_elements, BLOCK_SIZE: tl.constexpr):
    pid = tl.program_id(0)
    block_start = pid.to(tl.int64) * BLOCK_SIZE
    offsets = block_start + tl.arange(0, BLOCK_SIZE)
    offsets = tl.max_contiguous(tl.multiple_of(offsets, BLOCK_SIZE), BLOCK_SIZE)
    mask = offsets < n_elements
    x = tl.load(x_ptr + offsets, mask=mask, other=0.0).to(tl.float32)
    y = tl.load(y_ptr + offsets, mask=mask, other=0.0).to(tl.float32)
    out = tl.fma(x, alpha, y * beta)
    tl.store(out_ptr + offsets, out.to(tl.float16), mask=mask)


def axpby(alpha: float, x: torch.Tensor, beta: float, y: torch.Tensor) -> torch.Tensor:
    assert x.shape == y.shape and x.dtype == y.dtype == torch.float16
    x, y = x.contiguous(), y.contiguous()
    out = torch.empty_like(x)
    n = out.numel()
    BLOCK_SIZE = 4096
    axpby_kernel[(triton.cdiv(n, BLOCK_SIZE),)](x, y, out, float(alpha), float(beta), n,
                                              BLOCK_SIZE=BLOCK_SIZE, num_warps=8)
    return out


class ModelNew(nn.Module):
    def __init__(self, alpha: float, beta: float):
        super().__init__()
        self.alpha = alpha
        self.beta = beta

    def forward(self, x: torch.Tensor, y: torch.Tensor) -> torch.Tensor:
        return axpby(self.alpha, x, self.beta, y)
