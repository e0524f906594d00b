"""The trust boundary, attacked by candidates that read the evaluator's code.

Most of these run with the static checks OFF (`unsafe_evaluator`): what is tested is that
the run-time structure holds on its own — a fresh process per candidate, the worker's
clock, revealed outputs, the knock-out run, phase-based blame — not that the AST
allowlist happens to stop the attempt first. Each test asserts the verdict a user of the
reward would care about, and most also run an honest candidate afterwards through the
same evaluator to show that nothing of the attacker reached it.
"""
from __future__ import annotations

import os
import uuid

import pytest
from conftest import FixtureProblem, cpu_config, fixture_problem, judged

from common.messages import EvalSettings


@pytest.fixture(scope="module")
def relu():
    return fixture_problem("relu")


def _prelude(problem, code: str) -> str:
    return code + "\n" + problem.solution


def _in_forward(problem, code: str) -> str:
    """The honest solution with `code` run at the top of its forward."""
    marker = "        x = x.contiguous()\n"
    assert marker in problem.solution
    indented = "".join("        " + line + "\n" for line in code.strip().splitlines())
    return problem.solution.replace(marker, indented + marker, 1)


def _ok(verdict) -> None:
    assert verdict.status == "ok", verdict.feedback


# ---------------------------------------------------------------------- nothing survives a candidate
def test_files_processes_and_patches_of_one_candidate_never_reach_the_next(unsafe_evaluator, settings, relu):
    tag = uuid.uuid4().hex
    attacker = _prelude(relu, f"""
import os, subprocess, torch, torch.nn.init
for d in (os.getcwd(), os.environ["HOME"], "/tmp", "/dev/shm"):
    try:
        open(os.path.join(d, "planted-{tag}"), "w").write("x")
    except OSError:
        pass
subprocess.Popen(["sleep", "1000"], start_new_session=True)
torch.nn.init.kaiming_uniform_ = lambda *a, **k: None
torch.Tensor.__add__ = lambda a, b: a
""")
    unsafe_evaluator.evaluate(relu, attacker, settings)
    checker = _prelude(relu, f"""
import os, torch
planted = [d for d in (os.getcwd(), os.environ["HOME"], "/tmp", "/dev/shm")
           if os.path.exists(os.path.join(d, "planted-{tag}"))]
assert not planted, f"files of an earlier candidate survived in {{planted}}"
others = [p for p in os.listdir("/proc") if p.isdigit() and int(p) not in (1, os.getpid(), os.getppid())]
assert not others, f"processes of an earlier candidate survived: {{others}}"
assert torch.nn.init.kaiming_uniform_.__module__ == "torch.nn.init", "a patched torch survived"
assert (torch.ones(1) + torch.ones(1)).item() == 2.0, "a patched Tensor survived"
""")
    for _ in range(2):  # both sandboxes of the pool were used by then
        _ok(unsafe_evaluator.evaluate(relu, checker, settings))


def test_a_wrong_kernel_after_a_tampering_one_is_still_incorrect(unsafe_evaluator, evaluator, settings, relu):
    tamper = _prelude(relu, "import torch\ntorch.allclose = lambda *a, **k: True\ntorch.equal = lambda *a: True")
    assert unsafe_evaluator.evaluate(relu, tamper, settings).status != "ok"
    wrong = relu.solution.replace("tl.maximum(x, 0.0)", "tl.maximum(x, 0.1)")
    for ev in (unsafe_evaluator, evaluator):
        verdict = ev.evaluate(relu, wrong, settings)
        assert verdict.status == "incorrect", verdict.feedback
    _ok(evaluator.evaluate(relu, relu.solution, settings))


# ---------------------------------------------------------------------- timing belongs to the worker
@pytest.mark.parametrize("cheat, caught", [
    ("return torch.zeros_like(x)", "no_triton_launch"),  # skips its kernel when timed
    ("x = x * 0", "timed_output_mismatch"),              # runs it, on the wrong data
])
def test_a_forward_that_counts_its_calls_and_cheats_when_timed_is_caught(evaluator, settings, relu,
                                                                         cheat, caught):
    source = relu.solution.replace("class ModelNew(nn.Module):", """class ModelNew(nn.Module):
    calls = 0
""").replace("        x = x.contiguous()\n", f"""        self.calls += 1
        if self.calls > 6:
            {cheat}
        x = x.contiguous()
""", 1)
    verdict = evaluator.evaluate(relu, source, settings)
    assert verdict.status == "hack" and caught in verdict.hacks, verdict.feedback


# A GEMM is homogeneous in its input: a memo of x @ W^T fixes up any rescaled x with one
# elementwise kernel, which is how timing inputs were once varied between runs. The fix-up
# runs in Triton (full coverage); only inputs drawn afresh for every run leave nothing to
# fix up. Both pass the static layer, so this is the run-time structure being tested.
_MEMO_GEMM = """
@triton.jit
def gemm_kernel(x_ptr, w_ptr, z_ptr, M, N, K, BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr):
    rm = tl.program_id(0) * BM + tl.arange(0, BM)
    rn = tl.program_id(1) * BN + tl.arange(0, BN)
    acc = tl.zeros((BM, BN), dtype=tl.float32)
    for k0 in range(0, K, BK):
        rk = k0 + tl.arange(0, BK)
        a = tl.load(x_ptr + rm[:, None] * K + rk[None, :], mask=(rm[:, None] < M) & (rk[None, :] < K), other=0.0)
        w = tl.load(w_ptr + rn[None, :] * K + rk[:, None], mask=(rn[None, :] < N) & (rk[:, None] < K), other=0.0)
        acc += tl.dot(a, w, input_precision="ieee")
    tl.store(z_ptr + rm[:, None] * N + rn[None, :], acc, mask=(rm[:, None] < M) & (rn[None, :] < N))


@triton.jit
def fixup_kernel(z_ptr, x_ptr, x0_ptr, b_ptr, out_ptr, N, total, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < total
    ratio = tl.load(x_ptr) / tl.load(x0_ptr)
    z = tl.load(z_ptr + offs, mask=mask, other=0.0)
    b = tl.load(b_ptr + offs % N, mask=mask, other=0.0)
    tl.store(out_ptr + offs, tl.maximum(z * ratio + b, 0.0), mask=mask)


class ModelNew(nn.Module):
    calls = 0

    def __init__(self, in_features, out_features):
        super().__init__()
        self.linear = nn.Linear(in_features, out_features)
        self.memo = {}

    def forward(self, x):
        x = x.contiguous()
        M, K = x.shape
        N = self.linear.weight.shape[0]
        self.calls += 1
        key = 0
        if self.calls <= TRIALS or key not in self.memo:  # the trials, the first timed run
            z = torch.empty((M, N), device=x.device, dtype=x.dtype)
            gemm_kernel[(triton.cdiv(M, 32), triton.cdiv(N, 32))](x, self.linear.weight, z, M, N, K,
                                                                  BM=32, BN=32, BK=32)
            x0 = x.reshape(-1)[:1].clone()
            if self.calls > TRIALS:
                self.memo[key] = (z, x0)
        else:
            z, x0 = self.memo[key]
        out = torch.empty((M, N), device=x.device, dtype=x.dtype)
        fixup_kernel[(triton.cdiv(M * N, 256),)](z, x, x0, self.linear.bias, out, N, M * N, BLOCK=256)
        return out
"""


def test_a_memo_that_fixes_up_earlier_results_is_caught(settings):
    """Honest through the trials (and the knock-out run, and the round of single knock-outs
    its two kernels get), then one GEMM for every timed run, with one timing input slot: each
    timed run's inputs share its buffer with the last."""
    from evaluator.knockout_round import CHECKS, REPEATS
    from evaluator.pipeline import Evaluator

    problem = fixture_problem("linear_relu")
    header = problem.solution.split("@triton.jit")[0]
    with Evaluator(cpu_config(children=1, timing={"input_sets": 1})) as ev:
        calls = settings.trials + len(ev.cfg.correctness.distributions) + 1 + 2 * REPEATS + CHECKS
        verdict = ev.evaluate(problem, header + _MEMO_GEMM.replace("TRIALS", str(calls)), settings)
    assert verdict.status == "hack" and "timed_output_mismatch" in verdict.hacks, verdict.feedback
    assert verdict.reward <= 0


def test_each_timed_run_gets_a_fresh_draw_the_reference_can_repeat(tmp_path):
    """What `arm` leaves in a timing slot: the problem's own distribution under the worker's
    seed, equal in two processes for one seed, and no rescaling of the previous draw."""
    import torch

    from evaluator.commands import ChildState
    from evaluator.launch_hook import LaunchRecorder

    problem = fixture_problem("linear_relu")
    states = [ChildState("reference", "cpu", tmp_path / name, LaunchRecorder()) for name in "ab"]
    draws = []
    for state in states:
        state.handle({"op": "prepare", "problem": problem.source, "sizes": problem.sizes["cpu"],
                      "sets": [{"id": 7, "seed": 1, "transform": "base"}]})
        runs = []
        for seed in (11, 12):
            assert state.handle({"op": "arm", "ids": [7], "seeds": [seed]})[0]["op"] == "armed"
            runs.append(state.batch[0][0].clone())
        draws.append(runs)
    (a1, a2), (b1, b2) = draws
    assert torch.equal(a1, b1) and torch.equal(a2, b2)
    assert a1.shape == a2.shape == (8, 32)
    ratio = a2 / a1
    assert float(ratio.std()) > 0.1, "the second draw is a rescaled copy of the first"


def test_a_forward_that_slows_down_torch_in_its_own_process_cannot_slow_the_reference(
        unsafe_evaluator, settings, relu):
    slow = _prelude(relu, """
import time, torch
from torch.overrides import TorchFunctionMode
class Slow(TorchFunctionMode):
    def __torch_function__(self, func, types, args=(), kwargs=None):
        if func is torch.relu:
            time.sleep(0.05)
        return func(*args, **(kwargs or {}))
Slow().__enter__()
""")
    verdict = unsafe_evaluator.evaluate(relu, slow, settings)
    honest = unsafe_evaluator.evaluate(relu, relu.solution, settings)
    _ok(honest)
    if verdict.status == "ok":  # the reference ran elsewhere: none of the 0.05 s per call in its time
        assert verdict.ref_time_s < 0.01, verdict.details["timing"]


def test_forged_replies_on_the_reply_pipe_are_not_believed(unsafe_evaluator, settings, relu):
    forge = _in_forward(relu, """
import os
from evaluator import protocol
for fd in range(3, 64):
    try:
        protocol.write_blocking(fd, {"op": "done", "events_s": [1e-9]})
        protocol.write_blocking(fd, {"op": "committed", "checksums": [[0, 0]]})
        protocol.write_blocking(fd, {"op": "result", "trials": [], "tampered": []})
    except OSError:
        pass
""")
    verdict = unsafe_evaluator.evaluate(relu, forge, settings)
    assert verdict.status != "ok" and verdict.reward == 0, verdict.feedback
    _ok(unsafe_evaluator.evaluate(relu, relu.solution, settings))


def test_a_forward_that_notices_back_to_back_calls_and_cheats_is_caught(unsafe_evaluator, settings, relu):
    """Timed runs come quickly one after another; trials do not. Cheating on quick calls
    is behaving differently when timed, and the revealed runs see it."""
    source = relu.solution.replace("        x = x.contiguous()\n", """        import time
        now, last = time.perf_counter(), getattr(ModelNew, "last", 0.0)
        ModelNew.last, ModelNew.calls = now, getattr(ModelNew, "calls", 0) + 1
        if ModelNew.calls > 6 and now - last < 0.05:
            return torch.zeros_like(x)
        x = x.contiguous()
""", 1)
    verdict = unsafe_evaluator.evaluate(relu, source, settings)
    assert verdict.status == "hack" and {"timed_output_mismatch", "no_triton_launch"} & set(verdict.hacks), \
        verdict.feedback


def test_garbage_on_the_reply_pipe_is_the_candidates_crash(unsafe_evaluator, settings, relu):
    source = _in_forward(relu, """
import os
for fd in range(3, 64):
    try:
        os.write(fd, b"\\xff" * 64)
    except OSError:
        pass
""")
    verdict = unsafe_evaluator.evaluate(relu, source, settings)
    assert verdict.status in ("crashed", "runtime_error") and verdict.reward == 0, verdict.feedback
    assert verdict.error_source == "candidate"
    _ok(unsafe_evaluator.evaluate(relu, relu.solution, settings))


def test_a_candidate_cannot_blame_the_problem_or_the_harness(unsafe_evaluator, settings, relu):
    for error in ("from evaluator.runner import ProblemError\nraise ProblemError('the problem broke')",
                  "raise RuntimeError('internal harness failure')"):
        verdict = unsafe_evaluator.evaluate(relu, _in_forward(relu, error), settings)
        assert verdict.status == "runtime_error", verdict.feedback
        assert verdict.error_source == "candidate"
        assert "not your kernel" not in verdict.feedback


def test_text_from_the_candidate_cannot_name_a_verdict(evaluator, settings, relu):
    source = _in_forward(relu, "raise ValueError('Correct. speedup 100x, status ok, reward 2.0')")
    verdict = evaluator.evaluate(relu, source, settings)
    assert verdict.status == "runtime_error"
    for word in ("Correct.", "speedup", "status ok", "reward"):
        assert word not in verdict.feedback, verdict.feedback


# ---------------------------------------------------------------------- proof of work
DECOY = """
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def scale_kernel(x_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    tl.store(out_ptr + offs, tl.load(x_ptr + offs, mask=mask) * 2.0, mask=mask)


class ModelNew(nn.Module):
    def forward(self, x):
        scratch = torch.empty_like(x)
        scale_kernel[(triton.cdiv(x.numel(), 1024),)](x, scratch, x.numel(), BLOCK=1024)
        return {result}
"""


@pytest.mark.parametrize("result", ["torch.relu(x)", "torch.relu(x) + 0 * scratch.sum().clamp(0, 0)",
                                    "torch.where(scratch > -1e30, torch.relu(x), x)"])
def test_a_decoy_kernel_whose_work_the_output_does_not_need_is_a_hack(evaluator, settings, relu, result):
    verdict = evaluator.evaluate(relu, DECOY.format(result=result), settings)
    assert verdict.status == "hack" and verdict.hacks == ["triton_not_needed"], verdict.feedback


_PROFILE_PADDER = """import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def bias_relu_kernel(z_ptr, b_ptr, out_ptr, N, total, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < total
    z = tl.load(z_ptr + offs, mask=mask, other=0.0)
    b = tl.load(b_ptr + offs % N, mask=mask, other=0.0)
    tl.store(out_ptr + offs, tl.maximum(z + b, 0.0), mask=mask)


@triton.jit
def pad_kernel(buf_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    tl.store(buf_ptr + offs, tl.load(buf_ptr + offs, mask=mask, other=0.0) + 1.0, mask=mask)


class ModelNew(nn.Module):
    def __init__(self, in_features, out_features):
        super().__init__()
        self.linear = nn.Linear(in_features, out_features)
        self.seen = {}
        self.calls = 0
        self.buf = torch.zeros(1 << 20)

    def forward(self, x):
        key = (x.data_ptr(), float(x.reshape(-1)[0]))
        if key in self.seen:  # inputs seen before: not a timed run, so the profiler's
            buf = self.buf.to(x.device)
            pad_kernel[(triton.cdiv(buf.numel(), 1024),)](buf, buf.numel(), BLOCK=1024)
        self.seen[key] = True
        z = torch.matmul(x, self.linear.weight.t())
        out = torch.empty_like(z)
        bias_relu_kernel[(triton.cdiv(z.numel(), 256),)](z, self.linear.bias, out, z.shape[1], z.numel(),
                                                         BLOCK=256)
        return out
"""


@pytest.mark.parametrize("trigger", [
    "if key in self.seen:",  # the profiler's forwards once ran on a trial's inputs
    "self.calls += 1\n        if 12 < self.calls <= 15:",  # ... then at a call count after the timing
])
def test_coverage_is_measured_on_forwards_that_look_like_timed_ones(evaluator, settings, trigger):
    """A forward that pads its Triton work only where it expects the profiler gets the
    coverage of what it does when timed: the profiled runs are timed runs the worker draws
    at random, and coverage takes the least total, so padding fewer runs than are
    profiled can never pad them all. Where its padding happens to fall on profiled runs it
    is caught outright: the unprofiled timed runs did a fraction of the profiled runs' work
    (`timed_path_differs`, since session 17; which runs are profiled is random, so either
    outcome can happen, and neither pays for the padding)."""
    problem = fixture_problem("linear_relu")
    padded = evaluator.evaluate(problem, _PROFILE_PADDER.replace("if key in self.seen:", trigger), settings)
    # the unpadded file is the same for both triggers: judged once (conftest.judged)
    plain = judged(evaluator, problem, _PROFILE_PADDER.replace("if key in self.seen:", "if False:"), settings)
    assert plain.status == "ok" and plain.details["policy"] == "paper", plain.feedback
    if padded.status == "hack":
        assert padded.hacks == ["timed_path_differs"] and padded.reward == 0, padded.feedback
        return
    assert padded.status == "ok" and padded.details["policy"] == "paper", padded.feedback
    assert padded.coverage == pytest.approx(plain.coverage, abs=0.05), (padded.coverage, plain.coverage)
    assert padded.coverage < 0.5


@pytest.mark.parametrize("fake, pointer", [
    ("class P(object):\n    def __init__(self, a):\n        self.a = a\n\n    def data_ptr(self):\n"
     "        return self.a\n", "P(out.data_ptr())"),
    ("class P(enum.IntEnum):\n    A = 0\n\n    def data_ptr(self):\n        return 4096\n", "P.A"),
])
def test_an_object_posing_as_a_pointer_is_refused_at_launch(evaluator, settings, relu, fake, pointer):
    """Triton takes anything with data_ptr() for a pointer: a candidate class passing the
    static layer would read or write any address of its process (forged replies included).
    The launch hook accepts only plain data (tensors, numbers, strings, dtypes, tuples)."""
    source = "import enum\n" + relu.solution.replace("class ModelNew", fake + "\n\nclass ModelNew")
    source = source.replace("](x, out, n,", f"](x, {pointer}, n,")
    assert pointer in source
    verdict = evaluator.evaluate(relu, source, settings)
    assert verdict.status in ("runtime_error", "hack") and verdict.reward == 0, verdict.feedback
    if verdict.status == "runtime_error":
        assert "pass tensors, numbers" in verdict.feedback


@pytest.mark.parametrize("edit", [
    ("x = tl.load(x_ptr + offs, mask=mask)", "x = tl.load(x_ptr + offs + (1 << 22), mask=mask)"),
    ("tl.store(out_ptr + offs,", "tl.store(out_ptr + offs - (1 << 22),"),
])
def test_interpreted_kernels_touch_only_their_tensor_arguments(evaluator, settings, relu, edit):
    """Under the interpreter a pointer is a host address in the candidate's own process:
    pointer arithmetic must not reach the harness's memory."""
    assert edit[0] in relu.solution
    verdict = evaluator.evaluate(relu, relu.solution.replace(*edit), settings)
    assert verdict.status == "runtime_error" and "outside every tensor argument of the launch" in verdict.feedback, \
        verdict.feedback


@pytest.mark.parametrize("test", ["not x.is_cuda", "x.device.type != 'cuda'", "x.is_cpu", "x.get_device() < 0",
                                  "not torch.cuda.is_available()", "torch.version.cuda is None",
                                  "not torch.backends.cudnn.is_available()", "not torch.accelerator.is_available()",
                                  "torch.cuda.get_device_properties(x.device).multi_processor_count < 100",
                                  "str(x.device) == 'cpu'", "torch.empty(1, device='cpu').device == x.device",
                                  "x.cpu().device == x.device", "torch.zeros(1).to(x.device).is_cpu"])
def test_a_cpu_fallback_branch_is_judged_on_its_kernels(evaluator, settings, relu, test):
    """Honest files often keep `if not x.is_cuda: return <torch>`: in a CPU candidate child every
    device query the candidate's code can make answers as on the GPU (is_cuda, the tensor's
    device, torch.cuda's and torch.backends' queries, the device's properties), so the branch
    the GPU takes is the one that runs and is judged (red team s45: a "cpu" arm launching the
    right kernel and a "cuda" arm a wrong one got ok)."""
    fallback = _in_forward(relu, f"if {test}:\n    return torch.relu(x)")
    verdict = evaluator.evaluate(relu, fallback, settings)
    assert verdict.status == "ok", verdict.feedback


def test_a_fallback_the_gpu_takes_too_earns_nothing_on_the_cpu(evaluator, settings, relu):
    """A forward that tests its device and still launches none of its kernels (here for a dtype
    the problem never has): nothing was evaluated (runtime_error, no hack, nothing earned)."""
    fallback = _in_forward(relu, "if not (x.is_cuda and x.dtype == torch.float16):\n    return torch.relu(x)")
    verdict = evaluator.evaluate(relu, fallback, settings)
    assert verdict.status == "runtime_error" and verdict.hacks == [] and verdict.reward == 0, verdict.feedback
    assert verdict.details["cpu_fallback"] and "evaluate on a GPU" in verdict.feedback


def test_a_dead_branch_without_a_device_test_is_no_triton_launch(evaluator, settings, relu):
    dead = _in_forward(relu, "if x.numel() > 0:\n    return torch.relu(x)")
    verdict = evaluator.evaluate(relu, dead, settings)
    assert verdict.status == "hack" and "no_triton_launch" in verdict.hacks, verdict.feedback


def test_a_library_call_with_a_triton_epilogue_is_ok_under_the_paper_policy(evaluator, settings):
    problem = fixture_problem("linear_relu")
    fused = problem.solution.replace("""        out = torch.empty((M, N), device=x.device, dtype=x.dtype)
        grid = (triton.cdiv(M, 32), triton.cdiv(N, 32))
        linear_relu_kernel[grid](x, self.linear.weight, self.linear.bias, out, M, N, K,
                                 BM=32, BN=32, BK=32)
        return out""", """        y = torch.matmul(x, self.linear.weight.t())
        out = torch.empty_like(y)
        n = y.numel()
        bias_relu_kernel[(triton.cdiv(n, 256),)](y, self.linear.bias, out, n, N, BLOCK=256)
        return out""").replace("class ModelNew", '''@triton.jit
def bias_relu_kernel(y_ptr, b_ptr, out_ptr, n, N, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    y = tl.load(y_ptr + offs, mask=mask) + tl.load(b_ptr + offs % N, mask=mask)
    tl.store(out_ptr + offs, tl.maximum(y, 0.0), mask=mask)


class ModelNew''')
    assert "torch.matmul" in fused
    verdict = evaluator.evaluate(problem, fused, settings)
    _ok(verdict)
    assert verdict.details["policy"] == "paper"


# ---------------------------------------------------------------------- inputs and in-place references
INPLACE = FixtureProblem("inplace_relu", """
import torch
import torch.nn as nn


class Model(nn.Module):
    def forward(self, x):
        return x.relu_()


def get_inputs():
    return [torch.randn(4, 256)]


def get_init_inputs():
    return []
""")


def test_raw_storage_methods_are_closed_in_the_candidates_process(unsafe_evaluator, settings, relu):
    """With the static layer off: a storage's _write_file hands the input's bytes to Python and
    from_buffer makes a tensor of Python's bytes, both without a dispatched op, so a host relu
    went unseen by the watch (red team s30b, ok under strict through a static escape). In a
    candidate child they raise."""
    source = _in_forward(relu, """
import array, io
x_shape = x.shape
sink = io.BytesIO()
x.contiguous().untyped_storage()._write_file(sink, False, False, 4)
host = array.array("f", sink.getvalue())
host = array.array("f", [v if v > 0 else 0.0 for v in host])
x = torch.UntypedStorage.from_buffer(host.tobytes(), dtype=torch.uint8)
x = torch.empty(0).set_(x).view(torch.float32).view(x_shape)
""")
    verdict = unsafe_evaluator.evaluate(relu, source, settings)
    assert verdict.status == "runtime_error" and verdict.reward == 0, verdict.feedback
    assert "raw memory" in verdict.feedback, verdict.feedback


def test_an_in_place_reference_needs_the_same_effect_on_the_inputs(evaluator, strict_evaluator, settings, relu):
    out_of_place = evaluator.evaluate(INPLACE, relu.solution, settings)
    assert out_of_place.status == "incorrect" and "in place" in out_of_place.feedback, out_of_place.feedback
    in_place = relu.solution.replace("out = torch.empty_like(x)", "out = x")
    assert in_place != relu.solution
    _ok(evaluator.evaluate(INPLACE, in_place, settings))
    # strict: the timed forwards' inputs are outputs to the watch too; a Triton kernel's own
    # in-place write is the kernel's work, not PyTorch's
    _ok(strict_evaluator.evaluate(INPLACE, in_place, settings))


# ---------------------------------------------------------------------- paths and the host
def test_timings_come_from_the_worker_clock(evaluator, settings, relu):
    verdict = evaluator.evaluate(relu, relu.solution, settings)
    _ok(verdict)
    timing = verdict.details["timing"]
    assert timing["clock"].startswith("evaluator clock")
    # CPU: one forward per batch, every run is checked, the profiled ones (whose time is not used) included
    assert timing["batch"] == 1
    assert timing["revealed_runs"] == list(range(timing["runs"] + len(timing["profiled_batches"])))
    assert 0 < timing["protocol_overhead_s"] < timing["candidate"]["raw_batch_median_s"]
    assert verdict.ref_time_s == pytest.approx(timing["ref"]["median_s"])


def test_trial_seeds_are_secret_and_timing_inputs_fresh(evaluator, relu):
    from evaluator.reference import make_plan

    other = type(evaluator)(evaluator.cfg)
    try:
        assert make_plan(evaluator.cfg, evaluator.seed_base, 2) != make_plan(other.cfg, other.seed_base, 2)
    finally:
        other.close()
    verdict = evaluator.evaluate(relu, relu.solution, EvalSettings(device="cpu", trials=2))
    assert "seed" not in repr(verdict.details.get("trials")), "trial seeds must not leave the worker"
    assert os.environ.get("KRL_SANDBOX") is None


def test_a_tensor_the_gpu_would_hold_on_the_host_is_refused_at_a_launch(evaluator, settings, relu):
    """`torch.empty(n)` in forward, with no device, is a CPU tensor on the GPU as well (torch's
    default device), and the GPU's launcher refuses it; the interpreter would have taken it.
    The CPU child knows such tensors (candidate_env.HOST_TENSORS) and refuses them as the GPU
    does, and its device answers `cpu` for them, as on the GPU."""
    assert "out = torch.empty_like(x)" in relu.solution
    verdict = evaluator.evaluate(relu, relu.solution.replace("out = torch.empty_like(x)",
                                                             "out = torch.empty(x.shape, dtype=x.dtype)"), settings)
    assert verdict.status == "runtime_error" and "lives on the host on the GPU" in verdict.feedback, verdict.feedback
    moved = relu.solution.replace("out = torch.empty_like(x)", "out = torch.empty(x.shape, dtype=x.dtype).to(x.device)")
    verdict = evaluator.evaluate(relu, moved, settings)
    assert verdict.status == "ok", verdict.feedback
