# honest: RMSNorm with vLLM's op signature kept as a plain function: rms_norm(out, input, weight, eps) writes into a preallocated `out` and returns None (the custom_op registration and register_fake dropped, which the evaluator refuses by policy), the module calling it with torch.empty_like; one program per row, fp32 sum of squares over column chunks, tl.math.rsqrt, the weight multiply in the second pass. problem: norm/rmsnorm
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def rms_norm_kernel(x_ptr, w_ptr, out_ptr, stride_x, stride_out, n_cols, eps, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    x_row = x_ptr + row.to(tl.int64) * stride_x
    out_row = out_ptr + row.to(tl.int64) * stride_out
    sq = tl.zeros((BLOCK,), dtype=tl.float32)
    for start in range(0, n_cols, BLOCK):
        cols = start + tl.arange(0, BLOCK)
        x = tl.load(x_row + cols, mask=cols < n_cols, other=0.0).to(tl.float32)
        sq += x * x
    rstd = tl.math.rsqrt(tl.sum(sq, axis=0) / n_cols + eps)
    for start in range(0, n_cols, BLOCK):
        cols = start + tl.arange(0, BLOCK)
        mask = cols < n_cols
        x = tl.load(x_row + cols, mask=mask, other=0.0).to(tl.float32)
        w = tl.load(w_ptr + cols, mask=mask, other=0.0).to(tl.float32)
        tl.store(out_row + cols, (x * rstd * w).to(out_ptr.dtype.element_ty), mask=mask)


def rms_norm(out: torch.Tensor, x: torch.Tensor, weight: torch.Tensor, eps: float) -> None:
    n_cols = x.shape[-1]
    x2 = x.reshape(-1, n_cols)
    out2 = out.view(-1, n_cols)
    BLOCK = min(4096, triton.next_power_of_2(n_cols))
    rms_norm_kernel[(x2.shape[0],)](x2, weight, out2, x2.stride(0), out2.stride(0), n_cols, eps,
                                    BLOCK=BLOCK, num_warps=8)


class ModelNew(nn.Module):
    def __init__(self, hidden: int, eps: float = 1e-6):
        super().__init__()
        self.eps = eps
        self.weight = nn.Parameter(1.0 + 0.1 * torch.randn(hidden))

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        x = x.contiguous()
        out = torch.empty_like(x)
        rms_norm(out, x, self.weight, self.eps)
        return out
