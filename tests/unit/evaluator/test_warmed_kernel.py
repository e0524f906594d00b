"""Session 53f: `kernel.warmup(...)` in a candidate process answers a harness-owned view
(evaluator.warmed_kernel): plain n_regs/n_spills/metadata from the sm_90 compile under the
interpreter, a no-op _init_handles, and `view[grid](...)` launching through the JITFunction
itself (recorded, knocked out, argument-checked as any launch), the warmed tl.constexpr
values held. No CompiledKernel is handed out.

TRITON_INTERPRET=1 must be set before triton is first imported: this module runs itself once
more in a child pytest with the variable set (as test_device_compile does)."""
from __future__ import annotations

import os

import pytest
import torch
import triton
import triton.language as tl

INTERPRETED = os.environ.get("TRITON_INTERPRET") == "1"
needs_interpreter = pytest.mark.skipif(not INTERPRETED, reason="runs in the TRITON_INTERPRET=1 "
                                       "child started by test_under_the_interpreter")


# its TRITON_INTERPRET=1 child: test_interpreted.py (one child per group of such modules)


@pytest.fixture(scope="module")
def hooks():
    from evaluator import device_compile, interpreter_guard
    from evaluator.launch_hook import LaunchRecorder

    interpreter_guard.install()
    device_compile.warm_up()
    originals = {(cls, attr): cls.__dict__[attr] for cls, attr in LaunchRecorder._targets().values()}
    recorder = LaunchRecorder()
    recorder.install()
    yield recorder
    for (cls, attr), fn in originals.items():
        setattr(cls, attr, fn)


@triton.jit
def rows_kernel(o_ptr, x_ptr, n_rows, n_cols, BLOCK: tl.constexpr, STAGES: tl.constexpr):
    for row in tl.range(tl.program_id(0), n_rows, tl.num_programs(0), num_stages=STAGES):
        offs = tl.arange(0, BLOCK)
        mask = offs < n_cols
        v = tl.load(x_ptr + row * n_cols + offs, mask=mask, other=-float("inf"))
        e = tl.exp(v - tl.max(v, axis=0))
        tl.store(o_ptr + row * n_cols + offs, e / tl.sum(e, axis=0), mask=mask)


def _warm(x, y, block=64):
    return rows_kernel.warmup(y, x, x.shape[0], x.shape[1], BLOCK=block, STAGES=2, num_warps=4, num_stages=2,
                              grid=(1, ))


@needs_interpreter
def test_warmup_answers_the_view_with_the_sm90_values(hooks):
    from evaluator.warmed_kernel import WarmedKernel, WarmedMetadata

    x = torch.randn(6, 50)
    view = _warm(x, torch.empty_like(x))
    assert type(view) is WarmedKernel
    assert view._init_handles() is None
    assert type(view.n_regs) is int and 0 < view.n_regs <= 255
    assert type(view.n_spills) is int and view.n_spills >= 0
    assert type(view.metadata) is WarmedMetadata and view.metadata.num_warps == 4
    assert view.metadata.num_stages == 2 and view.metadata.shared > 0  # the option; a cross-warp reduction
    for attr in ("run", "function", "asm", "kernel", "packed_metadata", "src", "hash"):
        assert not hasattr(view, attr)


@needs_interpreter
def test_a_launch_through_the_view_is_a_watched_launch(hooks):
    x = torch.randn(6, 50)
    y = torch.empty_like(x)
    view = _warm(x, y)
    hooks.start()
    assert view[(4, 1, 1)](y, x, 6, 50, 64, 2) is None
    assert hooks.stop() == [(__name__, "rows_kernel")]
    torch.testing.assert_close(y, torch.softmax(x, dim=1))
    y.zero_()
    with hooks.suppressed():  # the knock-out reaches it as any launch
        view[(4, 1, 1)](y, x, 6, 50, 64, 2)
    assert not y.any()


@needs_interpreter
def test_the_view_holds_the_warmed_constexprs_and_the_launchers_shape(hooks):
    from evaluator.launch_args import KernelArgumentError

    x = torch.randn(6, 50)
    y = torch.empty_like(x)
    view = _warm(x, y, block=16)
    with pytest.raises(KernelArgumentError, match="BLOCK=16"):
        view[(4,)](y, x, 6, 50, 64, 2)
    with pytest.raises(KernelArgumentError, match="positionally"):
        view[(4,)](y, x, 6, 50, 16)
    with pytest.raises(KernelArgumentError, match="positionally"):
        view[(4,)](y, x, 6, 50, 16, 2, num_warps=8)
