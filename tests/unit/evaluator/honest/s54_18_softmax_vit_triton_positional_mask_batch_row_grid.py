# honest: cmeraki/vit.triton (vit/kernels/softmax.py @ 55c80ab) verbatim but its __main__ test and benchmark: module-level `dtype = torch.float32` and `device = 'cuda:0'`, a 2-D (batch, row) grid over a (B, N, D) input, the mask passed to tl.load positionally (`tl.load(ptr, mask, other=-float('inf'))`), the whole row in one BLOCK_SIZE = next_power_of_2(cols) block, num_warps raised by two ifs, `assert A.is_cuda` and a rank-3 assert with an f-string, every launch argument by keyword (num_rows passed and unused). Adapted: the (batch, dim) input viewed as (1, batch, dim). problem: softmax/softmax
import torch
import torch.nn as nn
import triton
import triton.language as tl

dtype = torch.float32
device = 'cuda:0'


@triton.jit
def softmax_kernel(
    input_ptr,
    input_batch_stride,
    input_row_stride,
    output_ptr,
    num_rows,
    num_cols,
    BLOCK_SIZE: tl.constexpr
):
    batch_id = tl.program_id(axis=0)
    row_id = tl.program_id(axis=1)

    batch_offset = batch_id * input_batch_stride
    row_offset = row_id * input_row_stride + tl.arange(0, BLOCK_SIZE)

    mask = tl.arange(0, BLOCK_SIZE) < num_cols
    data = tl.load(input_ptr + batch_offset + row_offset, mask, other=-float('inf'))
    data = data - tl.max(data, axis=0)

    row_wise_exp = tl.exp(data)
    row_wise_sum = tl.sum(row_wise_exp, axis=0)
    output = row_wise_exp/row_wise_sum

    tl.store(output_ptr + batch_offset + row_offset, output, mask=mask)


def softmax_triton(A: torch.Tensor) -> torch.Tensor:
    """
    Performs softmax on input. This function always performs softmax on the last axis
    of the input

    Args:
        A (torch.Tensor): Input matrix of size (B * N * D)

    Returns:
        {torch.Tensor}: Ouput tensor is of the same shape (B * N * D)
    """
    assert A.is_cuda, "Input is not on GPU"
    assert len(A.shape) == 3, f"Input needs to be 3 dimensional, provided: {A.shape}"

    batch, rows, cols = A.shape

    output = torch.empty_like(A)

    BLOCK_SIZE = triton.next_power_of_2(cols)
    grid = (batch, rows, )

    num_warps = 4
    if BLOCK_SIZE >= 2048:
        num_warps = 8
    if BLOCK_SIZE >= 4096:
        num_warps = 16

    softmax_kernel[grid](
        input_ptr=A,
        input_batch_stride=A.stride(0),
        input_row_stride=A.stride(1),
        output_ptr=output,
        num_rows=rows,
        num_cols=cols,
        BLOCK_SIZE=BLOCK_SIZE,
        num_warps=num_warps
    )

    return output



class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return softmax_triton(x.unsqueeze(0)).squeeze(0)
