"""Input sets in a child: drawn and digested once, not kept; drawn again when used, and a
draw that then differs is an error (real KernelBench sets are GiBs: one at a time)."""
from __future__ import annotations

import pytest
import torch

from evaluator.launch_hook import LaunchRecorder
from evaluator.runner import Workspace

PROBLEM = """
import torch
import torch.nn as nn

class Model(nn.Module):
    def forward(self, x):
        return torch.relu(x)

n = 64

def get_inputs():
    return [torch.randn(n)]

def get_init_inputs():
    return []
"""


@pytest.fixture()
def ws(tmp_path):
    w = Workspace(tmp_path, 1, "cpu", LaunchRecorder())
    w.load_problem(PROBLEM, {})
    yield w
    w.close()


def test_a_prepared_set_holds_no_tensors_until_it_is_used_and_after_it_is_released(ws):
    applied, digest = ws.prepare(0, seed=11, transform="scale:1e3")
    assert applied == "scale:1e3" and digest
    assert ws._prepared[0].tensors == []
    first = ws.inputs(0)[0].clone()
    assert ws.inputs(0)[0] is ws.inputs(0)[0]  # kept while in use
    ws.release(0)
    assert ws._prepared[0].tensors == []
    again = ws.inputs(0)[0]
    assert torch.equal(first, again) and first.abs().max() > 100  # same draw, transform applied


def test_a_draw_that_differs_from_the_first_is_an_error(ws):
    ws.prepare(0, seed=11, transform="base")
    ws.problem.n = 65  # what changed the draw does not matter: it is not the set the worker checked
    with pytest.raises(ValueError, match="differs from its first draw"):
        ws.inputs(0)


def test_a_spiked_set_keeps_what_its_inputs_promise_and_puts_weight_in_one_element():
    """`spike` scales one element of each float32/float64 input to a random share (2-50%) of
    the tensor's absolute sum: the same element and share for the same seed in every process,
    by its own value (symmetric stays symmetric, triangular keeps its zeros, positive stays
    positive); a tensor of few distinct values (labels, masks), integer and half tensors are
    left alone, the float32 tensors beside a half one are not."""
    from evaluator.runner import SPIKE_SHARE, transform_inputs

    torch.manual_seed(0)
    sym = torch.randn(48, 48)
    sym = (sym + sym.T) / 2
    tri = torch.tril(torch.randn(48, 48))
    positive = torch.rand(4, 100)
    labels = torch.randint(0, 2, (500,)).float() * 2 - 1
    transposed = torch.randn(40, 24).t()
    pixels = torch.randint(0, 256, (64, 64)).float()  # many repeats of every value
    index = torch.arange(6)
    gain = torch.randn(32).half()
    inputs = [sym, tri, positive, labels, transposed, pixels, index, 3.0, gain]
    out, applied = transform_inputs(inputs, "spike", seed=7)
    assert applied == "spike"
    shares = []
    for before, after in zip(inputs[:6], out[:6]):
        changed = before != after
        if before is labels:
            assert after is labels
            continue
        assert 1 <= int(changed.sum()) <= 2
        big = after[changed]
        shares.append(float(big.abs()[0]) / float(before.abs().sum()))
        assert SPIKE_SHARE[0] <= shares[-1] <= SPIKE_SHARE[1]
        assert torch.equal(torch.sign(big), torch.sign(before[changed]))
    assert len(set(round(s, 6) for s in shares)) == len(shares)  # a share of its own per tensor
    assert torch.equal(out[0], out[0].T) and int((out[0] != sym).sum()) in (1, 2)
    assert torch.equal(torch.triu(out[1], 1), torch.zeros(48, 48))
    assert (out[2] > 0).all()
    assert out[4].stride() == transposed.stride()  # the problem's layout is kept
    assert int((out[5] != pixels).sum()) == 1
    assert out[6] is index and out[7] == 3.0 and out[8] is gain
    again, _ = transform_inputs(inputs, "spike", seed=7)
    other, _ = transform_inputs(inputs, "spike", seed=8)
    assert all(torch.equal(a, b) for a, b in zip(out[:7], again[:7]))
    assert not torch.equal(out[0], other[0])
    with torch.device("meta"):  # get_inputs runs under the device (cuda): the spike is placed the same
        under, _ = transform_inputs(inputs, "spike", seed=7)
    assert all(torch.equal(a, b) for a, b in zip(out[:7], under[:7]))
    half, applied = transform_inputs([gain, labels], "spike", seed=7)
    assert applied == "base" and half[0] is gain and half[1] is labels  # nothing could take one


@pytest.mark.parametrize("in_place,sliced", [(False, False), (True, False), (True, True)],
                         ids=["copied", "in_place", "in_place_sliced"])
def test_a_spiked_set_is_drawn_again_identically_from_its_seed(ws, monkeypatch, in_place, sliced):
    """Also where the spike is written into the fresh input itself (real sizes: on the H200
    every big problem's spiked set was recorded as 'base', so its next draw, unspiked,
    differed from the first and every evaluation failed as the problem's fault), and a
    slice at a time (a 17 GiB input's |x| summed in float64 at once asked 32 GiB)."""
    from evaluator import input_transforms

    if in_place:
        monkeypatch.setattr(input_transforms, "IN_PLACE_BYTES", 0)
    if sliced:
        monkeypatch.setattr(input_transforms, "_SPIKE_SLICE", 7)
    applied, digest = ws.prepare(0, seed=11, transform="spike", check_determinism=True)
    ws.prepare(1, seed=11, transform="base")
    assert applied == "spike" and digest
    first = ws.inputs(0)[0].clone()
    ws.release(0)
    assert torch.equal(first, ws.inputs(0)[0])
    base = ws.inputs(1)[0]
    changed = first != base
    assert int(changed.sum()) == 1
    assert 0.02 <= float(first[changed].abs()) / float(base.abs().sum()) <= 0.5


def test_a_big_spiked_input_is_written_in_place_only_when_nothing_else_holds_it(monkeypatch):
    """A GiB input copied for its spike was one more GiB on the device; a fresh tensor only
    the input list holds takes the spike itself, while one get_inputs keeps (a global) or
    one that is a view (or viewed) is copied and stays as it was."""
    from evaluator import input_transforms, runner

    monkeypatch.setattr(input_transforms, "IN_PLACE_BYTES", 0)
    written = []
    owned = input_transforms._owned
    monkeypatch.setattr(input_transforms, "_owned", lambda x, refs: written.append(owned(x, refs)) or written[-1])
    kept = torch.randn(1000)
    before = kept.clone()
    viewed = torch.randn(1000)
    view, untouched = viewed.view(10, 100), viewed.clone()
    spiked, applied = runner.transform_inputs(list([torch.randn(1000)]), "spike", seed=3)
    runner.transform_inputs([kept], "spike", seed=3)
    runner.transform_inputs([viewed], "spike", seed=3)
    assert written == [True, False, False]
    assert torch.equal(kept, before) and torch.equal(view.reshape(-1), untouched)
    assert spiked[0].abs().max() > 10 and applied == "spike"


def test_complex_inputs_and_inputs_inside_lists_are_spiked_and_scaled():
    """Red team B (session 15): complex tensors and tensors inside a list argument were
    never transformed (and scale:1e3 was reported applied to a complex input left as it was):
    a sampled norm over them was ok on every trial."""
    from evaluator.runner import transform_inputs

    z = torch.randn(64, 64, dtype=torch.complex64)
    a, b = torch.randn(4096), torch.randn(1024)
    scaled, applied = transform_inputs([z, [a, b]], "scale:1e3")
    assert applied == "scale:1e3" and torch.equal(scaled[0], z * 1e3)
    assert isinstance(scaled[1], list) and torch.equal(scaled[1][0], a * 1e3) and torch.equal(scaled[1][1], b * 1e3)
    spiked, applied = transform_inputs([z, [a, b]], "spike", seed=5)
    assert applied == "spike" and spiked[0].dtype == torch.complex64
    for before, after in ((torch.view_as_real(z), torch.view_as_real(spiked[0])), (a, spiked[1][0]), (b, spiked[1][1])):
        changed = before != after
        assert int(changed.sum()) == 1  # one element carries 2-50% of the absolute sum
        assert 0.02 <= float(after[changed].abs()) / float(before.abs().sum()) <= 0.5
    assert torch.equal(spiked[1][0], transform_inputs([z, [a, b]], "spike", seed=5)[0][1][0])  # reproducible


def test_scaled_sets_leave_labels_and_masks_as_they_are():
    """Honest round (session 16): hinge targets of +-1 scaled to +-1000 were no longer labels,
    and a kernel written for the problem's labels failed. Few distinct values: not moved;
    a set where nothing could move is reported as `base`."""
    from evaluator.runner import transform_inputs

    labels = torch.randint(0, 2, (500,)).float() * 2 - 1
    x = torch.randn(500)
    (moved_x, moved_labels), applied = transform_inputs([x, labels], "scale:1e3", 3)
    assert applied == "scale:1e3" and torch.equal(moved_labels, labels) and torch.allclose(moved_x, x * 1e3)
    (same,), applied = transform_inputs([labels], "scale:1e3", 3)
    assert applied == "base" and torch.equal(same, labels)
    (small,), applied = transform_inputs([torch.ones(8)], "scale:1e3", 3)  # a small weight may repeat
    assert applied == "scale:1e3" and torch.equal(small, torch.full((8,), 1e3))


def test_half_precision_inputs_are_scaled_by_exact_powers_of_two():
    """A float16 problem was judged on one distribution only (its inputs were never scaled),
    and a kernel that wrote a constant near an MSE's expected value was ok (red team F,
    session 18). Half inputs take 2^-4 and 2^4 for 1e-3 and 1e3: exact, and inside float16's
    range; a shift is not applied to them."""
    from evaluator.runner import transform_inputs

    x = torch.randn(64, 64, dtype=torch.float16)
    small, applied = transform_inputs([x], "scale:1e-3", seed=1)
    assert applied == "scale:0.0625" and torch.equal(small[0], x * 0.0625)
    big, applied = transform_inputs([x.to(torch.bfloat16)], "scale:1e3", seed=1)
    assert applied == "scale:16" and torch.equal(big[0], x.to(torch.bfloat16) * 16)
    assert torch.isfinite(big[0]).all()
    same, applied = transform_inputs([x], "shift:1", seed=1)
    assert applied == "base" and same[0] is x
    f32, applied = transform_inputs([x.float()], "scale:1e3", seed=1)
    assert applied == "scale:1e3"  # float32 keeps its own factors


def test_a_capped_spike_stays_small_enough_for_an_overflowing_reference():
    """Where the problem's own forward overflowed on the spike (exp of a share of the sum),
    the trial is redrawn as `spike:16`: one element of magnitude 16, still far above the rest,
    and exp of it finite (red team F, session 18)."""
    from evaluator.runner import SPIKE_CAPPED, transform_inputs

    x = torch.randn(64, 1024)
    full, applied = transform_inputs([x.clone()], "spike", seed=5)  # a spike may go in place
    assert applied == "spike" and not torch.isfinite(torch.exp(full[0].abs())).all()
    capped, applied = transform_inputs([x.clone()], f"spike:{SPIKE_CAPPED:g}", seed=5)
    assert applied == "spike:16" and capped[0].abs().max() == SPIKE_CAPPED
    assert torch.isfinite(torch.exp(capped[0].abs()).sum())
    assert (capped[0] != x).sum() >= 1 and (capped[0] != x).sum() <= 4


def test_a_near_tie_set_keeps_every_argmax_and_ties_a_rounded_key():
    """argmax_dim's near_tie trial (red team s69D): each row gets one element a few float32
    ulps below its maximum, so the answer stays, the draw repeats from its seed, labels are
    left alone, and an argmax over float16-rounded keys is wrong on many rows (on plain randn
    rows ~0.2%: ok in ~1 check of 9)."""
    from evaluator.input_transforms import transform_inputs

    gen = torch.Generator().manual_seed(3)
    x = torch.randn(64, 1500, generator=gen)
    labels = torch.randint(0, 3, (64, 8), generator=gen).float()
    (y, same), applied = transform_inputs([x, labels], "near_tie", seed=11)
    (again, _), _ = transform_inputs([x, labels], "near_tie", seed=11)
    assert applied == "near_tie" and torch.equal(y, again) and same is labels
    assert torch.equal(torch.argmax(y, 1), torch.argmax(x, 1))
    assert int((y != x).sum()) == 64
    rounded = torch.argmax(y.half().float(), 1)
    assert int((rounded != torch.argmax(x, 1)).sum()) >= 8
    assert transform_inputs([torch.randn(4, dtype=torch.float16)], "near_tie")[1] == "base"
