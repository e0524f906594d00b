"""Evaluator config, the correctness sections: output tolerances per dtype, the trials that
decide whether a candidate computes what the reference computes, and the depth trials at the
problem's declared sizes. common.config.evaluator holds the rest and nests these."""

from __future__ import annotations

from pydantic import Field

from common.config.base import Section


class ToleranceConfig(Section):
    """How close a candidate's output must be to the reference's, for one dtype."""

    atol: float = Field(ge=0)
    """Absolute tolerance; on a trial whose reference output is larger than on the base
    trials (x1e3 inputs) it grows by that RMS ratio, so it means the same on every trial."""
    rtol: float = Field(ge=0)
    """Relative tolerance per element: |out - ref| <= atol_eff + rtol * |ref|."""
    norm_rtol: float = Field(ge=0)
    """Bound on ||out - ref|| / ||ref|| over the whole output; fails all-zero answers to tiny
    outputs."""
    residual_rtol: float | None = Field(None, ge=0)
    """Bound on ||out - a*ref|| / ||ref|| for the best scale a: the error that is not one
    common factor (None: norm_rtol). An honest float32 kernel's rounding and summation
    order leave ~1e-7..5e-6 (a sequential sum over 65536 elements); float16 intermediates
    leave ~5e-4 wherever the output is small against atol (softmax's 1/n values pass
    every per-element test), while a common factor (an atomic reduction's 1.8e-3 on
    level1/37) is only held to norm_rtol."""


def _default_tolerances() -> dict[str, ToleranceConfig]:
    return {
        "float64": ToleranceConfig(atol=1e-6, rtol=1e-6, norm_rtol=1e-5, residual_rtol=1e-8),
        # norm 5e-3, half KernelBench's own 1e-2: an honest atomic fp32 reduction over
        # level1/37's 1.9e9 elements (1.8M partial sums added into one float) is 1.8e-3 off
        # in one common factor; the error that is not a common factor is held to 1.5e-4
        "float32": ToleranceConfig(atol=1e-4, rtol=1e-4, norm_rtol=5e-3, residual_rtol=1.5e-4),
        "float16": ToleranceConfig(atol=1e-2, rtol=1e-2, norm_rtol=1e-2),
        "bfloat16": ToleranceConfig(atol=2e-2, rtol=2e-2, norm_rtol=2e-2),
    }


class DepthConfig(Section):
    """Depth trials on the CPU (evaluator.depth_phase): after an ok at the CPU sizes, each size
    the CPU runs smaller than the problem file declares goes back to its declared value (the
    others stay), one base trial judged there, so precision and resources that depend on one
    size (a float16 accumulator over K = 4096, a block sized from an 8192-wide row) are judged
    at the size the GPU runs. Never on a GPU evaluator (it runs the declared sizes)."""

    enabled: bool = True
    """Judge every CPU ok again at the declared sizes (a `krl check` or an RL run on the CPU)."""
    max_variants: int = Field(4, ge=0)
    """At most this many sizes, the most shrunk first (each is one reference run, cached, and
    one fresh candidate child with one trial)."""
    max_elements: int = Field(1 << 21, gt=0)
    """Most input elements of a depth trial; a size whose declared value needs more is raised
    to the largest power of two within it (Triton's interpreter is slow: about 1.3 s for a
    million-element elementwise forward on one core; matmul_fp16's K = 4096 at the CPU's M
    and N takes 1.2 M)."""
    timeout_s: float = Field(30.0, gt=0)
    """Limit of one depth trial. One that runs out runs again at its value over
    `retry_shrink` (`retries` times), with `retry_time` times this limit; out of time at every
    value, the verdict is `timeout`."""
    retry_shrink: int = Field(4, ge=2)
    """A depth trial out of time runs again at its value divided by this (at least twice the
    CPU's value): a sixteenth of a quadratic kernel's work."""
    retry_time: float = Field(3.0, ge=1)
    """A retry's limit, in units of `timeout_s`: a quarter of the size in three times the time
    is twelve times the declared size's rate (an honest conv1d of static_range taps took 54 s
    at a quarter of its length on 2 cores loaded by four evaluations at once; 30 s ran out at
    the declared length)."""
    retry_max_s: float = Field(300.0, gt=0)
    """The longest a retry may run. A retry's limit is twice the CPU sizes' correctness time
    grown with the size (at least `retry_time` x `timeout_s`), and its value is lowered until
    that fits in this: a kernel slow at the CPU's sizes already (fla's 48-config autotuned
    cumsum: 79 s) is judged at a size it can finish."""
    dry_s: float = Field(120.0, ge=0)
    """The dry launch model's CPU time per forward (evaluator.dry_phase; its thread's, which load
    elsewhere does not shrink): the candidate's launches are modelled at the CPU's and the declared
    sizes and a storage stored whole at the first and not at the second is refused. 0: off; past
    it the verdict stands; past dry_launch.WALL_TIMES x it on the job's clock (per forward where
    autotune configs make several, at most dry_phase.MAX_WALL_FORWARDS), refused."""
    retries: int = Field(1, ge=0)
    """How many times a depth trial out of time runs again, each smaller by `retry_shrink`;
    out of time at every value, the verdict is `timeout`. Each retry is a value where a file
    that stalls above it is judged: more retries are kinder to slow kernels and to stalls."""


class CorrectnessConfig(Section):
    """Trials that decide whether a candidate computes what the reference computes."""

    distributions: list[str] = ["scale:1e-3", "scale:1e3", "spike"]
    """Extra trials beyond the base-seed ones: `scale:F` multiplies floating inputs by F,
    `shift:F` adds F, `spike` sets one random element of each float32/float64 input to a
    random 2-50% share of that input's absolute sum (evaluator.input_transforms.spike; where the
    reference's outputs on it stay finite, half the timed batches draw spiked inputs too).
    Scaling applies when every floating input is float32/float64, complex or half (half
    precision by a power of two, at most 2^4). A problem's own list replaces these, but a
    spike trial listed here is kept when that list has none (evaluator.reference.make_plan)."""
    tolerances: dict[str, ToleranceConfig] = Field(default_factory=_default_tolerances)
    """Per output dtype; integer and bool outputs must match exactly. A problem's own
    tolerance overrides atol/rtol (and loosens norm_rtol and residual_rtol to at least
    its rtol)."""
    max_output_bytes: int = Field(8 << 30, gt=0)
    """Largest output one forward may send back to the comparison; bigger is an error
    (KernelBench level 1 has outputs of 6 GiB)."""
    judge_on_device: bool = False
    """On a GPU evaluator, the worker compares outputs a slice at a time on the device (its
    own CUDA context, one more process in the memory budget; the slices are uploaded from
    its private snapshots). Off by default: on the H200 host one 6 GiB float32 comparison
    took 2.07 s this way against 1.81 s on the worker's 16 CPU threads
    (benchmarks/judge_transfer.py), the pageable upload being the cost."""
    reduced_trials_above_bytes: int = Field(1 << 30, ge=0)
    """Where one input set's reference outputs exceed this, only the first base trial and the
    non-base ones (scaled inputs) run, not every base trial: the worker holds each trial's
    outputs from both sides, and a 6 GiB output over every trial took 72 GiB. The verdict's
    details say so (`trials_reduced`)."""
    depth: DepthConfig = DepthConfig()
    """Depth trials at the problem's declared sizes (CPU only)."""
