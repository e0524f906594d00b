"""The dispatch modes around checked forwards see every way PyTorch can hand back a result:
values an op returns, tensors it writes without returning them, and sizes it computes.

Both found by a red team under the strict policy: F.batch_norm(training=True, momentum=1)
leaves the exact batch means in running_mean (native_batch_norm's schema does not even
mark it written) and returns only the normalised tensor; masked_select's LENGTH is a
popcount, readable as .shape with no aten op. The corpus entries rt7_batchnorm_* and
rt7_shape_channel_* run them end to end.
"""
from __future__ import annotations

import pytest
import torch
import torch.nn.functional as F

from evaluator.forward_watch import Provenance
from evaluator.launch_hook import LaunchRecorder
from evaluator.output_noise import random_uninitialised, torch_compute_noised


def _batch_means(x: torch.Tensor) -> torch.Tensor:
    mean = torch.zeros(x.shape[0])
    var = torch.ones(x.shape[0])
    F.batch_norm(x.view(1, *x.shape), mean, var, None, None, training=True, momentum=1.0)
    return mean


def test_running_statistics_written_in_place_are_noised_in_the_torch_knockout():
    x = torch.randn(6, 50)
    assert torch.allclose(_batch_means(x), x.mean(dim=1), atol=1e-5)  # the channel is real
    with torch_compute_noised():
        mean = _batch_means(x)
    assert not torch.allclose(mean, x.mean(dim=1), atol=1e-2)


def test_running_statistics_written_in_place_are_marked_as_computed():
    watch = Provenance(LaunchRecorder())
    with watch:
        mean = _batch_means(torch.randn(6, 50))
        watch.returned([mean])
    assert "native_batch_norm" in (watch.report()["returned"] or "")


def test_an_in_place_op_marks_what_it_wrote():
    x = torch.randn(8)  # data: an input, not memory the forward made
    watch = Provenance(LaunchRecorder())
    with watch:
        buf = torch.zeros(8)
        buf.add_(x)
        watch.returned([buf])
    assert "add_" in (watch.report()["returned"] or "")


def test_a_data_dependent_size_is_not_what_pytorch_computed_in_the_torch_knockout():
    mask = torch.rand(4000) < 0.5
    ones = torch.ones(4000)
    truth = int(mask.sum())
    lengths = set()
    for _ in range(5):
        with torch_compute_noised():
            lengths.add(torch.masked_select(ones, mask).shape[0])
            lengths.add(mask.nonzero().shape[0])
    assert lengths != {truth} and len(lengths) > 1


def test_a_data_dependent_size_counts_as_a_value_read_from_pytorch():
    watch = Provenance(LaunchRecorder())
    with watch:
        n = torch.masked_select(torch.ones(10), torch.rand(10) < 0.5).shape[0]
    assert n >= 0
    assert "masked_select" in (watch.report()["handed"] or "")


def test_glue_and_fresh_memory_stay_unmarked_and_unnoised():
    watch = Provenance(LaunchRecorder())
    x = torch.arange(12.0)
    with watch:
        out = torch.empty(12)
        out.copy_(x.view(3, 4).reshape(-1))
        watch.returned([out])
    assert watch.report() == {"handed": None, "returned": None, "thin": None, "returned_after_kernels": None,
                              "host_reads": 0, "host_made": 0, "launch_ints": 0, "host_computed": 0,
                              "per_forward": {"host_reads": 0, "host_made": 0, "launch_ints": 0, "host_computed": 0},
                              "carried_kernels": [], "writes": {}, "carried_writes": [], "marked_writes": []}
    with torch_compute_noised():
        y = torch.empty(3, 4).copy_(x.view(3, 4)).t().contiguous()
    assert torch.equal(y, x.view(3, 4).t())


def test_a_watch_over_a_batch_of_forwards_reports_each_forwards_host_reads():
    """A profiled timed batch is watched forward by forward with one watch: its totals sum
    the batch, and `per_forward` is what the timing phase holds to a trial's limits (red team
    s29: host reads from the eighth forward on, in the timed runs only)."""
    watch = Provenance(LaunchRecorder())
    x = torch.arange(40.0)
    for reads in (3, 12, 5):  # three forwards of one batch
        with watch:
            _ = [x[i].item() for i in range(reads)]
    report = watch.report()
    assert report["host_reads"] == 20
    assert report["per_forward"]["host_reads"] == 12


def test_a_watch_over_a_batch_of_forwards_prices_each_forwards_computed_numbers():
    """Computed numbers are held to a trial's limit per forward too: each timed forward of a
    batch lifting the expert counts it read back (MoE align: a different count each draw) was
    the union of the batch's, 14 numbers, host_compute on the H100 (session 67); a table every
    forward lifts again counts once, in the first forward that brings it."""
    watch = Provenance(LaunchRecorder())
    for count in (40000, 41000, 39000, 42000, 40500, 39500, 41500):  # seven forwards of one batch
        with watch:
            torch.tensor([0, count], dtype=torch.int32)
            torch.tensor([0.1234, 0.5678, 0.9101])
    report = watch.report()
    per_forward = report["per_forward"]["host_computed"]
    assert 0 < per_forward < report["host_computed"]
    single = Provenance(LaunchRecorder())
    with single:
        torch.tensor([0, 40000], dtype=torch.int32)
        torch.tensor([0.1234, 0.5678, 0.9101])
    assert per_forward == single.report()["host_computed"]


def test_permutations_and_repeats_are_glue():
    """flip, roll, repeat and im2col move values and compute none (honest corpus, session 15:
    a reverse cumsum written flip -> Triton scan -> flip, and an im2col + Triton GEMM conv,
    were called torch_computes under strict)."""
    x = torch.arange(24.0).view(1, 1, 4, 6)
    moves = (lambda t: t.flip(-1), lambda t: t.roll(2, -1), lambda t: t.repeat(1, 2, 1, 1),
             lambda t: F.unfold(t, 2))
    watch = Provenance(LaunchRecorder())
    with watch:
        outs = [move(x) for move in moves]
        watch.returned(outs)
    assert watch.report()["returned"] is None
    with torch_compute_noised():
        noised = [move(x) for move in moves]
    assert all(torch.equal(a, b) for a, b in zip(outs, noised))


def test_running_statistics_read_in_eval_mode_are_left_alone():
    x = torch.randn(6, 50)
    mean, var = torch.randn(6), torch.rand(6) + 0.5
    kept = mean.clone()
    watch = Provenance(LaunchRecorder())
    with watch:
        F.batch_norm(x.view(1, *x.shape), mean, var, None, None, training=False)
        watch.returned([mean])
    assert watch.report()["returned"] is None
    with torch_compute_noised():
        F.batch_norm(x.view(1, *x.shape), mean, var, None, None, training=False)
    assert torch.equal(mean, kept)


def test_a_fill_from_a_computed_value_carries_its_mark():
    """A red team copied torch's relu into a fresh buffer one element at a time with
    a.fill_(b) (b a 0-dim slice of the result): fill_ made the buffer unmarked."""
    watch = Provenance(LaunchRecorder())
    with watch:
        y = torch.relu(torch.randn(4))
        out = torch.empty(4)
        for i in range(4):
            out[i].fill_(y[i])
        watch.returned([out])
    assert "relu" in (watch.report()["returned"] or "")


def test_a_bool_read_from_computed_values_is_a_host_read():
    watch = Provenance(LaunchRecorder())
    with watch:
        y = torch.relu(torch.randn(4))
        assert not torch.equal(y, y + 1)
    assert "host" in (watch.report()["handed"] or "")


def test_a_tensors_text_shows_no_values_and_bytes_of_it_are_host_reads(monkeypatch):
    """Self-attack (session 15): with str() closed (a child's tensor text names shape, dtype
    and device only), bytes(t) is the remaining plain-Python way to read values (the static
    layer refuses numpy, storages, dlpack; tolist reads through
    `.item()`); it reads each element through
    aten::_local_scalar_dense, which the watch counts as host reads of memory no kernel wrote.
    The torch knock-out leaves reads of what PyTorch did not compute as they are (session 16:
    noising every read told that run apart by `torch.ones(1).item()`)."""
    from evaluator.child import _values_never_printed

    monkeypatch.setattr(torch.Tensor, "__repr__", torch.Tensor.__repr__)  # restored afterwards
    monkeypatch.setattr(torch.Tensor, "__str__", torch.Tensor.__str__)
    _values_never_printed()
    x = torch.tensor([0.25, 1.5])
    for text in (str(x), repr(x), f"{x}", "%s" % (x,), str([x])):
        assert "0.25" not in text and "1.5" not in text and "shape=(2,)" in text
    data = torch.arange(1, 9, dtype=torch.uint8)
    watch = Provenance(LaunchRecorder())
    with watch:
        assert bytes(data) == bytes(range(1, 9))
        assert torch.ones(1).item() == 1.0  # memory the forward made: no host read
    assert watch.report()["host_reads"] == 8
    with torch_compute_noised():
        assert torch.ones(1).item() == 1.0 and bytes(data) == bytes(range(1, 9))
        assert (torch.ones(64) * 2).sum().item() != 128.0  # what PyTorch computed is noise


def test_values_python_puts_into_tensors_are_counted():
    """torch.tensor of Python data counts every element, full/fill_/arange of a Python number
    one each (red team B, session 16: a GEMM computed in Python from tensor_split's sizes,
    which C++ read with no op the watch sees, reached the output through torch.tensor)."""
    watch = Provenance(LaunchRecorder())
    with watch:
        torch.tensor([float(i) for i in range(100)])
        torch.full((4,), 2.5)
        torch.empty(3).fill_(1.0)
        torch.zeros(5)  # no value from Python
    assert watch.report()["host_made"] == 102


def test_host_reads_of_any_copy_count_and_python_numbers_into_ops_count():
    """Red team C (session 16): a copy of an input (torch.empty().copy_(x), or a Triton copy
    kernel's output) was read to the host for free, and F.pad(empty(0), [0, 1], value=v)
    wrote a host-computed value uncounted. Only memory make ops alone wrote reads free; a
    Python number an op takes as a value counts; distinct Python numbers handed to launches
    count; what torch.tensor makes is marked as made on the host."""
    x = torch.randn(8)
    watch = Provenance(LaunchRecorder())
    with watch:
        y = torch.empty(8).copy_(x)
        for i in range(3):
            float(y[i])
        assert torch.ones(1).item() == 1.0
        torch.nn.functional.pad(torch.empty(0), [0, 1], value=3.5)
        z = x + 2.0
        made = torch.tensor([1.0, 2.0])
        assert z.shape == x.shape  # made by this forward: its sizes would explain no int (rt80)
        watch.launched(object(), (x, 1.5, 2.5, 1.5, (7, 8)), {"BLOCK": 64})
        watch.returned([made])
    report = watch.report()
    assert report["host_reads"] == 3
    # pad value, x + 2.0, lift_fresh's 2, floats 1.5 and 2.5, and the int 7, which no size of
    # the launch's input explains (8 and 64 = 8 * 8 it does: evaluator.launch_sizes)
    assert report["host_made"] == 1 + 1 + 2 + 2 + 1
    assert report["launch_ints"] == 3  # 7, 8, 64
    assert "lift_fresh" in (report["returned"] or "")


def test_memory_resize_adds_holds_noise_in_checked_forwards():
    """Red team C (session 16): a freed PyTorch result was taken back through resize_ into new,
    unmarked memory; under the noise mode the grown part holds noise, as torch.empty's."""
    with random_uninitialised():
        t = torch.zeros(4)
        t.resize_(4096)
    assert torch.equal(t[:4], torch.zeros(4)) and float(t[4:].abs().max()) > 10.0


def test_memory_resize_adds_holds_noise_whatever_the_layout_over_it():
    """Red team A (session 17): a channels_last resize_ is not contiguous, and the grown
    memory was left as it was: torch.matmul's freed result came back whole. Every byte the
    storage gains is noise; what it held before stays."""
    with random_uninitialised():
        kept = torch.zeros(2, 2, 2, 2)
        kept.resize_((1, 4, 64, 4), memory_format=torch.channels_last)
        fresh = torch.empty(0).resize_((1, 4, 64, 4), memory_format=torch.channels_last)
    assert not kept.is_contiguous() and not fresh.is_contiguous()
    storage = torch.empty(0).set_(kept.untyped_storage(), 0, (kept.numel(),))
    assert torch.equal(storage[:16], torch.zeros(16)) and float(storage[16:].abs().min()) >= 0
    assert float(storage[16:].abs().mean()) > 100.0 and float(fresh.abs().mean()) > 100.0


def test_fresh_memory_holds_noise_across_its_whole_storage_not_only_its_elements():
    """Red team C (session 17): torch.empty_strided((2,), (big,)) has two elements and a
    storage of `big` ones; only the elements were noised, and the gap between them held a
    freed torch.matmul result, taken back whole. The whole storage of fresh memory is noise."""
    product = torch.arange(1.0, 4097.0)  # stands for a freed PyTorch result
    del product
    with random_uninitialised():
        t = torch.empty_strided((2,), (4096,))
    whole = torch.empty(0).set_(t.untyped_storage(), 0, (t.untyped_storage().nbytes() // 4,))
    assert whole.numel() == 4097
    assert float(whole.abs().mean()) > 100.0 and not bool((whole == whole.round()).float().mean() > 0.5)


def test_sparse_layouts_are_sizes_computed_from_values():
    """Red team A (session 17): `(arange(256) < b).to_sparse().values().shape[0]` read a byte
    of torch's result with no op the watch counted (to_sparse carries no data-dependent-shape
    tag). Any op that takes or makes a sparse tensor is a size read from values: a host read,
    and PyTorch's computation handed to Python."""
    x = torch.arange(256.0)
    watch = Provenance(LaunchRecorder())
    with watch:
        n = (x < 77.0).to_sparse().values().shape[0]
    report = watch.report()
    assert n == 77 and report["host_reads"] >= 1
    assert "sparse" in (report["handed"] or "")


def test_a_python_buffer_made_a_tensor_counts_as_values_made_on_the_host():
    """Red team A (session 17): torch.asarray(bytes) wraps a Python buffer with no dispatched
    op, so a host GEMM's whole result entered tensor memory uncounted. In a candidate child it
    passes through lift_fresh_copy: the same values, counted and marked as the host's."""
    import array

    from evaluator.watched_reads import host_buffers_visible

    real = torch.asarray
    try:
        host_buffers_visible()
        watch = Provenance(LaunchRecorder())
        with watch:
            t = torch.asarray(bytes(array.array("f", [1.5, 2.5, 3.5, 4.5])), dtype=torch.float32)
            same = torch.asarray(t)  # a tensor stays itself
        assert t.tolist() == [1.5, 2.5, 3.5, 4.5] and same is t
        assert watch.report()["host_made"] >= 4
    finally:
        torch.asarray = real


def test_tensor_split_by_a_tensor_reads_its_values_where_the_watch_sees_them():
    """Red teams B and D (session 16): tensor_split with a tensor of indices read its values in
    C++ (no dispatched op) and handed them to Python as slice sizes. A candidate child turns
    the tensor into ints one dispatched read at a time: the split is the same, the reads count."""
    from evaluator.watched_reads import tensor_split_reads_visible

    real = torch.tensor_split, torch.Tensor.tensor_split
    try:
        tensor_split_reads_visible()
        x = torch.arange(10.0)
        idx = torch.tensor([2, 5, 7])
        watch = Provenance(LaunchRecorder())
        with watch:
            parts = torch.tensor_split(x, idx)
            same = x.tensor_split(torch.tensor(3))
        assert [p.tolist() for p in parts] == [p.tolist() for p in real[0](x, [2, 5, 7])]
        assert len(same) == 3
        report = watch.report()
        assert report["host_reads"] == 3 + 1  # idx's values (the inputs' side), torch.tensor(3)'s
        assert "lift_fresh" in (report["handed"] or "")  # torch.tensor(3) made in forward: host data
    finally:
        torch.tensor_split, torch.Tensor.tensor_split = real


@pytest.mark.parametrize("use", [
    lambda x, t: torch.split(x, [t[0], t[1] - t[0], 20 - t[1]]),
    lambda x, t: torch.narrow(x, 0, t[0], 3),
    lambda x, t: torch.empty(int(t[1])),
    lambda x, t: torch.repeat_interleave(x[:3], t),
    lambda x, t: x[t[0]],
    lambda x, t: torch.arange(t[1]),
    lambda x, t: torch.zeros(t[0], t[1]),
], ids=["split_sizes", "narrow_start", "int", "repeat_interleave", "index", "arange", "sizes"])
def test_a_tensors_value_used_as_a_size_or_index_is_seen(use):
    """Self-attack (session 16): besides tensor_split and torch.tensor of tensors (C++ reads
    with no dispatched op, handled), every way found to turn a tensor's value into a size or
    an index goes through a dispatched read the watch counts, or a data-dependent size."""
    x, t = torch.arange(20.0), torch.tensor([2, 5, 9])
    watch = Provenance(LaunchRecorder())
    with watch:
        use(x, t)
    report = watch.report()
    assert report["host_reads"] >= 1 or report["handed"], report


def test_storage_that_set_grows_holds_noise_in_checked_forwards():
    """Red team D (session 17): `torch.empty(0).set_(torch.zeros(1), 0, (n,), (1,))` grows the
    one-element storage to n and took back a freed torch.matmul product; any in-place view op
    (resize_, set_, as_strided_) that grows a storage leaves the new bytes as noise, and a
    storage it does not grow keeps its values."""
    with random_uninitialised():
        src = torch.zeros(1)
        t = torch.empty(0).set_(src, 0, (4096,), (1,))
        kept = torch.arange(8.0)
        view = torch.empty(0).set_(kept, 0, (8,), (1,))
    assert float(t[0]) == 0.0 and float(t[1:].abs().mean()) > 100.0
    assert torch.equal(view, torch.arange(8.0))


def test_data_in_launch_arguments_counts_however_it_is_wrapped():
    """A host GEMM went back as one tuple of tl.constexpr floats (red team D, session 18),
    and as text in one str argument (red team A): launch data counts inside constexprs, a
    string holds a value per 4 characters, a run of booleans one per 32; a single flag or a
    short kernel name costs next to nothing."""
    import triton.language as tl

    product = [float(i) / 7 for i in range(4096)]
    watch = Provenance(LaunchRecorder())
    with watch:
        watch.launched(object(), (torch.zeros(4), tuple(tl.constexpr(v) for v in product)), {})
    assert watch.report()["host_made"] == 4096
    watch = Provenance(LaunchRecorder())
    with watch:
        watch.launched(object(), (torch.zeros(4), ",".join(f"{v:.6e}" for v in product)), {})
    assert watch.report()["host_made"] >= 4096 * 13 // 4
    watch = Provenance(LaunchRecorder())
    with watch:
        watch.launched(object(), (torch.zeros(4), tuple(i % 3 == 0 for i in range(4096))), {})
    assert watch.report()["host_made"] == 4096 // 32
    watch = Provenance(LaunchRecorder())
    with watch:
        for _ in range(3):  # an honest launch: an activation's name, one flag, a block size
            watch.launched(object(), (torch.zeros(4), "gelu", True, tl.constexpr(1024)), {})
    assert watch.report()["host_made"] == 1 and watch.report()["launch_ints"] == 1


@pytest.mark.parametrize("dtype", [torch.uint8, torch.uint16, torch.uint32, torch.uint64,
                                   torch.int32, torch.int64])
def test_fresh_integers_are_never_a_valid_index_into_a_real_dimension(dtype):
    """Red team A (session 19): unsigned 16/32/64-bit fresh memory got a float draw cast to
    the type, below 128 four times in ten, so a one-element uint32 index read as int64
    was a valid index about half the time. Every integer type now draws >= 128."""
    with random_uninitialised():
        t = torch.empty(4096, dtype=dtype)
    assert int(t.to(torch.float64).min()) >= 128 if dtype != torch.uint8 else int(t.min()) >= 128


def test_a_buffer_filled_from_a_tensor_value_is_data_not_made_memory():
    """Red team A (session 19): fill_ is a make op, so buf.fill_(x[i, j]) left a buffer that
    counted as made by make ops alone, and buf.item() read every input element for free (a
    host GEMM, ok under strict at reward ~1). A fill from a tensor makes only what its value
    was: from an input it is data (each read counts), from made memory it is still made."""
    x = torch.randn(4, 4)
    watch = Provenance(LaunchRecorder())
    with watch:
        cell = torch.empty(())
        for i in range(4):
            cell.fill_(x[i, i])
            cell.item()
        torch.fill(torch.empty(()), x[0, 1]).item()  # the functional form (aten fill.Tensor)
        free = torch.empty(())
        free.fill_(torch.zeros(()))  # a value make ops made: still free
        free.item()
        free.fill_(2.0)
        free.item()
    assert watch.report()["host_reads"] == 5


def test_every_number_the_launcher_accepts_is_counted_as_launch_data():
    """Red team A (session 19): the count walked tuples one level less deep than a launch may
    nest them, and never looked inside a TensorDescriptor's shape or a pointer type's address
    space: a host GEMM went out through each, uncounted, ok under strict."""
    import triton.language as tl
    from triton.tools.tensor_descriptor import TensorDescriptor

    from evaluator.launch_hook import check_arguments
    base = torch.zeros(64)
    deep = (((tuple(float(i) + 0.5 for i in range(100)),),),)
    desc = TensorDescriptor(base, shape=(1000003,), strides=(1,), block_shape=(16,))
    pointers = tuple(tl.pointer_type(tl.float32, address_space=a) for a in range(200, 260))

    class _K:
        arg_names = ("a", "b", "c")
    check_arguments(_K(), (deep, desc, pointers), {})  # all accepted by the launcher
    watch = Provenance(LaunchRecorder())
    with watch:
        watch.launched(object(), (deep, desc, pointers), {})
    report = watch.report()
    # the floats four tuples down, and the 60 address spaces: one tuple's run of ints is data;
    # and the descriptor's shape, which its 64-element base does not explain (launch_sizes)
    assert report["host_made"] == 100 + 60 + 1
    assert report["launch_ints"] >= 1  # the descriptor's shape


def test_a_tuple_of_many_ints_is_data_not_sizes():
    """Red team rt74: host Python's sigmoid table as 256 fixed-point ints in one tuple argument
    that a kernel stored as its table (distinct ints counted only past 4096, as sizes are): a
    tuple's ints past launch_args.TUPLE_INTS are host values; a shape, strides and sizes stay
    ints where the launch's tensors explain them (evaluator.launch_sizes)."""
    codes = tuple(round((1 << 30) / (1 + 2.0 ** -(k / 32))) for k in range(256))
    x, t256, t512 = torch.empty(4, 300), torch.empty(256), torch.empty(512)  # made before the forward
    watch = Provenance(LaunchRecorder())
    with watch:
        watch.launched(object(), (codes, t256, 256), {})
        watch.launched(object(), (codes, t512, 512), {})  # the same run again: counted once
        watch.launched(object(), (x, (4, 300), (300, 1), 1200), {})
    report = watch.report()
    assert report["host_made"] == 256
    assert report["launch_ints"] == len({256, 512, 4, 300, 1, 1200})


def test_reads_of_what_pytorch_computed_count_as_host_reads_too():
    """Session 19: a read of memory PyTorch computed was only a hand-over (torch's work, which
    the paper policy allows), so host Python computed a whole argmax from x * 1.0 read element
    by element, and a Triton kernel stored the indices: ok under paper. Such a read is also a
    value Python may compute on."""
    x = torch.randn(4, 8)
    watch = Provenance(LaunchRecorder())
    with watch:
        y = x * 1.0
        for i in range(8):
            y[0, i].item()
    report = watch.report()
    assert report["host_reads"] == 8 and "aten::mul" in (report["handed"] or "")


def test_a_boolean_read_to_the_host_is_a_bit_of_a_value():
    """Honest round, session 19: a forward that skips all-zero chunks asks one
    bool((c != 0).any()) per chunk; 20 chunks were 20 values read, over the limit of 16.
    A boolean is one bit of the 32 a value read costs, so reading values bit by bit costs
    as much as reading them."""
    x = torch.randn(64)
    watch = Provenance(LaunchRecorder())
    with watch:
        for c in x.split(2):
            bool((c != 0).any())  # 32 booleans: one value's worth
        float(x[0])
    assert watch.report()["host_reads"] == 2


def test_library_tolist_inside_a_watched_forward_reads_where_the_watch_sees_it():
    """Red team A (session 19): torch.tensordot turns a tensor `dims` into ints with tolist(),
    a C++ read no dispatch mode sees, and a host conv read every input through the shape of
    its result (ok under strict). In a candidate child, tolist inside a watched forward reads
    one dispatched element at a time (counted), and numpy() there is refused; outside a
    forward both are torch's own."""
    from evaluator.watched_reads import library_reads_visible

    real = torch.Tensor.tolist, torch.Tensor.numpy
    try:
        library_reads_visible()
        a = torch.randn(3, 4)
        dims = torch.tensor([[1], [1]])
        watch = Provenance(LaunchRecorder())
        with watch:
            assert torch.tensordot(a, a, dims=dims).shape == (3, 3)
            with pytest.raises(RuntimeError, match="numpy"):
                a.numpy()
        assert watch.report()["host_reads"] == 2  # dims[0] and dims[1], one element each
        assert torch.arange(4).tolist() == [0, 1, 2, 3] and a.numpy().shape == (3, 4)
    finally:
        torch.Tensor.tolist, torch.Tensor.numpy = real


def test_a_candidates_own_tolist_is_one_counted_read_per_element():
    """Session 64: the static layer allows a candidate's `counts.tolist()` (MoE routing plans
    its grid from the per-expert counts). Inside a watched forward it is an `.item()` loop to
    the watch, every element a host read, so a whole table read this way is counted as one
    read element by element is (hacks/s64f_tolist_partials_host_argmax_finish)."""
    from evaluator.watched_reads import library_reads_visible

    real = torch.Tensor.tolist, torch.Tensor.numpy
    try:
        library_reads_visible()
        counts, table = torch.tensor([3, 5], dtype=torch.int32), torch.randn(3, 4)
        watch = Provenance(LaunchRecorder())
        with watch:
            assert counts.tolist() == [3, 5] and len(table.tolist()) == 3
        assert watch.report()["host_reads"] == 2 + 12
    finally:
        torch.Tensor.tolist, torch.Tensor.numpy = real


@pytest.mark.parametrize("make", [
    lambda v: torch.full((1,), v), lambda v: torch.scalar_tensor(v), lambda v: torch.zeros(1).add_(v),
    lambda v: torch.empty(()).fill_(v), lambda v: torch.fill(torch.empty(()), v)])
def test_every_make_op_given_an_input_value_reads_it_where_the_watch_counts(make):
    """Self-attack on the session-19 fill_ fix: each way to put an input element into new
    memory through a make op (a tensor value as a Scalar argument, fill from a tensor), then
    read it back to Python, costs one counted read per element, never a free one."""
    x = torch.randn(8)
    watch = Provenance(LaunchRecorder())
    with watch:
        for i in range(4):
            make(x[i]).item()
    assert watch.report()["host_reads"] >= 4


def test_sizes_host_python_chose_in_forward_are_data():
    """Red team rt80's class: one launch per table entry handed a tensor torch.empty(code) made
    in this forward and its numel, a slice scratch[:code] of a buffer made before it, or a grid
    function's (code,) explained every int by a size; none of those sizes explains now, and an
    input's slices in a chunk loop stay sizes (evaluator.launch_sizes)."""
    codes = [round(65535 / (1 + 2.0 ** -(k / 16))) for k in range(100)]
    scratch, x = torch.empty(1 << 16, dtype=torch.uint8), torch.empty(16000)
    for hand in ("made", "slice", "grid"):
        watch = Provenance(LaunchRecorder())
        with watch:
            for k, code in enumerate(codes):
                piece = torch.empty(code, dtype=torch.uint8) if hand == "made" else scratch[:code]
                watch.recorder.grid = (code,) if hand == "grid" else (1,)
                handed = (scratch, k) if hand == "grid" else (piece, k, piece.numel())
                watch.launched(_put, handed, {})
        assert watch.report()["host_made"] > 64, hand  # past policy.max_host_made
    watch = Provenance(LaunchRecorder())
    with watch:
        for _ in range(2):
            for start in range(0, 16000, 4096):
                src = x[start:start + 4096]
                watch.recorder.grid = ((src.numel() + 1023) // 1024,)
                watch.launched(_put, (src, 0, src.numel()), {})
    assert watch.report()["host_made"] <= 2  # the two chunk lengths


def _put(t_ptr, index, n=0):
    pass
