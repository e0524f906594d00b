"""An autotuner under Triton's CPU interpreter as the GPU's (evaluator.autotune_cpu,
evaluator.autotune_pins; red teams s44, rt25, rt48): its benchmark runs the kernel on the
launch's own tensors, with reset_to_zero/restore_value, and every config is held to the others
on every trial transform; a launch's tensors are found by one walk (launch_storage).

TRITON_INTERPRET=1 must be set before triton is first imported: as test_device_compile does,
this module runs itself once more in a child pytest with the variable set.
"""
from __future__ import annotations

import contextlib
import os

import pytest
import torch
import triton
import triton.language as tl
from conftest import candidate_child_hooks

INTERPRETED = os.environ.get("TRITON_INTERPRET") == "1"
needs_interpreter = pytest.mark.skipif(not INTERPRETED, reason="runs in the TRITON_INTERPRET=1 "
                                       "child started by test_under_the_interpreter")


# its TRITON_INTERPRET=1 child: test_interpreted.py (one child per group of such modules)


@pytest.fixture(scope="module")
def hooks():
    with candidate_child_hooks() as recorder:
        yield recorder


def _sum_configs():
    return [triton.Config({"BLOCK": 64}), triton.Config({"BLOCK": 128})]


@triton.jit
def _sum_into(x_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    tl.atomic_add(out_ptr, tl.sum(tl.load(x_ptr + offs, mask=offs < n, other=0.0), axis=0))


sum_kernel = triton.autotune(configs=_sum_configs(), key=["n"])(_sum_into)
sum_reset_kernel = triton.autotune(configs=_sum_configs(), key=["n"], reset_to_zero=["out_ptr"])(_sum_into)


@contextlib.contextmanager
def _autotune_emulated():
    """The CPU child's emulation of an autotuner's benchmark (evaluator.autotune_cpu), taken
    back after the test, with no config pending."""
    from triton.runtime import autotuner

    from evaluator import autotune_cpu

    saved = {k: autotuner.Autotuner.__dict__[k] for k in ("do_bench", "prune_configs")}
    autotune_cpu.install()
    try:
        yield autotune_cpu
    finally:
        autotune_cpu._PENDING.clear()
        autotune_cpu.pins._MET.clear()
        autotune_cpu.pins._TRANSFORM[0] = None
        for k, v in saved.items():
            setattr(autotuner.Autotuner, k, v)


def _fresh(autotune_cpu, *kernels):
    """As in a new process: no key pruned, ordered or picked yet."""
    for kernel in kernels:
        autotune_cpu._ORDER.pop(kernel, None)
        kernel.cache.clear()


@needs_interpreter
def test_an_autotuners_benchmark_runs_on_the_launchs_own_tensors(hooks):
    """A GPU benchmarks a key's configs on the first launch's own arguments, many times each: a
    kernel that adds into its output without reset_to_zero comes out a multiple of the sum there
    (red team s44 rt19_c3, an autotuned atomic MSE), and is refused here at its first pick,
    naming the argument, with the tensors put back; with reset_to_zero it is right, and a later
    forward's pick does not benchmark."""
    from evaluator.autotune_cpu import KernelRunsDisagree

    x = torch.randn(1000)
    grid = lambda meta: (triton.cdiv(1000, meta["BLOCK"]),)  # noqa: E731
    with _autotune_emulated() as autotune_cpu:
        autotune_cpu.next_forward(checked=True)
        out = torch.zeros(1)
        with pytest.raises(KernelRunsDisagree, match="changes the tensor at argument `out_ptr`.*reset_to_zero="):
            sum_kernel[grid](x, out, 1000)
        assert out.item() == 0.0
        for _ in range(2):
            autotune_cpu.next_forward(checked=True)  # the second: picked, not benchmarked
            out = torch.zeros(1)
            sum_reset_kernel[grid](x, out, 1000)
            assert torch.allclose(out, x.sum(), atol=1e-3)


@triton.jit
def _relu_counted(x_ptr, out_ptr, cnt_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs, mask=offs < n)
    tl.store(out_ptr + offs, tl.maximum(x, 0.0), mask=offs < n)
    if tl.program_id(0) == 0:
        tl.atomic_add(cnt_ptr, 1)


counted_kernel = triton.autotune(configs=_sum_configs(), key=["n"])(_relu_counted)


@needs_interpreter
def test_a_benchmarked_kernel_that_counts_its_runs_is_refused(hooks):
    """Red team rt25: a kernel bumping a counter the file keeps between forwards (not an
    output, not reset) saw one run per config on the CPU and hundreds on a GPU, and switched
    on the count. A config run again on what its last run left must leave every tensor as
    that run did: the counter does not, and the launch is refused naming it."""
    from evaluator.autotune_cpu import KernelRunsDisagree

    x = torch.randn(1000)
    grid = lambda meta: (triton.cdiv(1000, meta["BLOCK"]),)  # noqa: E731
    with _autotune_emulated() as autotune_cpu:
        _fresh(autotune_cpu, counted_kernel)
        autotune_cpu.next_forward(checked=True)
        out, cnt = torch.zeros(1000), torch.zeros(1, dtype=torch.int32)
        with pytest.raises(KernelRunsDisagree, match="argument `cnt_ptr`"):
            counted_kernel[grid](x, out, cnt, 1000)
        assert cnt.item() == 0 and not out.any()


def _zero_out(nargs):
    nargs["out_ptr"].zero_()


@triton.jit
def _sum_split(x_ptr, out_ptr, part_ptr, n, BLOCK: tl.constexpr):
    """Each program's partial into a workspace written whole, then atomically into the output:
    the float atomics land in the schedule's order, drawn per launch."""
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    part = tl.sum(tl.load(x_ptr + offs, mask=offs < n, other=0.0), axis=0)
    tl.store(part_ptr + tl.program_id(0), part)
    tl.atomic_add(out_ptr, part)


_split_configs = [triton.Config({"BLOCK": 32}), triton.Config({"BLOCK": 64})]
split_reset_kernel = triton.autotune(configs=_split_configs, key=["n"], reset_to_zero=["out_ptr"])(_sum_split)
split_hook_kernel = triton.autotune(configs=[triton.Config(c.kwargs, pre_hook=_zero_out) for c in _split_configs],
                                    key=["n"])(_sum_split)


@triton.jit
def _double_in_place(x_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    tl.store(x_ptr + offs, 2 * tl.load(x_ptr + offs, mask=offs < n), mask=offs < n)


double_kernel = triton.autotune(configs=_sum_configs(), key=["n"], restore_value=["x_ptr"])(_double_in_place)


@triton.jit
def _row_sums_of_cat(x_ptr, out_ptr, BLOCK: tl.constexpr):
    """A sum over tl.cat, whose order the GPU's layouts decide (drawn here: interpreter_layout)."""
    row = tl.program_id(0)
    a = tl.load(x_ptr + row * 2 * BLOCK + tl.arange(0, BLOCK))
    b = tl.load(x_ptr + row * 2 * BLOCK + BLOCK + tl.arange(0, BLOCK))
    tl.store(out_ptr + row, tl.sum(tl.cat(a, b, can_reorder=True), axis=0))


cat_sum_kernel = triton.autotune(configs=[triton.Config({}, num_warps=2), triton.Config({}, num_warps=4)],
                                 key=["BLOCK"])(_row_sums_of_cat)


@needs_interpreter
def test_honest_benchmarked_kernels_repeat_themselves(hooks):
    """What an honest autotuned kernel writes comes out of a second run as out of the first:
    a workspace written whole, a float atomic sum into an output the autotuner's
    reset_to_zero or the config's pre_hook zeroes (split-K's shape; the second run takes the
    first's draws, so its atomics land in the same order: evaluator.interpreter_draws), a
    tensor updated in place and named in restore_value, a sum over a reorderable tl.cat."""
    x = torch.randn(2000) * torch.logspace(-4, 4, 2000)[torch.randperm(2000)]  # order-sensitive sums
    with _autotune_emulated() as autotune_cpu:
        for _ in range(4):  # fresh processes: a new order and new draws each
            _fresh(autotune_cpu, split_reset_kernel, split_hook_kernel, double_kernel)
            autotune_cpu.next_forward(checked=True)
            for kernel in (split_reset_kernel, split_hook_kernel):
                out, part = torch.zeros(1), torch.zeros(64)
                kernel[lambda meta: (triton.cdiv(2000, meta["BLOCK"]),)](x, out, part, 2000)
                assert abs(out.item() - x.double().sum().item()) < 1e-5 * x.abs().sum().item()
            y = x.clone()
            double_kernel[lambda meta: (triton.cdiv(2000, meta["BLOCK"]),)](y, 2000)
            assert torch.equal(y, 2 * x)
            rows, sums = torch.randn(15, 128), torch.zeros(15)
            cat_sum_kernel[(15,)](rows, sums, BLOCK=64)
            assert torch.allclose(sums, rows.sum(1), atol=1e-4)


@triton.jit
def _relu_marking(x_ptr, out_ptr, flag_ptr, n, BLOCK: tl.constexpr, MARK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    tl.store(out_ptr + offs, tl.maximum(tl.load(x_ptr + offs, mask=offs < n), 0.0), mask=offs < n)
    if MARK:
        tl.store(flag_ptr, 1)


marking_kernel = triton.autotune(configs=[triton.Config({"BLOCK": 64, "MARK": False}),
                                          triton.Config({"BLOCK": 128, "MARK": True})], key=["n"])(_relu_marking)


@needs_interpreter
def test_the_benchmark_leaves_what_every_config_left(hooks):
    """On a GPU the configs run one after another on the same tensors, nothing put back
    between them: a flag one config sets stays set whichever config the GPU keeps. Here too,
    whichever config the CPU picks (the CPU once left only the picked config's writes)."""
    x = torch.randn(1000)
    with _autotune_emulated() as autotune_cpu:
        for _ in range(6):  # fresh processes: either config picked
            _fresh(autotune_cpu, marking_kernel)
            autotune_cpu.next_forward(checked=True)
            out, flag = torch.zeros(1000), torch.zeros(1, dtype=torch.int32)
            marking_kernel[lambda meta: (triton.cdiv(1000, meta["BLOCK"]),)](x, out, flag, 1000)
            assert flag.item() == 1 and torch.equal(out, x.relu())


@triton.jit
def _relu_through_descriptor(x_ptr, out_desc, n, BLOCK: tl.constexpr, HALF: tl.constexpr):
    pid = tl.program_id(0)
    if (HALF == 0) or (pid % 2 == 0):
        offs = pid * BLOCK + tl.arange(0, BLOCK)
        out_desc.store([pid * BLOCK], tl.maximum(tl.load(x_ptr + offs, mask=offs < n, other=0.0), 0.0))


descriptor_kernel = triton.autotune(configs=[triton.Config({"BLOCK": 64, "HALF": 0}),
                                             triton.Config({"BLOCK": 64, "HALF": 1}, num_warps=8)],
                                    key=["n"])(_relu_through_descriptor)


@needs_interpreter
def test_outputs_written_through_a_descriptor_are_compared(hooks):
    """Red team rt25: the benchmark copied, compared and put back the launch's tensors and
    those in tuples and lists, never a host TensorDescriptor's base, so a config writing half
    the output through one was never noted as writing otherwise (never pinned). It is now,
    whichever config the CPU picks: where it picks the half one, its launch there ran on what
    the honest config wrote (right, as in a GPU's first forward), and it is noted itself, to
    run alone in a later forward."""
    from triton.tools.tensor_descriptor import TensorDescriptor

    x = torch.randn(1024)
    with _autotune_emulated() as autotune_cpu:
        for _ in range(6):  # fresh processes: either config picked
            _fresh(autotune_cpu, descriptor_kernel)
            autotune_cpu._PENDING.clear()
            autotune_cpu.next_forward(checked=True)
            out = torch.zeros(1024)
            desc = TensorDescriptor(out, [1024], [1], [64])
            descriptor_kernel[lambda meta: (triton.cdiv(1024, meta["BLOCK"]),)](x, desc, 1024)
            assert torch.equal(out, x.relu())  # the half config picked or not
            noted = [(p["config"].kwargs["HALF"], p["chosen"].kwargs["HALF"]) for p in autotune_cpu._PENDING
                     if p["tuner"] is descriptor_kernel]
            picked = descriptor_kernel.best_config.kwargs["HALF"]
            assert sorted(noted) == ([(0, 1), (1, 1)] if picked else [(1, 0)])


@triton.jit
def _relu_clamped(x_ptr, out_ptr, n, BLOCK: tl.constexpr, CLAMP: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    y = tl.maximum(tl.load(x_ptr + offs, mask=offs < n), 0.0)
    if CLAMP:
        y = tl.minimum(y, 100.0)
    tl.store(out_ptr + offs, y, mask=offs < n)


clamped_kernel = triton.autotune(configs=[triton.Config({"BLOCK": b, "CLAMP": c}) for b, c in
                                          ((64, 0), (128, 0), (256, 0), (64, 1))], key=["n"])(_relu_clamped)


@needs_interpreter
def test_every_config_meets_every_trial_transform(hooks):
    """Red team rt48: a config right on randn (the first pick's inputs, where every config's
    writes are compared) and wrong on large inputs ran on those only where the rotation put
    it. Before a trial of a transform a config has not met, it runs pinned (the keys' configs
    together), the trial's own pick aside; a later trial of a met transform pins nothing."""
    from evaluator import autotune_pins

    x = torch.randn(1000)
    grid = lambda meta: (triton.cdiv(1000, meta["BLOCK"]),)  # noqa: E731
    with _autotune_emulated() as autotune_cpu:
        autotune_cpu._ORDER.clear()  # the only autotuner, as in a candidate's process
        _fresh(autotune_cpu, clamped_kernel)
        autotune_cpu.next_forward(checked=True)
        autotune_pins.trial("base")
        assert autotune_pins.cover() == []  # no key known yet: its first pick compares them
        clamped_kernel[grid](x, torch.empty(1000), 1000)  # the benchmark: all four agree on randn
        autotune_cpu.next_forward(checked=True)
        autotune_pins.trial("base")
        assert autotune_pins.cover() == []
        clamped_kernel[grid](x, torch.empty(1000), 1000)
        autotune_cpu.next_forward(checked=True)
        autotune_pins.trial("scale:1e3")
        pins = autotune_pins.cover()
        state = next(iter(autotune_cpu._ORDER[clamped_kernel].values()))
        picks = autotune_cpu.coming(state)
        assert sorted(p["config"].kwargs["BLOCK"] * 2 + p["config"].kwargs["CLAMP"] for p in pins) == sorted(
            c.kwargs["BLOCK"] * 2 + c.kwargs["CLAMP"] for n, c in state.named.items() if n != picks)
        assert all(len(p["cover"]) == 1 and p["transform"] == "scale:1e3" for p in pins)
        big = x * 1e3
        outs = []
        for pin in pins:
            with autotune_pins.pinned(pin):
                out = torch.empty(1000)
                clamped_kernel[grid](big, out, 1000)
                outs.append((pin["config"].kwargs["CLAMP"], out))
            assert pin["used"]
        clamped_kernel[grid](big, out := torch.empty(1000), 1000)  # the trial's own pick
        assert autotune_pins.cover() == []  # all four met x1e3 now
        if state.named[picks].kwargs["CLAMP"]:  # the trial runs it: the worker holds it to the reference
            assert not torch.equal(out, big.relu())
            return
        for clamp, again in outs:
            pin = next(p for p in pins if p["config"].kwargs["CLAMP"] == clamp)
            if clamp:
                with pytest.raises(autotune_pins.KernelConfigsDisagree, match="scale:1e3"):
                    autotune_pins.held(pin, [again], [], [big.relu()], [])
            else:
                autotune_pins.held(pin, [again], [], [big.relu()], [])


def test_a_launchs_tensors_are_walked_once_for_every_use():
    """One walk names every tensor a launch hands its kernel (the memory guard, provenance, the
    autotune benchmark): in tuples, lists and constexprs, a host descriptor's base."""
    from triton.tools.tensor_descriptor import TensorDescriptor

    from evaluator.launch_storage import handed_leaves, handed_tensors

    x, y, out = torch.randn(8), torch.randn(8), torch.zeros(64)
    desc = TensorDescriptor(out, [64], [1], [16])
    value = (x, [y, tl.constexpr(desc)], 3)
    assert [(w, t) for w, t in handed_leaves(value, "a")] == [("a[0]", x), ("a[1][0]", y), ("a[1][1].base", out)]
    assert list(handed_tensors(value)) == [x, y, out]
