"""launch_args.kernel_constants: the constants a kernel and its @triton.jit callees read are its
launch's data, the defaults of their parameters included (red team rt78)."""
import math

import triton
import triton.language as tl

from evaluator.launch_args import kernel_constants, launch_data

_TABLE = tl.constexpr(tuple(1.0 / (1.0 + math.exp(-k / 32)) for k in range(256)))
_PLAIN = tuple(float(k) / 7 for k in range(100))
BLOCK = tl.constexpr(1024)


@triton.jit
def _put(t_ptr, j: tl.constexpr, CODES: tl.constexpr = _TABLE):
    tl.store(t_ptr + j, CODES[j])


@triton.jit
def helper_default_kernel(t_ptr, W: tl.constexpr):
    for j in tl.static_range(W):
        _put(t_ptr, j)


@triton.jit
def kernel_default_kernel(t_ptr, W: tl.constexpr, CODES: tl.constexpr = _PLAIN):
    for j in tl.static_range(W):
        tl.store(t_ptr + j, CODES[j])


@triton.jit
def block_kernel(x_ptr, n, eps: tl.constexpr = 1e-6):
    offs = tl.arange(0, BLOCK)
    tl.store(x_ptr + offs, tl.load(x_ptr + offs, mask=offs < n) + eps, mask=offs < n)


def _numbers(kernel) -> int:
    return sum(1 if not isinstance(v, tuple) else v[2] for v in launch_data(kernel_constants(kernel)))


def test_a_table_as_a_parameter_default_is_launch_data():
    assert _numbers(helper_default_kernel) >= 256
    assert _numbers(kernel_default_kernel) >= 100


def test_a_kernel_own_constants_stay_a_few_numbers():
    assert _numbers(block_kernel) == 2  # BLOCK and eps
