# An honest Triton ModelNew for KernelBench level1/47_Sum_reduction_over_a_dimension (problem s53k_04_sum_dim): a split reduction, each program summing one BLOCK_R chunk of the reduced dim for a BLOCK_I strip and tl.atomic_add-ing it into a zeroed output; autotuned with reset_to_zero=["out_ptr"] as the Triton docs ask for atomics under autotune.
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.autotune(
    configs=[
        triton.Config({"BLOCK_R": 16, "BLOCK_I": 64}, num_warps=4),
        triton.Config({"BLOCK_R": 32, "BLOCK_I": 128}, num_warps=4),
        triton.Config({"BLOCK_R": 64, "BLOCK_I": 128}, num_warps=8),
    ],
    key=["R", "INNER"],
    reset_to_zero=["out_ptr"],
)
@triton.jit
def split_sum_kernel(x_ptr, out_ptr, R, INNER, BLOCK_R: tl.constexpr, BLOCK_I: tl.constexpr):
    pid_o = tl.program_id(0)
    pid_r = tl.program_id(1)
    pid_i = tl.program_id(2)
    offs_r = pid_r * BLOCK_R + tl.arange(0, BLOCK_R)
    offs_i = pid_i * BLOCK_I + tl.arange(0, BLOCK_I)
    mask = (offs_r[:, None] < R) & (offs_i[None, :] < INNER)
    x = tl.load(x_ptr + pid_o * R * INNER + offs_r[:, None] * INNER + offs_i[None, :], mask=mask, other=0.0)
    part = tl.sum(x, axis=0)
    tl.atomic_add(out_ptr + pid_o * INNER + offs_i, part, mask=offs_i < INNER)


class ModelNew(nn.Module):
    def __init__(self, dim: int):
        super().__init__()
        self.dim = dim

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        dim = self.dim if self.dim >= 0 else self.dim + x.ndim
        x = x.contiguous()
        outer = x.shape[:dim].numel()
        R = x.shape[dim]
        inner = x.shape[dim + 1:].numel()
        out = torch.zeros(x.shape[:dim] + (1,) + x.shape[dim + 1:], device=x.device, dtype=torch.float32)
        grid = lambda meta: (outer, triton.cdiv(R, meta["BLOCK_R"]), triton.cdiv(inner, meta["BLOCK_I"]))
        split_sum_kernel[grid](x, out, R, inner)
        return out.to(x.dtype)
