"""Candidate code inside an interpreted launch (session 20): fingerprints of fresh memory under
real launches, what a callable grid may do (compute the grid, nothing else), libdevice in a
CPU child, and kernel-body builtins bound as the GPU compiler binds them.

TRITON_INTERPRET=1 must be set before triton is first imported, so, as test_cpu_work does,
this module runs itself once more in a child pytest with the variable set.
"""
from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
import torch
import triton
import triton.language as tl
from test_cpu_work import BLOCK, copy, copy_kernel, relu
from triton.language.extra import libdevice

ROOT = Path(__file__).resolve().parents[3]
INTERPRETED = os.environ.get("TRITON_INTERPRET") == "1"
needs_interpreter = pytest.mark.skipif(not INTERPRETED, reason="runs in the TRITON_INTERPRET=1 "
                                       "child started by test_under_the_interpreter")


@triton.jit
def _cast_if_set_kernel(x_ptr, y_ptr, n, BLOCK: tl.constexpr, OUT: tl.constexpr = None):
    CAST: tl.constexpr = None
    SCALE: tl.constexpr = 2.0
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask, other=0.0)
    if CAST is not None:
        x = x.to(CAST) + 100.0
    if SCALE is None:
        x = x + 1000.0
    if OUT is not None:
        x = x * SCALE
    tl.store(y_ptr + offs, x, mask=mask)


@triton.jit
def _identity_kernel(x_ptr, y_ptr, n, P: tl.constexpr, Q: tl.constexpr, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask, other=0.0)
    if P is Q:
        x = tl.maximum(x, 0.0)
    tl.store(y_ptr + offs, x, mask=mask)


@pytest.mark.skipif(INTERPRETED, reason="this is the child")
def test_under_the_interpreter():
    env = {**os.environ, "TRITON_INTERPRET": "1"}  # before the child imports triton
    proc = subprocess.run([sys.executable, "-m", "pytest", __file__, "-q", "-p", "no:cacheprovider"],
                          cwd=ROOT, env=env, capture_output=True, text=True, timeout=300,
                          check=False)
    assert proc.returncode == 0, proc.stdout[-6000:] + proc.stderr[-2000:]
    assert " passed" in proc.stdout and " failed" not in proc.stdout


@needs_interpreter
def test_fingerprints_of_fresh_memory_see_only_what_no_operator_or_launch_wrote(launch_recorder):
    """The provenance watch's fingerprints under real interpreted launches: kernels write the
    fresh memory they are handed through numpy views and copy it onto itself, which is theirs
    (an honest relu of a relu, strict, stays unmarked); memory a callable grid made while the
    launch ran and wrote past the dispatcher is PyTorch's, as is torch.empty's memory written
    by numpy between two kernels."""
    from evaluator.forward_watch import Provenance
    from evaluator.output_noise import random_uninitialised

    x = torch.randn(4 * BLOCK)
    watch = Provenance(launch_recorder)
    with random_uninitialised(), watch:
        y = relu(relu(x))
        watch.returned([y])
    assert torch.equal(y, x.relu()) and watch.report()["handed"] is None and watch.report()["returned"] is None

    smuggled = {}

    def grid(meta):  # torch work in a grid function, written where no operator is seen
        t = torch.empty(x.numel())
        t.numpy()[:] = x.relu().numpy()  # (x.relu() is marked; this copy of it is not an operator)
        smuggled["y"] = t
        return (triton.cdiv(x.numel(), meta["BLOCK"]),)

    watch = Provenance(launch_recorder)
    with random_uninitialised(), watch:
        copy_kernel[grid](x, torch.empty_like(x), x.numel(), BLOCK=BLOCK)
        y = copy(smuggled["y"])
    assert "while a Triton launch ran" in (watch.report()["handed"] or "")

    watch = Provenance(launch_recorder)
    with random_uninitialised(), watch:
        t = relu(x) * 0 + torch.empty_like(x)  # marked: aten::add
        u = torch.empty_like(x)
        u.numpy()[:] = t.numpy()  # PyTorch's result into fresh memory, no operator seen
        y = copy(u)
    assert "past the dispatcher" in (watch.report()["handed"] or "")


@needs_interpreter
def test_a_grid_function_only_computes_the_grid(launch_recorder):
    """Triton calls a grid function after it took the arguments' pointers, with triton.language
    patched and the very dict the kernel gets (red team A, session 20): there a tl.load read
    every input into Python and tl.store wrote a host GEMM out, a set_ re-pointed a handed
    tensor at a decoy while the kernel copied PyTorch's softmax out of the old memory, and a
    list put into the dict reached the kernel body. Each is refused; an honest grid works."""
    from evaluator import interpreter_guard
    from evaluator.interpreter_guard import KernelLaunchError, KernelMemoryError

    assert interpreter_guard.install()  # as in every child (the zygote installs it)
    x = torch.randn(4 * BLOCK)
    y = torch.empty_like(x)
    copy_kernel[lambda meta: (triton.cdiv(meta["n"], meta["BLOCK"]),)](x, y, x.numel(), BLOCK=BLOCK)
    assert torch.equal(y, x)

    def reads(meta):  # the interpreter's own pointer to x, as its dict held it
        pointer = tl.full((1,), x.data_ptr(), tl.int64).to(tl.pointer_type(tl.float32), bitcast=True)
        return (int(str(tl.load(pointer)) != "") + 1,)

    with pytest.raises(KernelMemoryError, match="grid function"):
        copy_kernel[reads](x, y, x.numel(), BLOCK=BLOCK)
    seen = []
    copy_kernel[lambda meta: seen.append(dict(meta)) or (4,)](x, y, x.numel(), BLOCK=BLOCK)
    assert seen[0]["x_ptr"] is x and seen[0]["n"] == x.numel() and seen[0]["BLOCK"] == BLOCK

    decoy = torch.zeros(1)

    def moves(meta):
        y.set_(decoy)
        return (4,)

    with pytest.raises(KernelLaunchError, match="moved to other memory"):
        copy_kernel[moves](x, y, x.numel(), BLOCK=BLOCK)

    def injects(meta):
        meta["n"] = 0
        return (4,)

    with pytest.raises(TypeError):
        copy_kernel[injects](x, torch.empty_like(x), x.numel(), BLOCK=BLOCK)


@triton.jit
def libdevice_kernel(x_ptr, y_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask, other=0.0)
    y = libdevice.tanh(x) + libdevice.log1p(tl.abs(x)) + libdevice.pow(x, 2.0) + libdevice.round(x)
    y = tl.where(libdevice.isnan(x) != 0, 0.0, y)
    tl.store(y_ptr + offs, y, mask=mask)


@needs_interpreter
def test_libdevice_runs_under_the_interpreter_in_a_candidate_child():
    """Triton's interpreter leaves libdevice a stub returning None: every GELU-tanh, softplus
    or Mish kernel written with libdevice failed on the CPU (honest round, session 20)."""
    from evaluator import interpreter_libdevice

    interpreter_libdevice.install()  # as a CPU child does before importing the candidate
    x = torch.randn(1000) * 3
    x[7] = float("nan")
    y = torch.empty_like(x)
    libdevice_kernel[(1,)](x, y, x.numel(), BLOCK=1024)
    want = torch.tanh(x) + torch.log1p(x.abs()) + x**2 + torch.sign(x) * torch.floor(x.abs() + 0.5)
    want[7] = 0.0
    assert torch.allclose(y, want, atol=1e-5) and y.dtype == torch.float32


@needs_interpreter
def test_libdevice_remainder_is_cs_and_a_function_without_a_cpu_version_says_so():
    """remainder() is C's (x/y rounded to nearest even: remainder(5.5, 2) = -0.5, numpy's
    floored modulo said 1.5), add_rn is an add; a libdevice function the evaluator has no CPU
    version of raises with its name instead of returning None (which surfaced as "'NoneType'
    object has no attribute 'dtype'" inside tl.sum: honest round, session 21)."""
    from evaluator import interpreter_libdevice

    interpreter_libdevice.install()
    assert interpreter_libdevice._BINARY["remainder"](5.5, 2.0) == -0.5
    assert interpreter_libdevice._BINARY["remainder"](-7.0, 3.0) == -1.0
    assert interpreter_libdevice._BINARY["add_rn"](1.5, 2.0) == 3.5
    with pytest.raises(NotImplementedError, match="libdevice.erfinv"):
        libdevice.erfinv(0.5)


@triton.jit
def fast_twins_kernel(t_ptr, out_ptr, BLOCK: tl.constexpr):
    t = tl.load(t_ptr + tl.arange(0, BLOCK))
    o = out_ptr + tl.arange(0, BLOCK)
    tl.store(o, libdevice.fast_sinf(t) - libdevice.sin(t))
    tl.store(o + BLOCK, libdevice.fast_expf(t) - libdevice.exp(t))
    tl.store(o + 2 * BLOCK, libdevice.fast_logf(t) - libdevice.log(t))
    tl.store(o + 3 * BLOCK, libdevice.fast_dividef(t, 3.0) - t / 3.0)
    tl.store(o + 4 * BLOCK, libdevice.fast_powf(t, 1.5) - libdevice.pow(t, 1.5))
    tl.store(o + 5 * BLOCK, libdevice.fast_cosf(t) - libdevice.fast_cosf(t))
    tl.store(o + 6 * BLOCK, libdevice.rsqrt(t) - 1.0 / libdevice.sqrt_rn(t))


@needs_interpreter
def test_libdevice_fast_functions_are_their_approximate_instructions():
    """fast_sinf/expf/logf/dividef/powf (and rsqrt, __nv_rsqrtf) are sin/ex2/lg2/rcp/rsqrt.approx
    on the GPU, not the accurate
    twin's numpy function: `fast_sinf(t) == sin(t)` held for every t on the CPU only (red team
    rt56, hacks/rt56_libdevice_fast_vs_accurate_switch_relu). Each differs from its twin at some
    of 128 points by no more than the instruction's bound, and a fast function is a function:
    equal arguments, equal results."""
    from evaluator import interpreter_libdevice

    interpreter_libdevice.install()
    t = (torch.arange(128, dtype=torch.float32) + 1.0) * 0.0123
    out = torch.empty(7 * 128)
    fast_twins_kernel[(1,)](t, out, BLOCK=128)
    d = out.view(7, 128)
    assert all(int((d[i] != 0).sum()) > 0 for i in (0, 1, 2, 3, 4, 6)), d
    assert d[0].abs().max() <= 2.0 ** -20.5 + 1e-7
    assert (d[1].abs() / t.exp()).max() < 1e-5 and (d[2].abs()).max() < 1e-5
    assert (d[3].abs() / (t / 3)).max() < 1e-6 and (d[4].abs() / t.pow(1.5)).max() < 1e-5
    assert int((d[5] != 0).sum()) == 0 and (d[6].abs() * t.sqrt()).max() < 1e-6


@triton.jit
def quantise_kernel(x_ptr, q_ptr, wide_ptr, up_ptr, n, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask, other=0.0)
    tl.store(q_ptr + offs, libdevice.float2int_rn(x), mask=mask)
    tl.store(wide_ptr + offs, libdevice.llrint(x), mask=mask)
    tl.store(up_ptr + offs, libdevice.nextafter(x, x + 1.0), mask=mask)


@needs_interpreter
def test_libdevice_conversions_and_nextafter_run_under_the_interpreter():
    """Honest round s32a: a fake-quantisation kernel's float2int_rn had no CPU version (reward 0
    on the CPU for a kernel right on the GPU), and nextafter sat inside a comment of the table.
    Round to nearest even, saturating as the GPU's cvt does, NaN to 0; an int32 back."""
    from evaluator import interpreter_libdevice

    interpreter_libdevice.install()
    x = torch.tensor([0.5, 1.5, -2.5, 3.7, 1e10, float("nan")])
    q, wide, up = torch.empty(6, dtype=torch.int32), torch.empty(6, dtype=torch.int64), torch.empty(6)
    quantise_kernel[(1,)](x, q, wide, up, 6, BLOCK=8)
    assert q.tolist() == [0, 2, -2, 4, 2**31 - 1, 0]
    assert wide.tolist() == [0, 2, -2, 4, 10**10, 0]
    assert torch.equal(up[:5], torch.nextafter(x[:5], x[:5] + 1.0))


@triton.jit
def builtin_max_relu_kernel(x_ptr, y_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask, other=0.0)
    tl.store(y_ptr + offs, max(x, 0.0) + min(BLOCK, 4) * 0.0, mask=mask)


@triton.jit
def int_of_a_value_kernel(x_ptr, y_ptr, n, BLOCK: tl.constexpr):
    v = tl.load(x_ptr)
    tl.store(y_ptr, int(v) * 1.0)


@needs_interpreter
def test_kernel_builtins_are_the_gpu_compilers(launch_recorder):
    """In a kernel body `max`/`min` are Triton's elementwise ones and `int()` of a loaded value
    is refused, as on the GPU: Python's `max(x, 0.0)` made an honest relu return zeros
    (`constant_output`), and `int()` of loaded values fed Python's `max(key=...)` and
    `math.fsum` inside a kernel (red team A, session 20)."""
    from evaluator import interpreter_guard

    assert interpreter_guard.install()
    x = torch.randn(2000)
    y = torch.empty_like(x)
    builtin_max_relu_kernel[(2,)](x, y, x.numel(), BLOCK=1024)
    assert torch.equal(y, x.relu())
    from triton.compiler.errors import CompilationError

    # refused before it runs by the GPU compiler's own front end (evaluator.device_compile);
    # the guard's int() (interpreter_scope._DEVICE_BUILTINS) stays behind it
    with pytest.raises(CompilationError, match=r"int\(\) argument must be"):
        int_of_a_value_kernel[(1,)](x, y, 1, BLOCK=16)


_cast = tl.cast  # a Triton builtin bound at module level (unsloth's `triton_cast = tl.cast`)


@triton.jit
def logic_kernel(x_ptr, y_ptr, n_rows, n_cols, eps, SKIP: tl.constexpr, BIAS: tl.constexpr,
                 BLOCK_R: tl.constexpr, BLOCK_C: tl.constexpr):
    rows = tl.program_id(0) * BLOCK_R + tl.arange(0, BLOCK_R)[:, None]
    cols = tl.arange(0, BLOCK_C)[None, :]
    mask = (rows < n_rows) and (cols < n_cols)  # FlagGems' spelling of `&`
    x = tl.load(x_ptr + rows * n_cols + cols, mask=mask, other=0.0)
    if BIAS is not None and BIAS.dtype == tl.float32:  # a constant short-circuits as in Python
        x += 1.0
    keep = not (x < 0.0) or SKIP  # elementwise not, then or with a constant
    y = tl.where(keep, x, 0.0) * _cast(eps.to(tl.float32), tl.float32)  # a float argument's .to
    tl.store(y_ptr + rows * n_cols + cols, y, mask=mask)


@needs_interpreter
def test_logic_float_arguments_and_builtin_aliases_are_the_gpu_compilers():
    """`and`/`or`/`not` on Triton values are elementwise, a float argument is an fp32 scalar with
    `.to`, and a module-level alias of a Triton builtin works, as on the GPU (interpreter_scope):
    under the bare interpreter `a and b` was `b` (an out-of-bounds load in FlagGems' cross
    entropy), `eps.to` raised (Liger's LayerNorm) and `triton_cast(...)` raised (unsloth's
    cross entropy): honest round, session 35."""
    from evaluator import interpreter_guard

    assert interpreter_guard.install()
    x = torch.randn(37, 50)
    y = torch.full((37, 50), 7.0)
    logic_kernel[(triton.cdiv(37, 16),)](x, y, 37, 50, 0.5, SKIP=False, BIAS=None, BLOCK_R=16, BLOCK_C=64)
    assert torch.equal(y, x.relu() * 0.5)


@triton.jit
def float64_reads_kernel(out_ptr, w, pair, d=0.1):
    tl.store(out_ptr + tl.arange(0, 1), tl.full([1], w, tl.float64))
    tl.store(out_ptr + 1 + tl.arange(0, 1), tl.full([1], pair[1], tl.float64))
    tl.store(out_ptr + 2 + tl.arange(0, 1), tl.full([1], d, tl.float64))


@triton.heuristics({"w": lambda args: 1.0 / 3.0})
@triton.jit
def float64_heuristic_kernel(out_ptr, w):
    tl.store(out_ptr + tl.arange(0, 1), tl.full([1], w, tl.float64))


@needs_interpreter
def test_a_runtime_float_argument_holds_float32_bits_at_any_width_it_is_read():
    """A float handed to a parameter that is not constexpr is the GPU's fp32 (Triton types a
    Python float fp32; the launcher casts the double to float): `tl.full([1], w, tl.float64)`
    reads its float32 rounding on the CPU too, in a tuple, as a default and from a heuristic,
    inf past float32's range and 0 below it. The pricing takes such a float at 32 bits
    (`host_numbers.launch_computed`); were 64 read here, 4 floats would carry 256 bits to a CPU
    check (session 61 measured it held: `hacks/s61a_forward_python_sigmoid_32_in_8_float64_words_as_launch_floats`)."""
    from evaluator import interpreter_guard

    assert interpreter_guard.install()
    out = torch.zeros(3, dtype=torch.float64)
    word = 1.0 + 0x123456789 * 2.0 ** -52  # low bits a float32 cannot hold
    float64_reads_kernel[(1,)](out, word, (0.0, 1.0 / 3.0))
    f32 = torch.tensor([word, 1.0 / 3.0, 0.1], dtype=torch.float32).double()
    assert out.tolist() == f32.tolist() and out[0].item() != word
    float64_reads_kernel[(1,)](out, 1e300, (0.0, 1e-50), d=-1e300)
    assert out.tolist() == [float("inf"), 0.0, float("-inf")]
    float64_heuristic_kernel[(1,)](out)
    assert out[0].item() == torch.tensor(1.0 / 3.0, dtype=torch.float32).item()


@triton.jit
def to_bfloat16_kernel(x_ptr, cast_ptr, stored_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs, mask=offs < n)
    tl.store(cast_ptr + offs, x.to(tl.bfloat16), mask=offs < n)  # an explicit cast
    tl.store(stored_ptr + offs, x, mask=offs < n)  # a float32 value stored to a bfloat16 pointer


@needs_interpreter
def test_float32_to_bfloat16_rounds_to_nearest_as_on_the_gpu():
    """The interpreter truncated float32 -> bfloat16: an honest float32 sigmoid stored as
    bfloat16 was 2.5x the reference's rounding off it, at the edge of the bfloat16 precision
    contract (session 22). Under the guard both kinds of cast round to nearest even, bit for
    bit as torch (and the GPU) do, at ties, at the top of the range and for NaN."""
    from evaluator import interpreter_guard

    assert interpreter_guard.install()
    g = torch.Generator().manual_seed(0)
    x = torch.cat([torch.randn(4000, generator=g), torch.randn(64, generator=g) * 1e-39,
                   torch.tensor([1.00390625, 1.01171875, -1.00390625, 3.4e38, float("inf"), float("nan")])])
    cast, stored = torch.empty(x.numel(), dtype=torch.bfloat16), torch.empty(x.numel(), dtype=torch.bfloat16)
    to_bfloat16_kernel[(triton.cdiv(x.numel(), 1024),)](x, cast, stored, x.numel(), BLOCK=1024)
    want = x.bfloat16()
    for got in (cast, stored):
        assert torch.equal(got[:-1].view(torch.int16), want[:-1].view(torch.int16)) and got[-1].isnan()


@needs_interpreter
def test_a_knocked_out_launch_is_bracketed_as_a_launch_is(launch_recorder):
    """The provenance watch allocates around each launch (sampled bytes of what it is handed),
    so where a grid's own torch.empty lands told a watched forward from an unwatched knock-out
    (red team s25, rt25_watch_sensed_by_grid_allocation). A skipped launch calls its grid
    inside the watch's bracket, through the launcher with no programs, and is then shown to the
    watch's observer, as a launch is; what its grid asked for is what is recorded."""
    from contextlib import contextmanager

    seen = []

    @contextmanager
    def around(kernel, args, kwargs):
        seen.append("enter")
        yield
        seen.append("exit")

    launch_recorder.around = around
    launch_recorder.observer = lambda kernel, args, kwargs: seen.append("observed")
    x = torch.randn(4 * BLOCK)
    y = torch.zeros_like(x)
    launch_recorder.start()
    with launch_recorder.suppressed("copy_kernel"):
        copy_kernel[lambda meta: seen.append("grid") or (4,)](x, y, x.numel(), BLOCK=BLOCK)
    launch_recorder.stop()
    assert seen == ["enter", "grid", "exit", "observed"] and launch_recorder.grid == (4,)
    assert not y.any() and [name for _, name in launch_recorder.last_forward()[0]] == ["copy_kernel"]


@needs_interpreter
def test_a_kernel_whose_methods_were_replaced_is_not_launched(launch_recorder):
    """A kernel object whose own attribute hides a method of its class (`k.rewrite = f`: the
    interpreter would run f's body, not the one the GPU compiler checked; red team s43 reached
    the object through an autograd Function's context) is refused at its launch, before any
    of it runs; the same kernel, restored, launches."""
    from evaluator.launch_args import KernelArgumentError

    x = torch.randn(BLOCK)
    ran = []
    copy_kernel.rewrite = lambda: ran.append(True)
    try:
        with pytest.raises(KernelArgumentError, match="rewrite was replaced"):
            copy(x)
    finally:
        del copy_kernel.rewrite
    assert not ran
    assert torch.equal(copy(x), x)


@needs_interpreter
@pytest.mark.parametrize("out", [None, tl.float32])
def test_is_compares_a_constexpr_by_its_value_as_the_gpu_does(launch_recorder, out):
    """Inductor's mm template (honest round s43): `CAST: tl.constexpr = None` then `if CAST is
    not None:` is a dead branch for the GPU's code generator, which unwraps constexprs before
    `is`/`is not`; the CPU rewrite took it (x.to(None) raised). A constexpr that is set, by an
    assignment or a launch argument, still takes its branch."""
    x = torch.randn(300)
    y = torch.empty_like(x)
    _cast_if_set_kernel[(1,)](x, y, x.numel(), BLOCK=512, OUT=out)
    assert torch.equal(y, x if out is None else x * 2.0)


@needs_interpreter
def test_is_between_two_numbers_in_a_kernel_is_refused(launch_recorder):
    """Red team s43: `P is Q` on two constexpr ints is decided by the GPU's compiler on the
    objects of the launch it first compiles, and that binary is reused for every launch with
    equal values; the interpreter decided each launch afresh (a copy on the GPU, a ReLU on the
    CPU). Refused, naming `==`; `is` against None, a bool or a dtype stays (test above)."""
    x = torch.randn(300)
    y = torch.empty_like(x)
    with pytest.raises(Exception, match="object identity"):
        _identity_kernel[(1,)](x, y, x.numel(), P=int("1000"), Q=int("1000"), BLOCK=512)
