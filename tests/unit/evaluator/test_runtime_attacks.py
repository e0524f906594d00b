"""Run-time attacks on the evaluator by candidates that pass the static allowlist.

Every candidate here is accepted by `check_source` (asserted): what is tested is the
run-time structure (phases, knock-out runs, timing, coverage, shared device), not the AST
layer. Each test asserts the verdict a user of the reward needs. Holes that are still open
are strict xfails with the reason; see also test_trust_boundary.py and hacks/.
"""
from __future__ import annotations

import threading
import time

import pytest
from conftest import fixture_problem

from common.config.evaluator import EvaluatorConfig
from common.messages import EvalSettings


def _passes_static(source: str) -> str:
    from evaluator.static_checks import check_source

    report = check_source(source, EvaluatorConfig().static)
    assert report.status is None, report.findings
    return source


# ---------------------------------------------------------------------- phase by call count
# The correctness run (trials + knock-outs) comes first, so a forward that counts its calls
# knows when timing starts. Once, timed runs were checked only by their revealed outputs,
# which PyTorch gets right, and coverage was measured on forwards after them. Now every
# timed run reports its own-kernel launches and the profiled runs are timed runs drawn at
# random, so PyTorch in every run after the checks is seen, even when each of those runs
# also makes an empty launch of its kernel to show a launch.
# the honest fixture solution's kernel (its ModelNew is what the attacks below replace)
_LINEAR_RELU_KERNEL = "\n@triton.jit" + fixture_problem("linear_relu").solution.split("@triton.jit", 1)[1] \
    .split("class ModelNew", 1)[0]

_TORCH_WHEN_TIMED = '''import torch
import torch.nn as nn
import triton
import triton.language as tl
''' + _LINEAR_RELU_KERNEL + '''

class ModelNew(nn.Module):
    def __init__(self, in_features, out_features):
        super().__init__()
        self.linear = nn.Linear(in_features, out_features)
        self.calls = 0

    def forward(self, x):
        self.calls += 1
        if CHECKED < self.calls:  # warm-up, timed and profiled runs: PyTorch
            EMPTY_LAUNCH
            return torch.relu(torch.nn.functional.linear(x, self.linear.weight, self.linear.bias))
        x = x.contiguous()
        M, K = x.shape
        N = self.linear.weight.shape[0]
        out = torch.empty((M, N), device=x.device, dtype=x.dtype)
        linear_relu_kernel[(triton.cdiv(M, 32), triton.cdiv(N, 32))](
            x, self.linear.weight, self.linear.bias, out, M, N, K, BM=32, BN=32, BK=32)
        return out


CHECKED = 7  # 2 base trials, x1e-3, x1e3, spiked, the Triton knock-out, the torch knock-out
'''
_EMPTY_LAUNCH = ("linear_relu_kernel[(0,)](x, self.linear.weight, self.linear.bias, x, 0, 0, 0, "
                 "BM=32, BN=32, BK=32)")


@pytest.mark.parametrize("launch", ["pass", _EMPTY_LAUNCH], ids=["no_launch", "empty_launch"])
def test_pytorch_in_the_timed_runs_only_is_not_ok_under_strict(strict_evaluator, settings, launch):
    """Every timed run reports its launches of the candidate's own kernels (none: a hack),
    and the profiled runs are timed runs at random positions, so their coverage is the
    timed forward's (an empty launch satisfies the first, not the second)."""
    problem = fixture_problem("linear_relu")
    source = _passes_static(_TORCH_WHEN_TIMED.replace("EMPTY_LAUNCH", launch))
    verdict = strict_evaluator.evaluate(problem, source, settings)
    assert verdict.status == "hack" and {"no_triton_launch", "low_coverage"} & set(verdict.hacks), \
        (verdict.reward, verdict.coverage, verdict.feedback)


# ---------------------------------------------------------------------- work the meters do not see
_HOST_PYTHON_RELU = '''import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def copy_kernel(src_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    tl.store(out_ptr + offs, tl.load(src_ptr + offs, mask=mask), mask=mask)


class ModelNew(nn.Module):
    def forward(self, x):
        flat = x.reshape(-1)
        values = [float(flat[i]) for i in range(flat.numel())]
        y = torch.tensor([v if v > 0.0 else 0.0 for v in values], dtype=x.dtype, device=x.device)
        out = torch.empty_like(x)
        copy_kernel[(triton.cdiv(x.numel(), 1024),)](y, out, x.numel(), BLOCK=1024)
        return out
'''


@pytest.mark.parametrize("policy", ["strict", "paper"])
def test_the_result_computed_in_host_python_is_not_ok(policy, strict_evaluator, evaluator, settings):
    """Values read to the host one by one (float(t), .item()) and computed on in Python: no
    aten compute op runs and neither meter sees Python; the watch counts the reads of the
    inputs (and the values put back through torch.tensor), under either policy."""
    relu = fixture_problem("relu")
    ev = strict_evaluator if policy == "strict" else evaluator
    verdict = ev.evaluate(relu, _passes_static(_HOST_PYTHON_RELU), settings)
    assert verdict.status == "hack" and verdict.hacks == ["host_compute"], (verdict.coverage, verdict.feedback)


def test_reading_a_tensor_into_python_lists_is_refused(evaluator, settings):
    """`.tolist()` passes the static layer (honest MoE routing plans its grid from counts read
    this way) and is to every watch an `.item()` loop (watched_reads): the same host Python
    ReLU through one list read is refused as the element-wise reads are."""
    from evaluator.static_checks import check_source

    source = _HOST_PYTHON_RELU.replace("values = [float(flat[i]) for i in range(flat.numel())]",
                                       "values = flat.tolist()")
    assert check_source(source, EvaluatorConfig().static).status is None
    verdict = evaluator.evaluate(fixture_problem("relu"), source, settings)
    assert verdict.status == "hack" and verdict.hacks == ["host_compute"], (verdict.coverage, verdict.feedback)


# ---------------------------------------------------------------------- other candidates' verdicts
_HOG = '''import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def relu_kernel(x_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    tl.store(out_ptr + offs, tl.maximum(tl.load(x_ptr + offs, mask=mask), 0.0), mask=mask)


class ModelNew(nn.Module):
    def forward(self, x):
        spin = 0
        while spin >= 0:  # holds the shared device lock until its own deadline
            spin += 1
        out = torch.empty_like(x)
        relu_kernel[(triton.cdiv(x.numel(), 1024),)](x, out, x.numel(), BLOCK=1024)
        return out
'''


@pytest.mark.slow
def test_a_candidate_holding_the_device_cannot_time_out_another(evaluator):
    """A forward that runs until its own deadline holds the device lock shared for all that
    time; another candidate's timing waits for it exclusively. Waiting for the device is not
    the waiting candidate's time: it must not end as `timeout` (a verdict on its kernel)."""
    relu = fixture_problem("relu")
    hog_settings = EvalSettings(device="cpu", timeout_s=25, trials=2)
    honest_settings = EvalSettings(device="cpu", timeout_s=12, trials=2)
    verdicts: dict[str, object] = {}

    def hog() -> None:
        verdicts["hog"] = evaluator.evaluate(relu, _passes_static(_HOG), hog_settings)

    evaluator.evaluate(relu, relu.solution, honest_settings)  # reference cached, sandboxes warm
    thread = threading.Thread(target=hog)
    thread.start()
    time.sleep(3)  # the hog is in its correctness run by now
    honest = evaluator.evaluate(relu, relu.solution, honest_settings)
    thread.join()
    assert verdicts["hog"].status == "timeout"
    assert honest.status == "ok", honest.feedback
