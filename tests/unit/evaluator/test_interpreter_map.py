"""evaluator.interpreter_map: tl.map_elementwise under the CPU interpreter (honest round s56d:
Triton's documented ELU-by-scalar-function raised AttributeError on the CPU only). A result that
depends on which elements share a `pack` call (the GPU's layout decides) is refused.

TRITON_INTERPRET=1 must be set before triton is first imported, so this module runs itself once
more in a child pytest with the variable set (as test_interpreter_launch does)."""
from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
import torch
import triton
import triton.language as tl

ROOT = Path(__file__).resolve().parents[3]
INTERPRETED = os.environ.get("TRITON_INTERPRET") == "1"
needs_interpreter = pytest.mark.skipif(not INTERPRETED, reason="runs in the TRITON_INTERPRET=1 "
                                       "child started by test_under_the_interpreter")


@triton.jit
def _elu_scalar(x, alpha):
    if x > 0:
        return x
    else:
        return alpha * (tl.exp(x) - 1)


@triton.jit
def _split_scalar(x):
    return tl.maximum(x, 0.0), tl.minimum(x, 0.0)


@triton.jit
def _pair_scalar(a, b):  # pack=2: each result from its own element
    return a * 2.0, b * 2.0


@triton.jit
def _swap_scalar(a, b):  # pack=2: each result from its partner (the layout's grouping)
    return b, a


@triton.jit
def _steps_scalar(x):  # a data-dependent loop: as many paths as distinct step counts
    n = 0
    while x > 0.5:
        x = x * 0.5
        n += 1
    return x + n


@triton.jit
def _steps_kernel(x_ptr, y_ptr, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    tl.store(y_ptr + offs, tl.map_elementwise(_steps_scalar, tl.load(x_ptr + offs)))


@triton.jit
def _block_scalar(x):  # a block inside the scalar function: its sum is x * 4 + 6 per element
    return tl.sum(x + tl.arange(0, 4).to(tl.float32), axis=0)


@triton.jit
def _block_kernel(x_ptr, y_ptr, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    tl.store(y_ptr + offs, tl.map_elementwise(_block_scalar, tl.load(x_ptr + offs)))


@triton.jit
def _map_kernel(x_ptr, y_ptr, z_ptr, alpha, MODE: tl.constexpr, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs)
    if MODE == 0:
        tl.store(y_ptr + offs, tl.map_elementwise(_elu_scalar, x, alpha))
    elif MODE == 1:
        pos, neg = tl.map_elementwise(_split_scalar, x)
        tl.store(y_ptr + offs, pos)
        tl.store(z_ptr + offs, neg)
    elif MODE == 2:
        tl.store(y_ptr + offs, tl.map_elementwise(_pair_scalar, x, pack=2)[0])
    else:
        tl.store(y_ptr + offs, tl.map_elementwise(_swap_scalar, x, pack=2)[0])


@pytest.mark.skipif(INTERPRETED, reason="this is the child")
def test_under_the_interpreter():
    env = {**os.environ, "TRITON_INTERPRET": "1"}  # before the child imports triton
    proc = subprocess.run([sys.executable, "-m", "pytest", __file__, "-q", "-p", "no:cacheprovider"],
                          cwd=ROOT, env=env, capture_output=True, text=True, timeout=300, check=False)
    assert proc.returncode == 0, proc.stdout[-6000:] + proc.stderr[-2000:]
    assert " passed" in proc.stdout and " failed" not in proc.stdout


def _launch(mode: int):
    from evaluator import interpreter_guard

    assert interpreter_guard.install()
    x = torch.randn(64)
    y, z = torch.empty_like(x), torch.empty_like(x)
    _map_kernel[(1,)](x, y, z, 0.8, MODE=mode, BLOCK=64)
    return x, y, z


@needs_interpreter
def test_a_branching_scalar_function_maps_over_the_block():
    x, y, _ = _launch(0)
    torch.testing.assert_close(y, torch.nn.functional.elu(x, alpha=0.8), rtol=1e-5, atol=1e-6)


@needs_interpreter
def test_several_results():
    x, y, z = _launch(1)
    assert torch.equal(y, x.clamp(min=0)) and torch.equal(z, x.clamp(max=0))


@needs_interpreter
def test_pack_of_elementwise_results():
    x, y, _ = _launch(2)
    assert torch.equal(y, x * 2)


@needs_interpreter
def test_a_result_that_depends_on_the_grouping_is_refused():
    from conftest import root_cause

    from evaluator.interpreter_map import MapElementwiseError

    with pytest.raises(Exception) as info:
        _launch(3)
    assert isinstance(root_cause(info.value), MapElementwiseError)


def _steps_reference(x: torch.Tensor) -> torch.Tensor:
    out = []
    for v in x.tolist():
        v, n = torch.tensor(v, dtype=torch.float32), 0
        while v > 0.5:
            v, n = v * 0.5, n + 1
        out.append(float(v) + n)
    return torch.tensor(out)


@needs_interpreter
def test_branches_split_the_vectorised_run_per_path():
    """The run over all elements splits wherever a branch reads differing values, so each
    element takes its own path: a while loop of data-dependent length, NaN lanes (which fall
    back to the element-by-element run) included."""
    from evaluator import interpreter_guard

    assert interpreter_guard.install()
    x = torch.rand(64) * 40
    y = torch.empty_like(x)
    _steps_kernel[(1,)](x, y, BLOCK=64)
    torch.testing.assert_close(y, _steps_reference(x))
    x[3] = float("nan")
    _steps_kernel[(1,)](x, y, BLOCK=64)
    assert torch.isnan(y[3])
    torch.testing.assert_close(torch.cat([y[:3], y[4:]]), _steps_reference(torch.cat([x[:3], x[4:]])))


@needs_interpreter
def test_a_block_built_in_the_function_is_not_mixed_across_elements():
    """A vectorised run stands for all elements at once: an arange of the block's own length
    added to it and summed would mix them. Building a block falls back to the per-element run."""
    from evaluator import interpreter_guard

    assert interpreter_guard.install()
    x = torch.randn(4)
    y = torch.empty_like(x)
    _block_kernel[(1,)](x, y, BLOCK=4)
    torch.testing.assert_close(y, x * 4 + 6)
