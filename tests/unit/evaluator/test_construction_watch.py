"""evaluator.construction_watch: which memory a ModelNew's construction computed (red team rt65:
a table of every bfloat16 code's sigmoid built in __init__ and gathered by a Triton kernel);
evaluator.kept_work: the PyTorch work a checked forward leaves alive (the same table built in
the first forward and cached)."""
import torch
import torch.nn as nn

from evaluator import construction_watch as cw
from evaluator import kept_work as kw


def _built(make):
    with cw.watched() as watch:
        kept = make()
    return watch, kept


def test_parameter_initialisation_is_not_computed():
    def make():
        q = torch.empty(4, 4)
        nn.init.trunc_normal_(q, std=0.02)
        nn.init.xavier_uniform_(q)
        return [nn.Linear(16, 16), nn.Conv2d(3, 8, 3), nn.LayerNorm(8), nn.Embedding(10, 4),
                nn.MultiheadAttention(8, 2), nn.GroupNorm(2, 8), nn.LSTM(4, 4, num_layers=6, bidirectional=True),
                [nn.BatchNorm2d(8) for _ in range(100)], nn.Parameter(0.1 * torch.randn(8, 1, 1)), q,
                torch.tensor([1.0, 2.0, 3.0]), torch.ones(4, 4, dtype=torch.bool)]
    watch, kept = _built(make)
    assert watch.computed == [] and watch.python_made == 0
    weight = kept[0].weight
    watch, _ = _built(lambda: weight.t().contiguous().half())  # a re-laid-out weight is a copy
    assert watch.computed == []


def test_tables_computed_at_construction_are_charged_or_computed():
    codes = torch.arange(65536, dtype=torch.int32).to(torch.int16)
    # float values over constants alone are PyTorch's (aten_facts.values_op), and charged
    watch, kept = _built(lambda: torch.sigmoid(codes.view(torch.bfloat16)))
    assert [t.numel() for t in watch.computed] == [65536] and watch.charge()[0] > 0
    # structure over constants stays a constant (a causal mask, an index table), charged
    watch, _ = _built(lambda: [torch.tril(torch.ones(64, 64)), torch.full((8, 8), float("-inf")).triu(1),
                               torch.zeros(8, 8).masked_fill(torch.ones(8, 8, dtype=torch.bool).triu(1), -1e4),
                               torch.arange(64) // 8, torch.arange(8)[:, None] >= torch.arange(8)[None, :]])
    assert watch.computed == [] and 0 < watch.charge()[0] < 1e-6
    # a random draw times zero launders nothing: an arange (or a cumsum) is a position
    watch, kept = _built(lambda: [torch.sigmoid(torch.arange(100.0) + 0 * torch.randn(100)),
                                  torch.cumsum(torch.randn(300) * 0 + 1, 0)])
    assert sorted(t.numel() for t in watch.computed) == [100, 300]


def test_charged_adds_construction_to_each_forward():
    cov = {"coverage": 1.0, "estimated_time_s": 1.0, "candidate_time_s": 1.0, "aten_time_s": 0.0,
           "unfused_time_s": 1.0, "error": None}
    out = cw.charged(cov, (1.0, 3.0))
    assert out["coverage"] == 0.5 and out["unfused_time_s"] == 4.0 and cov["coverage"] == 1.0
    gpu = cw.charged({"coverage": 0.9, "gpu_time_s": 1.0, "aten_unfused_s": 0.5, "error": None}, (1.0, 3.0))
    assert gpu["aten_unfused_s"] == 3.5 and gpu["coverage"] == 0.9


def test_python_tables_count_as_host_values():
    def make():
        chunks = torch.cat([torch.tensor([float(i + j) for j in range(64)]) for i in range(0, 256, 64)])
        filled = torch.empty(200)
        for i in range(200):
            filled[i] = i * 0.5
        return chunks, filled, torch.tensor([float(i) for i in range(1000)]).to(torch.bfloat16)
    watch, _ = _built(make)
    assert sorted(t.numel() for t in watch.computed) == [200, 256, 1000]
    assert watch.python_made == 1456


def test_noised_puts_the_bytes_back():
    t = torch.arange(10.0)
    with cw.noised([t[2:5]]):
        assert not torch.equal(t, torch.arange(10.0))
    assert torch.equal(t, torch.arange(10.0))


def test_work_a_forward_leaves_alive_is_kept():
    class Lazy(nn.Module):
        def __init__(self):
            super().__init__()
            self.table = None
            self.w = nn.Parameter(torch.randn(8))

        def forward(self, x):
            if self.table is None:
                self.table = torch.sigmoid(torch.arange(4096.0)).view(64, 64)  # kept through a view
            return [torch.relu(x) * 2 + self.w.t().contiguous().sum()]

    kept, model = {}, Lazy()
    for _ in range(3):
        x = torch.randn(100)
        watch = kw.Kept(kept)
        with watch:
            outs = model(x)
        watch.done(outs, [x])
        assert len(kept) == 2 and kw.kept_charge(kept)[0] > 0  # the outputs and temporaries are not
    charge = kw.kept_charge(kept)
    model.table = None  # a storage dying is no proof its data did (red team rt68): still charged
    assert kw.kept_charge(kept) == charge


def test_work_in_an_outputs_storage_beside_it_is_kept():
    """Red team rt68: a table PyTorch built into the head of a storage whose tail is the returned
    view; only storages the outputs (and inputs) fill whole are left uncharged."""
    slab, kept = torch.empty(4096 + 100), {}
    watch = kw.Kept(kept)
    with watch:
        torch.sigmoid(torch.arange(4096.0), out=slab[:4096])
        out = torch.abs(torch.randn(100), out=slab[4096:])
    watch.done([out], [])
    assert kw.kept_charge(kept)[0] > 0
    whole, kept = torch.empty(10, 10), {}
    watch = kw.Kept(kept)
    with watch:
        torch.sigmoid(torch.randn(10, 10), out=whole)
    watch.done([whole[:5], whole[5:].t()], [])  # two outputs fill it together, one transposed
    assert kw.kept_charge(kept) == (0, 0)


def test_whole_storages_reads_the_bytes_filled():
    t = torch.empty(4, 6)
    assert kw.whole_storages([t.t()]) == {t.untyped_storage().data_ptr()}
    assert kw.whole_storages([t[:, ::2], t[:, 1::2]]) == set()  # gaps each: not judged whole
    assert kw.whole_storages([t[:2]]) == set()


from torch.utils._python_dispatch import _disable_current_modes  # noqa: E402


class _Recorder:
    around = None


def test_a_price_follows_a_launch_that_changed_what_it_was_handed():
    """Red team rt68: PyTorch's table copied by a kernel into a kept buffer, the source dying."""
    kept, rec = {}, _Recorder()
    keep, other = torch.zeros(4096), torch.zeros(16)
    watch = kw.Kept(kept, rec)
    with watch:
        made = torch.sigmoid(torch.arange(4096.0))
        with rec.around("copy", (made, keep, other), {}):  # what the launch hook runs it inside
            with _disable_current_modes():  # the kernel: no op the dispatch mode sees
                keep.copy_(made)
        del made
    watch.done([], [])
    assert rec.around is None
    assert [r().data_ptr() for r in kept if r is not kw.MOST] == [keep.untyped_storage().data_ptr()]
    assert kw.kept_charge(kept)[0] > 0  # `other` was handed, never changed: not priced


def test_fingerprint_sees_a_sum_kept():
    t = torch.zeros(8, dtype=torch.int32)
    before = kw.fingerprint(t.untyped_storage())
    t[0], t[1] = 5, -5
    assert kw.fingerprint(t.untyped_storage()) != before


def test_work_left_alive_stays_charged_after_an_unwatched_copy():
    """Red team rt68: the priced table copied outside any watch and dropped; the charge holds."""
    kept, table = {}, None
    for _ in range(2):
        watch = kw.Kept(kept)
        with watch:
            table = torch.sigmoid(torch.arange(4096.0)) if table is None else table
            out = torch.abs(torch.randn(10))
        watch.done([out], [])
    charge = kw.kept_charge(kept)
    table = table.detach().clone()  # an unwatched forward's copy (no price), the priced one dropped
    assert charge[0] > 0 and kw.kept_charge(kept) == charge


def test_a_random_op_passes_on_what_it_read():
    """Red team rt68: torch.normal(table, 0.0) returns its mean exactly; a draw over priced or
    computed memory is that memory's, in forward (Kept) and at construction alike."""
    kept = {}
    watch = kw.Kept(kept)
    with watch:
        table = torch.normal(torch.sigmoid(torch.arange(4096.0)), 0.0)
    watch.done([], [])
    assert kw.kept_charge(kept)[0] > 0
    del table

    class Folded(nn.Module):
        def __init__(self):
            super().__init__()
            w = torch.randn(64, 64)
            self.register_buffer("gram", torch.normal(w.t() @ w, 0.0))

    with cw.watched() as built:
        model = Folded()
    assert any(t.untyped_storage().data_ptr() == model.gram.untyped_storage().data_ptr() for t in built.computed)


def test_an_autotune_benchmark_is_watched_as_its_launch():
    """Red team rt68: the CPU's benchmark runs every config on the launch's tensors, unwatched by
    the launch hook, and leaves what they wrote; what it changed holds what it was handed."""
    from evaluator import autotune_cpu

    kept, keep = {}, torch.zeros(4096)
    watch = kw.Kept(kept)
    with watch:
        made = torch.sigmoid(torch.arange(4096.0))
        with autotune_cpu.WATCHES[-1]("tuner", (made, keep), {}):
            with _disable_current_modes():  # a config's run: no op the dispatch mode sees
                keep.copy_(made)
        del made
    watch.done([], [])
    assert autotune_cpu.WATCHES == [] and kw.kept_charge(kept)[0] > 0


def test_python_tables_spread_over_small_tensors_count_together():
    """Red team rt67: 16 tensors of 64 lifted numbers each, never joined (a kernel takes them as a
    tuple), are 1024 of Python's values; a few small constants, fills and aranges are not."""
    def spread():
        return [torch.tensor([float(64 * i + j) for j in range(64)]).clone() for i in range(16)]

    def filled():  # the same, written one slice fill at a time
        tables = [torch.empty(64) for _ in range(16)]
        for i, t in enumerate(tables):
            for j in range(64):
                t[j:j + 1].fill_(float(64 * i + j))
        return tables

    def few():
        return [torch.tensor([0.299, 0.587, 0.114]), torch.tensor(0.5), torch.arange(0, 100, 3),
                *[torch.full((8,), 2.0) for _ in range(100)], torch.tensor([float(j) for j in range(60)])]

    watch, kept = _built(spread)
    assert watch.python_made == 1024
    watch, kept = _built(filled)
    assert watch.python_made == 1024
    watch, kept = _built(few)
    assert watch.python_made == 0


def test_python_tables_split_into_three_number_tensors_count_their_distinct_numbers():
    """Red team rt74: 1026 of host Python's values lifted as 342 tensors of 3 (or as many
    one-number fills) and joined by torch.cat in forward were none of Python's values; a
    storage of at most 3 numbers now counts its distinct numbers, all of them together."""
    def lifted():
        return [torch.tensor([0.5 + (i + j) / 4096 for j in range(3)]) for i in range(0, 1026, 3)]

    def fills():
        return [torch.full((1,), 0.5 + i / 4096) for i in range(200)]

    def norms():  # the same few numbers many times: fills of 0 and 1, aranges of one size
        return [nn.BatchNorm2d(8) for _ in range(200)] + [torch.arange(0, 64, 2) for _ in range(50)] + \
            [torch.tensor(float(j)) for j in range(60)]

    watch, kept = _built(lifted)
    assert watch.python_made == 1026
    watch, kept = _built(fills)
    assert watch.python_made == 200
    watch, kept = _built(norms)
    assert watch.python_made == 0


class _Recorder:
    around = None


def test_python_numbers_handed_to_a_launch_at_construction_are_counted():
    """Red team rt74: host Python's sigmoid table handed 32 floats at a time to a Triton kernel
    launched at construction that stored them into torch.empty's memory was counted nowhere."""
    recorder = _Recorder()

    def stored():
        table = torch.empty(1024)
        for start in range(0, 1024, 32):
            values = tuple(0.5 + (start + j) / 4096 for j in range(32))
            with recorder.around("put_kernel", (table, start, values), {}):
                with _disable_current_modes():  # what the kernel writes: no op the watch sees
                    table[start:start + 32] = torch.tensor(values)
        return table

    def scaled():  # a launch given a scale and sizes at construction: a few numbers
        w = torch.empty(64, 64)
        for _ in range(100):
            with recorder.around("init_kernel", (w, 64, 64, 0.02), {}):
                pass
        return w

    with cw.watched(recorder) as watch:
        kept = stored()
    assert watch.python_made == 1024 and [t.numel() for t in watch.computed] == [1024]
    with cw.watched(recorder) as watch:
        kept = scaled()
    assert watch.python_made == 0 and watch.computed == []
    del kept


def test_ints_launches_hand_at_construction_count_where_they_do_not_step():
    """Red team rt74: a kernel launched once per entry at construction with (index, code), host
    Python's fixed-point sigmoid table stored one code at a time (ints counted nowhere there).
    An argument's ints are data unless they step as a loop's counter does; sizes are one value."""
    recorder = _Recorder()

    def stored():
        table = torch.empty(512)
        for k in range(512):
            with recorder.around("put_kernel", (table, k, round((1 << 30) / (1 + 2.0 ** (-k / 32)))), {"grid": (1,)}):
                pass
        return table

    def rows():  # a per-row init loop: offsets step, sizes stay
        w = torch.empty(256, 64)
        for r in range(256):
            with recorder.around("row_kernel", (w, r * 64, 64, 0.02), {"grid": (1,)}):
                pass
        return w

    with cw.watched(recorder) as watch:
        kept = stored()
    assert watch.python_made == 512
    with cw.watched(recorder) as watch:
        kept = rows()
    assert watch.python_made == 0
    del kept


def test_ints_launches_hand_at_construction_count_the_order_they_come_back_in():
    """Red team rt78: a code handed as 16 arguments of 0 or 1 (each two values, a run of distinct
    values) stored host Python's 128-entry table for nothing; base-8 digits the same. What a
    loop nest hands (an outer counter's blocks, an inner one's sawtooth) stays free."""
    recorder = _Recorder()
    codes = [round((1 << 16) / (1 + 2.0 ** (-k / 16))) for k in range(128)]

    def bits():
        table = torch.empty(128)
        for k, code in enumerate(codes):
            with recorder.around("put_kernel", (table, k, *[(code >> j) & 1 for j in range(16)]), {"grid": (1,)}):
                pass
        return table

    def digits():
        table = torch.empty(128)
        for k, code in enumerate(codes):
            with recorder.around("put_kernel", (table, k, *[(code >> 3 * j) & 7 for j in range(6)]), {"grid": (1,)}):
                pass
        return table

    def nest():  # per layer, per row block, per column block: counters and sizes
        w = torch.empty(8, 16, 64)
        for layer in range(8):
            for r in range(16):
                for c in range(4):
                    with recorder.around("init_kernel", (w, layer, r, c * 16, 64, 16), {"grid": (1,)}):
                        pass
        return w

    for make in (bits, digits):
        with cw.watched(recorder) as watch:
            kept = make()
        assert watch.python_made > 64, make.__name__
    with cw.watched(recorder) as watch:
        kept = nest()
    assert watch.python_made == 0
    del kept
