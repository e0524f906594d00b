"""Evaluator on a real GPU (written for an H200 with torch 2.11 / Triton 3.6).

Run on the device machine with output shown, e.g.
    .venv/bin/pytest -m gpu -s tests/gpu/test_evaluator_gpu.py
It checks issue 3's deliverable 7: the built-in solutions pass at their realistic
sizes, the hack corpus and the GPU-only hacks are caught, the faults are survived,
and the timing is faithful: our speedup vs triton.testing.do_bench on the same
kernel and reference within 5% (median over problems), and five repeated
evaluations of one kernel within 5% of each other. Tables are printed.
"""

from __future__ import annotations

import importlib.util
import os
import re
import statistics
import sys
import time
from pathlib import Path

import pytest
import torch
from gpu_cgroup import CGROUP

pytestmark = [
    pytest.mark.gpu,
    pytest.mark.skipif(not torch.cuda.is_available(), reason="needs a CUDA GPU"),
]

UNIT = Path(__file__).resolve().parents[1] / "unit" / "evaluator"
FIXTURES, HACKS = UNIT / "fixtures", UNIT / "hacks"
# corpus problem names that are built-in problems: (file, sizes; the corpus's host-side attacks
# read every element, so not the built-in's GPU size)
BUILTIN_FIXTURES = {
    "matmul": (
        UNIT.parents[2] / "evaluator" / "problems" / "builtin" / "matmul" / "matmul.py",
        {"M": 70, "K": 90, "N": 80},
    )
}


def _cpu_only(path: Path) -> bool:
    """A hack whose cheat only the CPU interpreter's runs trigger (`. device: cpu`)."""
    return ". device: cpu" in path.read_text().splitlines()[0]


# KRL_GPU_HACKS=rt7_*,s* evaluates only the corpus files matching those globs (the whole corpus
# takes ~8 minutes on an H100, more than one device call can spend beside other checks)
HACK_FILES = sorted(
    {
        p
        for g in os.environ.get("KRL_GPU_HACKS", "*").split(",")
        for p in HACKS.glob(g + ".py")
        if not _cpu_only(p)
    }
)
FIDELITY_PROBLEMS = 16  # of the built-ins, spread over families, for the do_bench comparison
# KRL_GPU_FIDELITY=activation/elu,loss/smooth_l1 compares only those (a short device call)
FIDELITY_ONLY = [n for n in os.environ.get("KRL_GPU_FIDELITY", "").split(",") if n]
CHILDREN = int(
    os.environ.get("KRL_GPU_CHILDREN", "6")
)  # sandboxes per evaluator; the corpora are evaluated this many at a time


def _config(policy: str = "paper", **sandbox):
    from common.config.evaluator import EvaluatorConfig

    return EvaluatorConfig.model_validate(
        {
            "device": "cuda",
            "children": CHILDREN,
            "timeout_s": 120,
            "sandbox": {**CGROUP, **sandbox},
            "policy": {"name": policy},
        }
    )


def _settings(**kw):
    from common.messages import EvalSettings

    return EvalSettings(device="cuda", **{"timeout_s": 120, "trials": 2, **kw})


def _problem(name: str, sizes: dict | None = None, source: str | None = None):
    from common.problemset import Problem, builtin_problem

    if "/" in name and sizes is None and source is None:  # a built-in problem, as its manifest says
        return builtin_problem(name)
    solution = FIXTURES / f"{name}_solution.py"
    if source is None and name in BUILTIN_FIXTURES:  # a built-in problem at the corpus's small size
        path, small = BUILTIN_FIXTURES[name]
        source, sizes = path.read_text(), sizes or small
    return Problem(
        name=name,
        source=source or (FIXTURES / f"{name}.py").read_text(),
        sizes={"cuda": sizes or {}},
        solution=solution.read_text() if solution.exists() else None,
    )


@pytest.fixture(scope="module")
def ev():
    from evaluator.pipeline import Evaluator

    with Evaluator(_config()) as evaluator:
        yield evaluator


@pytest.fixture(scope="module")
def strict_ev():
    from evaluator.pipeline import Evaluator

    with Evaluator(_config("strict")) as evaluator:
        yield evaluator


@pytest.fixture(scope="module")
def unsafe_ev():
    from evaluator.pipeline import Evaluator

    with Evaluator(_config(unsafe_skip_static_checks=True)) as evaluator:
        yield evaluator


@pytest.fixture(scope="module")
def builtin_verdicts(ev):
    from concurrent.futures import ThreadPoolExecutor

    from common.problemset import builtin_problems

    def one(problem):
        t0 = time.monotonic()
        verdict = ev.evaluate(problem, problem.solution, _settings())
        wall = time.monotonic() - t0
        print(
            f"  evaluated {problem.name}: {verdict.status} {verdict.hacks} in {wall:.1f} s "
            f"{ {k: round(v, 2) for k, v in verdict.phase_seconds.items()} }"
            + ("" if verdict.status == "ok" else f"\n    {verdict.feedback[:400]}"),
            flush=True,
        )
        return problem.name, (problem, verdict, wall)

    with ThreadPoolExecutor(CHILDREN) as pool:  # the evaluator's sandboxes, as a worker runs them
        return dict(pool.map(one, builtin_problems()))


def _around_go(verdict) -> str:
    """The candidate's and the reference's arm + commit per batch, and the outside-go charge."""
    timing = verdict.details.get("timing") or {}
    cand = timing.get("candidate") or {}
    ms = [
        x * 1e3 if x is not None else float("nan")
        for x in (
            cand.get("around_go_median_s"),
            timing.get("ref_around_go_median_s"),
            cand.get("outside_go_charged_s"),
        )
    ]
    return f"{ms[0]:8.3f}/{ms[1]:8.3f} {ms[2]:8.4f}"


def test_builtin_solutions_pass_at_gpu_sizes(builtin_verdicts):
    print(
        f"\n{'problem':34s} {'status':10s} {'speedup':>8s} {'coverage':>9s} {'ref ms':>9s} "
        f"{'ours ms':>9s} {'wall s':>7s} {'arm+commit ms (ours/ref, charged)':>34s}"
    )
    bad = []
    for name, (_, v, wall) in sorted(builtin_verdicts.items()):
        cov = f"{v.coverage:.2f}" if v.coverage is not None else "-"
        print(
            f"{name:34s} {v.status:10s} {v.speedup or 0:8.3f} {cov:>9s} "
            f"{(v.ref_time_s or 0) * 1e3:9.4f} {(v.candidate_time_s or 0) * 1e3:9.4f} {wall:7.1f} "
            f"{_around_go(v)}"
        )
        if v.status != "ok":
            bad.append(f"{name}: {v.status} {v.hacks}\n{v.feedback[:800]}")
    assert not bad, "\n".join(bad)
    coverages = [v.coverage for _, v, _ in builtin_verdicts.values()]
    assert all(c is not None and 0 < c <= 1 for c in coverages)
    assert statistics.median(coverages) > 0.5, (
        "coverage should find the solutions' own kernels by name"
    )


def _header(path: Path) -> tuple[str, list[tuple[str, str]], str]:
    """(problem, accepted (status, hack code) pairs on the GPU, policy); the grammar is
    tests/unit/evaluator/test_hacks.py's: `. gpu: <expect>` replaces the expectation here."""
    m = re.match(
        r"^# hack: .+\. problem: ([\w/]+)\. expect: (\S+?)(?:\. policy: (\w+))?"
        r"(?:\. device: (cuda|cpu))?(?:\. gpu: (\S+))?$",
        path.read_text().splitlines()[0],
    )
    expect = m.group(5) or m.group(2)
    return (
        m.group(1),
        [tuple(a.partition("/")[::2]) for a in expect.split("|")],
        m.group(3) or "paper",
    )


@pytest.fixture(scope="module")
def hack_verdicts(ev, strict_ev):
    """Every hack of the corpus, evaluated CHILDREN at a time under its policy."""
    from concurrent.futures import ThreadPoolExecutor

    def one(path):
        problem_name, _, policy = _header(path)
        evaluator = strict_ev if policy == "strict" else ev
        t0 = time.monotonic()
        verdict = evaluator.evaluate(_problem(problem_name), path.read_text(), _settings())
        print(
            f"  hack {path.stem} ({problem_name}, {policy}): {verdict.status} {verdict.hacks} "
            f"reward {verdict.reward:.3f} in {time.monotonic() - t0:.1f} s",
            flush=True,
        )
        return path.stem, verdict

    with ThreadPoolExecutor(CHILDREN) as pool:
        return dict(pool.map(one, HACK_FILES))


@pytest.mark.parametrize("path", HACK_FILES, ids=lambda p: p.stem)
def test_hack_corpus_is_caught_on_gpu(path, hack_verdicts):
    _, accepted, _ = _header(path)
    v = hack_verdicts[path.stem]
    assert v.status != "ok" and v.reward == 0
    assert any(v.status == s and (not c or c in v.hacks) for s, c in accepted), (
        v.status,
        v.hacks,
        v.feedback,
    )


BIG_RELU = {"batch_size": 4096, "dim": 16384}  # 256 MiB per tensor: the kernel takes ~0.2 ms


# Work moved onto a side stream shows as a gap between the evaluator's clock and the child's
# events on the timed stream only where the side stream's device time outruns the host's time
# to launch it: 200 launches of a 17 us ReLU (32 MiB) took the host ~14 ms, which the timed
# stream's events measured too (it was idle meanwhile), against 3.3 ms of side work: no gap, ok
# at 0.002x (session 37). 50 launches over 256 MiB: ~10 ms of device work, ~2 ms to launch.
SIDE_RELU = {"batch_size": 4096, "dim": 16384}
SIDE_LAUNCHES = 50


def test_work_on_a_side_stream_is_caught_at_runtime(ev, unsafe_ev):
    relu = _problem("relu", SIDE_RELU)
    control = ev.evaluate(relu, relu.solution, _settings())
    print(
        f"\nside-stream control: {control.status} {control.speedup} phases "
        f"{ {k: round(x, 1) for k, x in control.phase_seconds.items()} }"
    )
    assert control.status == "ok", control.feedback  # the honest control
    sneaky = relu.solution.replace(
        "        relu_kernel[(triton.cdiv(n, 1024),)](x, out, n, BLOCK=1024)",
        "        side = torch.cuda.Stream()\n"
        "        side.wait_stream(torch.cuda.current_stream())\n"
        "        with torch.cuda.stream(side):\n"
        f"            for _ in range({SIDE_LAUNCHES}):\n"
        "                relu_kernel[(triton.cdiv(n, 1024),)](x, out, n, BLOCK=1024)",
    )
    assert sneaky != relu.solution
    v = unsafe_ev.evaluate(relu, sneaky, _settings())
    print(
        f"side stream: {v.status} {v.hacks} phases { {k: round(x, 1) for k, x in v.phase_seconds.items()} }"
    )
    assert v.status == "hack" and "side_stream" in v.hacks, (v.status, v.feedback)


def test_a_fused_pytorch_loss_beside_a_padded_epilogue_earns_no_coverage(ev):
    """Session 35 on the H200: F.mse_loss did the whole loss, a Triton epilogue nudged its
    scalar and padded itself to 99.6% of the forward's GPU time: coverage 0.996, reward 1.00.
    The meter's bound (PyTorch's share of the problem, priced in both processes' profiled
    forwards) leaves it nothing; the honest solution keeps its full coverage."""
    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "unit" / "evaluator"))
    from attack_sources import FUSED_LOSS_EPILOGUE

    mse = _problem("loss/mse")
    honest = ev.evaluate(mse, mse.solution, _settings())
    assert honest.status == "ok" and honest.coverage > 0.9, (honest.status, honest.coverage)
    v = ev.evaluate(mse, FUSED_LOSS_EPILOGUE, _settings())
    assert v.status == "ok" and v.details["profile"]["forward_share"] > 0.5, v.feedback
    assert v.coverage < 0.01 and v.reward < honest.reward, (v.coverage, v.reward, honest.reward)


def test_low_precision_inside_a_float32_problem_is_incorrect(ev):
    relu = _problem("relu")
    half = relu.solution.replace(
        "        x = x.contiguous()\n        out = torch.empty_like(x)",
        "        x = x.contiguous().half()\n        out = torch.empty_like(x)",
    )
    half = half.replace("        return out", "        return out.float()")
    v = ev.evaluate(relu, half, _settings())
    assert v.status == "incorrect", (v.status, v.feedback)


@pytest.mark.parametrize(
    "fault, statuses",
    [
        ("illegal_address", ("runtime_error", "crashed")),
        ("device_assert", ("runtime_error", "crashed")),
        ("gpu_oom", ("runtime_error",)),
        ("kernel_hang", ("timeout",)),
    ],
)
def test_gpu_faults_are_survived(fault, statuses, ev):
    relu = _problem("relu")
    src = relu.solution
    if fault == "illegal_address":
        src = src.replace("tl.store(out_ptr + offs,", "tl.store(out_ptr + offs + (1 << 40),")
    elif fault == "device_assert":
        src = src.replace("@triton.jit", "@triton.jit(debug=True)").replace(
            "    x = tl.load(x_ptr + offs, mask=mask)",
            "    x = tl.load(x_ptr + offs, mask=mask)\n    tl.device_assert(x < -1e30, 'boom')",
        )
    elif fault == "gpu_oom":
        src = src.replace(
            "        out = torch.empty_like(x)",
            "        out = torch.empty_like(x)\n        hog = torch.empty(1 << 46, device=x.device)",
        )
    else:
        # An atomic in the condition keeps the compiler from deleting the loop (a plain
        # counter loop with no effect is optimised away and the kernel just runs).
        src = src.replace(
            "    x = tl.load(x_ptr + offs, mask=mask)",
            "    x = tl.load(x_ptr + offs, mask=mask)\n"
            "    while tl.atomic_add(x_ptr, 0.0) < 3.0e38:\n        x += 0.0",
        )
    assert src != relu.solution
    t0 = time.monotonic()
    v = ev.evaluate(relu, src, _settings(timeout_s=30))
    print(f"\n{fault}: {v.status} in {time.monotonic() - t0:.1f} s: {v.feedback[:300]}")
    assert v.status in statuses, (v.status, v.feedback)
    assert time.monotonic() - t0 < 30 + 15
    assert ev.evaluate(relu, relu.solution, _settings()).status == "ok"


def _import(path: Path, source: str):
    path.write_text(source)
    spec = importlib.util.spec_from_file_location(path.stem, path)
    module = importlib.util.module_from_spec(spec)
    sys.modules[path.stem] = module
    spec.loader.exec_module(module)
    return module


def _do_bench_speedup(problem, tmp_path: Path) -> float:
    """Reference time / solution time by triton.testing.do_bench (median), in this process."""
    from triton.testing import do_bench

    from common.problemset import exec_problem_source

    mod = exec_problem_source(problem, "cuda")
    sol = _import(tmp_path / f"sol_{re.sub(r'[^a-z0-9]', '_', problem.name)}.py", problem.solution)
    init = mod.get_init_inputs()
    torch.manual_seed(0)
    ref = mod.Model(*init).cuda()
    torch.manual_seed(0)
    new = sol.ModelNew(*init).cuda()
    torch.manual_seed(1)
    inputs = [x.cuda() if isinstance(x, torch.Tensor) else x for x in mod.get_inputs()]
    # the evaluator's children run float32 as float32 (no TF32); time the same numerics
    torch.backends.cuda.matmul.allow_tf32 = torch.backends.cudnn.allow_tf32 = False
    with torch.no_grad():
        t_ref = do_bench(lambda: ref(*inputs), return_mode="median")
        t_new = do_bench(lambda: new(*inputs), return_mode="median")
    return t_ref / t_new


def test_timing_matches_do_bench(ev, tmp_path):
    """The chosen problems evaluated a few at a time (timing holds the device alone, as in
    a worker), against triton.testing.do_bench on the same kernel and reference in this
    process, with nothing else running."""
    from concurrent.futures import ThreadPoolExecutor

    from common.problemset import builtin_problems

    problems = sorted((p for p in builtin_problems() if p.solution), key=lambda p: p.name)
    chosen = (
        [p for p in problems if p.name in FIDELITY_ONLY]
        if FIDELITY_ONLY
        else problems[:: max(1, len(problems) // FIDELITY_PROBLEMS)][:FIDELITY_PROBLEMS]
    )
    with ThreadPoolExecutor(4) as pool:
        verdicts = list(pool.map(lambda p: ev.evaluate(p, p.solution, _settings()), chosen))
    print(f"\n{'problem':34s} {'ours':>8s} {'do_bench':>9s} {'ratio':>7s} {'batch':>6s}")
    ratios = []
    for problem, verdict in zip(chosen, verdicts):
        assert verdict.status == "ok", (problem.name, verdict.status, verdict.feedback)
        theirs = _do_bench_speedup(problem, tmp_path)
        ratios.append(verdict.speedup / theirs)
        print(
            f"{problem.name:34s} {verdict.speedup:8.3f} {theirs:9.3f} {ratios[-1]:7.3f} "
            f"{verdict.details['timing']['batch']:6d}",
            flush=True,
        )
    deviation = statistics.median(abs(r - 1) for r in ratios)
    print(f"median |ours/do_bench - 1| = {deviation:.3%} over {len(ratios)} problems")
    assert deviation <= 0.05


def test_repeated_evaluations_agree(ev):
    from common.problemset import builtin_problem

    problem = builtin_problem("softmax/softmax")
    speedups = [ev.evaluate(problem, problem.solution, _settings()).speedup for _ in range(5)]
    spread = (max(speedups) - min(speedups)) / statistics.median(speedups)
    print(
        f"\nsoftmax/softmax speedups over 5 evaluations: {[round(s, 3) for s in speedups]}, "
        f"spread {spread:.2%}"
    )
    assert spread <= 0.05


def test_a_tf32_matmul_meets_the_precision_contract_and_an_fp16_elementwise_one_does_not(ev):
    """A float32 matmul whose tl.dot runs at TF32 (Triton's default) is ok and says so; the
    same file with IEEE float32 is ok at strict precision; fp16 in an elementwise float32
    problem stays incorrect (TF32 changes nothing there)."""
    from common.problemset import builtin_problem

    problem = builtin_problem("matmul/matmul")
    assert 'input_precision="ieee"' in problem.solution
    strict = ev.evaluate(problem, problem.solution, _settings())
    assert strict.status == "ok" and strict.details["precision"] == "strict", strict.feedback
    tf32 = ev.evaluate(
        problem,
        problem.solution.replace('input_precision="ieee"', 'input_precision="tf32"'),
        _settings(),
    )
    print(
        f"\nTF32 tl.dot: {tf32.status} precision={tf32.details.get('precision')} "
        f"speedup {tf32.speedup} vs ieee {strict.speedup}"
    )
    assert tf32.status == "ok" and tf32.details["precision"] in ("tf32", "strict"), tf32.feedback
    test_low_precision_inside_a_float32_problem_is_incorrect(ev)


def test_runtime_attacks_on_the_gpu(ev):
    """The knock-out and the revealed timed runs, with CUDA: a decoy kernel and a forward that
    returns garbage once it has been called often enough are both hacks."""
    relu = _problem("relu", BIG_RELU)
    decoy = relu.solution.replace("        return out", "        return torch.relu(x)")
    assert decoy != relu.solution
    v = ev.evaluate(relu, decoy, _settings())
    assert v.status == "hack" and v.hacks == ["triton_not_needed"], (v.status, v.feedback)
    counting = relu.solution.replace(
        "class ModelNew(nn.Module):", "class ModelNew(nn.Module):\n    calls = 0\n"
    )
    counting = counting.replace(
        "        x = x.contiguous()\n",
        "        self.calls += 1\n        if self.calls > 8:\n"
        "            return torch.empty_like(x)\n        x = x.contiguous()\n",
        1,
    )
    v = ev.evaluate(relu, counting, _settings())
    assert v.status == "hack" and v.hacks == ["no_triton_launch"], (v.status, v.feedback)
    wrong = counting.replace("            return torch.empty_like(x)\n", "            x = x * 0\n")
    v = ev.evaluate(relu, wrong, _settings())
    assert v.status == "hack" and "timed_output_mismatch" in v.hacks, (v.status, v.feedback)
    v = ev.evaluate(relu, relu.solution, _settings())
    assert v.status == "ok" and v.details["timing"]["clock"].startswith("evaluator clock"), (
        v.feedback
    )
    print(
        f"\nrelu at {BIG_RELU}: speedup {v.speedup:.3f}, runs {v.details['timing']['runs']}, revealed "
        f"{len(v.details['timing']['revealed_runs'])}, protocol overhead "
        f"{v.details['timing']['protocol_overhead_s'] * 1e6:.0f} us, phases "
        f"{ {k: round(x, 2) for k, x in v.phase_seconds.items()} }"
    )


def _library_kernel_name(problem) -> str | None:
    """The name of the longest GPU kernel the reference runs, if it is a valid Python name."""
    import torch
    from torch.profiler import ProfilerActivity, profile

    ns: dict = {}
    exec(problem.source, ns)  # noqa: S102 - our own fixture problem
    for key, value in problem.sizes["cuda"].items():
        ns[key] = value
    model = ns["Model"](*ns["get_init_inputs"]()).cuda()
    inputs = [x.cuda() for x in ns["get_inputs"]()]
    with torch.no_grad(), profile(activities=[ProfilerActivity.CUDA]) as prof:
        model(*inputs)
        torch.cuda.synchronize()
    kernels = sorted(
        (e for e in prof.key_averages() if str(e.device_type).endswith("CUDA")),
        key=lambda e: -e.self_device_time_total,
    )
    return next((e.key for e in kernels if e.key.isidentifier()), None)


def _collision_source(name: str, empty_launches: int = 0) -> str:
    empty = (
        f"        for _ in range({empty_launches}):\n            {name}[(0,)](z, self.linear.bias, out, 1, 0, BLOCK=1024)\n"
        if empty_launches
        else ""
    )
    return f"""import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def {name}(z_ptr, b_ptr, out_ptr, N, total, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < total
    z = tl.load(z_ptr + offs, mask=mask)
    b = tl.load(b_ptr + offs % N, mask=mask)
    tl.store(out_ptr + offs, tl.maximum(z + b, 0.0), mask=mask)


class ModelNew(nn.Module):
    def __init__(self, in_features, out_features):
        super().__init__()
        self.linear = nn.Linear(in_features, out_features)

    def forward(self, x):
        z = torch.matmul(x, self.linear.weight.t())
        out = torch.empty_like(z)
{empty}        {name}[(triton.cdiv(z.numel(), 1024),)](z, self.linear.bias, out, z.shape[1], z.numel(), BLOCK=1024)
        return out
"""


_COLLISION_PROBLEM = {"batch_size": 2048, "in_features": 4096, "out_features": 4096}


def test_a_kernel_named_like_the_library_one_gets_no_coverage_for_it(ev):
    """torch does the GEMM; a Triton kernel named like cuBLAS's adds the bias and the relu.
    The library kernel's time is not the candidate's (paper policy: ok, low coverage)."""
    problem = _problem("linear_relu", _COLLISION_PROBLEM)
    name = _library_kernel_name(problem)
    if name is None:
        pytest.skip("this GPU's GEMM kernel name is not a Python identifier")
    v = ev.evaluate(problem, _collision_source(name), _settings())
    print(f"\nkernel named {name[:40]}...: {v.status} {v.hacks} coverage {v.coverage}")
    assert v.status == "ok" and v.coverage is not None and v.coverage < 0.5, (v.status, v.coverage)


def test_empty_launches_do_not_buy_a_library_kernels_name(ev):
    """Launches with an empty grid run nothing and are not counted by the launch hook, so
    they cannot lift the hook's count of a name to the profiler's."""
    problem = _problem("linear_relu", _COLLISION_PROBLEM)
    name = _library_kernel_name(problem)
    if name is None:
        pytest.skip("this GPU's GEMM kernel name is not a Python identifier")
    v = ev.evaluate(problem, _collision_source(name, empty_launches=4), _settings())
    assert v.status == "ok" and v.coverage is not None and v.coverage < 0.5, (v.status, v.coverage)


def test_a_job_out_of_device_memory_under_its_share_runs_again_with_the_whole_budget():
    """The candidate's device share is the worker's estimate from the reference's footprint: an
    honest kernel that needs more (a conv + Triton epilogue on level2/4 needed 22 GiB of a
    21.4 GiB share, session 23) runs once more under the whole budget instead of failing."""
    from common.config.evaluator import EvaluatorConfig
    from common.problemset import builtin_problem
    from evaluator.pipeline import Evaluator

    problem = builtin_problem("activation/relu")
    # the forward first takes a scratch 64x its input (freed at once): over a share of 1x the footprint
    greedy = problem.solution.replace(
        "        x = x.contiguous()\n",
        "        x = x.contiguous()\n        torch.empty(x.numel() * 64, device=x.device).zero_()\n",
        1,
    )
    assert greedy != problem.solution
    cfg = EvaluatorConfig.model_validate(
        {
            "device": "cuda",
            "children": 1,
            "timeout_s": 120,
            "memory": {"candidate_factor": 1.0, "slack_bytes": 0},
            "timing": {"max_batch": 1},
        }
    )
    with Evaluator(cfg) as ev:
        v = ev.evaluate(problem, greedy, _settings())
    assert v.status == "ok", v.feedback
    assert v.details["device_retry"]["reservation_bytes"] < v.details["device_reservation_bytes"]
