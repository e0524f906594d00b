"""SiLU with the later cute-kernels Triton math helpers (no inline assembly).

Sources (Mayank Mishra's cute-kernels, open-lm-engine/cute-kernels):
- math helpers `clamp`, `sigmoid` (later version: clamps to +-88.376 then 1 / (1 + exp(-x))) from
  the `triton_math.py` version stored by the search index (id 33209736012) - verbatim;
- `silu` helper from the earlier version of the same file (id 61940529338): x *= sigmoid(x, output_dtype=tl.float32);
- kernel/launcher shape from https://github.com/open-lm-engine/cute-kernels/blob/main/cute_kernels/kernels/add_scalar/triton_implementation.py
  (helper called with `mask=None` for full blocks and `mask=indices < N` for the last one).

Idioms kept: builtin `max(min_value, x)` / `min(max_value, x)` on tensors inside a jit helper,
float constexpr parameter defaults `MIN_EXP_FP32: tl.constexpr = -88.3762626647949`,
`output_dtype: tl.constexpr = None` tested with `if output_dtype is None:`, keyword arguments to
jit helpers, `tl.num_programs`-based last-block test, a `GRID = lambda meta: ...` keyword launch.

Adaptations:
1. add_scalar's `x + y` replaced by `silu(x)`; `ceil_divide` inlined; `cute_op` dropped;
   `with torch.device(x.device):` dropped (static refusal, see h05).
2. ModelNew for activation/silu; BLOCK_SIZE = 1024.
"""
import torch
import torch.nn as nn
import triton
import triton.language as tl


def ceil_divide(x: int, y: int) -> int:
    return (x + y - 1) // y


@triton.jit
def clamp(x, min_value, max_value):
    dtype = x.dtype

    x = max(min_value, x)
    x = min(max_value, x)
    x = x.to(dtype)

    return x


@triton.jit
def sigmoid(
    x,
    MIN_EXP_FP32: tl.constexpr = -88.3762626647949,
    MAX_EXP_FP32: tl.constexpr = 88.3762626647949,
    output_dtype: tl.constexpr = None,
):
    if output_dtype is None:
        output_dtype = x.dtype

    x = x.to(tl.float32)
    x = clamp(x, min_value=MIN_EXP_FP32, max_value=MAX_EXP_FP32)
    x = 1 / (1 + tl.exp(-x))

    x = x.to(output_dtype)

    return x


@triton.jit
def silu(x, output_dtype: tl.constexpr = None):
    if output_dtype is None:
        output_dtype = x.dtype

    x = x.to(tl.float32)
    x *= sigmoid(x, output_dtype=tl.float32)
    x = x.to(output_dtype)

    return x


@triton.jit
def _silu(x_ptr, output_ptr, indices, mask):
    x = tl.load(x_ptr + indices, mask=mask)
    tl.store(output_ptr + indices, silu(x), mask=mask)


@triton.jit
def silu_triton_kernel(x_ptr, output_ptr, N, BLOCK_SIZE: tl.constexpr):
    BLOCK_ID = tl.program_id(axis=0)
    NUM_BLOCKS = tl.num_programs(axis=0)

    indices = BLOCK_ID * BLOCK_SIZE + tl.arange(0, BLOCK_SIZE)

    if BLOCK_ID < NUM_BLOCKS - 1:
        _silu(x_ptr=x_ptr, output_ptr=output_ptr, indices=indices, mask=None)
    else:
        _silu(x_ptr=x_ptr, output_ptr=output_ptr, indices=indices, mask=indices < N)


def silu_triton(x: torch.Tensor, output: torch.Tensor, BLOCK_SIZE: int = 1024) -> None:
    N = x.numel()
    GRID = lambda meta: (ceil_divide(N, meta["BLOCK_SIZE"]),)

    silu_triton_kernel[GRID](x_ptr=x, output_ptr=output, N=N, BLOCK_SIZE=BLOCK_SIZE)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        x = x.contiguous()
        output = torch.empty_like(x)
        silu_triton(x, output)
        return output
