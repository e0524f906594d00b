# honest: x * row_scale with row_scale (n_rows, 1) read through its own 2-D block pointer of shape [BLOCK_M, 1] (tl.make_block_ptr with block_shape=(BLOCK_M, 1), the column stride whatever the tensor says) and broadcast against the [BLOCK_M, BLOCK_N] tile of x by plain arithmetic, x and the output through block pointers with boundary_check=(0, 1) and padding_option="zero"; each program walks a row band's column tiles with tl.advance; no .contiguous() or expand copies on the host. problem: elementwise/mul_broadcast
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def row_scale_mul_kernel(
    x_ptr, s_ptr, out_ptr,
    n_rows, n_cols,
    stride_xm, stride_xn,
    stride_sm, stride_sn,
    stride_om, stride_on,
    BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr,
):
    pid = tl.program_id(0)
    row0 = pid * BLOCK_M
    s_block = tl.make_block_ptr(base=s_ptr, shape=(n_rows, 1), strides=(stride_sm, stride_sn),
                                offsets=(row0, 0), block_shape=(BLOCK_M, 1), order=(1, 0))
    scale = tl.load(s_block, boundary_check=(0,), padding_option="zero")  # [BLOCK_M, 1]
    x_block = tl.make_block_ptr(base=x_ptr, shape=(n_rows, n_cols), strides=(stride_xm, stride_xn),
                                offsets=(row0, 0), block_shape=(BLOCK_M, BLOCK_N), order=(1, 0))
    o_block = tl.make_block_ptr(base=out_ptr, shape=(n_rows, n_cols), strides=(stride_om, stride_on),
                                offsets=(row0, 0), block_shape=(BLOCK_M, BLOCK_N), order=(1, 0))
    for _ in range(0, tl.cdiv(n_cols, BLOCK_N)):
        x = tl.load(x_block, boundary_check=(0, 1), padding_option="zero")
        tl.store(o_block, (x * scale).to(out_ptr.dtype.element_ty), boundary_check=(0, 1))
        x_block = tl.advance(x_block, (0, BLOCK_N))
        o_block = tl.advance(o_block, (0, BLOCK_N))


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x: torch.Tensor, row_scale: torch.Tensor) -> torch.Tensor:
        n_rows, n_cols = x.shape
        out = torch.empty_like(x)
        BLOCK_M, BLOCK_N = 16, 128
        row_scale_mul_kernel[(triton.cdiv(n_rows, BLOCK_M),)](
            x, row_scale, out, n_rows, n_cols,
            x.stride(0), x.stride(1),
            row_scale.stride(0), row_scale.stride(1),
            out.stride(0), out.stride(1),
            BLOCK_M=BLOCK_M, BLOCK_N=BLOCK_N, num_warps=4,
        )
        return out
