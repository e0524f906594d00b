"""Fresh memory and constants in the provenance watch (session 20): memory make ops wrote is
trusted as nobody's work only while its bytes are what operators left (fingerprints: C++
computing past the dispatcher, as a composite op does into the `empty` it dispatched, is
PyTorch's), and an op computing from such memory alone makes a constant (a causal mask, a
group table), which neither the watch nor the torch knock-out counts as PyTorch's result.
Data never becomes a constant, whatever route it takes."""
from __future__ import annotations

import pytest
import torch

from evaluator.forward_watch import Provenance
from evaluator.launch_hook import LaunchRecorder
from evaluator.output_noise import random_uninitialised, torch_compute_noised


def _written_past_the_dispatcher(x: torch.Tensor) -> torch.Tensor:
    """torch.empty, then bytes written by host code the dispatcher never sees (numpy over the
    same memory): what a composite op's C++ does to the `empty` it dispatched."""
    out = torch.empty_like(x)
    out.numpy()[:] = (x * 0).numpy() + 2.0  # the product reads x through aten (marked); its copy doesn't
    return out


def test_fresh_memory_written_past_the_dispatcher_is_pytorchs_when_returned_handed_or_read():
    x = torch.randn(64)
    watch = Provenance(LaunchRecorder())
    with random_uninitialised(), watch:
        out = _written_past_the_dispatcher(x)
        watch.returned([out])
    assert "past the dispatcher" in (watch.report()["returned"] or "")

    watch = Provenance(LaunchRecorder())
    with random_uninitialised(), watch:
        out = _written_past_the_dispatcher(x)
        with watch.launching(object(), (out, torch.empty(64)), {}):  # what the hook wraps a launch in
            pass
        watch.launched(object(), (out, torch.empty(64)), {})
    assert "past the dispatcher" in (watch.report()["handed"] or "")

    watch = Provenance(LaunchRecorder())
    with random_uninitialised(), watch:
        out = _written_past_the_dispatcher(x)
        reads = [out[i].item() for i in range(8)]  # free while it was only torch.empty's noise
    assert reads == [2.0] * 8 and watch.report()["host_reads"] == 8


@pytest.mark.filterwarnings("ignore::UserWarning")
def test_a_composite_ops_gemm_into_the_empty_it_dispatched_is_pytorchs():
    """torch.fbgemm_linear_fp16_weight_fp32_activation dispatches only empty(0) and resize_
    and runs a whole GEMM on raw pointers (red team A, session 19): closed by name in the
    allowlist, and by the fingerprint of fresh memory in the watch whatever the op's name."""
    if not hasattr(torch, "fbgemm_linear_fp16_weight_fp32_activation") or \
            "fbgemm" not in torch.backends.quantized.supported_engines:
        pytest.skip("this PyTorch has no fbgemm")
    a, b = torch.randn(64, 32), torch.randn(32, 16)
    packed = torch.fbgemm_pack_gemm_matrix_fp16(b.t().contiguous())
    watch = Provenance(LaunchRecorder())
    with random_uninitialised(), watch:
        y = torch.fbgemm_linear_fp16_weight_fp32_activation(a, packed, None)
        watch.returned([y])
    assert torch.allclose(y, a @ b, atol=0.05)  # the GEMM is real
    assert "past the dispatcher" in (watch.report()["returned"] or "")


def test_fresh_memory_only_operators_and_launches_wrote_stays_unmarked():
    """What honest forwards do with fresh memory: fill it, resize it, copy into it, view it,
    hand it to a kernel which writes it, read it; none of it is marked."""
    watch = Provenance(LaunchRecorder())
    with random_uninitialised(), watch:
        acc = torch.zeros(16)
        grown = torch.empty(0).resize_(32)
        grown[:16].copy_(torch.ones(16))
        out = torch.empty(8, 4)
        for i in range(40):  # row by row, beyond the prints the watch keeps of one storage
            out.view(-1)[i % 32].fill_(float(i))
        with watch.launching(object(), (acc, grown, out), {}):
            acc.numpy()[:] = 5.0  # the kernel writes what it is handed, as the interpreter does
            acc.copy_(acc)  # and copies it onto itself
        watch.launched(object(), (acc, grown, out), {})
        total = acc[0].item() + grown[0].item()
        watch.returned([acc, out.t()])
    report = watch.report()
    assert report["handed"] is None and report["returned"] is None and total == 6.0


def test_a_run_of_dtypes_in_launch_arguments_is_data():
    """A tuple of dtype constexprs carries ~4 bits per element from the host to a kernel (red
    team A, session 20): a run of them counts; a kernel's one or two dtypes do not."""
    import triton.language as tl

    kinds = (tl.float16, tl.bfloat16, tl.float32, tl.int8, tl.int16, tl.int32, tl.int64, tl.uint8)
    bits = [kinds[(i * 7) % 8] for i in range(4096)]
    watch = Provenance(LaunchRecorder())
    with watch:
        watch.launched(object(), (torch.zeros(4), tuple(tl.constexpr(d) for d in bits)), {})
    assert watch.report()["host_made"] == 4096 // 8
    watch = Provenance(LaunchRecorder())
    with watch:
        watch.launched(object(), (torch.zeros(4), tl.constexpr(tl.float16), torch.float32), {})
    assert watch.report()["host_made"] == 0


def test_constants_torch_computes_from_made_memory_alone_are_nobodys_data():
    """Honest strict kernels read masks and tables PyTorch builds from shapes alone (honest
    round, session 20: `torch.ones(n, n).triu(1)`, `arange(C) // (C // G)` were
    torch_computes). They are unmarked, and the torch knock-out leaves them right; anything
    an input, a kernel's output or host data reached is still PyTorch's work."""
    x = torch.randn(8, 8)
    watch = Provenance(LaunchRecorder())
    with random_uninitialised(), watch:
        mask = torch.ones(8, 8, dtype=torch.bool).triu(1)
        groups = torch.arange(16, dtype=torch.int32)[None, :] // 4  # through a view
        watch.launched(object(), (x, mask, groups.to(torch.int64)), {})
    assert watch.report()["handed"] is None
    watch = Provenance(LaunchRecorder())
    with random_uninitialised(), watch:
        buf = torch.zeros(8, 8)
        watch.launched(object(), (buf,), {})  # a kernel wrote it: data now
        watch.returned([buf * 2])
    assert "aten::mul" in (watch.report()["returned_after_kernels"] or "")
    watch = Provenance(LaunchRecorder())
    with random_uninitialised(), watch:
        watch.returned([torch.tensor([1.0, 2.0]) * 2, x.triu(1)])
    assert watch.report()["returned"] is not None

    recorder = LaunchRecorder()
    with torch_compute_noised(recorder):
        mask = torch.ones(8, 8, dtype=torch.bool).triu(1)
        groups = torch.arange(16)[None, :] // 4
        computed = x.triu(1)
    assert torch.equal(mask, torch.ones(8, 8, dtype=torch.bool).triu(1))
    assert torch.equal(groups, torch.arange(16)[None, :] // 4)
    assert not torch.equal(computed, x.triu(1))
    with torch_compute_noised(recorder):
        buf = torch.zeros(8)
        recorder.observer(object(), (buf,), {})  # what the hook calls after a launch
        assert not torch.equal(buf + 1, torch.ones(8))


@pytest.mark.parametrize("route", ["copy_into_made", "fill_from_input", "where_over_made_mask",
                                   "view_of_input", "set_to_input", "cat_with_made", "index_made_by_input"])
def test_input_data_never_becomes_a_constant(route):
    """Attacks on the constants rule: every route by which an input's values could end up in
    memory the watch calls made (and so unmarked, free to read, un-noised in the torch
    knock-out) keeps them data: the result of PyTorch computing on them is marked."""
    x = torch.randn(16)
    watch = Provenance(LaunchRecorder())
    with random_uninitialised(), watch:
        made = torch.zeros(16)
        if route == "copy_into_made":
            made.copy_(x)
            out = made * 2
        elif route == "fill_from_input":
            out = torch.empty(1).fill_(x[3]) * 2
        elif route == "where_over_made_mask":
            out = torch.where(torch.ones(16, dtype=torch.bool), x, made) * 2
        elif route == "view_of_input":
            out = x.view(4, 4).t() * 2
        elif route == "set_to_input":
            out = torch.empty(0).set_(x) * 2
        elif route == "cat_with_made":
            out = torch.cat([made, x]) * 2
        else:
            out = made[x.abs().long() % 16] * 0 + x * 2
        read = out.reshape(-1)[0].item()
        watch.returned([out])
    report = watch.report()
    assert report["returned"] is not None and report["handed"] is not None, (route, report)
    assert isinstance(read, float)


def test_a_conversion_of_floats_to_integers_is_computed_in_the_torch_knock_out():
    """A float to integer (or bool) conversion saturates, truncates or tests for zero, and one into
    float8 saturates: hardtanh's clamp as one `_to_copy` to int32 on the GPU, its comparisons as
    float8 signs (red team s62d), are noised like any compute op; moves and honest casts (an
    output's bfloat16, int32 indices widened) keep their values."""
    spread = torch.randn(256, dtype=torch.float64) * 2.0 ** 33
    codes = torch.arange(256, dtype=torch.int32)
    x = torch.randn(256)
    with torch_compute_noised(LaunchRecorder()):
        clamped = spread.to(torch.int32)
        into = torch.empty(256, dtype=torch.int64).copy_(spread)
        nonzero = x.to(torch.bool)
        signs = (x * 2.0 ** 60).to(torch.float8_e4m3fn)
        half = x.to(torch.bfloat16)
        wide = codes.to(torch.int64)
        moved = x.clone()
    assert not torch.equal(clamped, spread.clamp(-2.0 ** 31, 2.0 ** 31 - 1).to(torch.int32))
    assert not torch.equal(into, spread.to(torch.int64))
    assert not torch.equal(nonzero, x.to(torch.bool))
    assert not torch.equal(signs.float(), (x * 2.0 ** 60).to(torch.float8_e4m3fn).float())
    assert torch.equal(half, x.to(torch.bfloat16))
    assert torch.equal(wide, codes.to(torch.int64))
    assert torch.equal(moved, x)
