"""Coverage from the profiled runs (evaluator.stopwatch.profiled_coverage): the least total,
the time in other kernels (the median on the GPU, the most on the CPU), and on the CPU the
bound by the share of the reference's own estimated work PyTorch left."""
from __future__ import annotations

import pytest

from evaluator import stopwatch


def _cov(total: float, mine: float) -> dict:
    return {"coverage": mine / total, "gpu_time_s": total, "candidate_time_s": mine}


def test_coverage_takes_the_least_total_so_padding_some_runs_buys_nothing():
    honest = [_cov(10.0, 2.0)] * 6  # 8 in library kernels, 2 in its own
    padded = [_cov(30.0, 22.0)] * 5 + [_cov(10.0, 2.0)]  # 20 more of its own in 5 of 6 runs
    assert stopwatch.profiled_coverage(honest)["coverage"] == pytest.approx(0.2)
    assert stopwatch.profiled_coverage(padded)["coverage"] == pytest.approx(0.2)
    everywhere = [_cov(30.0, 22.0)] * 6  # padding every run: coverage, paid for in time
    assert stopwatch.profiled_coverage(everywhere)["coverage"] == pytest.approx(22 / 30)
    assert stopwatch.profiled_coverage([{"coverage": None}]) is None


def test_cpu_coverage_charges_the_profiled_run_with_the_most_library_time():
    """CPU estimates have no noise: a forward that computes in PyTorch in two of six profiled
    runs (it guesses when it is watched, red team s27b) gets those runs' coverage, where a
    median over the runs would give it the honest runs' 1.0. On the GPU the median stays."""
    def est(total: float, mine: float) -> dict:
        return {"coverage": mine / total, "estimated_time_s": total, "candidate_time_s": mine}

    sensing = [est(2.0, 2.0)] * 4 + [est(6.0, 2.0)] * 2  # 4 more in aten::mish where it guessed wrong
    assert stopwatch.profiled_coverage(sensing)["coverage"] == 0.0
    honest = [est(6.0, 2.0)] * 6  # the same library share every run: unchanged
    assert stopwatch.profiled_coverage(honest)["coverage"] == pytest.approx(2 / 6)
    noisy = [_cov(10.0, 2.0)] * 4 + [_cov(10.8, 2.0)] * 2  # measured: a slower library run is noise
    assert stopwatch.profiled_coverage(noisy)["coverage"] == pytest.approx(0.2)


def test_cpu_coverage_is_held_to_the_share_of_the_problems_work_pytorch_left():
    """Red team s32a: PyTorch computed all of relu(linear(x)) (estimated 1.0 of work, the
    reference's too) and a needed Triton copy stored its block into 64 scratch rows beside it
    (60 of estimated work): 0.98 of the forward's estimate was the candidate's. Held to the
    reference's own work, PyTorch left none of it: coverage 0. An honest GEMM in PyTorch with
    a Triton epilogue keeps the epilogue's share either way, padded or not."""
    def est(total: float, mine: float) -> dict:
        return {"coverage": mine / total, "estimated_time_s": total, "candidate_time_s": mine}

    reference = [est(1.0, 0.0)] * 6
    padded = [est(61.0, 60.0)] * 6
    assert stopwatch.profiled_coverage(padded)["coverage"] == pytest.approx(60 / 61)
    held = stopwatch.profiled_coverage(padded, reference)
    assert held["coverage"] == 0.0 and held["reference_time_s"] == 1.0
    epilogue = [est(1.0, 0.36)] * 6  # 0.64 in aten::mm
    assert stopwatch.profiled_coverage(epilogue, reference)["coverage"] == pytest.approx(0.36)
    padded_epilogue = [est(30.64, 30.0)] * 6
    assert stopwatch.profiled_coverage(padded_epilogue, reference)["coverage"] == pytest.approx(0.36)
    # a reference in three passes where one PyTorch op does it: not a third of the work
    three_pass = [est(3.0, 0.0)] * 6
    one_op = [est(2.0, 1.0)] * 6  # 1.0 in aten::silu, 1.0 in a Triton copy
    assert stopwatch.profiled_coverage(one_op, three_pass)["coverage"] == pytest.approx(0.5)
    measured = [_cov(10.0, 9.0)] * 6  # the GPU's profiler: time, which padding pays for
    assert stopwatch.profiled_coverage(measured, reference)["coverage"] == pytest.approx(0.9)


def test_gpu_coverage_is_held_to_the_share_the_meter_says_pytorch_left():
    """Session 35 on the H200: F.mse_loss did all of the loss in 95 us, a padded Triton
    "epilogue" over its scalar took 32 ms: coverage 0.996 by kernel time, reward 1.00. The
    meter prices PyTorch's ops in both processes' profiled runs (`aten_unfused_s`): the fused
    loss is the reference's whole chain, so nothing is left. An honest all-Triton forward
    (no PyTorch op) keeps its time share; one that leaves a third to PyTorch, at most 2/3."""
    def gpu(total: float, mine: float, aten: float) -> dict:
        return {**_cov(total, mine), "aten_unfused_s": aten}

    reference = [gpu(2e-4, 0.0, 1.2e-7)] * 6
    padded = [gpu(3.2e-2, 3.19e-2, 1.2e-7)] * 6
    held = stopwatch.profiled_coverage(padded, reference)
    assert held["coverage"] == 0.0 and held["forward_share"] == pytest.approx(3.19e-2 / 3.2e-2)
    honest = [gpu(1e-4, 1e-4, 0.0)] * 6
    assert stopwatch.profiled_coverage(honest, reference)["coverage"] == pytest.approx(1.0)
    split = [gpu(1e-4, 0.9e-4, 0.4e-7)] * 6
    assert stopwatch.profiled_coverage(split, reference)["coverage"] == pytest.approx(2 / 3)
    # a candidate process whose meter reported no figure (it failed, or was made to): none
    assert stopwatch.profiled_coverage([_cov(10.0, 9.0)] * 6, reference)["coverage"] == 0.0
    # a reference without the meter's figures (an older child): the kernels' time share alone
    assert stopwatch.profiled_coverage([_cov(10.0, 9.0)] * 6, [_cov(2e-4, 0.0)])["coverage"] == pytest.approx(0.9)


def test_layout_copies_are_charged_only_up_to_the_references_own_copies():
    """Honest s66f_12 on the H100 (session 67): a channels-last depthwise conv permuted its input
    to NHWC and its result back, two copies whose reads the meter prices at the reference's whole
    cuDNN conv: coverage 1.9e-05 though its kernel did every tap. Copies compute nothing of the
    answer: past the reference's own copies they leave the bound, and the forward's time split
    still charges them. Where the problem is itself a copy, the candidate's copies are its work."""
    def gpu(total: float, mine: float, aten: float, moved: float | None) -> dict:
        return {**_cov(total, mine), "aten_unfused_s": aten,
                **({} if moved is None else {"moved_unfused_s": moved})}

    conv = [gpu(3e-4, 0.0, 2e-4, 0.0)] * 6  # one cuDNN conv, no copies
    channels_last = [gpu(3e-4, 1e-4, 2e-4, 2e-4)] * 6  # two permute copies, a third of the time
    held = stopwatch.profiled_coverage(channels_last, conv)
    assert held["coverage"] == pytest.approx(1 / 3) and held["reference_share"] == pytest.approx(1.0)
    # the same copies beside an older reference without the figure: charged as before
    assert stopwatch.profiled_coverage(channels_last, [gpu(3e-4, 0.0, 2e-4, None)] * 6)["coverage"] == 0.0
    # a transpose problem: the reference is the copy, so PyTorch's copy is the problem's work
    transpose = [gpu(2e-4, 0.0, 2e-4, 2e-4)] * 6
    torch_copy = [gpu(3e-4, 1e-4, 2e-4, 2e-4)] * 6  # torch transposed, a Triton kernel copied after
    assert stopwatch.profiled_coverage(torch_copy, transpose)["coverage"] == 0.0
    # copies do not hide compute: PyTorch's conv beside them is charged in full
    torch_conv = [gpu(5e-4, 1e-4, 4e-4, 2e-4)] * 6
    assert stopwatch.profiled_coverage(torch_conv, conv)["coverage"] == 0.0


def test_a_copy_that_computes_as_it_converts_is_charged_the_problems_work_it_decides():
    """Red team s62d: relu's comparison as a float8 conversion of Triton's float16 `x * 2**40`
    (its sign), priced as a move of its reads, 1/7 of the reference's relu; the kernels only
    scaled and multiplied: coverage 0.83. A conversion deciding one thing per element of the
    reference's N flops is charged at least W; one of a small epilogue keeps its own price."""
    def est(total: float, mine: float, **extra) -> dict:
        return {"coverage": mine / total, "estimated_time_s": total, "unfused_time_s": total,
                "candidate_time_s": mine, **extra}

    reference = [{**est(7.0, 0.0), "aten_flops": 1000.0}] * 6
    signs = [est(6.0, 5.0, convert_unfused_s=1.0, convert_elements=1000.0)] * 6
    assert stopwatch.profiled_coverage(signs, reference)["coverage"] == 0.0
    as_a_move = [est(6.0, 5.0)] * 6
    assert stopwatch.profiled_coverage(as_a_move, reference)["coverage"] == pytest.approx(5 / 6)
    epilogue = [est(6.0, 5.0, convert_unfused_s=1.0, convert_elements=10.0)] * 6
    assert stopwatch.profiled_coverage(epilogue, reference)["coverage"] == pytest.approx(5 / 6)


def test_elementwise_numbers_pytorch_made_are_charged_the_problems_work_they_computed():
    """Red team s62d: the reference's F.elu priced as its torch._decomp chain (6 passes), a
    torch route to the same answer (gt, expm1, multiply, where: 4 passes) beside needed Triton
    copies was left a third of the problem: coverage 0.32. The ops that made numbers are
    charged at least W x their share of the reference's flops (expm1 and the multiply: 2W);
    selections and comparisons keep their price (a torch.where over a Triton expm1 branch,
    honest s23b), unless the reference made no numbers either (relu: a clamp is the problem)."""
    def est(total: float, mine: float, **extra) -> dict:
        return {"coverage": mine / total, "estimated_time_s": total, "unfused_time_s": total,
                "candidate_time_s": mine, **extra}

    made_ref = [{**est(6.25, 0.0), "aten_flops": 1000.0, "compute_flops": 1000.0, "made_flops": 1000.0}] * 6
    route = [est(9.25, 5.0, compute_unfused_s=4.25, compute_flops=4000.0, made_unfused_s=2.0, made_flops=2000.0)] * 6
    assert stopwatch.profiled_coverage(route, made_ref)["coverage"] == 0.0
    priced = [est(9.25, 5.0)] * 6  # the same prices, no floor: the third s62d was paid
    assert stopwatch.profiled_coverage(priced, made_ref)["coverage"] == pytest.approx(1 - 4.25 / 6.25)
    where = [est(12.25, 10.0, compute_unfused_s=2.25, compute_flops=2000.0)] * 6  # s23b: gt and where
    assert stopwatch.profiled_coverage(where, made_ref)["coverage"] == pytest.approx(1 - 2.25 / 6.25)
    select_ref = [{**est(1.75, 0.0), "aten_flops": 1000.0, "compute_flops": 1000.0, "made_flops": 0.0}] * 6
    clamp = [est(6.0, 5.0, compute_unfused_s=1.0, compute_flops=1000.0)] * 6  # relu by clamp_min
    assert stopwatch.profiled_coverage(clamp, select_ref)["coverage"] == 0.0
    assert stopwatch.profiled_coverage(clamp, made_ref)["coverage"] == pytest.approx(5 / 6)
    tail = [est(6.0, 5.0, compute_unfused_s=0.1, compute_flops=10.0, made_unfused_s=0.1, made_flops=10.0)] * 6
    assert stopwatch.profiled_coverage(tail, made_ref)["coverage"] == pytest.approx(5 / 6)


def test_an_elementwise_op_makes_numbers_unless_it_selects_or_compares():
    import torch

    from evaluator.aten_facts import makes_numbers

    aten = torch.ops.aten
    x, y = torch.randn(64), torch.randn(64)
    assert makes_numbers(aten.expm1.default, (x,), {}, torch.expm1(x))
    assert makes_numbers(aten.mul.Tensor, (x, 0.8), {}, x * 0.8)
    assert not makes_numbers(aten.mul.Tensor, (x, 1.0), {}, x * 1.0)
    assert not makes_numbers(aten.where.self, (x > 0, x, y), {}, torch.where(x > 0, x, y))
    assert not makes_numbers(aten.clamp_min.default, (x, 0.0), {}, x.clamp_min(0.0))
    assert not makes_numbers(aten.relu.default, (x,), {}, torch.relu(x))
    assert not makes_numbers(aten.gt.Scalar, (x, 0), {}, x > 0)
    assert not makes_numbers(aten.maximum.default, (x, x * 0.8), {}, torch.maximum(x, x * 0.8))
    assert makes_numbers(aten.add.Tensor, (x, y), {}, x + y)


def test_an_operand_in_the_outputs_storage_witnesses_no_selection():
    """Read after the op, an operand that `out=` a view of itself overwrote holds the output:
    expm1 and alpha's multiply written over their own operand's storage were judged selections
    (red team s64e, residual/s64e_elu_*). Judged by name (the GPU's meter), they make numbers and
    a selection does not."""
    import torch

    from evaluator.aten_facts import makes_numbers

    aten = torch.ops.aten
    z = torch.randn(64)
    out = torch.expm1(z, out=z.view(z.shape))
    assert makes_numbers(aten.expm1.out, (z,), {"out": out}, out)
    out = torch.mul(z, 0.8, out=z.view(z.shape))
    assert makes_numbers(aten.mul.out, (z, 0.8), {"out": out}, out)
    x, y = torch.randn(64), torch.randn(64)
    assert makes_numbers(aten.mul.Tensor, (x, 1.0), {}, x * 1.0, read_values=False)
    assert not makes_numbers(aten.where.self, (x > 0, x, y), {}, torch.where(x > 0, x, y), read_values=False)
    assert not makes_numbers(aten.gt.Scalar, (x, 0), {}, x > 0, read_values=False)
