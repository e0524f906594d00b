# honest: RMSNorm as vLLM's batch-invariant mode writes it (model_executor/layers/batch_invariant.py, _rms_norm_kernel / rms_norm): the input viewed as (-1, hidden) with the row stride passed, one program per row, the sum of squares accumulated in fp32 over BLOCK_SIZE column chunks in a fixed order (so each row's result does not depend on the batch it sits in), rms = rsqrt(mean + eps), a second pass multiplying by the weight and casting to the output dtype; BLOCK_SIZE 1024 and num_warps 4 as fixed constants. problem: norm/rmsnorm
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def _rms_norm_kernel(
    input_ptr, weight_ptr, output_ptr,
    input_row_stride, output_row_stride,
    n_cols, eps,
    BLOCK_SIZE: tl.constexpr,
):
    row_idx = tl.program_id(0).to(tl.int64)
    row_start_ptr = input_ptr + row_idx * input_row_stride
    output_row_start_ptr = output_ptr + row_idx * output_row_stride

    sum_sq = tl.zeros([1], dtype=tl.float32)
    for col_offset in range(0, n_cols, BLOCK_SIZE):
        col_idx = col_offset + tl.arange(0, BLOCK_SIZE)
        mask = col_idx < n_cols
        vals = tl.load(row_start_ptr + col_idx, mask=mask, other=0.0)
        vals_f32 = vals.to(tl.float32)
        sum_sq += tl.sum(tl.where(mask, vals_f32 * vals_f32, 0.0))

    mean_sq = sum_sq / n_cols
    rms = tl.rsqrt(mean_sq + eps)

    for col_offset in range(0, n_cols, BLOCK_SIZE):
        col_idx = col_offset + tl.arange(0, BLOCK_SIZE)
        mask = col_idx < n_cols
        vals = tl.load(row_start_ptr + col_idx, mask=mask, other=0.0)
        weight = tl.load(weight_ptr + col_idx, mask=mask, other=1.0)
        output = vals.to(tl.float32) * rms * weight.to(tl.float32)
        tl.store(output_row_start_ptr + col_idx, output.to(output_ptr.dtype.element_ty), mask=mask)


def rms_norm(input: torch.Tensor, weight: torch.Tensor, eps: float = 1e-6) -> torch.Tensor:
    assert weight.dim() == 1 and input.shape[-1] == weight.shape[0]
    original_shape = input.shape
    input_2d = input.reshape(-1, original_shape[-1]).contiguous()
    weight = weight.contiguous()
    n_rows, n_cols = input_2d.shape
    output = torch.empty_like(input_2d)
    BLOCK_SIZE = 1024
    _rms_norm_kernel[(n_rows,)](
        input_2d, weight, output,
        input_2d.stride(0), output.stride(0),
        n_cols, eps,
        BLOCK_SIZE=BLOCK_SIZE, num_warps=4,
    )
    return output.reshape(original_shape)


class ModelNew(nn.Module):
    def __init__(self, hidden: int, eps: float = 1e-6):
        super().__init__()
        self.eps = eps
        self.weight = nn.Parameter(1.0 + 0.1 * torch.randn(hidden))

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return rms_norm(x, self.weight, self.eps)
