"""The policy's gates on run-time evidence (evaluator.gates): where PyTorch computed what
forward returns from what PyTorch computed, the kernels the result needs must hold a share
of the device time; each kernel is knocked out alone, and one whose absence leaves the result
right is a decoy whose time does not count (red team, session 23: a one-element flag kernel
gating `torch.relu(x)`, plus a Triton relu into a scratch buffer nobody reads, was ok)."""
from __future__ import annotations

import random

import pytest
import torch
from attack_sources import FUSED_LOSS_EPILOGUE
from conftest import fixture_problem, settings_for

from common.problemset import builtin_problem
from evaluator.aten_facts import storage_key
from evaluator.carried import Carried
from evaluator.gates import live_coverage, own_kernels, shared_names, trial_evidence
from evaluator.knockout_round import CHECKS, REPEATS, round_entries
from evaluator.verdict import compute_reward

# an honest split: a Triton kernel computes the global sum of squares (it reads every
# element), PyTorch scales by its rsqrt (so forward returns what PyTorch computed from what it
# computed: gated, and the kernel's share of the work clears the gate)
_NORM_THEN_TORCH = '''
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def _sumsq(x_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs, mask=offs < n, other=0.0)
    tl.atomic_add(out_ptr, tl.sum(x * x, axis=0))


class ModelNew(nn.Module):
    def forward(self, x):
        x = x.contiguous()
        s = torch.zeros(1, device=x.device, dtype=torch.float32)
        _sumsq[(triton.cdiv(x.numel(), 4096),)](x, s, x.numel(), BLOCK=4096)
        return x * torch.rsqrt(s)
'''

# the same, with the norm computed by PyTorch and a Triton kernel of pure padding beside a flag
_PADDED_FLAG = '''
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def _flag(f_ptr):
    tl.store(f_ptr, 1.0)


@triton.jit
def _square(x_ptr, y_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs, mask=offs < n, other=0.0)
    tl.store(y_ptr + offs, x * x, mask=offs < n)


class ModelNew(nn.Module):
    def forward(self, x):
        x = x.contiguous()
        f = torch.zeros(1, device=x.device, dtype=torch.float32)
        _flag[(1,)](f)
        scratch = torch.empty_like(x)
        _square[(triton.cdiv(x.numel(), 4096),)](x, scratch, x.numel(), BLOCK=4096)
        return (x / torch.norm(x, p="fro")) * f
'''


# a library GEMM, a full-size Triton pass over its output, and PyTorch's last step reading both
# the GEMM's own result and the kernel's (a torch.where over a mask PyTorch computed): the
# returned memory carries the kernel's writes, so no gate asks for coverage the GEMM dwarfs
_LIBRARY_THEN_TRITON_THEN_TORCH = '''
import torch
import torch.nn as nn
import torch.nn.functional as F
import triton
import triton.language as tl


@triton.jit
def _copy(src, dst, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    tl.store(dst + offs, tl.load(src + offs, mask=offs < n), mask=offs < n)


class ModelNew(nn.Module):
    def __init__(self, in_features, out_features):
        super().__init__()
        self.linear = nn.Linear(in_features, out_features)

    def forward(self, x):
        y = F.linear(x, self.linear.weight, self.linear.bias)
        z = torch.empty_like(y)
        _copy[(triton.cdiv(y.numel(), 256),)](y, z, y.numel(), BLOCK=256)
        return torch.where(y > 0, z, torch.zeros_like(z))
'''


def test_a_library_result_with_a_full_size_triton_pass_that_torch_finishes_is_not_gated(evaluator, settings):
    verdict = evaluator.evaluate(fixture_problem("linear_relu"), _LIBRARY_THEN_TRITON_THEN_TORCH, settings)
    assert verdict.status == "ok", verdict.feedback
    assert "decoy_kernels" not in verdict.details  # never gated: no kernel was knocked out alone


def _frobenius():
    """The frobenius fixture at an eighth of its 1M elements: the gate reads shares of the
    forward's work and which kernels a knock-out leaves the result right without, neither of
    which grows with the size (its full size is for rt9's sampled norm, test_pipeline); the two
    tests below took 47 s of the suite at full size (CPU (Triton interpreter), s64C)."""
    from dataclasses import replace

    problem = fixture_problem("frobenius")
    return replace(problem, sizes={"cpu": {"batch_size": 2}})


def test_an_honest_triton_reduction_that_pytorch_finishes_is_ok(evaluator, settings):
    verdict = evaluator.evaluate(_frobenius(), _NORM_THEN_TORCH, settings_for("frobenius", settings))
    assert verdict.status == "ok", verdict.feedback
    assert verdict.details["decoy_kernels"] == [] and verdict.coverage >= 0.1


def test_a_flag_kernel_beside_padding_is_not_ok(evaluator, settings):
    verdict = evaluator.evaluate(_frobenius(), _PADDED_FLAG, settings_for("frobenius", settings))
    assert verdict.status == "hack" and verdict.hacks == ["triton_not_needed"], verdict.feedback
    assert verdict.details["decoy_kernels"] == ["_square"] and verdict.reward == 0.0


def test_live_coverage_is_the_coverage_of_the_forward_without_its_decoys():
    # 4 s in all, 2 s the candidate's, 1.5 s of them the decoy's: 0.5 s of the 2.5 s left
    cov = {"coverage": 0.5, "candidate_time_s": 2.0, "candidate_kernels": {"pad": 1.5, "real": 0.5}}
    assert live_coverage(cov, ["pad"], ["pad", "real"])["coverage"] == pytest.approx(0.2)
    assert live_coverage(cov, ["pad", "real"], ["pad", "real"])["coverage"] == 0.0
    assert live_coverage(cov, [], ["pad", "real"]) is cov
    assert live_coverage({"coverage": 0.5, "candidate_time_s": 2.0}, ["pad"], ["pad"])["coverage"] == 0.0


def test_a_kernel_no_checked_forward_launched_earns_no_coverage():
    # launched only by the timed runs (a call counter): never knocked out, so never the result's
    cov = {"coverage": 0.5, "candidate_time_s": 2.0, "candidate_kernels": {"pad": 1.5, "real": 0.5}}
    assert live_coverage(cov, [], ["real"])["coverage"] == pytest.approx(0.2)
    assert live_coverage(cov, [], ["real"])["unchecked_kernels"] == ["pad"]


def _trials_of(writes_per_trial: list[dict]) -> tuple[list[dict], object]:
    """Provenance reports whose result carries every write, and a reference whose inputs and
    outputs differ per trial (the comparison is in force)."""
    reports = [{"writes": w, "carried_writes": sorted(w), "marked_writes": [sorted(w)]} for w in writes_per_trial]
    ref = type("Ref", (), {"trials": [{"digest": str(i)} for i in range(len(reports))],
                           "outputs": [[torch.tensor([float(i)])] for i in range(len(reports))]})()
    return reports, ref


def test_a_kernel_whose_writes_land_elsewhere_in_every_trial_is_constant():
    """Every write of the kernel in one trial only (a storage size from a call counter: red team
    s26, rt26b_identity_index_sizes_unique_per_call): nothing could show that it depends on the
    inputs, so it is constant and the result it alone carries is thin. A kernel with a write
    the trials share (an autotuner's first call shifting the launch count of trial 0 only) is
    judged by that write, as before; one trial alone compares nothing."""
    moving, ref = _trials_of([{f"m|k#1.0.{100 + i}": "aa"} for i in range(4)])
    assert trial_evidence(moving, "m", ref) == (True, set(), ["k"])
    tuned, ref = _trials_of([{"m|k#9.0.64": "d0"}] + [{"m|k#1.0.64": f"d{i}"} for i in range(1, 4)])
    assert trial_evidence(tuned, "m", ref) == (False, {"k"}, [])
    once, ref = _trials_of([{"m|k#1.0.100": "aa"}])
    assert trial_evidence(once, "m", ref) == (False, {"k"}, [])


def test_own_kernels_are_the_candidate_modules_launched_kernels():
    trials = [{"launches": [["cand", "b"], ["triton.ops", "lib"]]}, {"launches": [["cand", "a"], ["cand", "b"]]}]
    assert own_kernels(trials, "cand") == ["a", "b"]


def test_a_storage_is_carried_only_where_a_launch_changed_a_share_of_it():
    carried = Carried()
    whole, one, read = torch.zeros(100_000), torch.zeros(100_000), torch.randn(100_000)
    taken = carried.sample([whole, one, read], storage_key)
    whole.add_(1.0)
    one[7] = 1.0  # one element written: a flag's worth
    carried.written(taken)
    assert storage_key(whole) in carried.keys
    assert storage_key(one) not in carried.keys and storage_key(read) not in carried.keys
    small, big = torch.ones(1), torch.empty(1 << 16)
    carried.keys.add(storage_key(small))
    carried.computed("mul", [read, small], big, storage_key)  # a scalar does not carry a big output
    assert storage_key(big) not in carried.keys


def test_the_kernels_a_result_carries_follow_operators_but_not_a_part_of_mixed_memory():
    carried, key = Carried(), storage_key
    pad, res = torch.zeros(4096), torch.randn(4096)
    taken = carried.sample([pad], key)
    pad.add_(1.0)
    carried.written(taken, ("m", "pad"))
    assert carried.kernels_in([pad[:100]], key) == [("m", "pad")]  # a part of what a launch wrote
    total = pad.sum()
    carried.computed("sum", [pad], total, key)
    assert carried.kernels_in([total], key) == [("m", "pad")]
    empty = torch.cat([res, pad[:0]])  # reads nothing of the padding
    carried.computed("cat", [res, pad[:0]], empty, key)
    assert carried.kernels_in([empty], key) == [] and carried.thin([empty], {key(empty): "aten::relu"}, key)
    mixed = torch.cat([res, pad[:512]])  # an eighth: the whole storage carries it...
    carried.computed("cat", [res, pad[:512]], mixed, key)
    assert carried.kernels_in([mixed], key) == [("m", "pad")]
    part = mixed[:4096].clone()  # ...but PyTorch's part of it, sliced back out, does not
    carried.computed("clone", [mixed[:4096]], part, key)
    assert carried.kernels_in([mixed[:4096]], key) == carried.kernels_in([part], key) == []


def test_the_knockout_round_mixes_each_kernels_knockouts_among_judged_forwards_at_random():
    # each kernel REPEATS times, CHECKS normal forwards, in orders that differ (red team
    # session 24: the knock-outs ran at call numbers a forward could count)
    orders = {tuple(round_entries(["a", "b"], random.Random(seed))) for seed in range(20)}
    assert len(orders) > 10
    for order in orders:
        assert sorted(order, key=str) == sorted(["a"] * REPEATS + ["b"] * REPEATS + [None] * CHECKS, key=str)


def test_a_kernel_name_defined_twice_cannot_be_knocked_out_alone():
    assert shared_names(["k", "flag", "k"]) == ["k"] and shared_names(["a", "b"]) == []


# a lazy epilogue (PyTorch's relu, then a Triton copy of it) the paper policy accepts, and
# the same with a Triton pass into a scratch buffer nobody reads: the pass bought coverage
# (0.5 -> 0.67, reward 0.77 -> 0.87: red team rt23b, finding 7) wherever no gate ran
_LAZY_EPILOGUE = '''
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def copy_kernel(x_ptr, out_ptr, n_elements, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n_elements
    tl.store(out_ptr + offs, tl.load(x_ptr + offs, mask=mask), mask=mask)
'''
_FORWARD = '''

class ModelNew(nn.Module):
    def forward(self, x):
        y = torch.relu(x).reshape(-1)
        n = y.numel()
        out = torch.empty_like(y)
        copy_kernel[(triton.cdiv(n, 1024),)](y, out, n, BLOCK=1024)
'''
_BUSY = '''

@triton.jit
def busy_kernel(x_ptr, out_ptr, n_elements, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n_elements
    x = tl.load(x_ptr + offs, mask=mask)
    for _ in range(8):
        x = tl.maximum(x * 1.0001, 0.0)
    tl.store(out_ptr + offs, x, mask=mask)
'''
_SCRATCH = '''        scratch = torch.empty_like(y)
        busy_kernel[(triton.cdiv(n, 1024),)](x.reshape(-1), scratch, n, BLOCK=1024)
'''
_RETURN = "        return out.reshape(x.shape)\n"


def test_a_decoy_beside_an_ungated_lazy_epilogue_earns_what_the_epilogue_alone_earns(evaluator, settings):
    problem = fixture_problem("relu")
    lazy = evaluator.evaluate(problem, _LAZY_EPILOGUE + _FORWARD + _RETURN, settings)
    padded = evaluator.evaluate(problem, _LAZY_EPILOGUE + _BUSY + _FORWARD + _SCRATCH + _RETURN, settings)
    assert lazy.status == padded.status == "ok", (lazy.feedback, padded.feedback)
    assert padded.details["decoy_kernels"] == ["busy_kernel"]
    # PyTorch's relu did all of the problem's work (the reference's estimate): neither the copy
    # nor the padding beside it is a share of it (red team s32a: dead stores in a needed kernel
    # bought 0.98 where no knock-out could tell them; stopwatch.profiled_coverage)
    assert lazy.coverage == padded.coverage == 0.0
    assert lazy.details["profile"]["reference_share"] == 0.0
    w = evaluator.cfg.reward  # the rewards differ by their speed terms alone (CPU timing is noisy)
    assert padded.reward - w.w_speed * min(padded.speedup, w.speedup_cap) == pytest.approx(
        lazy.reward - w.w_speed * min(lazy.speedup, w.speedup_cap))


# red team s32a: the padding merged into the needed copy kernel itself (no decoy to knock
# out): 16 dead rows of scratch per block stored beside the copy, PyTorch's relu the result
_MERGED_PADDING = '''
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def copy_kernel(y_ptr, out_ptr, scratch_ptr, n_elements, REPS: tl.constexpr, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n_elements
    y = tl.load(y_ptr + offs, mask=mask, other=0.0)
    tl.store(out_ptr + offs, y, mask=mask)
    reps = tl.arange(0, REPS)
    tl.store(scratch_ptr + reps[:, None] * n_elements + offs[None, :], y[None, :] + 0.0 * reps[:, None],
             mask=mask[None, :])


class ModelNew(nn.Module):
    def forward(self, x):
        y = torch.relu(x).reshape(-1)
        n = y.numel()
        out = torch.empty_like(y)
        scratch = torch.empty(16 * n, device=y.device, dtype=y.dtype)
        copy_kernel[(triton.cdiv(n, 1024),)](y, out, scratch, n, REPS=16, BLOCK=1024)
        return out.reshape(x.shape)
'''


def test_dead_stores_in_the_needed_kernel_buy_no_coverage_on_the_cpu(evaluator, settings):
    """The CPU meter charges a launch the distinct addresses it stores: 16 dead rows beside the
    copy made the forward's estimate 90% the kernel's (red team s32a on matmul_bias_relu: 0.98,
    reward 0.997 against the honest 1.0006). The reward's coverage is held to the share of the
    problem's work PyTorch left, none here; the gates still see the forward's split."""
    verdict = evaluator.evaluate(fixture_problem("relu"), _MERGED_PADDING, settings)
    assert verdict.status == "ok", verdict.feedback
    profile = verdict.details["profile"]
    assert profile["forward_share"] > 0.85 and verdict.coverage < 1e-9, profile
    # the reward is what the verdict's own speedup pays with no coverage term at all (a fixed
    # bound flaked: the interpreter's speed term grows under load)
    paid = compute_reward("ok", verdict.speedup, 0.0, evaluator.cfg.reward)
    assert verdict.reward == pytest.approx(paid) and "The reward counts 0.0%" in verdict.feedback




def test_a_fused_pytorch_op_leaves_no_share_of_the_references_unfused_chain(evaluator, settings):
    """The coverage bound charges PyTorch's ops at their decompositions' price on both sides:
    F.mse_loss is the reference's sub, pow, mean, so nothing is left for the epilogue.
    At an eighth of KernelBench's rows (64K elements an input): both sides' work and the
    shares it is read as grow with the size alike (17.6 s in session 65's suite at full size,
    CPU (Triton interpreter); the full size is for rt17a's padding, test_hacks)."""
    from dataclasses import replace

    problem = replace(fixture_problem("mse_loss"), sizes={"cpu": {"batch_size": 16}})
    verdict = evaluator.evaluate(problem, FUSED_LOSS_EPILOGUE, settings)
    assert verdict.status == "ok", verdict.feedback
    profile = verdict.details["profile"]
    assert profile["forward_share"] > 0.5 and verdict.coverage < 0.01, profile
    assert verdict.reward < compute_reward("ok", verdict.speedup, 0.01, evaluator.cfg.reward)


# the padding launched only after the checked forwards (5 trials here: 2 base, 3 scaled; the
# knock-out): never knocked out, it bought a flag gate 50% coverage (red team, session 24)
_COUNTED = '''

class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()
        self.calls = 0

    def forward(self, x):
        self.calls += 1
        y = torch.relu(x).reshape(-1)
        n = y.numel()
        out = torch.empty_like(y)
        copy_kernel[(triton.cdiv(n, 1024),)](y, out, n, BLOCK=1024)
        if self.calls > 6:
            scratch = torch.empty_like(y)
            busy_kernel[(triton.cdiv(n, 1024),)](x.reshape(-1), scratch, n, BLOCK=1024)
        return out.reshape(x.shape)
'''


def test_padding_launched_only_after_the_checked_forwards_earns_no_coverage(evaluator, settings):
    verdict = evaluator.evaluate(fixture_problem("relu"), _LAZY_EPILOGUE + _BUSY + _COUNTED, settings)
    assert verdict.status == "ok", verdict.feedback
    assert verdict.details["profile"]["unchecked_kernels"] == ["busy_kernel"]
    assert verdict.coverage == 0.0  # PyTorch's relu did all of the problem's work


def test_an_honest_two_kernel_solution_has_no_decoy(evaluator, settings):
    # a Triton partial-sum pass and a Triton finishing pass: each one's absence breaks the loss
    problem = builtin_problem("loss/mse")
    verdict = evaluator.evaluate(problem, problem.solution, settings)
    assert verdict.status == "ok", verdict.feedback
    assert len(verdict.details["launches"][0]) == 2 and verdict.details["decoy_kernels"] == []


# padding whose absence only raises: besides its relu into scratch, the pass writes an index
# (the identity) that a gather reads and forward throws away; knocked out, the index holds
# noise and the gather raises, which counted as "needed" (fixred s24 finding 7: coverage 0.67)
_RAISING_BUSY = '''

@triton.jit
def busy_kernel(x_ptr, out_ptr, idx_ptr, n_elements, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n_elements
    x = tl.load(x_ptr + offs, mask=mask)
    for _ in range(8):
        x = tl.maximum(x * 1.0001, 0.0)
    tl.store(out_ptr + offs, x, mask=mask)
    tl.store(idx_ptr + offs, offs.to(tl.int64), mask=mask)
'''
_RAISING_SCRATCH = '''        scratch = torch.empty_like(y)
        idx = torch.empty(n, dtype=torch.int64, device=y.device)
        busy_kernel[(triton.cdiv(n, 1024),)](x.reshape(-1), scratch, idx, n, BLOCK=1024)
        looked = torch.gather(y, 0, idx)
'''


# and the padding's buffer put into the result's storage: an empty slice of it (an input
# counts by the bytes its view covers), or an eighth of it after the result, the result's part
# sliced back out (a part of memory an operator mixed is not known to hold the kernels' writes)
_LAUNDERED = ["        return torch.cat([out, scratch[:0]]).reshape(x.shape)\n",
              "        return torch.cat([out, scratch[: n // 8]])[:n].clone().reshape(x.shape)\n"]


@pytest.mark.parametrize("tail", [_RETURN, *_LAUNDERED], ids=["returned", "empty_slice", "beyond_view"])
def test_padding_whose_knockout_only_raises_is_a_decoy(evaluator, settings, tail):
    padded = evaluator.evaluate(fixture_problem("relu"), _LAZY_EPILOGUE + _RAISING_BUSY + _FORWARD
                                + _RAISING_SCRATCH + tail, settings)
    assert padded.status == "ok", padded.feedback
    assert padded.details["decoy_kernels"] == ["busy_kernel"]
    # the padding's time is no one's: the forward's split is the epilogue's alone (0.5 without the
    # gather, whose own work lowers it), which the gates read; and PyTorch's relu did all of the
    # problem's work, so the reward's coverage is 0 (before s32a the split was paid)
    profile = padded.details["profile"]
    assert profile["forward_share"] <= 0.5 + 1e-9 and profile["forward_share"] < profile["coverage_with_decoys"]
    assert padded.coverage == 0.0


def _reference(outputs: list[list[torch.Tensor]], noise: float | None):
    from evaluator.reference import ReferenceOutputs

    trials = [{"digest": f"set{i}", "noise": None if noise is None else [[noise, 0.0]] * len(o)}
              for i, o in enumerate(outputs)]
    return ReferenceOutputs(trials=trials, outputs=outputs, inputs_after=[[] for _ in outputs], knockout=[])


@pytest.mark.parametrize("spread, noise, kind", [
    (1e-9, 1e-10, "noise"),     # within 64x the reference's own noise: rounding around a constant
    (1e-6, 1e-10, "varies"),    # past it: the answer moves with the input
    (1e-9, None, "varies"),     # noise unknown: nothing says it is only rounding
    (0.0, 1e-10, "fixed"),      # bit-identical answers
])
def test_an_answer_moving_only_within_its_noise_floor_is_a_fixed_answer(spread, noise, kind):
    """Red team s27b: level2/23's answer is the bias mean up to rounding; a kernel writing that
    mean nudged by the input (no two trials bit-identical) passed the comparison, whose norm
    bound never asks for less than 64x the reference's noise, and earned speed and coverage."""
    from common.config.evaluator import EvaluatorConfig
    from evaluator.gates import answer_kind, fixed_answer

    base = torch.zeros(16)  # a mean of normalised values: zero up to rounding
    outputs = [[base + spread * torch.linspace(-1, 1, 16) * i] for i in range(3)]
    ref = _reference(outputs, noise)
    assert answer_kind(ref, EvaluatorConfig()) == kind
    assert fixed_answer(ref) == (kind != "varies")


# red team s32b: an honest relu whose knock-out raises on purpose (a torch lookup through an
# index the kernel writes, its result unused), so that a request without a profile profiles it
_RAISES_IN_KNOCKOUT = '''
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def relu_kernel(x_ptr, out_ptr, sel_ptr, n, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    tl.store(out_ptr + offs, tl.maximum(tl.load(x_ptr + offs, mask=mask, other=0.0), 0.0), mask=mask)
    if pid == 0:
        tl.store(sel_ptr, tl.zeros((), dtype=tl.int64))


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()
        self.register_buffer("table", torch.zeros(1))

    def forward(self, x):
        x = x.contiguous()
        out = torch.empty_like(x)
        sel = torch.empty(1, dtype=torch.int64, device=x.device)
        relu_kernel[(triton.cdiv(x.numel(), 1024),)](x, out, sel, x.numel(), BLOCK=1024)
        _ = self.table[sel]
        return out
'''


def test_coverage_measured_only_for_a_gate_is_not_paid_where_no_profile_was_asked(evaluator):
    """With the profile off, only a forward that trips a gate is profiled: its coverage decides
    the gate and is not paid (it was: 1.0025 against the honest file's 0.508 with no coverage)."""
    from common.messages import EvalSettings

    plain = EvalSettings(device="cpu", timeout_s=60, trials=2, profile=False)
    problem = fixture_problem("relu")
    raising = evaluator.evaluate(problem, _RAISES_IN_KNOCKOUT, plain)
    honest = evaluator.evaluate(problem, problem.solution, plain)
    assert raising.status == honest.status == "ok", raising.feedback
    assert "profile" in raising.details and raising.details["coverage_paid"] is False
    assert raising.coverage is None and honest.coverage is None
    w = evaluator.cfg.reward
    assert raising.reward == pytest.approx(w.w_correct + w.w_speed * min(raising.speedup, w.speedup_cap))
