"""Evaluator config: verdict pipeline settings, reward weights, sandbox, broker and workers.

The evaluator issue owns this file; extend it as features land. `sandbox_environment`
is the one place the evaluator reads the parent's environment (the variables a
sandboxed child may inherit), keeping os.environ reads inside the config layer.
"""
from __future__ import annotations

import os
import re
from pathlib import Path
from typing import Literal

from pydantic import Field, model_validator

from common.config.base import Section
from common.config.correctness import CorrectnessConfig
from common.config.shared import MetricsConfig


class RewardConfig(Section):
    """Profiling-based reward: w_correct + w_speed*min(speedup, cap) + w_coverage*coverage."""

    w_correct: float = 0.5
    """Reward for a correct kernel."""
    w_speed: float = 0.5
    """Weight of the capped speedup."""
    speedup_cap: float = Field(3.0, gt=0)
    """Speedups above this count as this. In a run it is the top-level `speedup_cap`
    (copied here and into the learner's plan signal)."""
    w_coverage: float = 0.5
    """Weight of profiler coverage (share of forward GPU time in the candidate's kernels)."""


class TimingConfig(Section):
    """How reference and candidate are timed: by the worker's clock around each run, each
    in its own process (evaluator.stopwatch), the same way."""

    warmup_runs: int = Field(5, ge=0)
    """Untimed forwards before timing (GPU)."""
    rep_ms: float = Field(100.0, gt=0)
    """Target measured time per model; the run count is rep_ms / estimated forward time (GPU)."""
    min_runs: int = Field(10, ge=1)
    """Fewest timed forwards (GPU)."""
    max_runs: int = Field(100, ge=1)
    """Most timed forwards (GPU) by rep_ms. Each forward gets a fresh draw of the inputs,
    all under the worker's exclusive device lock, so fast kernels stop here (their median
    over 100 runs is stable) rather than at rep_ms; min_batches can add more."""
    batch_ms: float = Field(10.0, gt=0)
    """Device time one timed round trip should hold (GPU): forwards that are fast next to a
    round trip (~0.7 ms on an H100 host) run in batches, back to back, each on its own
    fresh draw after its own L2 flush, so the round trip's cost and the difference between
    two processes' host paths are spread over the batch (evaluator.stopwatch). The estimate
    it is divided by is one forward's round trip less a null's, two to five times a fast
    forward's device time: at 5 ms an H200 relu (0.068 ms) drew batches of 12-32, and a batch
    of 15 timed softmax 8% slower than one of 32 (session 41)."""
    max_batch: int = Field(32, ge=1)
    """Most forwards in one timed batch."""
    min_batches: int = Field(10, ge=1)
    """Fewest timed batches (GPU): the median is taken over batches."""
    max_batches: int = Field(30, ge=1)
    """Most timed batches (GPU). Past the first ones, min_batches more are timed (and the
    reference times them too) while the candidate's median is not known to batch_precision:
    a fast forward's net time is a small difference of two round trips, and ten of them left
    an honest relu's speedup anywhere in 0.62-1.02 from one evaluation to the next (H200,
    session 41) where its device time was the same to 0.3%."""
    batch_precision: float = Field(0.02, gt=0)
    """Half-width, relative to the median, of the median's ~95% interval (order statistics of
    the batches' net times) that ends the timing before max_batches (GPU)."""
    batch_memory_bytes: int = Field(8 << 30, ge=0)
    """Most input and output bytes one batch holds on the device at once; 0: no limit."""
    outside_go_factor: float = Field(1.25, ge=1.0)
    """How many times the reference's `arm` + `commit` a candidate's may take (GPU), with
    outside_go_slack_ms below, before the excess is charged: reasoned, not yet measured."""
    outside_go_slack_ms: float = Field(0.3, ge=0)
    """A timed batch's `arm` and `commit` (untimed: draws; output sums) may take up to
    outside_go_factor times the reference's for the same batch, plus outside_go_slack_ms (GPU),
    before the excess is charged to the batch's time (stopwatch.outside_go_seconds): a forward
    that answers go at once and finishes in a thread before its commit, or computes on the
    drawn inputs before go, is timed for that work."""
    cpu_outside_go_factor: float = Field(2.0, ge=1.0)
    """outside_go_factor under the CPU interpreter (measured on this box's honest files)."""
    cpu_outside_go_slack_ms: float = Field(2.0, ge=0)
    """The same under the CPU interpreter. Both roles draw and sum past a CPU candidate child's
    stand-in function mode (evaluator.candidate_env; until session 57 the candidate's draws
    passed it: linear + relu's arm + commit was 4.6-5.8 ms against the reference's 1.0-1.1).
    Honest arm + commit medians against the reference's on 2 idle cores (session 57): relu
    1.2-1.5 ms / 0.6-0.8, linear + relu 1.3-1.7 / 0.8, softmax 1.3-1.7 / 0.6-0.8, matmul
    1.7-1.9 / 1.0 (1.4-2.9x, at most 1.1 ms over). Loose: the CPU's time says nothing of the
    GPU's, and an interpreted forward is tens of milliseconds. Under load an honest file is
    still charged a few ms now and then (s57d: 0.7-9.5 ms on 130-330 ms forwards, no verdict
    changed): the child's own commit took 0.1-0.4 ms where the worker's clock read 4-24 ms
    for about one candidate commit in six at load 5-7, and not for the reference's: the
    wake-up of a process that has just run tens of ms of interpreted forward waits behind
    the other runnable processes' time slices (measured, session 57)."""
    cpu_warmup_runs: int = Field(1, ge=0)
    """Untimed forwards before timing under the CPU interpreter."""
    cpu_runs: int = Field(5, ge=1)
    """Timed forwards under the CPU interpreter (the worker's clock; the timings say so)."""
    cpu_batches_per_kind: int = Field(3, ge=1)
    """Fewest timed batches per kind of input (spiked, the problem's own) under the CPU
    interpreter, past cpu_runs: a kind's median of three rejects one batch's scheduler hiccup
    (3-8 ms on 2 loaded cores), where the median of two is their mean (an honest relu's
    arm + commit was charged as work moved out of go for one hiccup, session 57)."""
    cpu_reference_rounds: int = Field(5, ge=1)
    """Times each timed batch of the reference is run under the CPU interpreter, the round of
    median net time kept (stopwatch._reference_batch): the trusted reference's forwards are
    cheap there and its time a small difference of two round trips. On 2 cores at load 6
    (session 57) a 0.15 ms relu's go took 3-8 ms in about one round of five, which with two
    batches per kind of input moved an honest file's CPU speedup 20x between evaluations
    (0.0021-0.041); three rounds still left a batch at 2.9 ms now and then."""
    l2_flush_bytes: int = Field(256 << 20, ge=0)
    """Size of the buffer written before every timed GPU run to flush L2; 0 disables."""
    launch_slack_us: float = Field(200.0, ge=0, le=10_000)
    """Device time (GPU) a spin kernel queues ahead of each timed forward's flush, in the
    null batches too (so it is subtracted): the host's launch path (Triton's launcher, the
    launch recorder, the event records) then runs ahead of the device, as in
    triton.testing.do_bench, and a forward of tens of microseconds is timed by the device,
    not by its host path. Without it the host path was the time: ours / do_bench median 0.72
    over 16 built-ins on an H200 (session 18). Host work up to this much per forward is
    hidden, as do_bench hides it behind its flush; device work never is."""
    input_sets: int = Field(1, ge=1)
    """Input-set slots the timed runs cycle through; each is redrawn from the problem's
    get_inputs under a fresh seed from the worker's OS randomness before every run (more
    slots only hold more memory)."""
    reveal_fraction: float = Field(0.25, gt=0, le=1)
    """Expected share of timed GPU runs whose outputs the worker asks to see after the run
    and compares with the reference's. Each run is revealed independently with the same
    probability, decided after the child committed to its outputs, so no run is known to
    be safe. To move the median a cheat must cheat on over half the runs; with k reveals
    expected it escapes with probability about e^(-k/2). Under the CPU interpreter every run
    is revealed."""
    min_reveals: int = Field(6, ge=1)
    """Fewest reveals expected per GPU timing, whatever the run count."""
    max_reveals: int = Field(10, ge=1)
    """Most reveals expected per GPU timing (each moves an output, or a sample of a big one,
    from both children to the worker and compares it)."""
    reveal_sample_bytes: int = Field(32 << 20, ge=1 << 16)
    """A revealed tensor up to this size is revealed whole; of a bigger one (KernelBench's
    level-1 outputs reach 8 GiB) its first and last chunks and random others, about this many
    bytes, chosen after the child committed to sums over every chunk
    (evaluator.timing.chunk_sums). A timed forward wrong on a share f of its output escapes
    one such reveal with probability about (1 - f)^chunks, and skipping a share of the work
    saves at most that share of the time. The correctness trials are always compared whole."""
    input_reveals: int = Field(2, ge=0)
    """Reveals expected per timing that also move the forward's inputs as it left them (an
    input written in place is `modified_inputs`). Every timed run's input checksum is
    compared with the reference's anyway; these reveals check the checksums are true."""
    side_stream_min_gap_s: float = Field(1e-3, ge=0)
    """Worker-clock-minus-event gap (median, each timed batch net of its own null batch and
    of its host's time between forwards, `timing.host_between`: a forward that reads back
    leaves the device idle meanwhile) above which a candidate's work escaped the timed
    stream, once it also exceeds half the event time and twice the reference's own gap. The
    worker's clock counts work on every stream anyway (a device-wide sync ends each run), so
    this only names the trick; it sits above Python launch overheads (tens of us per launch),
    which the worker's clock sees and CUDA events do not."""
    compare_torch_compile: bool = False
    """Also time torch.compile(Model) and report speedup_vs_compile in the details (GPU)."""
    exclusive_device: bool = True
    """Timing and profiling wait until no other candidate of this worker runs on the device
    and hold it alone (evaluator.device_lock), so timings under load match timings alone;
    off: timings only exclude each other (more throughput, disturbed timings)."""
    host_lock: bool = True
    """The same lock across processes on this host (a file lock per device and set of visible
    GPUs, evaluator.device_lock.HostLock): evaluators of one GPU in separate processes (several
    `krl check` runs, two workers given one GPU) never time beside each other's work."""
    host_lock_wait_s: float = Field(600.0, gt=0)
    """Longest wait for the host-wide lock; past it the evaluator goes on without it (logged):
    a stopped or stuck process holding it does not stop the device's other evaluators."""


class PolicyConfig(Section):
    """What a correct kernel must show to be ok, decided by run-time evidence (not source)."""

    name: Literal["paper", "strict"] = "paper"
    """`paper` (Dr. Kernel): ModelNew may call PyTorch and library ops; its own Triton
    kernels must do work the output depends on (the knock-out run), and the reward's
    coverage term and PRS make lazy kernels worth less. `strict` (TritonRL-like): also
    the share of the forward's device time in its own Triton kernels must reach
    `strict_min_coverage` (coverage is then measured even when timing is off), and its
    output must stay right in one more run in which every PyTorch compute operator returns
    noise while its Triton kernels run normally (only allocation, views and copies keep
    working): the result is computed by its kernels, not by PyTorch (`torch_computes`)."""
    strict_min_coverage: float = Field(0.5, ge=0, le=1)
    """Coverage a kernel needs under the strict policy."""
    max_host_reads: int = Field(16, ge=0)
    """Most values one checked forward may read to the host (`.item()`, `float(t)`, `bool(t)`,
    `torch.equal`) from memory its own kernels did not write (its inputs, weights, copies of
    them), under either policy; more is `host_compute`: Python computing the result from
    values read one by one (a GEMM of `a[i, k].item()` products, copied out by a Triton
    kernel, was ok under strict). A scalar weight or a size read a few times stays well under."""
    max_host_made: int = Field(64, ge=0)
    """Most values one checked forward may put into tensors from host Python (every element
    of `torch.tensor(data)`, `as_tensor`, `new_tensor`; one per `full`, `fill_`, `arange` of a
    Python number), under either policy; more is `host_compute`. What Python computed reaches
    the device this way, whatever read the inputs (C++ inside `tensor_split` read an index
    tensor's values with no op the watch sees). A constant or a small table stays under."""
    raised_knockout_min_coverage: float = Field(0.1, ge=0, le=1)
    """Coverage a kernel needs, under either policy, when its knock-out run raised instead of
    returning a wrong result. An error there proves only that forward looked at what the
    kernels wrote (a sentinel kernel and `if flag.item() != 1: raise` pass that way while
    PyTorch computes everything); kernels whose garbage output honestly breaks forward
    (indices fed to torch indexing) do real work and clear this easily."""
    thin_return_min_coverage: float = Field(0.05, ge=0, le=1)
    """Coverage the kernels a result needs must have, under either policy, when forward
    returns memory PyTorch computed that carries almost none of their writes (evaluator/
    carried.py: a flag gating `torch.relu(x)`). A kernel whose writes are the same in every
    trial is no one's work already (gates.trial_evidence), so this bar stops gates whose
    writes vary; an honest split keeps its own reads: Triton row moments finished by
    PyTorch's four-op affine in a LayerNorm measured 8.7% on the H200 (session 26), under
    the 10% this bar was until then."""


class ProfilingConfig(Section):
    """Coverage: the share of the forward's device time in the candidate's own kernels
    (GPU: torch.profiler; CPU: the interpreter work estimate, evaluator.cpu_work)."""

    enabled: bool = True
    """Measure coverage of correct candidates."""
    forwards: int = Field(6, ge=1)
    """Profiled timed batches (each of timing's batch size), at positions drawn at random
    among the timed batches (their times are not used). Coverage takes the least total
    among them, so a forward that pads its own work in a share q of its runs buys coverage
    only when all of them were padded, about q^forwards of the time (q < 1/2, else the
    timing pays)."""


class StaticConfig(Section):
    """AST checks on the candidate source, before anything runs."""

    max_source_bytes: int = Field(256 << 10, gt=0)
    """Longer candidate files are a format error."""
    check_budget_s: float = Field(20.0, gt=0)
    """Wall-clock seconds the static checks may spend on one file (they run in the worker,
    before any sandbox); a file that takes longer is a compile error, not a held worker.
    Honest files take well under a second."""
    allowed_imports: list[str] = [
        "torch", "triton", "math", "typing", "collections", "__future__", "functools", "itertools",
        "dataclasses", "enum", "warnings", "logging", "numpy", "time", "operator", "os", "einops",
        "packaging", "contextlib", "abc",
    ]
    """Modules a candidate may import (a listed module's submodules count as listed). This
    only narrows evaluator.static_allowlist: a module it has no table for stays rejected,
    and importing a module left out here is a compile error (unavailable)."""


class MemoryConfig(Section):
    """Admission by device memory (evaluator.memory): an evaluation's device work starts when
    the GPU has room for it, so one problem's GiBs never make another's kernel fail."""

    device_fraction: float = Field(0.92, gt=0, le=1)
    """Share of the device's total memory the budget hands out."""
    measure_fraction: float = Field(0.5, gt=0, le=1)
    """A new problem's measuring run first reserves this share of the budget, its process
    capped there; only if it runs out of memory is it run again with the whole budget
    (which waits for every other evaluation's device work to end)."""
    context_bytes: int = Field(1 << 30, ge=0)
    """Device memory one CUDA process takes that no allocator counts (context, library
    handles), set aside per sandboxed process."""
    candidate_factor: float = Field(2.0, ge=1)
    """A candidate's job reserves this many times its problem's reference footprint (the
    most the trusted reference child's allocator held), or the footprint plus a timing
    batch if that is more; its process cannot allocate beyond the reservation."""
    slack_bytes: int = Field(1 << 30, ge=0)
    """Added to every reservation whose footprint is known."""
    host_fraction: float = Field(0.6, gt=0, le=1)
    """Share of the machine's memory the worker's own tensors (reference and candidate
    outputs it compares) may take at once, less `reference_cache_bytes`; evaluations wait
    for room (evaluator.memory.HostMemory) instead of the worker being killed."""


class SandboxConfig(Section):
    """Isolation of the processes that run candidates and references: each sandbox is a
    bubblewrap sandbox (evaluator.bwrap) holding a zygote that forks one fresh process
    per candidate (evaluator.zygote, evaluator.pool)."""

    memory_limit_bytes: int | None = Field(None, gt=0)
    """Memory of one sandbox's job: the worker kills a job whose resident memory (beyond the
    warm zygote's) exceeds it, and the sandbox's cgroup memory limit, where the host has
    cgroups, is set to it. None: scaled to the machine (`host_memory_limit`): 85% of the
    host's memory shared by the evaluator's sandboxes, at least 16 GiB."""
    cpu_address_space_bytes: int | None = Field(24 << 30, gt=0)
    """RLIMIT_AS of CPU children (None: unlimited); never applied to CUDA children."""
    file_size_limit_bytes: int = Field(256 << 20, gt=0)
    """RLIMIT_FSIZE: largest file a child may write (its log included)."""
    cpu_threads: int = Field(1, ge=1)
    """torch intra-op threads in CPU children."""
    env_passthrough: list[str] = [
        "PATH", "LD_LIBRARY_PATH", "CUDA_VISIBLE_DEVICES", "CUDA_HOME", "CUDA_PATH", "TRITON_LIBCUDA_PATH", "TRITON_PTXAS_PATH",
    ]
    """Parent environment variables a child inherits; nothing else is passed (no secrets)."""
    unsafe_skip_static_checks: bool = False
    """Run candidates without the AST checks, and never reuse their child. Only for
    testing the sandbox itself; never in training or benchmarks."""
    require_isolation: bool = False
    """Refuse to evaluate when the host lacks a sandbox layer (bwrap, a namespace, seccomp
    while `seccomp` is on, cgroup limits, tmpfs size limit); off, a missing layer is logged
    once and listed in every verdict's details. Off by default so development and CI hosts
    without bubblewrap still evaluate; production configs turn it on."""
    seccomp: bool = True
    """Install evaluator.seccomp.SANDBOX (host-reaching system calls fail) in the sandbox."""
    spare_child: bool = True
    """Fork each idle sandbox's next candidate child ahead of time (evaluator.sandbox
    `prestart`): it sets up its device while no candidate is known, so a verdict does not
    wait for a CUDA context (about a second of `sandbox_start` on the GPU). It gets its
    job's limits before any candidate code, after the previous job was ended and wiped."""
    arena_min_bytes: int = Field(8 << 20, ge=1)
    """A reply's tensors of this size and up cross through the child's reply arena (shared
    memory the worker copies out of, evaluator.protocol) instead of the pipe, which moves
    about 1 GB/s."""
    tmpfs_bytes: int = Field(2 << 30, gt=0)
    """Size of the sandbox's writable /tmp (HOME, TMPDIR, cwd, Triton cache), and separately
    of its /dev/shm; writes past it fail with ENOSPC. The pages count towards
    `memory_limit_bytes` where the cgroup layer is on."""
    max_pids: int = Field(512, ge=16)
    """cgroup pids.max of one sandbox: its processes and threads together (torch and the
    CUDA driver start dozens of threads)."""
    cgroup_parent: Path | None = None
    """cgroup v2 directory (created if missing) under which each sandbox gets its own
    cgroup; it must offer the pids and memory controllers and hold no process, e.g. a
    systemd `Delegate=yes` unit's sub-directory. None: this process's own cgroup, which
    works on cgroup v1 and at the root of a v2 tree only."""


class WorkerConfig(Section):
    """One `krl evaluator` process: its identity, capacity and result cache."""

    worker_id: str = ""
    """Stable name of this worker (e.g. `gpu0`), so the broker counts a restart as one;
    empty: `<hostname>-<pid>`."""
    slots: int | None = Field(None, ge=1, le=1024)
    """Evaluations the worker accepts at once (its thread pool); None: `children`."""
    cache_entries: int = Field(4096, ge=0)
    """Results kept per worker by content hash (a few KB each), so a request resent after
    a broker restart is answered without a second evaluation."""
    warm_up: bool = True
    """Start every sandboxed child before announcing capacity to the broker."""


class EvaluatorSimulateConfig(Section):
    """Simulated evaluation for pipeline benchmarks (benchmarks/pipeline.py); off by default.

    The worker still talks to the broker exactly as usual (requests, heartbeats, status,
    result cache); it starts no sandbox and runs nothing: each request waits out a
    latency on one of the worker's slots and gets a verdict drawn from a seeded random
    generator keyed by problem and candidate, so a resent request gets the same one."""

    enabled: bool = False
    """Answer every request with a simulated verdict instead of evaluating it."""
    latency_s: float = Field(1.0, ge=0)
    """Seconds one evaluation occupies a worker slot."""
    jitter: float = Field(0.0, ge=0, lt=1)
    """The latency is drawn uniformly from latency_s * (1 +- jitter)."""
    correct_prob: float = Field(0.5, ge=0, le=1)
    """Chance a candidate is judged ok, with a speedup drawn uniformly from
    [speedup_min, speedup_max] and the configured reward; otherwise `incorrect`, reward 0."""
    speedup_min: float = Field(0.5, gt=0)
    """Smallest simulated speedup of an ok candidate."""
    speedup_max: float = Field(2.0, gt=0)
    """Largest simulated speedup of an ok candidate."""

    @model_validator(mode="after")
    def _check(self) -> EvaluatorSimulateConfig:
        if self.speedup_max < self.speedup_min:
            raise ValueError("simulate.speedup_max must be >= simulate.speedup_min")
        return self


class EvaluatorConfig(Section):
    """How candidates are checked, timed and scored."""

    device: Literal["auto", "cuda", "cpu"] = "auto"
    """`cuda` for GPUs, `cpu` for Triton's interpreter; `auto` picks cuda when present."""
    timeout_s: float = Field(120.0, gt=0)
    """Hard limit for one evaluation in its sandbox; the child is killed after it."""
    reward: RewardConfig = RewardConfig()
    """Reward weights."""
    metrics: MetricsConfig = MetricsConfig()
    """Metrics endpoint of evaluator workers."""
    children: int = Field(2, ge=1)
    """Warm sandboxed children that run candidates (plus the trusted reference children)."""
    reference_children: int = Field(1, ge=1)
    """Trusted children computing reference outputs (cached per problem), so several new
    problems' references are computed at once; each costs a process and its memory."""
    startup_timeout_s: float = Field(180.0, gt=0)
    """How long a fresh child may take to import torch and Triton and say it is ready."""
    reference_cache_bytes: int = Field(8 << 30, ge=0)
    """Reference outputs kept in host memory per worker, keyed by problem, sizes and seeds
    (a realistic GPU-size problem's trials take 0.1-1 GiB; a miss costs a reference run)."""
    seed: int | None = None
    """Base seed of the correctness trials and weight init; None (the default) draws it from
    the OS when the worker starts, so no candidate can predict its trials. A fixed seed is
    for debugging only. Timing inputs always come from the OS's randomness."""
    feedback_max_chars: int = Field(4000, ge=200)
    """Longest feedback text handed to the model."""
    correctness: CorrectnessConfig = CorrectnessConfig()
    """Correctness trials and tolerances."""
    timing: TimingConfig = TimingConfig()
    """Timing of reference and candidate."""
    profiling: ProfilingConfig = ProfilingConfig()
    """Profiler coverage."""
    policy: PolicyConfig = PolicyConfig()
    """What a correct kernel must show to be ok (reported in every verdict)."""
    static: StaticConfig = StaticConfig()
    """AST checks."""
    sandbox: SandboxConfig = SandboxConfig()
    """Child process isolation."""
    worker: WorkerConfig = WorkerConfig()
    """The `krl evaluator` service process around the pipeline."""
    simulate: EvaluatorSimulateConfig = EvaluatorSimulateConfig()
    """Simulated verdicts and latency (pipeline benchmark); off by default."""
    memory: MemoryConfig = MemoryConfig()
    """Admission by device memory."""

    @model_validator(mode="after")
    def _check(self) -> EvaluatorConfig:
        if self.timing.max_runs < self.timing.min_runs:
            raise ValueError("timing.max_runs must be >= timing.min_runs")
        return self


def host_memory_limit(cfg: EvaluatorConfig) -> int:
    """Resident memory one sandbox's job may use: `sandbox.memory_limit_bytes`, or 85% of this
    host's memory over the evaluator's sandboxes (candidates and references), >= 16 GiB."""
    if cfg.sandbox.memory_limit_bytes is not None:
        return cfg.sandbox.memory_limit_bytes
    try:
        total = os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES")
    except (ValueError, OSError):
        return 16 << 30
    return max(16 << 30, int(0.85 * total) // (cfg.children + cfg.reference_children))


def sandbox_environment(cfg: SandboxConfig) -> dict[str, str]:
    """The parent's values of the variables a child may inherit (only those set)."""
    return {name: os.environ[name] for name in cfg.env_passthrough if name in os.environ}


_SENSITIVE_NAME = re.compile(r"SECRET|TOKEN|KEY|PASSW|CREDENTIAL|AUTH|COOKIE", re.IGNORECASE)


def sensitive_environment_values() -> list[str]:
    """Values of the parent's variables whose names look secret; feedback redacts them."""
    return [v for k, v in os.environ.items() if _SENSITIVE_NAME.search(k) and len(v) >= 6]


class EvalClientConfig(Section):
    """How a client (an actor, a benchmark) talks to the broker (common/eval_client.py)."""

    request_deadline_s: float = Field(900.0, gt=0)
    """Default time from submit to result, queueing included; past it the request fails
    with EvaluationTimeout and a late result is dropped."""
    resend_interval_s: float = Field(10.0, gt=0)
    """An unanswered request is resent (same id) after this, doubling up to resend_max_s;
    resends are how a restarted broker relearns the requests it lost."""
    resend_max_s: float = Field(60.0, gt=0)
    """Cap on the resend interval."""
    max_in_flight: int = Field(64, ge=1)
    """Requests sent and unanswered at once; more wait in the client (backpressure)."""
    unavailable_after_s: float = Field(60.0, gt=0)
    """The broker silent this long (no result, error or heartbeat) while requests wait:
    they fail with EvaluatorUnavailable, and so do new ones until it answers again."""

    @model_validator(mode="after")
    def _check(self) -> EvalClientConfig:
        if self.resend_max_s < self.resend_interval_s:
            raise ValueError("resend_max_s must be >= resend_interval_s")
        return self


class BrokerConfig(Section):
    """The stateless evaluator broker between actors and workers."""

    frontend: str = "tcp://127.0.0.1:5555"
    """Endpoint actors connect to."""
    backend: str = "tcp://127.0.0.1:5556"
    """Endpoint evaluator workers connect to."""
    metrics: MetricsConfig = MetricsConfig()
    """Metrics endpoint of the broker."""
    max_queued: int = Field(1024, ge=1)
    """Distinct evaluations waiting for a free worker slot; a new one beyond this is
    answered ErrorReply(code="busy") instead of growing the queue."""
    max_waiting_requests: int = Field(8192, ge=1)
    """Requests waiting for a result (duplicates of one evaluation included); beyond it: busy."""
    busy_retry_after_s: float = Field(1.0, ge=0)
    """retry_after_s of a busy reply."""
    cache_entries: int = Field(16384, ge=0)
    """Results kept by content hash of problem, candidate and settings (a few KB each)."""
    max_attempts: int = Field(3, ge=1)
    """Workers that may die holding one evaluation before it is answered `crashed`
    (a candidate that kills whole workers must not take the pool down one by one)."""
    client: EvalClientConfig = EvalClientConfig()
    """Settings of the broker's clients."""
