"""evaluator.stopwatch against a scripted child: what the worker reveals and believes."""
from __future__ import annotations

import random
import statistics

import pytest
import torch

from common.config.evaluator import TimingConfig
from evaluator import judge_timed, stopwatch
from evaluator.timing import commit_reply, reveal_part


class ScriptedChild:
    """Answers arm/go/reveal like a child; `forge(run)` makes it reveal other outputs than it
    committed to for that forward (counted from the first forward, warm-up included).
    A go of k forwards takes round_trip + k * forward_s on the worker's clock, a null batch
    round_trip + k * flush_s; each draw is `nbytes` of inputs."""

    def __init__(self, forge=lambda run: False, round_trip=1e-3, forward_s=0.0, flush_s=0.0, nbytes=0,
                 aliases=False, around_s=0.2e-3):
        self.aliases, self.around_s = aliases, around_s
        self.trip = round_trip
        self.forge, self.forwards, self.seeds, self.last = forge, 0, [], []
        self.round_trip = round_trip(0) if callable(round_trip) else round_trip
        self.forward_s, self.flush_s, self.nbytes = forward_s, flush_s, nbytes
        self.batches: list[int] = []

    def request(self, head, deadline_s, max_bytes=None):
        if head["op"] == "commit":
            return commit_reply(self.last, [[] for _ in self.last])  # no tensor inputs
        if head["op"] == "summary":
            return {"op": "summarised"}, []
        if head["op"] == "arm":
            assert len(head["ids"]) == len(head["seeds"])
            self.seeds.extend(head["seeds"])
            return {"op": "armed", "nbytes": self.nbytes}, []
        if head["op"] == "alt":  # a reference's TF32 deviation on a revealed run: none here
            return {"op": "result", "tf32": []}, []
        assert head["op"] == "reveal"
        index = head["index"]
        out = self.last[index]
        if self.forge(self.forwards - len(self.last) + index):
            out = [out[0] + 1]
        chunks = head.get("chunks") or [None] * len(out)
        return {"op": "result"}, [reveal_part(t, c) for t, c in zip(out, chunks)]

    def timed_request(self, head, deadline_s):
        if head["op"] != "go":  # arm, commit: their time is `around_s` per batch (half each)
            reply, tensors = self.request(head, deadline_s)
            return reply, tensors, self.around_s / 2
        self.requests = getattr(self, "requests", 0) + 1
        if callable(self.trip):
            self.round_trip = self.trip(self.requests)
        count = head["count"]
        if head["null"]:
            return {"op": "done", "events_s": None}, [], self.round_trip + count * self.flush_s
        self.batches.append(count)
        self.last = []
        for _ in range(count):
            self.forwards += 1
            self.last.append([torch.full((4,), float(self.forwards))])
        reply = {"op": "done", **({"aliased": True} if self.aliases and count > 1 else {})}
        return reply, [], self.round_trip + count * (self.forward_s + self.flush_s)


def test_the_cpu_interpreter_reveals_every_run_and_redraws_every_input():
    child = ScriptedChild()
    schedule, series, chosen = stopwatch.time_candidate(child, [100], TimingConfig(), "cpu", 0,
                                                        lambda: 5.0)
    cfg = TimingConfig()
    assert sorted(chosen) == list(range(cfg.cpu_runs)) and len(series.times_s) == cfg.cpu_runs
    assert len(set(child.seeds)) == len(child.seeds) == cfg.cpu_warmup_runs + cfg.cpu_runs
    assert list(schedule.seeds) == child.seeds  # the reference is replayed the same seeds


@pytest.mark.parametrize("runs,expected", [(10, 6), (24, 6), (40, 10), (500, 10)])
def test_gpu_reveals_are_independent_with_bounded_expectation(runs, expected):
    cfg = TimingConfig()
    assert stopwatch.reveal_probability(cfg, "cuda", runs) * runs == pytest.approx(expected)


def test_no_run_is_known_to_be_safe_once_some_were_revealed():
    """A child that counts reveals learns nothing about the rest: late runs are revealed as
    often as early ones, and the count varies from timing to timing."""
    cfg = TimingConfig(min_runs=40, max_runs=40, max_batch=1, min_batches=1)
    counts, late = [], 0
    for _ in range(300):
        _, _, chosen = stopwatch.time_candidate(ScriptedChild(), [100], cfg, "cuda", 0, lambda: 5.0)
        counts.append(len(chosen))
        late += sum(1 for r in chosen if r >= 30)
    assert statistics.mean(counts) == pytest.approx(10, abs=1.0)
    assert max(counts) > cfg.max_reveals  # no cap a counting child could wait out
    assert late / sum(counts) == pytest.approx(0.25, abs=0.07)


def test_revealing_other_outputs_than_committed_is_forged_timing():
    child = ScriptedChild(forge=lambda run: True)
    with pytest.raises(stopwatch.ForgedTiming):
        stopwatch.time_candidate(child, [100], TimingConfig(), "cpu", 0, lambda: 5.0)


def test_profiled_runs_are_timed_runs_at_random_positions_whose_time_is_not_used():
    cfg = TimingConfig(min_runs=20, max_runs=20, max_batch=1, min_batches=1)
    positions = set()
    for _ in range(50):
        child = ScriptedChild()
        schedule, series, _ = stopwatch.time_candidate(child, [100], cfg, "cuda", 0, lambda: 5.0,
                                                       profiled_runs=4)
        assert len(schedule.profiled) == 4 and len(series.times_s) == 20
        assert len(schedule.seeds) == schedule.warmup + 24
        positions |= schedule.profiled
    assert len(positions) > 16  # spread over the 24 positions, not a fixed call count


def test_a_fast_forward_is_timed_in_batches_and_the_round_trip_is_taken_out_once_per_batch():
    """0.1 ms forwards behind a 0.7 ms round trip: one forward per trip would be mostly trip
    (and any host-side difference between two processes would be a large share of it)."""
    cfg = TimingConfig()
    child = ScriptedChild(round_trip=0.7e-3, forward_s=0.1e-3, flush_s=0.02e-3)
    schedule, cand, _ = stopwatch.time_candidate(child, [100], cfg, "cuda", 1 << 20, lambda: 5.0)
    assert schedule.batch == cfg.max_batch == max(child.batches)  # 5 ms / 0.1 ms = 50, capped
    assert len(cand.times_s) >= cfg.min_batches and cand.batch == schedule.batch
    assert len(set(child.seeds)) == len(child.seeds) == len(schedule.seeds)  # a fresh draw per forward
    ref = stopwatch.time_reference(ScriptedChild(round_trip=0.7e-3, forward_s=0.05e-3, flush_s=0.02e-3),
                                   schedule, frozenset(), "cuda", 1 << 20, lambda: 5.0)
    assert len(ref.null_s) == len(schedule.batches())
    assert len(cand.null_s) == len(cand.times_s) and len(ref.null_s) == len(ref.times_s)
    assert stopwatch.net_seconds(cand, null_cap_s=ref.null_median_s) == pytest.approx(0.1e-3)
    assert stopwatch.net_seconds(ref) == pytest.approx(0.05e-3)


def test_batches_hold_no_more_than_the_memory_budget_and_slow_forwards_go_alone():
    cfg = TimingConfig(batch_memory_bytes=1 << 30)
    big = ScriptedChild(round_trip=0.7e-3, forward_s=0.1e-3, nbytes=200 << 20)
    schedule, _, _ = stopwatch.time_candidate(big, [100], cfg, "cuda", 0, lambda: 5.0, output_bytes=56 << 20)
    assert schedule.batch == 4  # 1 GiB / 256 MiB per forward
    slow = ScriptedChild(round_trip=0.7e-3, forward_s=12e-3)
    schedule, series, _ = stopwatch.time_candidate(slow, [100], cfg, "cuda", 0, lambda: 5.0)
    assert schedule.batch == 1 and len(series.times_s) == max(cfg.min_runs, int(cfg.rep_ms / 12))


def test_a_forward_caught_forging_inside_a_batch_is_forged_timing():
    cfg = TimingConfig(reveal_fraction=1.0, min_reveals=1000, max_reveals=1000)
    child = ScriptedChild(forge=lambda run: run == cfg.warmup_runs + 40, round_trip=0.7e-3, forward_s=0.1e-3)
    with pytest.raises(stopwatch.ForgedTiming):
        stopwatch.time_candidate(child, [100], cfg, "cuda", 0, lambda: 5.0)


def test_a_forward_that_reuses_its_output_memory_is_timed_one_forward_per_round_trip():
    """A kept output buffer: in a batch, each forward would overwrite the last one's result
    before the commitment, and an honest kernel would look like one that cheats when timed."""
    child = ScriptedChild(round_trip=0.7e-3, forward_s=0.1e-3, aliases=True)
    schedule, series, _ = stopwatch.time_candidate(child, [100], TimingConfig(), "cuda", 0, lambda: 5.0)
    assert schedule.batch == 1 and series.batch == 1 and max(child.batches) > 1
    assert len(series.times_s) == TimingConfig().max_runs


def test_the_child_tells_a_reused_output_buffer_from_fresh_outputs():
    from evaluator.timed_steps import _shared_across

    buffer = torch.zeros(8)
    assert _shared_across([[buffer], [buffer[:4]]])  # a view of the same memory counts
    assert not _shared_across([[torch.zeros(8)], [torch.zeros(8)], [torch.zeros(0), torch.zeros(0)]])


def test_each_batch_is_paired_with_its_own_null_so_a_load_change_during_timing_cancels():
    """The host gets busy halfway through (a worker's other children compiling): round trips
    go from 0.7 ms to 5 ms. Paired with the null right after it, each batch still nets out
    the forward time; a null median taken elsewhere would not."""
    cfg = TimingConfig(min_batches=20, max_batch=8)
    load = lambda n: 0.7e-3 if n < 30 else 5e-3  # noqa: E731
    child = ScriptedChild(round_trip=load, forward_s=0.1e-3, flush_s=0.02e-3)
    schedule, cand, _ = stopwatch.time_candidate(child, [100], cfg, "cuda", 1 << 20, lambda: 5.0)
    ref = stopwatch.time_reference(ScriptedChild(round_trip=0.7e-3, forward_s=0.05e-3, flush_s=0.02e-3),
                                   schedule, frozenset(), "cuda", 1 << 20, lambda: 5.0)
    assert stopwatch.net_seconds(cand, null_cap_s=ref.null_median_s * 10) == pytest.approx(0.1e-3)
    assert stopwatch.net_seconds(ref) == pytest.approx(0.05e-3)


def test_batches_are_added_while_the_median_is_not_known_to_the_precision_asked():
    """A fast forward's net time is a small difference of two round trips: on an H200 ten
    batches left an honest relu anywhere in 0.62-1.02 of the reference (session 41). Round
    trips that wander get more batches, up to max_batches, and the reference times the same
    ones; steady ones stop at min_batches."""
    cfg = TimingConfig(min_batches=10, max_batches=30, batch_precision=0.02)
    steady = ScriptedChild(round_trip=0.7e-3, forward_s=0.1e-3, flush_s=0.02e-3)
    _, cand, _ = stopwatch.time_candidate(steady, [100], cfg, "cuda", 1 << 20, lambda: 5.0)
    assert len(cand.times_s) == 10
    draws = random.Random(41)
    wander = lambda n: 0.7e-3 + draws.uniform(0.0, 2.4e-3)  # noqa: E731  (a host that gets busy at random)
    noisy = ScriptedChild(round_trip=wander, forward_s=0.1e-3, flush_s=0.02e-3)
    schedule, cand, _ = stopwatch.time_candidate(noisy, [100], cfg, "cuda", 1 << 20, lambda: 5.0)
    assert len(cand.times_s) == 30 and len(schedule.batches()) == 30
    ref = stopwatch.time_reference(ScriptedChild(round_trip=0.7e-3, forward_s=0.05e-3, flush_s=0.02e-3),
                                   schedule, frozenset(), "cuda", 1 << 20, lambda: 5.0)
    assert len(ref.times_s) == 30
    assert stopwatch.more_batches(cand, cfg, "cpu", [[100]]) == 0  # the interpreter: one forward a trip


def test_a_candidate_whose_null_batches_are_slow_gains_nothing_past_the_trusted_null():
    """Its own null is the candidate process's claim: capped by the reference's median null,
    an inflated one cannot shrink its time below what the trusted protocol cost leaves."""
    cfg = TimingConfig(max_batch=4)

    class SlowNulls(ScriptedChild):
        def timed_request(self, head, deadline_s):
            reply, tensors, seconds = super().timed_request(head, deadline_s)
            return reply, tensors, seconds + (5e-3 if head.get("null") else 0.0)

    child = SlowNulls(round_trip=0.7e-3, forward_s=0.1e-3)
    schedule, cand, _ = stopwatch.time_candidate(child, [100], cfg, "cuda", 0, lambda: 5.0)
    ref = stopwatch.time_reference(ScriptedChild(round_trip=0.7e-3, forward_s=0.1e-3), schedule,
                                   frozenset(), "cuda", 0, lambda: 5.0)
    assert stopwatch.net_seconds(cand) == pytest.approx(1e-6)  # believed, its nulls would erase it
    assert stopwatch.net_seconds(cand, null_cap_s=ref.null_median_s) == pytest.approx(0.1e-3)


class InputsChild(ScriptedChild):
    """Each forward has one tensor input; `wrote(run)`: that forward wrote it in place;
    `lie`: the commitment claims the untouched input's checksum anyway."""

    def __init__(self, wrote, lie=False):
        super().__init__()
        self.wrote, self.lie = wrote, lie

    def _inputs(self, index):
        run = self.forwards - len(self.last) + index
        x = torch.full((3,), float(run))
        return [x + 1 if self.wrote(run) else x], [x]

    def request(self, head, deadline_s, max_bytes=None):
        if head["op"] == "commit":
            pairs = [self._inputs(i) for i in range(len(self.last))]
            return commit_reply(self.last, [told if self.lie else real for real, told in pairs])
        if head["op"] == "reveal":
            n = len(self.last[head["index"]])
            reply, out = super().request({**head, "chunks": (head.get("chunks") or [None] * 2)[:n]}, deadline_s)
            reply = {**reply, "outputs": [{}] * len(out)}
            if head.get("inputs"):
                out = [*out, *self._inputs(head["index"])[0]]
            return reply, out
        return super().request(head, deadline_s)


def test_inputs_written_in_a_timed_run_show_in_its_checksum_and_a_false_claim_is_forged():
    cfg = TimingConfig(cpu_runs=4)
    schedule, honest, _ = stopwatch.time_candidate(InputsChild(lambda run: False), [0], cfg, "cpu", 0,
                                                   lambda: 10.0)
    _, inplace, _ = stopwatch.time_candidate(InputsChild(lambda run: run >= 3), [0], cfg, "cpu", 0,
                                             lambda: 10.0)

    assert judge_timed.judge_input_checksums(honest.input_checksums, honest.input_checksums) is None
    caught = judge_timed.judge_input_checksums(inplace.input_checksums, honest.input_checksums)
    assert caught is not None and caught.hacks == ["modified_inputs"]
    # claiming the untouched checksum is found out by a reveal that carries the inputs
    lying = TimingConfig(cpu_runs=4, input_reveals=1000)
    with pytest.raises(stopwatch.ForgedTiming):
        stopwatch.time_candidate(InputsChild(lambda run: True, lie=True), [0], lying, "cpu", 0, lambda: 10.0)


def test_where_the_reference_writes_its_inputs_every_reveal_carries_them():
    """GPU rates: a few reveals per timing, and the inputs ride along on ~2 of them. Where the
    problem writes its inputs, they are outputs, and their checksums are not compared (the
    candidate's rounding differs from the reference's), so every reveal must carry them: an
    in-place effect skipped in most timed forwards escaped 17-24% of GPU timings (red team s30)."""
    def timed(inputs_out: bool) -> tuple[set, set]:
        _, series, chosen = stopwatch.time_candidate(ScriptedChild(round_trip=0.7e-3, forward_s=2e-3), [100],
                                                     TimingConfig(), "cuda", 0, lambda: 5.0,
                                                     inputs_out=inputs_out)
        return set(chosen), set(series.inputs_revealed)

    rare = [timed(False) for _ in range(20)]
    assert sum(len(i) for _, i in rare) < sum(len(c) for c, _ in rare)  # only some reveals carry them
    for _ in range(5):
        chosen, inputs = timed(True)
        assert chosen and inputs == chosen


def test_a_timed_run_must_run_the_programs_the_checked_trials_ran():
    """Per own kernel launched in every trial, a timed run needs at least half the programs
    of the fewest trial; kernels only some trials launched (data-dependent paths) and extra
    work in timed runs are not held against it."""

    trials = [{"own_programs": {"relu": 8, "pad": 1}}, {"own_programs": {"relu": 12}},
              {"own_programs": {"relu": 8}}]
    least = judge_timed.least_programs(trials)
    assert least == {"relu": 8}
    assert judge_timed.judge_timed_path({0: {"relu": 8}, 1: {"relu": 4, "extra": 100}}, least) is None
    cheap = judge_timed.judge_timed_path({0: {"relu": 8}, 1: {"relu": 1}}, least)
    assert cheap is not None and cheap.hacks == ["timed_path_differs"] and "timed forward 1" in cheap.feedback
    gone = judge_timed.judge_timed_path({0: {"other": 8}}, least)
    assert gone is not None and gone.hacks == ["timed_path_differs"]
    assert judge_timed.least_programs([{"own_programs": {"relu": 8}}, {}]) == {}  # a trial without the report


def test_a_timed_run_gives_a_kernel_no_more_programs_than_a_checked_trial_did():
    """The needed flag kernel launched again over a scratch buffer in the timed runs alone was
    live coverage (red team, session 24): a kernel a trial launched gets no more programs in a
    timed run than the trial that gave it the most."""

    trials = [{"own_programs": {"flag": 1, "relu": 8}}, {"own_programs": {"flag": 1, "relu": 12, "tail": 2}}]
    most = judge_timed.most_programs(trials)
    # relu's grid moved with the draw (8 and 12): a fresh timed draw may give it 4 more than
    # the most; flag's and tail's did not move, so no slack
    assert most == {"flag": 1, "relu": 16, "tail": 2}
    least = judge_timed.least_programs(trials)
    assert judge_timed.judge_timed_path({0: {"flag": 1, "relu": 16}, 1: {"flag": 1, "relu": 8, "new": 99}},
                                  least, trial_most=most) is None
    padded = judge_timed.judge_timed_path({0: {"flag": 1, "relu": 12}, 1: {"flag": 17, "relu": 12}}, least, trial_most=most)
    assert padded is not None and padded.hacks == ["timed_path_differs"] and "timed forward 1" in padded.feedback
    grown = judge_timed.judge_timed_path({0: {"flag": 1, "relu": 17}}, least, trial_most=most)
    assert grown is not None and grown.hacks == ["timed_path_differs"] and "at most 16" in grown.feedback
    # a forward that read values back to the host may size a grid from them: 1/64 of the
    # most as slack even where the trials happened to agree (MoE align on the H100)
    moe = [{"own_programs": {"grouped": 16392, "flag": 1}, "provenance": {"host_reads": 16}},
           {"own_programs": {"grouped": 16392, "flag": 1}, "provenance": {"host_reads": 16}}]
    assert judge_timed.most_programs(moe) == {"grouped": 16392 + 256, "flag": 1}
    assert judge_timed.most_programs([{**t, "provenance": {"host_reads": 0}} for t in moe])["grouped"] == 16392
    assert judge_timed.judge_timed_path({0: {"grouped": 16394, "flag": 1}}, {}, trial_most=judge_timed.most_programs(moe)) is None
    # red team of the slack: a forward that reads one value back to earn it, then pads its kernel
    # over scratch in the timed runs, gets 1/64 more programs and no more; its flag kernel none
    padded = judge_timed.judge_timed_path({0: {"grouped": 16392 + 257, "flag": 1}}, {}, trial_most=judge_timed.most_programs(moe))
    assert padded is not None and padded.hacks == ["timed_path_differs"]
    assert judge_timed.judge_timed_path({0: {"grouped": 16392, "flag": 2}}, {}, trial_most=judge_timed.most_programs(moe)) is not None


def test_a_timed_run_must_run_a_compiled_variant_the_trials_ran():

    seen = judge_timed.trial_variants([{"own_variants": ["relu(COPY=False,BLOCK=128)"]},
                                 {"own_variants": ["relu(COPY=False,BLOCK=128)"]}])
    same = {0: ["relu(COPY=False,BLOCK=128)"], 1: ["relu(COPY=False,BLOCK=128)", "pad(N=4)"]}
    assert judge_timed.judge_timed_path({}, {}, same, seen) is None  # an extra kernel only adds time
    switched = judge_timed.judge_timed_path({}, {}, {0: ["relu(COPY=True,BLOCK=128)"]}, seen)
    assert switched is not None and switched.hacks == ["timed_path_differs"]


def test_a_timed_forward_faster_than_its_own_profiled_kernels_did_less_work_when_unprofiled():
    """GPU: a forward that tells the profiler apart (its launches cost more) and lets PyTorch
    do the work in the unprofiled timed runs is timed at PyTorch's speed; its own kernels'
    profiled device time per forward bounds what a timed forward can take (red team,
    session 17). Honest forwards take at least their kernels' time; other streams' overlap
    is what the margin allows."""
    from evaluator import timed_work

    profiled = [{"candidate_time_s": 1.0e-3, "gpu_time_s": 1.1e-3}, {"candidate_time_s": 1.2e-3},
                {"candidate_time_s": 0.9e-3}]
    assert timed_work.judge_unprofiled_work(1.3e-3, profiled) is None  # launches and glue add time
    assert timed_work.judge_unprofiled_work(0.9e-3, profiled) is None  # run-to-run spread, within the margins
    cheat = timed_work.judge_unprofiled_work(0.05e-3, profiled)
    assert cheat is not None and cheat.hacks == ["timed_path_differs"] and "not profiled" in cheat.feedback
    assert timed_work.judge_unprofiled_work(1e-6, []) is None  # nothing profiled: nothing to hold it to
    assert timed_work.judge_unprofiled_work(1e-6, [{"candidate_time_s": float("nan")}, {"coverage": 1.0}]) is None
    assert timed_work.judge_unprofiled_work(1e-6, [{"candidate_time_s": 0.0}]) is None  # no own kernel time


class BigChild(ScriptedChild):
    """Outputs of 1 MiB per forward (each forward's run number, plus `off` where `wrong(run)`);
    `swap`: a reveal sends other bytes than the committed ones for the chunks asked."""

    def __init__(self, off=0.0, wrong=lambda run: False, swap=False):
        super().__init__()
        self.off, self.wrong, self.swap, self.asked = off, wrong, swap, []

    def timed_request(self, head, deadline_s):
        reply, tensors, seconds = super().timed_request(head, deadline_s)
        if head["op"] != "go":
            return reply, tensors, seconds
        if not head["null"]:
            first = self.forwards - len(self.last)
            self.last = [[torch.full((1 << 18,), float(first + i + 1) + (self.off if self.wrong(first + i) else 0.0))]
                         for i in range(len(self.last))]
        return reply, [], seconds

    def request(self, head, deadline_s, max_bytes=None):
        if head["op"] == "reveal":
            self.asked.append(head["chunks"])
            self.bounds = [*getattr(self, "bounds", []), max_bytes]
            out = self.last[head["index"]]
            if self.swap:
                out = [out[0].flip(0) + 0.5]
            return {"op": "result", "shapes": [list(t.shape) for t in out]}, \
                [reveal_part(t, c) for t, c in zip(out, head["chunks"])]
        return super().request(head, deadline_s)


def test_a_big_output_is_revealed_as_a_sample_of_chunks_that_must_match_the_commitment():
    cfg = TimingConfig(cpu_runs=3, reveal_sample_bytes=256 << 10)
    child = BigChild()
    _, series, chosen = stopwatch.time_candidate(child, [0], cfg, "cpu", 0, lambda: 10.0)
    assert len(chosen) == 3
    for r in chosen:
        chunks = series.reveal_chunks[r][0]
        assert chunks[0] == 0 and chunks[-1] == 15 and len(chunks) == 4  # 1 MiB in 64 KiB chunks
        assert series.revealed[r][0].numel() * 4 == 256 << 10 and series.revealed_shapes[r] == [[1 << 18]]
    assert len({tuple(c[0]) for c in child.asked}) > 1  # drawn per reveal, not fixed
    small = stopwatch.time_candidate(BigChild(), [0], TimingConfig(cpu_runs=2), "cpu", 0, lambda: 10.0)[1]
    assert all(c == [None] for c in small.reveal_chunks.values())  # 1 MiB <= the default: whole
    with pytest.raises(stopwatch.ForgedTiming):
        stopwatch.time_candidate(BigChild(swap=True), [0], cfg, "cpu", 0, lambda: 10.0)


def test_sampled_reveals_compare_the_same_chunks_and_catch_a_timed_output_that_is_wrong():
    from common.config.evaluator import EvaluatorConfig
    from evaluator import judge

    cfg = TimingConfig(cpu_runs=3, reveal_sample_bytes=256 << 10)
    verdicts = []
    for cand in (BigChild(), BigChild(off=1.0, wrong=lambda run: run >= 2)):
        schedule, series, chosen = stopwatch.time_candidate(cand, [0], cfg, "cpu", 0, lambda: 10.0)
        ref = stopwatch.time_reference(BigChild(), schedule, chosen, "cpu", 0, lambda: 10.0,
                                       candidate=series, sample_bytes=cfg.reveal_sample_bytes)
        assert ref.reveal_chunks == series.reveal_chunks
        verdicts.append(judge.judge_reveals(series.revealed, ref.revealed, {}, EvaluatorConfig(), None,
                                            None, ref.revealed_outputs, series.revealed_shapes,
                                            ref.revealed_shapes))
    assert verdicts[0] is None
    assert verdicts[1] is not None and verdicts[1].hacks == ["timed_output_mismatch"]


def test_a_reveal_reply_is_bounded_by_what_was_asked_and_outputs_by_the_reference():
    """Each reveal request carries its own bound (the chunks asked, and 1 MiB of slack): the
    channel refuses more unread. A timed forward that commits to more output bytes than the
    reference's (which the trials' outputs also had to keep to) is refused before any reveal."""
    cfg = TimingConfig(cpu_runs=3, reveal_sample_bytes=256 << 10)
    child = BigChild()
    stopwatch.time_candidate(child, [0], cfg, "cpu", 0, lambda: 10.0, output_bytes=1 << 20)
    assert child.bounds and all(b == 4 * (64 << 10) + (1 << 20) for b in child.bounds)  # 4 chunks of 64 KiB
    with pytest.raises(stopwatch.ForgedTiming, match="reference's are"):
        stopwatch.time_candidate(BigChild(), [0], cfg, "cpu", 0, lambda: 10.0, output_bytes=(1 << 20) - 4)


class KindChild(ScriptedChild):
    """A forward whose cost depends on the kind of input set it was armed with."""

    def __init__(self, cost_by_set, **kw):
        super().__init__(**kw)
        self.cost_by_set, self.armed = cost_by_set, []

    def request(self, head, deadline_s, max_bytes=None):
        if head["op"] == "arm":
            self.armed = list(head["ids"])
        return super().request(head, deadline_s, max_bytes)

    def timed_request(self, head, deadline_s):
        if head["op"] == "go" and not head["null"]:
            assert len(set(self.armed)) <= 1 or len({self.cost_by_set[i] for i in self.armed}) == 1
            self.forward_s = self.cost_by_set[self.armed[0]]
        return super().timed_request(head, deadline_s)


@pytest.mark.parametrize("cheap_on", ["spike", "base"])
def test_each_kind_of_timed_input_gets_its_own_median_and_the_slower_counts(cheap_on):
    """Red team B (session 15): every timed run drew spiked inputs, and a loss over a GEMM that
    a spike dominates was computed from the spike's rows only (0.5 + 1.5 + coverage on every
    timed run). Timed batches now take spiked and the problem's own inputs in turn, each
    batch one kind only, and the slower kind's median is the time: cheap on one kind of
    input (skip what a spike makes negligible, or sample where nothing is spiked) buys nothing."""
    spiked, base = [101], [100]
    costs = {101: 0.1e-3, 100: 1e-3} if cheap_on == "spike" else {101: 1e-3, 100: 0.1e-3}
    cfg = TimingConfig(min_runs=40, max_runs=40, max_batch=4, min_batches=4)
    child = KindChild(costs, round_trip=0.7e-3)
    groups = [base, spiked]
    schedule, cand, _ = stopwatch.time_candidate(child, base + spiked, cfg, "cuda", 0, lambda: 5.0,
                                                 profiled_runs=2, groups=groups)
    kinds = [schedule.sets[p[0]] for b, p in enumerate(schedule.batches()) if b not in schedule.profiled]
    assert abs(kinds.count(100) - kinds.count(101)) <= 1
    assert {schedule.sets[p[0]] for b, p in enumerate(schedule.batches()) if b in schedule.profiled} == {100, 101}
    assert stopwatch.net_seconds(cand, groups=groups) == pytest.approx(1e-3)
    assert stopwatch.net_seconds(cand) < 1e-3  # one median over both: the cheap kind could take it


def test_a_timed_forward_whose_own_launches_do_less_interpreted_work_than_the_trials_is_caught():
    """CPU: the launch hook counts the interpreter's work per launch (elements loaded, stored,
    multiplied); a forward that told the meter apart launched its kernel on the same grid with
    K=0 in the unprofiled timed runs and let torch compute there (red team B, session 17)."""
    from evaluator import timed_work

    trials = [{"own_work": 274_432}, {"own_work": 274_432}, {"own_work": 300_000}]
    least = timed_work.least_own_work(trials)
    assert least == 274_432
    assert timed_work.judge_interpreted_work({0: 274_432, 1: 274_432, 2: 274_432}, least) is None
    assert timed_work.judge_interpreted_work({0: 200_000, 1: 150_000, 2: 274_432}, least) is None  # within the margin
    cheat = timed_work.judge_interpreted_work({0: 4096, 1: 4096, 2: 274_432}, least)
    assert cheat is not None and cheat.hacks == ["timed_path_differs"] and "not checked or profiled" in cheat.feedback
    assert timed_work.least_own_work([{"own_work": 5}, {}]) is None  # a trial that does not say
    assert timed_work.judge_interpreted_work({0: 0}, None) is None and timed_work.judge_interpreted_work({}, 100) is None
    # red team D (session 17): checked trials that only launched a flag kernel set a low bar;
    # the profiled timed runs (where the meter was told apart) did the real work
    low = timed_work.judge_interpreted_work({0: 65_536, 1: 65_536}, 65_536, [69_271_552, 69_271_552])
    assert low is not None and low.hacks == ["timed_path_differs"] and "profiled" in low.feedback
    assert timed_work.judge_interpreted_work({0: 274_432}, 274_432, [274_432, 274_432]) is None



def test_every_timed_and_null_batch_spins_alike_so_the_spin_is_subtracted():
    """The launch slack (a device spin before each forward's flush) is in the null batches
    too, forward for forward, so the worker's pairs take it out; the profiled batches, whose
    time is not used, are asked for it as well: a forward that found the device idle there
    would know it is profiled (red team s29b)."""
    spins: list[tuple[bool, bool, int]] = []

    class Recording(ScriptedChild):
        def timed_request(self, head, deadline_s):
            if head["op"] == "go":
                spins.append((head["null"], bool(head.get("profile")), head.get("spin", 0)))
            return super().timed_request(head, deadline_s)

    fill = stopwatch.Fill(1 << 20, 400_000)
    stopwatch.time_candidate(Recording(round_trip=0.7e-3, forward_s=0.1e-3), [100], TimingConfig(), "cuda",
                             fill, lambda: 5.0, profiled_runs=2)
    timed = [s for null, prof, s in spins if not null and not prof]
    nulls = [s for null, prof, s in spins if null]
    assert timed and nulls and set(timed) == set(nulls) == {400_000}
    assert [s for null, prof, s in spins if prof] == [400_000, 400_000]
    assert stopwatch.Fill.of(1 << 20) == stopwatch.Fill(1 << 20, 0)  # a bare flush size: no spin


def test_padding_only_the_profiled_forwards_must_be_paid_in_the_timed_ones():
    """GPU: coverage is own kernel time over all kernel time in the profiled runs. A forward
    that tells them apart and pads them alone with a spin kernel of its own (1.9x PyTorch's
    GEMM: coverage 0.66) passes the own-time bound (its timed run, PyTorch's GEMM and a copy,
    takes over half the padded own time) but not the whole-device-time one (red team,
    session 18). An honest forward that mixes PyTorch and its own kernels keeps the device
    as busy in either."""
    from evaluator import timed_work

    gemm, copy = 1.0e-3, 0.05e-3
    padded = [{"candidate_time_s": 1.9 * gemm + copy, "gpu_time_s": 2.9 * gemm + copy} for _ in range(3)]
    timed = gemm + copy
    assert timed >= timed_work.UNPROFILED_OWN_SHARE * padded[0]["candidate_time_s"]  # the own bound alone let it by
    cheat = timed_work.judge_unprofiled_work(timed, padded)
    assert cheat is not None and cheat.hacks == ["timed_path_differs"] and "padding" in cheat.feedback
    assert cheat.details["profiled_total_s"] == pytest.approx(2.9 * gemm + copy)
    honest = [{"candidate_time_s": copy * f, "gpu_time_s": (gemm + copy) * f} for f in (1.0, 1.04, 0.97)]
    assert timed_work.judge_unprofiled_work(timed * 0.98, honest) is None
    # measured (H200, session 21): an honest cuDNN transposed conv + Triton GroupNorm epilogue whose
    # profiled forward's library kernels ran 24% longer than its timed forward (KernelBench level2/19)
    level2_19 = [{"candidate_time_s": 1.0214e-3, "gpu_time_s": 18.846e-3}]
    assert timed_work.judge_unprofiled_work(15.134e-3, level2_19) is None
    # and one 36% longer (session 22, level2/42: ConvTranspose2d + pooling + logsumexp): a false
    # `hack` under the bound of 0.75 then
    level2_42 = [{"candidate_time_s": 0.05e-3, "gpu_time_s": 21.55e-3}]
    assert timed_work.judge_unprofiled_work(15.79e-3, level2_42) is None
    assert timed_work.judge_unprofiled_work(0.65 * 18.846e-3, level2_19) is not None  # over a third off: padding
    assert timed_work.profiled_device(honest) == (pytest.approx(copy), pytest.approx(0.97 * (gemm + copy)))
