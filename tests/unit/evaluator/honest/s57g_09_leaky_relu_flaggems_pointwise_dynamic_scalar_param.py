# honest: leaky ReLU as FlagGems' pointwise_dynamic codegen emits it for one tensor and one scalar (a @triton.jit scalar function called by a generated flat-tile wrapper kernel, num_ctas capped and tiles_per_cta looped, promotion "DEFAULT" keeping the input dtype). problem: activation/leaky_relu
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def leaky_relu_func(x, negative_slope):
    return tl.where(x >= 0, x, x * negative_slope)


@triton.jit
def _leaky_relu_wrapper_kernel(
    in0_ptr, out0_ptr, val0, num_tasks, tiles_per_cta, tile_size: tl.constexpr,
    one_tile_per_cta: tl.constexpr,
):
    pid = tl.program_id(0)
    num_ctas = tl.num_programs(0)
    if one_tile_per_cta:
        offsets = pid * tile_size + tl.arange(0, tile_size)
        mask = offsets < num_tasks
        in0 = tl.load(in0_ptr + offsets, mask=mask)
        tl.store(out0_ptr + offsets, leaky_relu_func(in0, val0), mask=mask)
    else:
        for j in range(0, tiles_per_cta):
            tile_id = pid + j * num_ctas
            offsets = tile_id * tile_size + tl.arange(0, tile_size)
            mask = offsets < num_tasks
            in0 = tl.load(in0_ptr + offsets, mask=mask)
            tl.store(out0_ptr + offsets, leaky_relu_func(in0, val0), mask=mask)


def _wrapper(in0, val0, out0=None):
    in0 = in0.contiguous()
    if out0 is None:
        out0 = torch.empty_like(in0)
    num_tasks = in0.numel()
    if num_tasks == 0:
        return out0
    tile_size = min(512, triton.next_power_of_2(num_tasks))
    num_tiles = triton.cdiv(num_tasks, tile_size)
    max_grid_size0 = 65535
    num_ctas = min(max_grid_size0, num_tiles)
    tiles_per_cta = triton.cdiv(num_tiles, num_ctas)
    one_tile_per_cta = tiles_per_cta == 1
    num_warps = 4
    _leaky_relu_wrapper_kernel[(num_ctas, 1, 1)](
        in0, out0, val0, num_tasks, tiles_per_cta=tiles_per_cta, tile_size=tile_size,
        one_tile_per_cta=one_tile_per_cta, num_warps=num_warps,
    )
    return out0


def leaky_relu(x, negative_slope=0.01):
    return _wrapper(x, float(negative_slope))


class ModelNew(nn.Module):
    def __init__(self, negative_slope: float):
        super().__init__()
        self.negative_slope = negative_slope

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return leaky_relu(x, self.negative_slope)
