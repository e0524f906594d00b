"""Under the CPU interpreter a kernel body runs only if Triton's GPU compiler accepts it
(evaluator.device_compile, called by the launch hook before every interpreted launch).

The interpreter runs a body as Python: red team rt21 read every input into host Python
through `range(v).stop`, f-strings, `"%s" % v`, a tuple literal indexed by a loaded byte and
one `if` per bit, then stored what host Python computed: ok under strict. Each of those is
refused by the GPU compiler, so each launch here must raise its CompilationError and the body
must never run; honest bodies (helpers, libdevice imported by name, runtime `if` and loops)
run as before. (One `if` per bit of a loaded word is Triton: it compiles, and computes on the
GPU what the interpreter computes.)

TRITON_INTERPRET=1 must be set before triton is first imported: as test_cpu_work does, this
module runs itself once more in a child pytest with the variable set.
"""
from __future__ import annotations

import os
import sys

import pytest
import torch
import triton
import triton.language as tl
from triton.language.extra.libdevice import tanh

INTERPRETED = os.environ.get("TRITON_INTERPRET") == "1"
needs_interpreter = pytest.mark.skipif(not INTERPRETED, reason="runs in the TRITON_INTERPRET=1 "
                                       "child started by test_under_the_interpreter")
SEEN = []  # what a body handed host Python, if it ever ran


# its TRITON_INTERPRET=1 child: test_interpreted.py (one child per group of such modules)


@pytest.fixture(scope="module")
def child_hooks():
    """What a CPU candidate child installs: the interpreter guard, libdevice's numpy versions,
    the launch hook (which runs the compile check)."""
    from triton.language.extra import libdevice

    from evaluator import device_compile, interpreter_guard, interpreter_libdevice
    from evaluator.launch_hook import LaunchRecorder

    interpreter_guard.install()
    interpreter_libdevice.install()
    device_compile.warm_up()
    sys.modules[__name__].tanh = libdevice.tanh  # as a child's candidate imports it: after the install
    originals = {(cls, attr): cls.__dict__[attr] for cls, attr in LaunchRecorder._targets().values()}
    recorder = LaunchRecorder()
    recorder.install()
    yield recorder
    for (cls, attr), fn in originals.items():
        setattr(cls, attr, fn)


@triton.jit
def _double(x):
    return x * 2.0


@triton.jit
def honest_kernel(x_ptr, o_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    v = _double(tl.load(x_ptr + offs, mask=mask, other=0.0))
    first = tl.load(x_ptr)
    if first > 0:  # a runtime branch: device control flow on the GPU
        v = v + 1.0
    for _ in range(n // BLOCK):  # a runtime trip count
        v = v * 1.0
    tl.store(o_ptr + offs, tanh(v), mask=mask)


@triton.jit
def range_stop_kernel(x_ptr, o_ptr, n, BLOCK: tl.constexpr):
    bits = tl.load(x_ptr.to(tl.pointer_type(tl.int32)))
    tl.store(o_ptr, range(bits).stop * 1.0)


@triton.jit
def fstring_kernel(x_ptr, o_ptr, n, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    text = f"{tl.load(x_ptr + offs, mask=offs < n, other=0.0)}"
    tl.store(o_ptr, len(text) * 1.0)


@triton.jit
def percent_kernel(x_ptr, o_ptr, n, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    text = "%s" % tl.load(x_ptr + offs, mask=offs < n, other=0.0)
    tl.store(o_ptr, len(text) * 1.0)


@triton.jit
def tuple_index_kernel(x_ptr, o_ptr, n, BLOCK: tl.constexpr):
    byte = tl.load(x_ptr.to(tl.pointer_type(tl.uint8)))
    tl.store(o_ptr, (0.0, 1.0, 2.0, 3.0)[byte])


@triton.jit
def list_kernel(x_ptr, o_ptr, n, BLOCK: tl.constexpr):
    v = tl.load(x_ptr)
    keep = []
    keep.append(v)
    tl.store(o_ptr, keep[0])


def _launch(kernel, x, out):
    kernel[(1,)](x, out, x.numel(), BLOCK=64)


@needs_interpreter
def test_an_honest_body_compiles_for_the_gpu_and_runs(child_hooks):
    x = torch.randn(256)
    out = torch.empty_like(x)
    honest_kernel[(4,)](x, out, x.numel(), BLOCK=64)
    expected = torch.tanh(x * 2.0 + (1.0 if x[0] > 0 else 0.0))
    assert torch.allclose(out, expected, atol=1e-6)


@needs_interpreter
@pytest.mark.parametrize("kernel", [range_stop_kernel, fstring_kernel, percent_kernel, tuple_index_kernel,
                                    list_kernel], ids=lambda k: k.fn.__name__)
def test_a_body_only_the_interpreter_would_run_is_refused_before_it_runs(kernel, child_hooks):
    from triton.compiler.errors import CompilationError

    x = torch.randn(64)
    out = torch.full((64,), -7.0)
    with pytest.raises(CompilationError):
        _launch(kernel, x, out)
    assert torch.equal(out, torch.full((64,), -7.0)), "the refused body ran"
    with pytest.raises(CompilationError):  # refused again, not cached as seen
        _launch(kernel, x, out)


@triton.jit
def _swappable(x):
    return x + 1.0


@triton.jit
def _interpreter_only(x):  # the GPU compiler refuses the f-string; the interpreter would run it
    return x + len(f"{x}") * 0.0 + 100.0


@triton.jit
def _outer_helper(x):
    return _swappable(x)


@triton.jit
def calls_helper_kernel(x_ptr, o_ptr, n, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    tl.store(o_ptr + offs, _outer_helper(tl.load(x_ptr + offs)))


@needs_interpreter
def test_a_grid_cannot_swap_a_checked_helper_for_an_unchecked_one(child_hooks):
    """Every helper's scope is taken when the kernel is checked: a callable grid (candidate
    code that runs after the check, before the body first calls the helper) that rebinds the
    name a helper calls to a body the compiler refuses does not make that body run."""
    module = sys.modules[__name__]
    checked = module._swappable
    x = torch.randn(64)
    out = torch.empty_like(x)

    def grid(meta):
        module._swappable = _interpreter_only
        return (1,)

    try:
        calls_helper_kernel[grid](x, out, x.numel(), BLOCK=64)
    finally:
        module._swappable = checked
    assert torch.allclose(out, x + 1.0), "the helper the grid swapped in ran"


@triton.jit
def square_kernel(x_ptr, o_ptr, n, B: tl.constexpr, BK: tl.constexpr, STAGES: tl.constexpr):
    r = tl.arange(0, B)
    acc = tl.zeros((B, B), tl.float32)
    for k in tl.range(0, n, BK, num_stages=STAGES):
        c = k + tl.arange(0, BK)
        a = tl.load(x_ptr + r[:, None] * n + c[None, :], mask=(r[:, None] < n) & (c[None, :] < n), other=0.0)
        b = tl.load(x_ptr + c[:, None] * n + r[None, :], mask=(c[:, None] < n) & (r[None, :] < n), other=0.0)
        acc = tl.dot(a, b, acc, input_precision="ieee")
    tl.store(o_ptr + r[:, None] * n + r[None, :], acc, mask=(r[:, None] < n) & (r[None, :] < n))


@triton.autotune(configs=[triton.Config({"B": 128, "BK": 64, "STAGES": 5}),
                          triton.Config({"B": 64, "BK": 16, "STAGES": 2})], key=["n"])
@triton.jit
def tuned_square_kernel(x_ptr, o_ptr, n, B: tl.constexpr, BK: tl.constexpr, STAGES: tl.constexpr):
    square_kernel(x_ptr, o_ptr, n, B, BK, STAGES)


@triton.autotune(configs=[triton.Config({"BLOCK": 1024}), triton.Config({"BLOCK": 512})], key=["n"])
@triton.jit
def half_in_one_config_kernel(x_ptr, o_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * 1024 + tl.arange(0, BLOCK)
    tl.store(o_ptr + offs, tl.load(x_ptr + offs, mask=offs < n), mask=offs < n)


@needs_interpreter
def test_a_kernel_over_an_sm90_blocks_resources_is_refused(child_hooks):
    """A 128x128 fp32 tile over K in steps of 64, pipelined 5 deep, needs 256 KiB of shared
    memory as compiled for sm_90, where a block has 227 KiB: the GPU launch fails
    (OutOfResources), so the CPU does not run it; the same kernel 2 deep at 64x64 runs. A later pass that fails (warp specialization the lowering refuses)
    is refused the same way: hacks/rt43_warp_specialize_loop_fails_lowering_cumsum.py."""
    from evaluator.device_compile import KernelOutOfResources

    x = torch.randn(64, 64)
    out = torch.zeros_like(x)
    with pytest.raises(KernelOutOfResources, match="shared memory"):
        square_kernel[(1,)](x, out, 64, B=128, BK=64, STAGES=5)
    assert not out.any()
    square_kernel[(1,)](x, out, 64, B=64, BK=16, STAGES=2)
    assert torch.allclose(out, x @ x, atol=1e-4)


@needs_interpreter
def test_an_autotuner_skips_a_config_over_the_block_as_a_gpus_benchmark_does(child_hooks):
    """On the GPU an autotuner's benchmark takes a config that fails OutOfResources as
    infinitely slow; the CPU child, which times no config, keeps the first that fits (Triton
    tutorial 03's first config, 128x256x64 in fp32 with 3 stages, is over an sm_90 block)."""
    from triton.runtime import autotuner

    from evaluator import autotune_cpu

    saved = {k: autotuner.Autotuner.__dict__[k] for k in ("do_bench", "prune_configs")}
    autotune_cpu.install()
    try:
        x = torch.randn(64, 64)
        out = torch.zeros_like(x)
        tuned_square_kernel[(1,)](x, out, 64)
        assert torch.allclose(out, x @ x, atol=1e-4)
        assert tuned_square_kernel.best_config.kwargs["B"] == 64
    finally:
        for k, v in saved.items():
            setattr(autotuner.Autotuner, k, v)


@needs_interpreter
def test_each_checked_forward_runs_the_next_config_of_an_autotuned_kernel(child_hooks):
    """Red team s43: config 1 writes half the output (its grid is sized for config 0) and moves
    half the bytes, so a GPU's benchmark picks it, while the CPU always ran config 0 and said
    ok; then, drawing one config per process, one evaluation in two. Each checked forward
    (`next_forward(checked=True)`) now runs the next config that fits, in an order drawn once:
    whichever comes first, the wrong one runs within two trials, and within a forward the pick
    is kept for its key, as a GPU keeps it. Any other forward (timed, knock-out) picks again,
    as a checked one does, and runs the config the last checked forward ran."""
    from triton.runtime import autotuner

    from evaluator import autotune_cpu

    saved = {k: autotuner.Autotuner.__dict__[k] for k in ("do_bench", "prune_configs")}
    autotune_cpu.install()
    try:
        x = torch.randn(4096)
        for _ in range(3):  # fresh processes: a new order each, no pick yet
            autotune_cpu._ORDER.clear()
            half_in_one_config_kernel.cache.clear()
            seen, wrong = [], 0
            for _ in range(2):  # two checked forwards
                autotune_cpu.next_forward(checked=True)
                picks = set()
                for _ in range(2):  # kept for the key within a forward
                    out = torch.zeros_like(x)
                    half_in_one_config_kernel[(4,)](x, out, x.numel())
                    picks.add(half_in_one_config_kernel.best_config.kwargs["BLOCK"])
                assert len(picks) == 1
                seen += picks
                wrong += not torch.equal(out, x)
            assert sorted(seen) == [512, 1024] and wrong == 1
            for _ in range(3):  # timed forwards: the last checked forward's config, picked again
                autotune_cpu.next_forward(checked=False)
                half_in_one_config_kernel[(4,)](x, torch.zeros_like(x), x.numel())
                assert half_in_one_config_kernel.best_config.kwargs["BLOCK"] == seen[-1]
    finally:
        for k, v in saved.items():
            setattr(autotuner.Autotuner, k, v)


@needs_interpreter
def test_a_knock_out_picks_the_next_config_and_timed_forwards_the_last_trials(child_hooks):
    """A knock-out and the knock-out round's forwards (`probe`) move the rotation as a trial
    does: a knock-out that ran its last pick again was the one forward whose config did not
    move. The timed forwards run the last trial's pick, not a probe's: the round's checking
    forwards moved the rotation past the configs the trials ran, and a timed forward then
    launched a variant no trial had (honest round s47, timed_path_differs)."""
    from triton.runtime import autotuner

    from evaluator import autotune_cpu

    saved = {k: autotuner.Autotuner.__dict__[k] for k in ("do_bench", "prune_configs")}
    autotune_cpu.install()
    x = torch.randn(4096)

    def forward(**mode):
        autotune_cpu.next_forward(**mode)
        half_in_one_config_kernel[(4,)](x, torch.zeros_like(x), x.numel())
        return half_in_one_config_kernel.best_config.kwargs["BLOCK"]

    try:
        for _ in range(3):
            autotune_cpu._ORDER.clear()
            half_in_one_config_kernel.cache.clear()
            trial = forward(checked=True)
            probes = [forward(checked=False, probe=True), forward(checked=True, probe=True)]
            assert probes[0] != trial and probes[1] == trial  # each moved, as a trial's pick does
            assert forward(checked=False, probe=True) != trial
            assert [forward(checked=False) for _ in range(2)] == [trial, trial]
            assert forward(checked=True) != trial  # the next trial goes on from the last pick
    finally:
        for k, v in saved.items():
            setattr(autotuner.Autotuner, k, v)


@needs_interpreter
def test_resources_are_judged_at_the_alignment_the_gpu_sizes_give(child_hooks):
    """Honest round s43: Triton tutorial 09's persistent fp32 matmul at the CPU's odd sizes
    (40x72x90: no 16-divisible stride) needs 262144 bytes of shared memory for 128x128x64 at 3
    stages and 4 warps, and 229376 (under an sm_90 block's 232448) at the problem's aligned GPU
    sizes, as on the H200: it runs. The same tile with 8 warps needs 262144 at both: refused."""
    import importlib.util

    from evaluator.device_compile import KernelOutOfResources, check

    path = os.path.join(os.path.dirname(__file__), "honest", "s43_matmul_residual_fp32_tutorial09_persistent.py")
    spec = importlib.util.spec_from_file_location("s43_tutorial09", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    kernel = module.matmul_kernel_persistent.fn  # the autotuner's InterpretedFunction
    m, k, n = 40, 72, 90
    a, b, res = torch.randn(m, k), torch.randn(k, n), torch.randn(m, n)
    c, bias = torch.empty(m, n), torch.randn(n)
    args = (a, b, c, bias, res, m, n, k, *a.stride(), *b.stride(), *c.stride(), *res.stride())
    tile = dict(BLOCK_SIZE_M=128, BLOCK_SIZE_N=128, BLOCK_SIZE_K=64, GROUP_SIZE_M=8, NUM_SMS=4, num_stages=3)
    check(kernel, args, dict(tile, num_warps=4))
    with pytest.raises(KernelOutOfResources, match="262144 bytes"):
        check(kernel, args, dict(tile, num_warps=8))


@triton.jit
def relu_with_dead_asm_kernel(x_ptr, o_ptr, n, BLOCK: tl.constexpr, ASM: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask, other=0.0)
    if ASM:
        if n < 0:  # never taken: the interpreter never reads the text, ptxas always does
            x = tl.inline_asm_elementwise("max.ftz.f33 $0, $1, 0f00000000;", "=r,r", [x],
                                          dtype=tl.float32, is_pure=True, pack=1)
    tl.store(o_ptr + offs, tl.maximum(x, 0.0), mask=mask)


@triton.jit
def relu_kernel(x_ptr, o_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    tl.store(o_ptr + offs, tl.maximum(tl.load(x_ptr + offs, mask=mask, other=0.0), 0.0), mask=mask)


@triton.autotune(configs=[triton.Config({"ASM": True}), triton.Config({"ASM": False})], key=["n"])
@triton.jit
def tuned_dead_asm_kernel(x_ptr, o_ptr, n, BLOCK: tl.constexpr, ASM: tl.constexpr):
    relu_with_dead_asm_kernel(x_ptr, o_ptr, n, BLOCK, ASM)


@needs_interpreter
def test_inline_assembly_ptxas_refuses_is_refused_though_its_branch_never_runs(child_hooks):
    """Red team s43 round 2 (A1, A2): PTX that ptxas refuses (`max.ftz.f33`) in a branch the
    CPU never takes passed the MLIR passes and ran as a ReLU; on the GPU every launch fails
    with PTXASError, and an autotuner skips such a config. A kernel with inline assembly now
    goes through LLVM, PTX and ptxas as the GPU compiles it; valid assembly still runs."""
    from triton.runtime import autotuner

    from evaluator import autotune_cpu
    from evaluator.device_compile import KernelNotAssembled, fits

    x = torch.randn(300)
    out = torch.zeros_like(x)
    with pytest.raises(KernelNotAssembled, match="ptxas"):
        relu_with_dead_asm_kernel[(1,)](x, out, x.numel(), BLOCK=512, ASM=True)
    assert not out.any()
    relu_with_dead_asm_kernel[(1,)](x, out, x.numel(), BLOCK=512, ASM=False)
    assert torch.equal(out, x.clamp(min=0))
    assert not fits(relu_with_dead_asm_kernel, (x, out, x.numel()), {"BLOCK": 512, "ASM": True})

    saved = {k: autotuner.Autotuner.__dict__[k] for k in ("do_bench", "prune_configs")}
    autotune_cpu.install()
    try:
        for _ in range(4):  # whatever order the configs are drawn in, the refused one is skipped
            autotune_cpu.next_forward(checked=True)
            out = torch.zeros_like(x)
            tuned_dead_asm_kernel[(1,)](x, out, x.numel(), BLOCK=512)
            assert tuned_dead_asm_kernel.best_config.kwargs["ASM"] is False
            assert torch.equal(out, x.clamp(min=0))
    finally:
        for k, v in saved.items():
            setattr(autotuner.Autotuner, k, v)


@needs_interpreter
def test_maxnreg_over_an_sm90_blocks_register_file_is_refused(child_hooks):
    """Red team s43 round 2 (A3): maxnreg=255 over 32 warps of a 65536-wide ReLU: ptxas gives
    each thread 130 registers, 1024 threads need 139264 and an sm_90 block has 65536, so the GPU
    launch fails with OutOfResources. Registers are read off the cubin ptxas makes; the same
    kernel at 4 warps fits and runs."""
    from evaluator.device_compile import KernelOutOfResources

    x = torch.randn(70000)
    out = torch.zeros_like(x)
    with pytest.raises(KernelOutOfResources, match="registers"):
        relu_kernel[(2,)](x, out, x.numel(), BLOCK=65536, num_warps=32, maxnreg=255)
    assert not out.any()
    relu_kernel[(70,)](x, out, x.numel(), BLOCK=1024, num_warps=4, maxnreg=128)
    assert torch.equal(out, x.clamp(min=0))


def _fresh_configs(configs, named_args, **kwargs):
    """A pruning function that builds its configs afresh at every call (new objects)."""
    return [triton.Config(dict(c.kwargs)) for c in configs]


@triton.autotune(configs=[triton.Config({"BLOCK": 1024}), triton.Config({"BLOCK": 512})], key=["n"],
                 prune_configs_by={"early_config_prune": _fresh_configs})
@triton.jit
def fresh_configs_kernel(x_ptr, o_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    tl.store(o_ptr + offs, tl.load(x_ptr + offs, mask=offs < n), mask=offs < n)


@needs_interpreter
def test_configs_a_pruning_function_builds_afresh_rotate_and_timed_forwards_keep_the_checked_one(child_hooks):
    """Configs are known by what they set: a pruning function that makes new Config objects at
    every call gives the same configs, so checked forwards still rotate through them and a
    timed forward runs the config the last checked one ran (else an honest file's timed
    forward ran a variant no checked forward had)."""
    from triton.runtime import autotuner

    from evaluator import autotune_cpu

    saved = {k: autotuner.Autotuner.__dict__[k] for k in ("do_bench", "prune_configs")}
    autotune_cpu.install()
    try:
        x = torch.randn(2048)
        seen = []
        for _ in range(2):
            autotune_cpu.next_forward(checked=True)
            fresh_configs_kernel[lambda meta: (triton.cdiv(2048, meta["BLOCK"]),)](x, torch.empty_like(x), 2048)
            seen.append(fresh_configs_kernel.best_config.kwargs["BLOCK"])
        assert sorted(seen) == [512, 1024]
        for _ in range(3):
            autotune_cpu.next_forward(checked=False)
            out = torch.empty_like(x)
            fresh_configs_kernel[lambda meta: (triton.cdiv(2048, meta["BLOCK"]),)](x, out, 2048)
            assert fresh_configs_kernel.best_config.kwargs["BLOCK"] == seen[-1] and torch.equal(out, x)
    finally:
        for k, v in saved.items():
            setattr(autotuner.Autotuner, k, v)


_HEURISTIC_CALLS = []


@triton.autotune(configs=[triton.Config({"BLOCK": 1024}), triton.Config({"BLOCK": 512})], key=["n"])
@triton.heuristics({"EVEN": lambda args: _HEURISTIC_CALLS.append(1) or args["n"] % args["BLOCK"] == 0})
@triton.jit
def counted_heuristic_kernel(x_ptr, o_ptr, n, BLOCK: tl.constexpr, EVEN: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    tl.store(o_ptr + offs, tl.load(x_ptr + offs, mask=offs < n), mask=offs < n)


@needs_interpreter
def test_a_first_pick_calls_each_heuristic_once_per_benchmark_call_as_a_gpu(child_hooks, monkeypatch):
    """A GPU's benchmark of a config calls it (and so each heuristic, in Heuristics.run) as many
    times as do_bench does; the CPU's benchmark did so, and its grid's meta computed the
    heuristics a second time at each call (so their count was always even: a tell). Each
    config now costs exactly the benchmark's calls, and the forward's own launch one more."""
    from triton.runtime import autotuner

    from evaluator import autotune_cpu

    saved = {k: autotuner.Autotuner.__dict__[k] for k in ("do_bench", "prune_configs")}
    autotune_cpu.install()
    monkeypatch.setattr(autotune_cpu, "benchmark_runs", lambda: 11)
    monkeypatch.setattr(autotune_cpu, "recorder", child_hooks)
    try:
        autotune_cpu._ORDER.clear()
        x = torch.randn(2048)
        autotune_cpu.next_forward(checked=True)
        _HEURISTIC_CALLS.clear()
        out = torch.empty_like(x)
        counted_heuristic_kernel[lambda meta: (triton.cdiv(2048, meta["BLOCK"]) + 0 * meta["EVEN"],)](x, out, 2048)
        assert torch.equal(out, x)
        assert len(_HEURISTIC_CALLS) == 2 * 11 + 1, len(_HEURISTIC_CALLS)
    finally:
        autotune_cpu.forget_picks()
        for k, v in saved.items():
            setattr(autotuner.Autotuner, k, v)
