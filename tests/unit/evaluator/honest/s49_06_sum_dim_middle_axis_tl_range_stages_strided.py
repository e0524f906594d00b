# honest: sum over the middle axis of a 3-D tensor for any strides (no .contiguous()): program per (batch, column block), a [BLOCK_R, BLOCK_N] tile accumulated over the reduced axis with tl.range(num_stages=...), one tl.sum(axis=0) at the end; int64 batch offsets; heuristics pick BLOCK_N from the inner size. problem: reduction/sum_dim
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.heuristics({
    "BLOCK_N": lambda args: min(triton.next_power_of_2(args["N"]), 128),
    "BLOCK_R": lambda args: 32 if args["R"] >= 32 else triton.next_power_of_2(args["R"]),
})
@triton.jit
def sum_mid_kernel(
    x_ptr, out_ptr,
    R, N,
    stride_xb, stride_xr, stride_xn,
    stride_ob, stride_on,
    BLOCK_R: tl.constexpr, BLOCK_N: tl.constexpr, NUM_STAGES: tl.constexpr,
):
    pid_b = tl.program_id(0)
    pid_n = tl.program_id(1)
    offs_n = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
    n_mask = offs_n < N
    base = x_ptr + pid_b.to(tl.int64) * stride_xb
    acc = tl.zeros([BLOCK_R, BLOCK_N], dtype=tl.float32)
    for r0 in tl.range(0, R, BLOCK_R, num_stages=NUM_STAGES):
        offs_r = r0 + tl.arange(0, BLOCK_R)
        mask = (offs_r[:, None] < R) & n_mask[None, :]
        ptrs = base + offs_r[:, None] * stride_xr + offs_n[None, :] * stride_xn
        acc += tl.load(ptrs, mask=mask, other=0.0).to(tl.float32)
    total = tl.sum(acc, axis=0)
    out_ptrs = out_ptr + pid_b.to(tl.int64) * stride_ob + offs_n * stride_on
    tl.store(out_ptrs, total.to(out_ptr.dtype.element_ty), mask=n_mask)


def sum_dim1(x: torch.Tensor) -> torch.Tensor:
    """torch.sum(x, dim=1) for a 3-D tensor, read through its strides."""
    if x.dim() != 3:
        raise ValueError(f"expected a 3-D tensor, got shape {tuple(x.shape)}")
    B, R, N = x.shape
    out = torch.empty((B, N), dtype=x.dtype, device=x.device)
    grid = lambda meta: (B, triton.cdiv(N, meta["BLOCK_N"]))
    sum_mid_kernel[grid](
        x, out, R, N,
        x.stride(0), x.stride(1), x.stride(2),
        out.stride(0), out.stride(1),
        NUM_STAGES=3,
    )
    return out


class ModelNew(nn.Module):
    def __init__(self, dim: int):
        super().__init__()
        self.dim = dim

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        assert self.dim == 1, "this kernel reduces the middle axis"
        return sum_dim1(x)


if __name__ == "__main__":
    x = torch.randn(4, 300, 77, device="cuda").transpose(1, 2).transpose(1, 2)
    torch.testing.assert_close(ModelNew(1)(x), x.sum(1), atol=1e-4, rtol=1e-4)
    xt = torch.randn(4, 77, 300, device="cuda").transpose(1, 2)
    torch.testing.assert_close(ModelNew(1)(xt), xt.sum(1), atol=1e-4, rtol=1e-4)
