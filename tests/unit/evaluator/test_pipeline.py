"""The verdict pipeline end to end on the CPU interpreter: positive controls, errors, faults.

Every fault must give a clear status within the timeout plus a few seconds, and the
next evaluation in the same Evaluator must succeed.
"""
from __future__ import annotations

import time
from pathlib import Path

import pytest
from conftest import (
    CPU_SIZES,
    FIXTURES,
    FixtureProblem,
    cpu_config,
    fixture_problem,
    judged,
    settings_for,
)

from common.messages import EvalSettings


@pytest.mark.parametrize("name", sorted(CPU_SIZES))
def test_reference_solutions_are_ok_with_positive_reward(name, evaluator, settings):
    problem = fixture_problem(name)
    # the verdict is the point, not its speed: frobenius needs more than the suite's 60 s
    verdict = judged(evaluator, problem, problem.solution, settings_for(name, settings))
    assert verdict.status == "ok", verdict.feedback
    assert verdict.correct and verdict.reward > evaluator.cfg.reward.w_correct - 1e-9
    assert verdict.speedup and verdict.speedup > 0 and verdict.ref_time_s and verdict.candidate_time_s
    assert 0.5 < verdict.coverage <= 1.0  # CPU: the interpreter work meter's estimate
    assert "CPU-interpreter timings" in verdict.feedback
    sandbox = verdict.details["sandbox"]
    assert sandbox["static_checks"] and sandbox["fresh_process"] and sandbox["problems"] == []
    assert all(sandbox[layer] for layer in ("bwrap", "user", "pid", "net", "ipc", "uts", "seccomp"))
    assert verdict.details["policy"] == "paper" and verdict.details["precision"] == "strict"
    assert {"static", "reference", "load", "correctness", "timing", "total"} <= set(verdict.phase_seconds)
    # coverage comes from timed batches profiled at random positions (inside the timing phase)
    assert len(verdict.details["profile"]["per_run"]) == evaluator.cfg.profiling.forwards
    assert len(verdict.details["timing"]["profiled_batches"]) == evaluator.cfg.profiling.forwards
    assert len(verdict.details["trials"]) == settings.trials + 3  # plus the x1e-3, x1e3 and spiked inputs
    as_dict = verdict.to_dict()
    assert as_dict["status"] == "ok" and as_dict["hacks"] == []


def test_every_candidate_gets_a_fresh_process_from_a_warm_sandbox(evaluator, settings, problems):
    relu = problems["relu"]
    evaluator.evaluate(relu, relu.solution, settings)
    started, forked = evaluator.pool.started, evaluator.pool.children
    for _ in range(3):
        verdict = evaluator.evaluate(relu, relu.solution, settings)
        assert verdict.status == "ok" and verdict.details["reference_cached"]
        assert verdict.phase_seconds["sandbox_start"] < 1.0, "a fork of a warm zygote, not a start-up"
    assert evaluator.pool.children == forked + 3, "each candidate must run in a process of its own"
    assert evaluator.pool.started == started, "a healthy sandbox was replaced"


def test_concurrent_evaluations_of_a_new_problem_compute_its_reference_once(evaluator, settings):
    """Samples of one prompt arrive together; the first computes the reference, the
    others wait for it and hit the cache instead of recomputing it in turn."""
    from concurrent.futures import ThreadPoolExecutor

    fresh = fixture_problem("relu", (FIXTURES / "relu.py").read_text() + "\n# concurrent-reference\n")
    misses, hits = evaluator.references.misses, evaluator.references.hits
    with ThreadPoolExecutor(2) as pool:
        verdicts = list(pool.map(lambda _: evaluator.evaluate(fresh, fresh.solution, settings), range(2)))
    assert [v.status for v in verdicts] == ["ok", "ok"]
    assert sorted(v.details["reference_cached"] for v in verdicts) == [False, True]
    assert (evaluator.references.misses - misses, evaluator.references.hits - hits) == (1, 1)


def test_the_worker_judges_with_the_reference_childs_own_facts_of_its_outputs(evaluator, settings):
    """Each reference output's RMS, peak and finiteness are measured where it was made (on
    the GPU, in no time; on the worker's CPU they were seconds per GiB output), and they are
    the facts the worker's tolerances are scaled by."""
    from evaluator import judge
    from evaluator import output_facts as C

    fresh = fixture_problem("relu", (FIXTURES / "relu.py").read_text() + "\n# reference-facts\n")
    assert evaluator.evaluate(fresh, fresh.solution, settings).status == "ok"
    ref = list(evaluator.references._items.values())[-1]  # the one just computed
    for t, outs in zip(ref.trials, ref.outputs):
        assert [f["finite"] for f in t["facts"][:len(outs)]] == [C.all_finite(o) for o in outs]
        for f, o in zip(t["facts"], outs):
            assert (f["rms"], f["peak"]) == (pytest.approx(C.rms(o), rel=1e-5), pytest.approx(C.peak(o)))
    for i, t in enumerate(ref.trials):  # what the worker reads is the child's word
        t["facts"][0]["rms"] = float(i + 1)
    ref.scales = ref.base = None
    plan = list(ref.plan.trials)
    base = max(i + 1 for i, (_, d) in enumerate(plan) if d == "base")
    assert [s[0] for s in judge.atol_scales(ref, plan)] == [pytest.approx((i + 1) / base) for i in range(len(plan))]


def test_timing_can_be_skipped(evaluator, problems):
    relu = problems["relu"]
    verdict = evaluator.evaluate(relu, relu.solution, EvalSettings(device="cpu", trials=1, timing=False))
    assert verdict.status == "ok" and verdict.speedup is None
    assert verdict.reward == pytest.approx(evaluator.cfg.reward.w_correct)


def _broken(problem: FixtureProblem, old: str, new: str) -> str:
    assert old in problem.solution
    return problem.solution.replace(old, new)


def test_wrong_values_are_incorrect_with_mismatch_statistics(evaluator, settings, problems):
    softmax = problems["softmax"]
    verdict = evaluator.evaluate(softmax, _broken(softmax, "e / tl.sum(e, axis=0)", "e"), settings)
    assert verdict.status == "incorrect" and verdict.reward == 0
    assert "max abs error" in verdict.feedback and "trial 0" in verdict.feedback
    assert verdict.details["mismatch"]["mismatch_fraction"] > 0.5


def test_wrong_shape_is_incorrect(evaluator, settings, problems):
    relu = problems["relu"]
    verdict = evaluator.evaluate(relu, _broken(relu, "return out", "return out[:1]"), settings)
    assert verdict.status == "incorrect" and "shape" in verdict.feedback


def test_forward_error_is_runtime_error_with_a_trimmed_traceback(evaluator, settings, problems):
    relu = problems["relu"]
    source = _broken(relu, "        x = x.contiguous()\n", "        x = x.contiguous()\n        y = x.nope\n")
    verdict = evaluator.evaluate(relu, source, settings)
    assert verdict.status == "runtime_error"
    assert 'File "candidate.py", line' in verdict.feedback and "AttributeError" in verdict.feedback
    assert "/tmp" not in verdict.feedback and "evaluator/commands.py" not in verdict.feedback


def test_constructor_error_and_missing_module_are_compile_errors(evaluator, settings, problems):
    relu = problems["relu"]
    bad_init = _broken(relu, "super().__init__()", "super().__init__()\n        raise ValueError('no')")
    assert evaluator.evaluate(relu, bad_init, settings).status == "compile_error"
    missing = "import triton.language.no_such_module\n" + relu.solution
    verdict = evaluator.evaluate(relu, missing, settings)
    assert verdict.status == "compile_error" and "no_such_module" in verdict.feedback
    unavailable = evaluator.evaluate(relu, "import scipy\n" + relu.solution, settings)
    assert unavailable.status == "compile_error" and "not available" in unavailable.feedback


def test_kernel_compile_error_is_reported(evaluator, settings, problems):
    relu = problems["relu"]
    verdict = evaluator.evaluate(relu, _broken(relu, "tl.maximum(x, 0.0)", "tl.no_such_op(x)"), settings)
    assert verdict.status in ("compile_error", "runtime_error") and "no_such_op" in verdict.feedback


@pytest.mark.parametrize("raw, status", [
    (b"", "format_error"), (b"\xff\xfe\xfa not utf-8", "format_error"),
    ("# padding\n" * 40000, "format_error"), ("def broken(:\n", "compile_error"),
    ("import torch\nx = 1\n", "format_error"),
])
def test_unusable_files_get_a_clear_status(raw, status, evaluator, settings, problems):
    verdict = evaluator.evaluate(problems["relu"], raw, settings)
    assert verdict.status == status and verdict.feedback


def test_infinite_loop_times_out_and_the_next_evaluation_succeeds(evaluator, problems):
    relu = problems["relu"]
    source = _broken(relu, "        x = x.contiguous()\n", "        while True:\n            pass\n")
    t0 = time.monotonic()
    verdict = evaluator.evaluate(relu, source, EvalSettings(device="cpu", timeout_s=3, trials=2))
    assert verdict.status == "timeout" and "3 s limit" in verdict.feedback
    assert time.monotonic() - t0 < 3 + 5
    assert evaluator.evaluate(relu, relu.solution, EvalSettings(device="cpu", trials=2)).status == "ok"


def test_runaway_memory_is_stopped(evaluator, settings, problems):
    relu = problems["relu"]
    source = _broken(relu, "        x = x.contiguous()\n",
                     "        hoard = []\n        while True:\n            hoard.append(torch.ones(1 << 26))\n")
    verdict = evaluator.evaluate(relu, source, settings)
    # the memory limit stopped it, not the time limit (a `timeout` would be the clock's doing)
    assert verdict.status in ("runtime_error", "crashed"), verdict.feedback
    assert "memory" in verdict.feedback.lower() or "alloc" in verdict.feedback.lower()
    assert "timeout" not in verdict.hacks and "exceeded its" not in verdict.feedback
    assert evaluator.evaluate(relu, relu.solution, settings).status == "ok"


def test_huge_output_is_rejected_without_transfer(evaluator, settings, problems):
    relu = problems["relu"]
    verdict = evaluator.evaluate(relu, _broken(relu, "return out", "return out.new_zeros(1 << 27)"), settings)
    assert verdict.status == "incorrect" and "shape" in verdict.feedback


def test_outputs_beyond_the_references_size_are_refused_before_they_reach_the_worker(evaluator, settings,
                                                                                    problems):
    """Returning one output many times over (aliases cost no device memory) must not make
    the worker take in more than the reference's outputs per set: with four evaluations in
    flight, GiB-sized outputs amplified this way exhaust the worker's host memory."""
    relu = problems["relu"]
    verdict = evaluator.evaluate(relu, _broken(relu, "return out", "return (out,) * 2000"), settings)
    assert verdict.status == "incorrect" and verdict.reward == 0
    assert "returned 2000 outputs; the reference returns 1" in verdict.feedback, verdict.feedback
    bigger = evaluator.evaluate(relu, _broken(relu, "return out", "return torch.cat([out] * 64)"), settings)
    assert bigger.status == "incorrect" and "the reference's outputs are" in bigger.feedback, bigger.feedback
    # more frames than the protocol carries would end as a crash ("not your kernel"): refused first
    empties = evaluator.evaluate(relu, _broken(relu, "return out", "return (out[:0],) * 5000"), settings)
    assert empties.status == "incorrect" and "the reference returns 1" in empties.feedback, empties.feedback


def test_flooding_stdout_hits_the_file_size_limit(evaluator, settings, problems):
    relu = problems["relu"]
    source = _broken(relu, "        x = x.contiguous()\n",
                     "        for _ in range(400):\n            print('x' * (1 << 20))\n")
    verdict = evaluator.evaluate(relu, source, settings)
    assert verdict.status == "runtime_error" and "too large" in verdict.feedback.lower()
    assert evaluator.evaluate(relu, relu.solution, settings).status == "ok"


def test_malformed_problems_are_problem_errors_and_do_not_break_the_evaluator(evaluator, settings, problems):
    relu = problems["relu"]
    no_inputs = FixtureProblem("no_inputs", relu.source.replace("def get_inputs", "def other_inputs"))
    verdict = evaluator.evaluate(no_inputs, relu.solution, settings)
    assert verdict.status == "runtime_error" and verdict.error_source == "problem"
    assert "get_inputs" in verdict.feedback
    arity = FixtureProblem("arity", relu.source.replace("return [torch.randn(batch_size, dim)]",
                                                        "return [torch.randn(4, 4), torch.randn(4, 4)]"))
    verdict = evaluator.evaluate(arity, relu.solution, settings)
    assert verdict.status == "runtime_error" and verdict.error_source == "problem"
    # a reference whose forward draws random numbers (dropout in training mode, as KernelBench
    # level 2 #66 has) cannot judge any kernel: the problem's error, never the candidate's
    dropout = FixtureProblem("dropout", relu.source.replace("return torch.relu(x)",
                                                            "return torch.nn.functional.dropout(torch.relu(x), 0.2)"))
    assert dropout.source != relu.source
    verdict = evaluator.evaluate(dropout, relu.solution, settings)
    assert verdict.status == "runtime_error" and verdict.error_source == "problem"
    assert "dropout in training mode" in verdict.feedback
    assert evaluator.evaluate(relu, relu.solution, settings).status == "ok"


def test_a_problem_with_big_outputs_runs_fewer_base_trials_and_still_checks_scaled_inputs(problems):
    """Over `correctness.reduced_trials_above_bytes` per set (0 here: every problem), only the
    first base trial and the scaled ones run, on both sides, and the verdict says so; a
    kernel wrong only on large inputs is still caught, and a cached reference keeps the
    same trials."""
    from evaluator.pipeline import Evaluator

    relu = problems["relu"]
    settings = EvalSettings(device="cpu", timeout_s=60, trials=3, timing=False)
    with Evaluator(cpu_config(correctness={"reduced_trials_above_bytes": 0})) as ev:
        first = ev.evaluate(relu, relu.solution, settings)
        again = ev.evaluate(relu, relu.solution, settings)
        clamped = ev.evaluate(relu, _broken(relu, "tl.maximum(x, 0.0)", "tl.minimum(tl.maximum(x, 0.0), 50.0)"),
                              settings)
    assert first.status == "ok", first.feedback
    assert first.details["trials_reduced"] == {"ran": 4, "planned": 6}
    assert [t["inputs"] for t in first.details["trials"]] == ["base", "scale:1e-3", "scale:1e3", "spike"]
    assert again.status == "ok" and again.details["reference_cached"] and again.details["trials_reduced"]
    assert clamped.status == "incorrect" and "scale:1e3" in clamped.feedback, clamped.feedback


def _recording(budget: type) -> type:
    """A memory budget class that also lists what each reservation asked for (`asked`)."""

    class Recording(budget):
        def __init__(self, *args, **kwargs):
            super().__init__(*args, **kwargs)
            self.asked: list = []

        def reserve(self, nbytes):
            self.asked.append(nbytes)
            return super().reserve(nbytes)

    return Recording


def test_an_unseen_problem_is_measured_before_the_worker_reserves_memory_for_its_outputs(problems):
    """With a host budget (on by default on a GPU; switched on here), an evaluation of a
    problem not seen yet reserves what its outputs will take, measured by one sizes-only
    reference run, instead of the whole budget (which made every new problem wait for all
    others); a reference that cannot judge is still the problem's error."""
    from common.config.evaluator import MemoryConfig
    from evaluator.memory import HostMemory
    from evaluator.pipeline import Evaluator

    relu = problems["relu"]
    settings = EvalSettings(device="cpu", timeout_s=60, trials=2, timing=False)
    dropout = FixtureProblem("dropout", relu.source.replace("return torch.relu(x)",
                                                            "return torch.nn.functional.dropout(torch.relu(x), 0.2)"))
    with Evaluator(cpu_config(children=1)) as ev:
        ev.host_memory = host = _recording(HostMemory)(MemoryConfig(), 0, total_bytes=64 << 30)
        first = ev.evaluate(relu, relu.solution, settings)
        again = ev.evaluate(relu, relu.solution, settings)
        random_reference = ev.evaluate(dropout, relu.solution, settings)
    assert first.status == "ok" and again.status == "ok", first.feedback
    # the trials and the knock-out run, each one float32 [batch, dim] output, twice (both sides)
    sets = len(first.details["trials"]) + 1
    out = 4 * CPU_SIZES["relu"]["batch_size"] * CPU_SIZES["relu"]["dim"]
    expected = 2 * sets * out + 8 * ev.cfg.timing.reveal_sample_bytes
    assert host.asked == [expected, expected], (host.asked, expected)
    assert expected < host.capacity
    assert random_reference.status == "runtime_error" and random_reference.error_source == "problem"
    assert "dropout in training mode" in random_reference.feedback
    assert len(host.asked) == 2, "a problem whose reference cannot be used reserved host memory"


def test_every_reply_tensor_through_the_reply_arena_gives_the_same_verdicts(problems, settings, monkeypatch):
    """With `sandbox.arena_min_bytes` at 1, every tensor of every reply (reference outputs,
    trials, commitments, reveals) crosses through the sandboxed children's reply arenas
    instead of the pipes: an honest kernel is still ok, timed, and a wrong one incorrect."""
    from evaluator import protocol
    from evaluator.pipeline import Evaluator

    copied = []
    real = protocol.Arena.copy_out
    monkeypatch.setattr(protocol.Arena, "copy_out", lambda self, *a: copied.append(a) or real(self, *a))
    relu, softmax = problems["relu"], problems["softmax"]
    with Evaluator(cpu_config(children=1, sandbox={"arena_min_bytes": 1})) as ev:
        ok = ev.evaluate(relu, relu.solution, settings)
        wrong = ev.evaluate(softmax, _broken(softmax, "e / tl.sum(e, axis=0)", "e"), settings)
    assert ok.status == "ok" and ok.speedup is not None, ok.feedback
    assert wrong.status == "incorrect", wrong.feedback
    assert len(copied) > 20  # reference outputs, trials, commitments and reveals of both


def test_the_measuring_run_reserves_a_share_of_the_device_and_caps_the_reference_child(problems):
    """With a device budget (CPU here, its size set by hand), a new problem's measuring run
    reserves `memory.measure_fraction` of it, not the whole, and caps the reference child
    there and back (the `cap` command round trip); the verdict is unchanged."""
    from common.config.evaluator import MemoryConfig
    from evaluator.memory import DeviceMemory, HostMemory
    from evaluator.pipeline import Evaluator

    relu = problems["relu"]
    settings = EvalSettings(device="cpu", timeout_s=60, trials=2, timing=False)
    with Evaluator(cpu_config(children=1, memory={"measure_fraction": 0.25, "context_bytes": 0})) as ev:
        ev.host_memory = HostMemory(MemoryConfig(), 0, total_bytes=64 << 30)
        ev.memory = device = _recording(DeviceMemory)(ev.cfg.memory, 2)
        device.set_device(64 << 30)
        verdict = ev.evaluate(relu, relu.solution, settings)
    assert verdict.status == "ok", verdict.feedback
    assert device.asked[0] == device.capacity // 4 < device.capacity


def test_the_reference_phase_is_capped_at_its_reservation_and_run_again_whole_when_it_runs_out(
        problems, monkeypatch):
    """The reference phase, like the measuring run, caps the reference child at what it
    reserved (an uncapped 8 GiB-output reference took 77 GiB of an 80 GiB GPU and made a
    neighbour's reference fail); running out of memory under that cap is not the problem's
    failure: the phase runs again under the whole budget, uncapped, and the verdict is ok."""
    from common.config.evaluator import MemoryConfig
    from evaluator import reference_phase
    from evaluator.memory import DeviceMemory, HostMemory
    from evaluator.pipeline import Evaluator
    from evaluator.reference import OverCap

    caps, runs = [], []
    real = reference_phase.request

    def spy(run, child, header, shared=True, over_cap=False):
        if header["op"] == "cap":
            caps.append(header["bytes"])
        if header["op"] == "run" and not header.get("describe_only"):
            runs.append(over_cap)
            if over_cap and runs.count(True) == 2:  # the reference's second set, under its cap
                raise OverCap()
        return real(run, child, header, shared, over_cap)

    monkeypatch.setattr(reference_phase, "request", spy)
    gib = 1 << 30

    class Measured(_recording(DeviceMemory)):
        def footprint(self, key):  # as a measuring run on a GPU reports it
            return gib

    relu = problems["relu"]
    settings = EvalSettings(device="cpu", timeout_s=60, trials=2, timing=False)
    with Evaluator(cpu_config(children=1, memory={"context_bytes": 0, "slack_bytes": gib})) as ev:
        ev.host_memory = HostMemory(MemoryConfig(), 0, total_bytes=64 << 30)
        ev.memory = device = Measured(ev.cfg.memory, 2)
        device.set_device(64 << 30)
        verdict = ev.evaluate(relu, relu.solution, settings)
    assert verdict.status == "ok", verdict.feedback
    # measuring run, the reference phase under the footprint and its slack, then under the whole
    assert device.asked[:3] == [2 * gib, 2 * gib, device.capacity], device.asked
    assert caps == [2 * gib, None, 2 * gib, None]  # capped, and the cap lifted after each
    assert runs[:2] == [True, True] and len(runs) > 3 and not any(runs[2:])


def test_a_reference_forward_out_of_memory_under_the_cap_is_run_again_under_the_whole_budget(problems):
    """The measuring run caps the reference child at half the device; a reference whose
    forward runs out of memory there (its own OutOfMemoryError, as on the H100 for four
    KernelBench level-1 problems) is run again under the whole budget and judges the
    candidate, instead of being called broken: the forward's failure reply says device_oom."""
    from common.config.evaluator import MemoryConfig
    from evaluator.memory import DeviceMemory, HostMemory
    from evaluator.pipeline import Evaluator

    relu = problems["relu"]
    source = relu.source.replace("return torch.relu(x)", (
        "global CALLS\n        CALLS += 1\n        if CALLS == 1:  # the first forward in this process\n"
        "            raise torch.OutOfMemoryError('CUDA out of memory. Tried to allocate 7.00 GiB')\n"
        "        return torch.relu(x)")).replace("class Model", "CALLS = 0\n\n\nclass Model", 1)
    assert "CALLS = 0" in source and "OutOfMemoryError" in source
    settings = EvalSettings(device="cpu", timeout_s=60, trials=2, timing=False)
    with Evaluator(cpu_config(children=1, memory={"context_bytes": 0})) as ev:
        ev.host_memory = HostMemory(MemoryConfig(), 0, total_bytes=64 << 30)
        ev.memory = device = _recording(DeviceMemory)(ev.cfg.memory, 2)
        device.set_device(64 << 30)
        verdict = ev.evaluate(FixtureProblem("relu_oom_once", source), relu.solution, settings)
    assert verdict.status == "ok", verdict.feedback
    assert device.asked[:2] == [device.capacity // 2, device.capacity]


EXP_PROBLEM = '''
import torch
import torch.nn as nn

class Model(nn.Module):
    def forward(self, x):
        return torch.exp(x * x)

def get_inputs():
    return [torch.randn(8, 256)]

def get_init_inputs():
    return []
'''


def test_timed_runs_draw_spiked_inputs_unless_the_reference_overflows_on_them(evaluator, settings, problems):
    """A global reduction estimated from a sample is one common factor off, inside the norm
    bound on the problem's own inputs; with one element carrying a tenth of the input's
    weight the sample misses it or over-counts it. Half the timed batches draw spiked inputs
    too, so a forward that reads everything only while it is checked is wrong where it is
    revealed (the other half draw the problem's own: see test_stopwatch's groups).
    Where the reference itself overflows on a spike (exp(x^2)), that trial is not judged and the
    timed runs draw the problem's own inputs."""
    frob = problems["frobenius"]
    settings = settings_for("frobenius", settings)
    honest = judged(evaluator, frob, frob.solution, settings)  # as test_reference_solutions_are_ok_with_positive_reward's
    assert honest.status == "ok", honest.feedback
    assert honest.details["timing"]["inputs"] == "base+spike"
    sampled = judged(evaluator, frob, (FIXTURES.parent / "hacks" / "rt9_global_norm_subsample.py").read_text(),
                     settings)  # as test_hacks' entry
    # the spiked trial catches it. The sample's error on the problem's own inputs is 2-3e-3, under
    # the 5e-3 norm bound on most draws; a draw past it on an earlier trial (0.00505 on a scaled
    # one, 0.00586 on a base one, in full suites) is reported there, the first mismatch. Without
    # the spiked trial most draws pass: this fails unless the estimate is caught by the norm bound
    assert sampled.status == "incorrect" and ("(inputs spike)" in sampled.feedback or (
        "||out-ref||/||ref||" in sampled.feedback and "(limit 0.005)" in sampled.feedback)), sampled.feedback
    exp = FixtureProblem(name="exp", source=EXP_PROBLEM, sizes={"cpu": {}})
    solution = problems["relu"].solution.replace("tl.maximum(x, 0.0)", "tl.exp(x * x)")
    verdict = evaluator.evaluate(exp, solution, settings)
    assert verdict.status == "ok", verdict.feedback
    assert verdict.details["timing"]["inputs"] == "base"
    wrong = evaluator.evaluate(exp, solution.replace("tl.exp(x * x)", "tl.exp(x * x) * 1.01"), settings)
    assert wrong.status == "incorrect" and "trial 0" in wrong.feedback


def test_a_trial_whose_moved_inputs_the_reference_refuses_is_dropped_not_failed(evaluator, settings):
    """Honest round (session 16): binary_cross_entropy raises on probabilities times 1e3; that
    trial (and the spiked one) cannot judge any kernel, so it is dropped and the others judge
    the candidate, instead of the whole evaluation failing as the problem's."""
    problem = fixture_problem("bce_probs")
    honest = (Path(__file__).parent / "honest" / "s16_bce_probs_clamped_log_atomic.py").read_text()
    verdict = evaluator.evaluate(problem, honest, settings)
    assert verdict.status == "ok", verdict.feedback
    dropped = verdict.details["trials_dropped"]
    assert "scale:1e3" in [d["inputs"] for d in dropped] and all("between 0 and 1" in d["why"] for d in dropped)
    assert verdict.details["timing"]["inputs"] == "base"  # the spike trial went too: no spiked timed runs


def test_an_output_that_is_mathematically_zero_is_judged_against_the_references_noise(evaluator, settings):
    """Honest round (session 16): where the true output is zero the float32 reference is
    rounding noise, and an honest kernel's noise was 1.2x its norm away (KernelBench level2/23,
    41: every honest kernel failed). The reference child measures its own noise (a second
    forward on inputs moved by a few ulps) and the norm bounds never ask for less than
    noise_floor.NOISE_FLOOR times it; an answer off by more than noise still fails."""
    problem = fixture_problem("centered_mean")
    verdict = evaluator.evaluate(problem, problem.solution, settings)
    assert verdict.status == "ok", verdict.feedback
    # an honest kernel moves next to nothing between host Python and tensors (host_compute)
    assert verdict.details["host_values"] == {"host_reads": 0, "host_made": 0, "launch_ints": 3}
    off = problem.solution.replace("tl.sum(acc, axis=0) / n)", "tl.sum(acc, axis=0) / n + 1e-4)")
    assert off != problem.solution
    verdict = evaluator.evaluate(problem, off, settings)
    assert verdict.status == "incorrect", verdict.feedback


_SM_SIZED_RELU = """
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def relu_persistent(x_ptr, out_ptr, n, NPROG: tl.constexpr, BLOCK: tl.constexpr):
    for start in range(tl.program_id(0) * BLOCK, n, NPROG * BLOCK):
        offs = start + tl.arange(0, BLOCK)
        tl.store(out_ptr + offs, tl.maximum(tl.load(x_ptr + offs, mask=offs < n), 0.0), mask=offs < n)


class ModelNew(nn.Module):
    def forward(self, x):
        if not x.is_cuda:
            return torch.relu(x)
        nprog = torch.cuda.get_device_properties(x.device).multi_processor_count
        out = torch.empty_like(x)
        relu_persistent[(nprog,)](x, out, x.numel(), NPROG=nprog, BLOCK=256)
        return out
"""


def test_a_cuda_branch_that_sizes_its_grid_by_the_sm_count_runs_on_the_cpu(evaluator, settings):
    """Honest round (session 16): under the interpreter `is_cuda` answers True, and the CUDA
    branch then asked torch.cuda for the SM count ("Torch not compiled with CUDA"): a CPU
    child's torch.cuda.get_device_properties describes the interpreter's device."""
    verdict = evaluator.evaluate(fixture_problem("relu"), _SM_SIZED_RELU, settings)
    assert verdict.status == "ok", verdict.feedback


ROW_MAX_PROBLEM = '''
import torch
import torch.nn as nn

class Model(nn.Module):
    def forward(self, x):
        return torch.max(x, dim=1)

def get_inputs():
    return [torch.randn(16, 64)]

def get_init_inputs():
    return []
'''

ROW_MAX_SOLUTION = '''
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def row_max_kernel(x_ptr, val_ptr, idx_ptr, n_cols, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    x = tl.load(x_ptr + row * n_cols + cols, mask=cols < n_cols, other=float("-inf"))
    tl.store(val_ptr + row, tl.max(x, axis=0))
    tl.store(idx_ptr + row, tl.argmax(x, axis=0).to(tl.int64))


class ModelNew(nn.Module):
    def forward(self, x):
        x = x.contiguous()
        rows, cols = x.shape
        values = torch.empty(rows, device=x.device, dtype=x.dtype)
        indices = torch.empty(rows, device=x.device, dtype=torch.int64)
        row_max_kernel[(rows,)](x, values, indices, cols, BLOCK=triton.next_power_of_2(cols))
        return values, indices
'''


def test_a_reference_returning_torchs_named_tuple_is_judged(evaluator, settings):
    """Honest round s32a: a problem whose forward returns torch.max(x, dim=1) (a
    torch.return_types named tuple, as torch.topk's) failed as the problem's own error; its
    fields are its outputs, in order."""
    problem = FixtureProblem(name="row_max", source=ROW_MAX_PROBLEM, sizes={"cpu": {}})
    verdict = evaluator.evaluate(problem, ROW_MAX_SOLUTION, settings)
    assert verdict.status == "ok", verdict.feedback
    wrong = evaluator.evaluate(problem, ROW_MAX_SOLUTION.replace("tl.argmax(x, axis=0)", "tl.argmin(x, axis=0)"),
                               settings)
    assert wrong.status == "incorrect" and "Output 1" in wrong.feedback, wrong.feedback
