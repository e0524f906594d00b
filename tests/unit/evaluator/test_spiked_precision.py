"""The precision contract on spiked inputs: an honest TF32 kernel's error where the spike reaches
elements at the problem's own scale (the H200's false rejections of session 27), and TF32's
allowance where PyTorch's TF32 mode moves nothing (cuDNN's ConvTranspose1d)."""
from __future__ import annotations

import pytest
import torch

from common.config.evaluator import EvaluatorConfig
from evaluator.compare import tf32_deviation
from evaluator.judge import SPIKE_REACH, Base, match
from evaluator.precision import TruncatedTF32, deviations, tf32_deviations, wider

CFG = EvaluatorConfig()


def _rounded(t: torch.Tensor) -> torch.Tensor:
    """t's operands as cuBLAS's TF32 mode takes them: rounded to 10 mantissa bits."""
    return ((t.contiguous().view(torch.int32) + 0x1000) & -8192).view(torch.float32)


def _truncated(t: torch.Tensor) -> torch.Tensor:
    """t as tensor cores take float32 bits (tl.dot's default): truncated to 10 mantissa bits."""
    return (t.contiguous().view(torch.int32) & -8192).view(torch.float32)


def _split_k(a: torch.Tensor, b: torch.Tensor, block: int = 32) -> torch.Tensor:
    """A GEMM accumulated a K block at a time, as a tl.dot loop does."""
    out = torch.zeros(a.shape[0], b.shape[1])
    for k in range(0, a.shape[1], block):
        out += a[:, k:k + block] @ b[k:k + block]
    return out


class _MLP:
    """KernelBench level3/1's shape in miniature: three GEMMs with ReLU between."""

    def __init__(self) -> None:
        g = torch.Generator().manual_seed(1)
        self.w = [torch.randn(256, 128, generator=g) / 16, torch.randn(128, 64, generator=g) / 11,
                  torch.randn(64, 64, generator=g) / 8]

    def __call__(self, x, op=lambda t: t, mm=torch.matmul):
        h = torch.relu(mm(op(x), op(self.w[0])))
        h = torch.relu(mm(op(h), op(self.w[1])))
        return mm(op(h), op(self.w[2]))

    def forward(self, inputs):  # precision.deviations' calling convention: (outputs, launches)
        return [self(inputs[0])], []


def _reference_facts(mlp: _MLP, x: torch.Tensor, base_x: torch.Tensor):
    """What the reference child measures on the GPU: the base trial's Base, and on the spiked
    inputs the TF32 deviation (PyTorch's rounding and tl.dot's truncation, the wider) over the
    whole output and over its rest."""
    def both(inputs, within=None):
        with TruncatedTF32():
            truncated = mlp(inputs)
        return wider(tf32_deviation(mlp(inputs), truncated, within),
                     tf32_deviation(mlp(inputs), mlp(inputs, _rounded), within))
    strict_base = mlp(base_x)
    base = Base(rms=float(strict_base.pow(2).mean().sqrt()), peak=float(strict_base.abs().max()),
                tf32=tuple(both(base_x)))
    return base, both(x), both(x, SPIKE_REACH * base.peak)


@pytest.mark.parametrize("seed", [0, 1, 2])
@pytest.mark.parametrize("spike", [300.0, 3e3, 1e4])
def test_an_honest_tf32_mlp_on_spiked_inputs_is_held_to_tf32s_error_there(seed, spike):
    """On the H200, KernelBench's MLP with tl.dot at TF32 was incorrect on the spiked trial:
    the spike's row is huge, but some of its elements sum back to the problem's own scale and
    keep the TF32 rounding of the spike's terms, and those elements were held to the base
    trials' TF32 deviation. The rest may now show what TF32 does over that same rest on these
    inputs (the reference's `tf32_rest`): the honest kernel passes where it failed, and a
    kernel computing in bfloat16 still fails."""
    mlp = _MLP()
    torch.manual_seed(seed)
    base_x, x = torch.rand(16, 256), torch.rand(16, 256)
    x[3, 5] = spike
    base, whole, rest = _reference_facts(mlp, x, base_x)
    strict = mlp(x)
    scale = float(strict.pow(2).mean().sqrt()) / base.rms
    honest = mlp(x, _truncated, _split_k)
    bf16 = mlp(x, lambda t: t.bfloat16().float(), _split_k)
    assert match(honest, strict, whole, CFG, None, scale, base=base, rest_dev=rest) is None
    assert match(bf16, strict, whole, CFG, None, scale, base=base, rest_dev=rest) is not None
    if spike in (3e3, 1e4):  # where the rest's TF32 error exceeds the base trials' (every seed here)
        assert match(honest, strict, whole, CFG, None, scale, base=base) is not None


def test_the_rest_deviation_is_measured_over_the_elements_within_reach_only():
    """compare.tf32_deviation's `within`: the elements larger than it (the spike's) are left
    out of the max, the norm and the residual, so the rest is relative to the rest."""
    strict = torch.tensor([1.0, 2.0, 1e6, -3.0])
    other = strict + torch.tensor([1e-3, 0.0, 50.0, 0.0])
    whole, rest = tf32_deviation(strict, other), tf32_deviation(strict, other, 10.0)
    assert whole[0] == pytest.approx(50.0) and rest[0] == pytest.approx(1e-3, rel=1e-3)
    assert rest[1] == pytest.approx(1e-3 / (1 + 4 + 9) ** 0.5, rel=1e-3)


def test_deviations_report_the_rest_only_where_asked():
    """precision.deviations, as the reference child calls it: `rest` per output where the
    worker sent `rest_within` (a spiked trial), empty otherwise."""
    mlp = _MLP()
    x = torch.rand(16, 256)
    x[2, 7] = 1e4
    plain = deviations(mlp.forward, [x], [mlp(x)], "cpu")
    asked = deviations(mlp.forward, [x], [mlp(x)], "cpu", within=[5.0])
    assert plain.rest == [] and len(plain.whole) == 1 and plain.whole[0][0] > 0
    assert asked.whole == plain.whole and asked.rest[0] is not None and asked.rest[0][0] < plain.whole[0][0]


def test_truncated_tf32_is_measured_where_pytorchs_tf32_mode_moves_nothing():
    """On the GPU, PyTorch's TF32 mode leaves cuDNN's ConvTranspose1d as it was, and the
    reference child took that as 'no matmul or convolution here' and allowed no TF32 error:
    an honest tl.dot transposed convolution was incorrect on the H200 (session 27). The
    truncated mode is measured whatever PyTorch's mode did. (On this CPU PyTorch's TF32 mode
    moves nothing at all, which is the same case.)"""
    torch.manual_seed(0)
    x, w = torch.rand(2, 6, 50), torch.rand(6, 5, 3)

    def forward(inputs):
        return [torch.nn.functional.conv_transpose1d(inputs[0], w, stride=2)], []

    strict, _ = forward([x])
    devs = tf32_deviations(forward, [x], strict, "cuda").whole
    assert len(devs) == 1 and devs[0] is not None and devs[0][1] > 1e-5
    elementwise = tf32_deviations(lambda inputs: ([inputs[0].exp()], []), [x], [x.exp()], "cuda")
    assert elementwise.whole == []  # no matmul or convolution: still no TF32 allowance


def test_a_rest_whose_value_tf32s_rounding_decides_is_not_judged():
    """KernelBench's ReLU self-attention on the H200 (session 29): a spike of a share of the
    input's sum makes one token's key and value ~1e4; a query whose score against it cancels
    to ~0 among those terms is relu'd to 0 in float32 and to a few units in TF32, times the
    value: 1e5 off on an element at the problem's own scale, in the candidate and in TF32's
    own run alike, by different amounts each time. Where the reference measured TF32 moving
    the rest past the rest's own bound, the rest is not judged; below that bound it is."""
    torch.manual_seed(0)
    base_out = torch.rand(64, 32)
    base = Base(rms=float(base_out.pow(2).mean().sqrt()), peak=float(base_out.abs().max()),
                tf32=(1e-3, 1e-3, 1e-3))
    strict = torch.rand(64, 32)
    strict[5] *= 1e8  # the spike's row
    honest = strict.clone()
    honest[9:12, 3] += torch.tensor([1.8e5, 4e4, 9e3])  # flipped relus in the rest
    within = SPIKE_REACH * base.peak
    scale = float(strict.pow(2).mean().sqrt()) / base.rms
    whole = tf32_deviation(strict, honest)
    unstable = (6e4, 8.0, 8.0)  # what TF32's own run moved the rest by: past `within`
    assert unstable[0] > within
    assert match(honest, strict, whole, CFG, None, scale, base=base, rest_dev=unstable) is None
    settled = (0.5 * within, 8.0, 8.0)  # the same norms, every element within its bound
    failed = match(honest, strict, whole, CFG, None, scale, base=base, rest_dev=settled)
    assert failed is not None and failed["where"].startswith("elements within")
