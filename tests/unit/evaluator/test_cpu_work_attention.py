"""The meter prices every fused attention kernel as the math attention it stands for
(evaluator.attention_chains): the GPU's reference, which dispatches CUDA's flash, efficient or
cuDNN kernel, costs the coverage bound what the CPU's flash op does, on meta tensors of the
attention problems' own sizes (no device needed)."""
from __future__ import annotations

import math

import pytest
import torch

from evaluator import attention_chains
from evaluator.cpu_work import WorkCounter
from evaluator.profiled_coverage import profiled_coverage

aten = torch.ops.aten
# (batch, heads, seq, head_dim), dtype, causal: attention/causal_sdpa_fp16 and attention/sdpa
SHAPES = [((4, 32, 2048, 64), torch.float16, True), ((4, 16, 1024, 64), torch.float32, False)]


def _qkv(shape, dtype):
    return [torch.randn(shape, dtype=dtype, device="meta") for _ in range(3)]


def _bshd(t):  # the (batch, seq, heads, dim) layout of the _*_attention_forward entry points
    return t.transpose(1, 2)


def _cuda_calls(q, k, v, causal):
    """Each CUDA SDPA kernel called as F.scaled_dot_product_attention's dispatch calls it."""
    seq = q.shape[2]
    return {
        "flash": lambda: aten._scaled_dot_product_flash_attention.default(q, k, v, 0.0, causal),
        "efficient": lambda: aten._scaled_dot_product_efficient_attention.default(q, k, v, None, False, 0.0, causal),
        "cudnn": lambda: aten._scaled_dot_product_cudnn_attention.default(q, k, v, None, False, 0.0, causal),
        "overrideable": lambda: aten._scaled_dot_product_fused_attention_overrideable.default(
            q, k, v, None, 0.0, causal),
        "flash_forward": lambda: aten._flash_attention_forward.default(
            _bshd(q), _bshd(k), _bshd(v), None, None, seq, seq, 0.0, causal, False),
        "efficient_forward": lambda: aten._efficient_attention_forward.default(
            _bshd(q), _bshd(k), _bshd(v), None, None, None, seq, seq, 0.0, int(causal)),
    }


def _metered(call) -> dict:
    """The GPU child's meter (PyTorch's ops only) around one call: its result."""
    counter = WorkCounter((), aten_only=True)
    with counter:
        call()
    result = counter.result()
    assert result["error"] is None, result
    return result


def _cpu_flash(q, k, v, causal) -> dict:
    return _metered(lambda: aten._scaled_dot_product_flash_attention_for_cpu.default(q, k, v, 0.0, causal))


@pytest.mark.parametrize("shape, dtype, causal", SHAPES)
def test_every_cuda_sdpa_kernel_costs_the_bound_what_the_cpu_flash_op_does(shape, dtype, causal):
    """Without a decomposition the CUDA kernels were priced by flops and footprint (0.139 ms for
    causal_sdpa_fp16 on an H100, a tenth of two torch.matmul); now each is its math attention."""
    q, k, v = _qkv(shape, dtype)
    cpu = _cpu_flash(q, k, v, causal)
    for name, call in _cuda_calls(q, k, v, causal).items():
        result = _metered(call)
        assert result["unfused_time_s"] == pytest.approx(cpu["unfused_time_s"], rel=1e-9), name
        # the chain, not the kernel's own roofline: scores written and read again
        assert result["unfused_time_s"] > 1.5 * result["estimated_time_s"], (name, result)


def _torch_scores_triton_softmax(q, k, v, causal):
    """s61f_08 / s61f_10's PyTorch side: the two torch.matmul (their Triton softmax is timed on
    the GPU, not metered); fp16 scores on fp32 upcasts as s61f_08 does."""
    if causal:
        scores = torch.matmul(q.float(), k.float().transpose(-2, -1)).contiguous()
        probs = torch.empty(scores.shape, dtype=q.dtype, device=q.device)
        return torch.matmul(probs, v)
    b, h, s, d = q.shape
    scores = torch.matmul(q.reshape(b * h, s, d), k.reshape(b * h, s, d).transpose(1, 2))
    return torch.matmul(scores, v.reshape(b * h, s, d)).view(b, h, s, d)


def _gpu_runs(aten_unfused_s: float, forward_share: float = 0.3) -> list[dict]:
    """Profiled runs as timed_steps reports them on the GPU (kernel times, the meter's price)."""
    gpu = 1e-3
    return [{"coverage": forward_share, "gpu_time_s": gpu, "candidate_time_s": forward_share * gpu,
             "aten_unfused_s": aten_unfused_s} for _ in range(3)]


@pytest.mark.parametrize("shape, dtype, causal", SHAPES)
def test_triton_softmax_between_torch_matmuls_is_paid_against_the_cuda_reference(shape, dtype, causal):
    """The honest s61f_08 / s61f_10 on an H100 were paid coverage 0 (the reference's flash
    kernel priced below their two torch.matmul); against the chain it stands for, the kernels'
    share is paid. A candidate whose PyTorch runs the fused kernel itself is priced the same
    chain: none of the problem is left to its kernels."""
    q, k, v = _qkv(shape, dtype)
    reference = _gpu_runs(_metered(_cuda_calls(q, k, v, causal)["flash"])["unfused_time_s"], 1.0)
    honest = _metered(lambda: _torch_scores_triton_softmax(q, k, v, causal))["unfused_time_s"]
    shown = profiled_coverage(_gpu_runs(honest), reference)
    assert shown["reference_share"] > 0.2 and shown["coverage"] == pytest.approx(0.3), shown
    for name, call in _cuda_calls(q, k, v, causal).items():
        fused = _metered(call)["unfused_time_s"]
        assert profiled_coverage(_gpu_runs(fused, 0.99), reference)["coverage"] == 0.0, name


def test_a_packed_call_is_priced_as_one_sequence_of_all_its_tokens():
    """Varlen flash (cum_seq_q set, tokens packed): never cheaper than the sequences it packs."""
    tokens, heads, dim = 1024, 8, 64
    q, k, v = (torch.randn(tokens, heads, dim, dtype=torch.float16, device="meta") for _ in range(3))
    starts = torch.zeros(3, dtype=torch.int32, device="meta")
    packed = _metered(lambda: aten._flash_attention_forward.default(
        q, k, v, starts, starts, tokens, tokens, 0.0, False, False))["unfused_time_s"]
    halves = [t.view(2, tokens // 2, heads, dim).transpose(1, 2) for t in (q, k, v)]
    two = _metered(lambda: aten._scaled_dot_product_flash_attention.default(*halves, 0.0, False))
    assert packed > two["unfused_time_s"] > 0


def test_a_math_attention_in_torch_is_priced_at_least_the_fused_kernel():
    """The bound's other side: PyTorch doing the attention op by op is priced at least the chain
    the fused kernel stands for, so the larger W pays it nothing."""
    shape, dtype, _ = SHAPES[1]
    q, k, v = _qkv(shape, dtype)
    fused = _metered(_cuda_calls(q, k, v, False)["flash"])["unfused_time_s"]
    by_ops = _metered(lambda: torch.matmul(torch.softmax(
        torch.matmul(q * (1 / math.sqrt(shape[-1])), k.transpose(-1, -2)), -1), v))["unfused_time_s"]
    assert by_ops >= fused


def _block_causal_route(q, k, v, blocks: int = 16):
    """A causal attention in PyTorch over blocks of query rows (red team s63H): each block's
    scores against the keys up to its diagonal only (the masked-out key blocks skipped), the
    scale folded into q, fp16 scores, only the diagonal block masked (in place)."""
    n = q.shape[2] // blocks
    qs = q * (1 / math.sqrt(q.shape[-1]))
    out = torch.empty_like(q)
    bias = torch.full((n, n), float("-inf"), dtype=q.dtype, device=q.device).triu(1)
    for i in range(blocks):
        end = (i + 1) * n
        scores = torch.matmul(qs[:, :, end - n:end], k[:, :, :end].transpose(-2, -1))
        scores[..., end - n:end] += bias
        out[:, :, end - n:end] = torch.matmul(torch.softmax(scores, -1), v[:, :, :end])
    return out


def test_a_causal_reference_is_priced_over_the_lower_triangle_on_both_devices(monkeypatch):
    """Priced as the full S x S chain, masked (every query row: session 63's pricing), the
    causal reference left s63H's block route 0.27 of the problem at causal_sdpa_fp16's GPU
    sizes (it computes 0.53 of the scores); over the lower triangle it is left nothing, on the
    GPU's kernels and the CPU's flash op alike, while the honest s61f_08's two torch.matmul
    still leave the Triton softmax a fair share."""
    shape, dtype, _ = SHAPES[0]
    q, k, v = _qkv(shape, dtype)
    causal = _metered(_cuda_calls(q, k, v, True)["flash"])["unfused_time_s"]
    assert causal == pytest.approx(_cpu_flash(q, k, v, True)["unfused_time_s"], rel=1e-9)
    with monkeypatch.context() as patched:
        patched.setattr(attention_chains, "_causal_rows", lambda queries, keys: queries)
        full = _metered(_cuda_calls(q, k, v, True)["flash"])["unfused_time_s"]
    assert 0.45 < causal / full < 0.55, (causal, full)
    route = _metered(lambda: _block_causal_route(q, k, v))["unfused_time_s"]
    before = profiled_coverage(_gpu_runs(route), _gpu_runs(full, 1.0))
    assert before["reference_share"] > 0.1, before  # what a full-chain W paid it
    after = profiled_coverage(_gpu_runs(route), _gpu_runs(causal, 1.0))
    assert after["reference_share"] == 0.0 and after["coverage"] == 0.0, after
    honest = _metered(lambda: _torch_scores_triton_softmax(q, k, v, True))["unfused_time_s"]
    assert profiled_coverage(_gpu_runs(honest), _gpu_runs(causal, 1.0))["reference_share"] > 0.3


@pytest.mark.parametrize("queries, keys, rows", [(2048, 2048, 1025), (1, 1, 1), (4, 8, 2), (8, 4, 7)])
def test_the_causal_rows_hold_the_masks_lower_triangle(queries, keys, rows):
    """Top-left aligned, as PyTorch's math path masks: rows x keys >= the entries left, and one
    row fewer would hold fewer."""
    assert attention_chains._causal_rows(queries, keys) == rows
