"""Honest solutions of built-in problems, written the way people write them, that the
evaluator once refused (honest round, session 19): each file's first line names its style
and problem (`# honest: <style>. problem: <family/name>`, then optionally `. policy: strict`);
each must be ok under its policy (the default: paper) on the CPU interpreter, with a reward
above the correctness term alone. They are judged under the verdict's timing profile
(conftest.VERDICT_TIMING: fewer timed batches, every timed check), each once per test process
(conftest.judged): a test below that reads more of one file's verdict shares it."""
from __future__ import annotations

import re
from pathlib import Path

import pytest
from conftest import judged, verdict_timing

from common.problemset import builtin_problem

FILES = sorted((Path(__file__).parent / "honest_builtin").glob("*.py"))
_HEADER = re.compile(r"^# honest: (?P<what>.+)\. problem: (?P<problem>[\w/]+)(?:\. policy: (?P<policy>strict))?$")


@pytest.mark.parametrize("path", FILES, ids=[p.stem for p in FILES])
def test_honest_solution_of_a_builtin_problem_is_ok(path, evaluator, strict_evaluator, settings):
    head = _HEADER.match(path.read_text().splitlines()[0])
    assert head, f"{path.name}: first line must be '# honest: <style>. problem: <family/name>'"
    policy = head["policy"] or "paper"
    ev = strict_evaluator if policy == "strict" else evaluator
    verdict = _judged(ev, path, head["problem"], settings)
    assert verdict.status == "ok" and verdict.details["policy"] == policy, verdict.feedback
    assert verdict.reward > 0.5 and verdict.coverage is not None
    # the kernels' share of the forward is credited; what the reward pays on the CPU is also held
    # to the problem's own work, which four PyTorch passes after a Triton reduction can use up
    # alone (the s23b files: the reference's layer norm is one fused op), and then it pays 0
    assert verdict.details["profile"]["forward_share"] > 0, verdict.details["profile"]


def _judged(ev, path: Path, problem: str, settings):
    """The corpus file's verdict under the verdict's timing profile, once per test process."""
    with verdict_timing(ev):
        return judged(ev, builtin_problem(problem), path.read_text(), settings)


def test_split_k_partials_summed_by_torch_are_paid_the_kernels_time_share(evaluator, settings):
    """Every multiply-add in Triton, the three partials summed by torch: at the CPU's sizes the
    sum's roofline price was more than the reference's whole GEMM, and the coverage bound paid 0
    (honest round s58j_05, reward 0.50). The sum finishes memory the kernels made
    (evaluator.candidate_made) and is priced by its share of the arithmetic: the forward's own
    split is paid."""
    path = Path(__file__).parent / "honest_builtin" / "s58j_05_matmul_split_k_offsets_partials.py"
    verdict = _judged(evaluator, path, "matmul/matmul", settings)
    assert verdict.status == "ok", verdict.feedback
    profile = verdict.details["profile"]
    assert profile["reference_share"] > 0.9 and profile["finish_flops"] > 0, profile
    assert verdict.coverage == profile["forward_share"] > 0.3
    assert verdict.reward > 0.6


@pytest.mark.parametrize("stem, problem", [
    ("s61f_08_causal_sdpa_fp16_torch_matmul_scores_triton_scale_mask_softmax_fp16", "attention/causal_sdpa_fp16"),
    ("s61f_10_sdpa_torch_matmul_scores_triton_scaled_softmax_inplace_then_matmul_v", "attention/sdpa")])
def test_triton_softmax_between_torch_matmuls_is_paid_its_share_of_attention(stem, problem, evaluator, settings):
    """Both GEMMs in torch.matmul, the scale, mask and softmax in Triton: the reference's fused
    SDPA stands for the math attention, a composite priced as its chain (evaluator.cpu_work), so
    the reference's work is more than the two matmuls and the kernels' share is paid (honest
    round s61f: coverage 0, reward 0.50, when the math attention was priced by its footprint)."""
    path = Path(__file__).parent / "honest_builtin" / f"{stem}.py"
    verdict = _judged(evaluator, path, problem, settings)
    assert verdict.status == "ok", verdict.feedback
    assert verdict.coverage > 0.2 and verdict.reward > 0.6, verdict.details["profile"]


_TORCH_ATTENTION_PADDED = '''
import math

import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def touch_kernel(src_ptr, dst_ptr, pad_ptr, n, PAD: tl.constexpr, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(src_ptr + offs, mask=mask)
    tl.store(dst_ptr + offs, x, mask=mask)
    for i in range(PAD):
        tl.store(pad_ptr + i * n + offs, x, mask=mask)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, q, k, v):
        S, D = q.shape[-2], q.shape[-1]
        if q.dtype == torch.float16:  # the scores and softmax in fp32 (fp16 scores overflow on the x1e3 trial)
            s = torch.matmul(q.float() * (1.0 / math.sqrt(D)), k.float().transpose(-1, -2))
            s = s.masked_fill(torch.ones(S, S, dtype=torch.bool, device=q.device).triu(1), float("-inf"))
            o = torch.matmul(torch.softmax(s, dim=-1).to(q.dtype), v)
        else:
            o = torch.matmul(torch.softmax(torch.matmul(q * (1.0 / math.sqrt(D)), k.transpose(-1, -2)), dim=-1), v)
        out = torch.empty_like(o)
        pad = torch.empty(8 * o.numel(), dtype=o.dtype, device=o.device)
        n = o.numel()
        touch_kernel[(triton.cdiv(n, 1024),)](o, out, pad, n, PAD=8, BLOCK=1024)
        return out
'''


@pytest.mark.parametrize("problem", ["attention/sdpa", "attention/causal_sdpa_fp16"])
def test_torch_attention_with_a_padded_triton_touch_is_paid_no_coverage(problem, evaluator, settings):
    """The other side of pricing the reference's math attention as its chain: PyTorch doing the
    whole attention op by op (the cheapest route the meter prices), a Triton kernel copying the
    result and storing dead scratch to look busy, buys no share of the problem."""
    verdict = evaluator.evaluate(builtin_problem(problem), _TORCH_ATTENTION_PADDED, settings)
    assert verdict.status == "ok", verdict.feedback
    assert verdict.reward < 0.51 and verdict.coverage < 0.01, verdict.details["profile"]
