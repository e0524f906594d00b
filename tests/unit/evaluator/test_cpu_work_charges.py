"""What the CPU meter (evaluator.cpu_work) charges PyTorch's ops on the host: at least their work
where torch has no flop formula (convolutions, FFTs, addbmm as addmm), memory-bound ops by what
they move, factories by what they write, constant fills nothing."""
from __future__ import annotations

import pytest
import torch

from evaluator import cpu_work


def aten_flops(forward, *inputs) -> float:
    result = cpu_work.measure(lambda args: forward(*args), list(inputs), set())
    assert result["error"] is None
    return sum(k["flops"] for k in result["kernels"] if k["source"] == "aten")


M, K, N = 64, 128, 96


@pytest.mark.parametrize("name, forward, flops", [
    ("addbmm", lambda a, b, v: torch.addbmm(a[:, :N], a[None], b[None]), 2 * M * K * N),
    ("mv", lambda a, b, v: torch.mv(a, v), 2 * M * K),
    ("addmv", lambda a, b, v: torch.addmv(a[:, 0], a, v), 2 * M * K),
    ("dot", lambda a, b, v: torch.dot(v, v), 2 * K),
    ("cdist", lambda a, b, v: torch.cdist(a, b.t()), 2 * M * N * K),
    ("bilinear", lambda a, b, v: torch.nn.functional.bilinear(a[:, :32], a[:, 32:64],
                                                            torch.ones(16, 32, 32)),
     2 * M * 16 * 32 * 32),
    ("solve", lambda a, b, v: torch.linalg.solve(a[:, :M] + M * torch.eye(M), b[:M]), 2 * M * M * N),
    ("inv", lambda a, b, v: torch.linalg.inv(a[:, :M] + M * torch.eye(M)), M**3),
    # a @ b as one bag per row of a: every row of b gathered and weighted by a's elements
    ("embedding_bag", lambda a, b, v: torch.nn.functional.embedding_bag(
        torch.arange(K).repeat(M), b.requires_grad_(), torch.arange(M) * K, mode="sum",
        per_sample_weights=a.reshape(-1)), 2 * M * K * N),
    # a @ b as a complex mm of half the depth: (a0 + i a1)(b0 - i b1) holds a0 b0 + a1 b1 in its
    # real part (red team C, session 18: charged at one real flop per complex multiply-add)
    ("complex_mm", lambda a, b, v: torch.mm(a.view(torch.complex64), torch.complex(b[0::2], -b[1::2])).real,
     2 * M * K * N),
    ("embedding_bag_no_grad", lambda a, b, v: torch.nn.functional.embedding_bag(
        torch.arange(K).repeat(M), b, torch.arange(M) * K, mode="sum", per_sample_weights=a.reshape(-1)),
     2 * M * K * N),
])
def test_ops_without_a_flop_formula_are_charged_at_least_their_work(name, forward, flops):
    """An op the flop table lacks is not charged as memory-bound when it may do more: its
    decomposition's parts, or a bound of a product of three sizes (here it was charged
    max(numel), so torch.addbmm with a batch of one made a GEMM look 5x cheaper than addmm)."""
    a, b, v = torch.randn(M, K), torch.randn(K, N), torch.randn(K)
    assert aten_flops(forward, a, b, v) >= flops


# many channels against small spatial sizes: where a bound of three sizes' product fell short
CB, CI, CO, HW, KS = 2, 64, 64, 16, 5


@pytest.mark.parametrize("name, forward, flops", [
    ("mkldnn_convolution", lambda x, w, t: torch.mkldnn_convolution(x, w, None, [2, 2], [1, 1], [1, 1], 1),
     2 * CB * CO * CI * HW * HW * KS * KS),
    ("conv_tbc", lambda x, w, t: torch.conv_tbc(t, w.permute(2, 1, 0, 3)[:, :, :, 0].contiguous(),
                                                torch.zeros(CO), 2),
     2 * HW * CB * CI * CO * KS),
    # a convolution as pointwise products of FFTs: charged as linear in its data, it was cheaper
    # than the convolution it computes
    ("fft", lambda x, w, t: torch.fft.irfft2(torch.fft.rfft2(x) * torch.fft.rfft2(x)), 5 * CB * CI * HW * HW * 8),
], ids=["mkldnn_convolution", "conv_tbc", "fft"])
def test_convolution_kernels_and_ffts_without_torchs_formula_are_charged_their_work(name, forward, flops):
    x, w, t = torch.randn(CB, CI, HW, HW), torch.randn(CO, CI, KS, KS), torch.randn(HW, CB, CI)
    assert aten_flops(forward, x, w, t) >= flops


def test_a_gemm_through_addbmm_costs_what_addmm_costs():
    bias, a, b = torch.randn(4 * N), torch.randn(4 * M, 4 * K), torch.randn(4 * K, 4 * N)
    addmm = cpu_work.measure(lambda i: torch.addmm(i[0], i[1], i[2]), [bias, a, b], set())
    addbmm = cpu_work.measure(lambda i: torch.addbmm(i[0], i[1][None], i[2][None]), [bias, a, b],
                              set())
    assert addbmm["aten_time_s"] >= addmm["aten_time_s"] > 0


@pytest.mark.parametrize("forward", [
    torch.sigmoid, lambda x: x.sum(1), lambda x: x.cumsum(-1), lambda x: x.sort(-1),
    lambda x: torch.cat([x, x]), lambda x: torch.nn.functional.layer_norm(x, (64,)),
    lambda x: torch.softmax(x, -1), lambda x: torch.nn.functional.max_pool2d(x, 2),
    lambda x: torch.nn.functional.avg_pool2d(x, 3, 1), lambda x: torch.nn.functional.pad(x, (1, 1)),
    lambda x: torch.nn.functional.interpolate(x, scale_factor=2),
    lambda x: x.gather(1, torch.zeros(8, 1, 64, 64, dtype=torch.long)),
], ids=["sigmoid", "sum", "cumsum", "sort", "cat", "layer_norm", "softmax", "max_pool", "avg_pool",
        "pad", "interpolate", "gather"])
def test_ops_linear_in_their_data_stay_memory_bound(forward):
    x = torch.randn(8, 16, 64, 64)
    result = cpu_work.measure(lambda inputs: forward(inputs[0]), [x], set())
    assert result["error"] is None
    for k in result["kernels"]:
        memory_s = k["bytes"] / cpu_work.H100.memory_bytes_per_s
        assert k["seconds"] == pytest.approx(memory_s), k


@pytest.mark.parametrize("factory", [lambda x: x.new_zeros(64), lambda x: x.new_full((64,), 2.0),
                                     lambda x: torch.zeros_like(x[0, 0, 0])],
                         ids=["new_zeros", "new_full", "zeros_like"])
def test_a_factory_is_charged_what_it_writes_not_the_tensor_it_takes_its_dtype_from(factory):
    """x.new_zeros(64) beside a 2 MiB x was charged x's bytes: an honest two-stage reduction
    lost a third of its coverage to its 64-element partials buffer."""
    x = torch.randn(8, 16, 64, 64)
    result = cpu_work.measure(lambda inputs: factory(inputs[0]), [x], set())
    assert result["error"] is None
    assert sum(k["bytes"] for k in result["kernels"]) <= 64 * 4 * 2


def test_a_constant_fill_is_nobodys_work_and_a_fill_from_a_tensor_is_charged():
    """A split-K kernel's torch.zeros for its atomics was charged as 29% of a CPU-sized matmul's
    work (honest round s36: coverage 0.71); a constant fill computes no part of an answer. A
    fill from a tensor copies that tensor's value, and stays work."""
    x = torch.randn(256, 256)
    made = cpu_work.measure(lambda inputs: (torch.zeros(256, 256), torch.full((256,), 2.0),
                                            inputs[0].new_ones(64)), [x], set())
    assert made["error"] is None and sum(k["bytes"] for k in made["kernels"]) == 0
    filled = cpu_work.measure(lambda inputs: torch.empty(4096).fill_(inputs[0][0, 0]), [x], set())
    assert filled["error"] is None and sum(k["bytes"] for k in filled["kernels"]) > 0



def _bound_price(forward) -> float:
    """The coverage bound's price (unfused_time_s) of what `forward()` runs."""
    result = cpu_work.measure(lambda args: forward(), [], set())
    assert result["error"] is None
    return result["unfused_time_s"]


@pytest.mark.parametrize("dtype, causal", [(torch.float32, False), (torch.float16, True)])
def test_a_composite_inside_a_composite_is_priced_as_its_chain(dtype, causal):
    """The CPU's fused SDPA decomposes into the math attention, itself a composite (scale, matmul,
    softmax, matmul) that eager PyTorch runs op by op: priced by its own q, k, v and output, the
    reference's work was less than a candidate's two torch.matmul, and an honest file doing the
    scale, mask and softmax in Triton between them was paid coverage 0 (honest round s61f_08,
    s61f_10). PyTorch doing the whole attention op by op still weighs at least the reference:
    that route buys none of the problem."""
    q, k, v = (torch.randn(1, 2, 128, 64, dtype=dtype) for _ in range(3))
    future = torch.ones(128, 128, dtype=torch.bool).triu(1)

    def masked(s):
        return s.masked_fill(future, float("-inf")) if causal else s

    reference = _bound_price(lambda: torch.nn.functional.scaled_dot_product_attention(q, k, v, is_causal=causal))
    two_matmuls = _bound_price(lambda: torch.matmul(torch.matmul(q, k.transpose(-1, -2)), v))
    op_by_op = _bound_price(lambda: torch.matmul(torch.softmax(masked(torch.matmul(q / 8.0, k.transpose(-1, -2))), -1), v))
    assert reference > 1.9 * two_matmuls
    assert op_by_op >= reference


def test_a_part_with_a_kernel_of_its_own_keeps_its_own_price():
    """Inside a chain, only composites are priced as their parts: clamp has a kernel, and its
    torch._decomp chain (NaN tests, two wheres) priced inside hardtanh made the reference 5.5x a
    torch.minimum/maximum route, a share the bound would have paid PyTorch doing it all. A
    composite reference weighs what its op-by-op route does (layer_norm against var_mean)."""
    x, w, b = torch.randn(16, 1500), torch.randn(1500), torch.randn(1500)
    lo, hi = torch.tensor(-1.0), torch.tensor(1.0)
    hardtanh = _bound_price(lambda: torch.nn.functional.hardtanh(x))
    assert hardtanh <= _bound_price(lambda: torch.minimum(torch.maximum(x, lo), hi))

    def by_hand():
        var, mean = torch.var_mean(x, -1, keepdim=True, unbiased=False)
        return (x - mean) * torch.rsqrt(var + 1e-5) * w + b

    layer_norm = _bound_price(lambda: torch.nn.functional.layer_norm(x, (1500,), w, b))
    assert layer_norm == pytest.approx(_bound_price(by_hand), rel=0.02)
