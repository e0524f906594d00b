"""Output comparison, done in the worker (parent) on tensors the child sent back.

The candidate's process never sees the reference outputs and cannot reach this
code. Per output tensor:
  - integer/bool outputs must match exactly;
  - floating outputs: NaN where the reference is NaN, the same infinities (but near the
    dtype's overflow edge, see OVERFLOW_EDGE), and on
    the finite elements |out - ref| <= atol * s + rtol * |ref|, where s is
    max(1, rms(ref) / rms of the same output on the base-distribution trials):
    atol follows the output's scale on the x1e3 trial and never shrinks, so a
    problem's tolerance means the same on every input distribution;
    AND ||out - ref|| / ||ref|| <= norm_rtol (so an all-zero answer to a problem
    whose true output is tiny fails even though it is within atol);
    AND ||out - a*ref|| / ||ref|| <= residual_rtol for the best common factor a (the
    error that is not one scale: float16 intermediates in a float32 softmax, whose
    1/n outputs are far below atol, leave ~5e-4 of it, honest float32 work ~1e-7..5e-6,
    while an atomic reduction's common rounding factor is held only to norm_rtol);
  - a floating output of lower precision than the reference's is the
    precision_downgrade hack; any other dtype or shape difference is incorrect;
  - the precision contract: a float32 output that misses the strict reference
    is accepted when it meets `tf32_tolerance`, i.e. its error is of the size PyTorch's
    own TF32 mode gives on the same computation; the verdict says so. A float16/bfloat16
    output's norm and residual bounds are capped by `half_tolerance` at a small multiple of
    what PyTorch itself loses computing it in that dtype (`half_deviation`).
Across trials: a candidate output that is bit-identical for two trials whose
reference outputs differ beyond tolerance ignores its input (constant_output).
"""
from __future__ import annotations

import math
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, replace

import torch

from common.config.evaluator import CorrectnessConfig

_PRECISION = {torch.float64: 3, torch.float32: 2, torch.bfloat16: 1, torch.float16: 1}
_DTYPE_BY_NAME = {"float64": torch.float64, "float32": torch.float32, "float16": torch.float16,
                  "bfloat16": torch.bfloat16}


@dataclass(frozen=True)
class Tolerance:
    atol: float
    rtol: float
    norm_rtol: float
    residual_rtol: float | None = None  # None: norm_rtol
    noise: float = 0.0  # absolute floor of the norm bound (noise_floor.NOISE_FLOOR)
    noise_residual: float = 0.0  # absolute floor of the residual bound: the noise's own residual
    precision: float = math.inf  # a half output's precision contract (`half_tolerance`): both bounds
    # never above this share of ||ref||, whatever the noise floor
    atol_floor: float = 0.0  # the elementwise bound's floor: the reference's own rounding
    # (noise_floor.element_floor)

    def scaled_atol(self, scale: float = 1.0) -> float:
        """atol on a trial whose output is `scale` times the base trials' (never below 1x),
        never under the reference's own rounding (`atol_floor`)."""
        return max(self.atol * max(1.0, scale), self.atol_floor)

    @property
    def residual(self) -> float:
        return self.norm_rtol if self.residual_rtol is None else min(self.residual_rtol, self.norm_rtol)

    def norm_bound(self, norm: float) -> float:
        """The largest ||out - ref|| accepted against a reference of norm `norm`."""
        return self._capped(max(self.norm_rtol * norm, self.noise), norm)

    def residual_bound(self, norm: float) -> float:
        """The largest residual (`residual`) accepted against a reference of norm `norm`."""
        return self._capped(max(self.residual * norm, self.noise_residual), norm)

    def _capped(self, bound: float, norm: float) -> float:
        return bound if math.isinf(self.precision) else min(bound, self.precision * norm)


def tolerance_for(dtype: torch.dtype, cfg: CorrectnessConfig,
                  override: Mapping[str, float] | None) -> Tolerance | None:
    """Tolerance for an output dtype; None means exact equality."""
    if dtype.is_complex:
        dtype = torch.float64 if dtype == torch.complex128 else torch.float32
    if not dtype.is_floating_point:
        return None
    name = next((k for k, v in _DTYPE_BY_NAME.items() if v == dtype), "float32")
    base = cfg.tolerances.get(name) or cfg.tolerances["float32"]
    tol = Tolerance(base.atol, base.rtol, base.norm_rtol, base.residual_rtol)
    if override:
        atol = float(override.get("atol", tol.atol))
        rtol = float(override.get("rtol", tol.rtol))
        tol = Tolerance(atol, rtol, max(tol.norm_rtol, rtol), max(tol.residual, rtol))
    return tol


_JUDGE_DEVICE: ContextVar[torch.device | None] = ContextVar("judge_device", default=None)


@contextmanager
def on_device(device: torch.device | str | None) -> Iterator[None]:
    """Within this block (this thread), the float32 passes (`fast_match`) run on `device`,
    host tensors uploaded a slice at a time: the worker's own judgement, on its own copies,
    only faster. None: where the tensors are."""
    token = _JUDGE_DEVICE.set(None if device is None else torch.device(device))
    try:
        yield
    finally:
        _JUDGE_DEVICE.reset(token)


def _work_device(t: torch.Tensor) -> torch.device:
    dev = _JUDGE_DEVICE.get()
    return t.device if dev is None else dev


_TINY = 1e-15  # a float32 norm below this may have lost its squares to underflow
_SLICE = 1 << 20  # elements per pass: the fast path's buffers stay in cache, and are reused (4x as many
# elements made it 2x slower on this 2-core host: each pass then streamed from memory)

OVERFLOW_EDGE = 10 / 128
"""An infinity on one side and, on the other, a finite value of the same sign in the top
OVERFLOW_EDGE of the dtype's exponent range (|v| >= max ** (1 - OVERFLOW_EDGE): 3.3e35 for
float32 and bfloat16, 2.8e4 for float16) is no mismatch: which of two correct kernels
overflows there depends on the order of its operations (a scan's partial product can
overflow where the sequential one does not; KernelBench's cumprod on x1e3 inputs did).
A log-scale share, not a share of the largest value: 2^-10 of float16's 65504 is 64, inside
any float16 output's normal range (a red team returned inf for every |out| >= 64 and passed).
At most OVERFLOW_FORGIVEN_SHARE of an output's elements (and at least 16) are forgiven: an
order-of-operations overflow happens at a few boundary elements, not across an output."""
OVERFLOW_FORGIVEN_SHARE = 1e-3

TF32_SLACK = 3.0
"""How many times PyTorch's own TF32 error a float32 kernel may show (its rounding and
accumulation order differ from cuBLAS's, so its error is of that size, not equal)."""


def tf32_deviation(strict: torch.Tensor, tf32: torch.Tensor,
                   within: float | None = None) -> tuple[float, float, float] | None:
    """How far PyTorch's TF32 mode moves a float32 output: (max absolute deviation, norm
    deviation and residual deviation (`residual`), relative to the strict output's norm),
    over elements finite in both. Computed where both outputs are (the reference child, on
    the device): three numbers cross to the worker instead of a second copy of the output.
    None where it does not apply. `within`: over the elements whose strict value is at most
    that in magnitude only (judge.SPIKE_REACH: the rest of a spiked output).

    In float64 a slice at a time: whole, its temporaries took ~8x the output (an 8 GiB
    KernelBench output asked for 16 GiB at a time and ran the device out of memory)."""
    if strict.dtype != torch.float32 or tf32.shape != strict.shape or tf32.dtype != strict.dtype:
        return None
    return _deviation(strict, tf32, within)


def half_deviation(strict: torch.Tensor, wide: torch.Tensor,
                   within: float | None = None) -> tuple[float, float, float] | None:
    """How far a float16/bfloat16 output is from the same forward computed in float32 (`wide`,
    the problem's model and floating inputs upcast): what PyTorch itself loses computing this
    in the half dtype. As `tf32_deviation`, three numbers relative to the half output's norm;
    None where it does not apply."""
    if strict.dtype not in HALF_DTYPES or wide.shape != strict.shape or not wide.is_floating_point():
        return None
    return _deviation(strict, wide, within)


def _deviation(strict: torch.Tensor, other: torch.Tensor, within: float | None = None) -> tuple[float, float, float]:
    """(max, norm, residual) deviation of `other` from `strict` (`tf32_deviation`), over the
    elements finite in both (and, given `within`, at most that in magnitude in `strict`)."""
    s_all, t_all = strict.detach().reshape(-1), other.detach().reshape(-1)
    max_dev = dev_sq = ref_sq = dev_ref = 0.0
    for start in range(0, s_all.numel(), _SLICE):
        s, t = s_all[start:start + _SLICE].double(), t_all[start:start + _SLICE].double()
        other = ~(torch.isfinite(s) & torch.isfinite(t))
        if within is not None:
            other |= s.abs() > within
        dev = t.sub_(s).masked_fill_(other, 0.0)  # in place: two float64 slices in all
        s.masked_fill_(other, 0.0)
        dev_ref += float(torch.dot(dev, s))
        dev_sq += float(torch.linalg.vector_norm(dev)) ** 2
        ref_sq += float(torch.linalg.vector_norm(s)) ** 2
        max_dev = max(max_dev, float(dev.abs_().max()))
    norm = math.sqrt(ref_sq)
    return (max_dev, math.sqrt(dev_sq) / norm if norm > 0 else 0.0,
            residual(dev_sq, dev_ref, ref_sq) / norm if norm > 0 else 0.0)


def residual(diff_sq: float, diff_ref: float, ref_sq: float) -> float:
    """||d - c*r|| for the best c, from ||d||^2, <d, r> and ||r||^2 (d = out - ref): the part
    of the error that is not a common factor of the output. From d, not from out, so no
    cancellation of two near-equal squares loses it."""
    if ref_sq <= 0:
        return math.sqrt(max(diff_sq, 0.0))
    return math.sqrt(max(diff_sq - diff_ref * diff_ref / ref_sq, 0.0))


def tf32_tolerance(tol: Tolerance, deviation: tuple[float, ...] | list[float]) -> Tolerance:
    """The precision contract for a float32 output: the strict tolerance widened by what
    PyTorch's TF32 mode itself changes on this computation (`tf32_deviation`). Where TF32
    changes nothing (elementwise work), this is the strict tolerance, so computing such
    work in fp16 still fails. A deviation of two parts (from before the residual was
    measured) widens the residual bound like the norm bound.

    The residual bound is TF32's own residual times TF32_SLACK, not the strict bound where
    that is looser: on all-positive inputs truncation's deviation is mostly a common factor
    (every element ~7e-4 low), which widens atol far past the noise it makes, and bfloat16
    operands (8x TF32's residual) and 3-bit ones (100x) met the strict residual bound of
    1.5e-4 (red team C, session 17). Float16 operands keep TF32's 10 mantissa bits and their
    residual is TF32's size; the reference's noise floor stays under it."""
    max_dev, norm_dev = (float(x) for x in deviation[:2])
    residual_rtol = TF32_SLACK * float(deviation[2]) if len(deviation) > 2 \
        else max(tol.residual, TF32_SLACK * norm_dev)
    return Tolerance(atol=tol.atol + TF32_SLACK * max_dev, rtol=tol.rtol,
                     norm_rtol=max(tol.norm_rtol, TF32_SLACK * norm_dev),
                     residual_rtol=residual_rtol, noise=tol.noise, noise_residual=tol.noise_residual,
                     atol_floor=tol.atol_floor)


HALF_DTYPES = (torch.float16, torch.bfloat16)
HALF_SLACK = 2.5
"""How many times PyTorch's own half-precision error (`half_deviation`) a float16/bfloat16
output may be from the half reference: its own error of that size (1.5x it) plus the
reference's (1x). Measured on the CPU in units of `rounding_unit` (session 22): a kernel that
computes in float32 and rounds once is 0.05-1.3 from the reference where PyTorch's deviation
is 0.7-1.1; chained bfloat16 arithmetic (three roundings) 1.3; float16 partial sums over
K=4096 (a float16 accumulator) 5.9; results stored with 3 of their mantissa bits dropped 10.5;
a degree-7 polynomial for a bfloat16 sigmoid 2.3, and 8.2 on inputs x16."""
HALF_FLOOR_UNITS = 2.0
"""The half contract's bound never asks for less than this many `rounding_unit`s of the
output's norm: a kernel's own rounding and the reference's, with room (where the reference
is exact, PyTorch's deviation is ~0 but a kernel's one rounding differs from it at ties)."""


def rounding_unit(dtype: torch.dtype) -> float:
    """The RMS error of one rounding to `dtype`, relative to the value, for a value at the
    bottom of its binade (eps / sqrt(12); a value's own is 0.5-1x this): 2.8e-4 for float16,
    2.3e-3 for bfloat16."""
    return torch.finfo(dtype).eps / math.sqrt(12.0)


def half_tolerance(tol: Tolerance, dtype: torch.dtype, deviation: tuple[float, ...] | list[float] | None,
                   override: Mapping[str, float] | None = None) -> Tolerance:
    """The precision contract for a float16/bfloat16 output: the norm and residual bounds
    never above HALF_SLACK times what PyTorch itself loses in this dtype (`half_deviation`,
    measured by the reference child on each trial), nor below HALF_FLOOR_UNITS of its
    rounding; never looser than `tol`. The dtype's default norm bound (1e-2 for float16,
    2e-2 for bfloat16) is ~30x one rounding: results stored at 7 mantissa bits, or a
    polynomial for a sigmoid, were ok (red team, session 22). Elementwise atol/rtol stay.
    A problem's own rtol is the least it may be (the author's stated precision); without a
    deviation (the float32 forward failed) `tol` stands."""
    if dtype not in HALF_DTYPES or deviation is None or len(deviation) < 2:
        return tol
    bound = max(HALF_FLOOR_UNITS * rounding_unit(dtype), HALF_SLACK * float(deviation[1]))
    if override and "rtol" in override:
        bound = max(bound, float(override["rtol"]))
    return replace(tol, precision=min(tol.precision, bound))


def dtype_verdict(out_dtype: str, ref_dtype: str) -> str | None:
    """None when equal; 'precision_downgrade' or 'incorrect' otherwise."""
    if out_dtype == ref_dtype:
        return None
    o, r = _DTYPE_BY_NAME.get(out_dtype), _DTYPE_BY_NAME.get(ref_dtype)
    if o is not None and r is not None and _PRECISION[o] < _PRECISION[r]:
        return "precision_downgrade"
    return "incorrect"


def fast_match(out: torch.Tensor, ref: torch.Tensor, tol: Tolerance, atol_scale: float = 1.0,
               within: float | None = None) -> bool:
    """Whether `out` certainly matches `ref` as `compare` judges it (with no allowance for a
    few elements): True is final, False only means the exact judgement must be asked."""
    return fast_matches(out, ref, [tol], atol_scale, within)[0]


def fast_matches(out: torch.Tensor, ref: torch.Tensor, tols: list[Tolerance], atol_scale: float = 1.0,
                 within: float | None = None) -> list[bool]:
    """`fast_match` under each of `tols` (the strict tolerance and the TF32 contract's, say),
    in one pass over the data: the differences, magnitudes and norms are the same for all."""
    if out.is_complex():
        out, ref = torch.view_as_real(out), torch.view_as_real(ref)
    if not out.numel():
        return [True] * len(tols)
    return _fast_match(out, ref, tols, [t.scaled_atol(atol_scale) for t in tols], within)


def _fast_match(out: torch.Tensor, ref: torch.Tensor, tols: list[Tolerance], atols: list[float],
                within: float | None = None) -> list[bool]:
    """The common case, a slice at a time through reused buffers (a GiB output allocates
    and faults in nothing new): every element finite and within tolerance, and the norm
    bound met (`within`: of the elements where |ref| <= within, as `_statistics` judges
    them), per tolerance. False sends the caller to the exact slow path (NaN/inf placement,
    statistics, in float64: on a 4 GiB cumprod output it took most of a 166 s correctness
    phase on the H200), which runs at most once per failed verdict.

    The elementwise test |out - ref| <= atol + rtol |ref| is read as one reduction per
    tolerance, max(|out - ref| - rtol |ref|) <= atol (NaN anywhere fails it, as it fails
    the comparison): a comparison, a boolean tensor and its `all` were two passes more."""
    o, r = out.reshape(-1), ref.reshape(-1)
    n = o.numel()
    work = torch.float64 if o.dtype == torch.float64 else torch.float32
    size = min(n, _SLICE)
    dev = _work_device(o)
    diff, limit = torch.empty(size, dtype=work, device=dev), torch.empty(size, dtype=work, device=dev)
    magnitude, excess = torch.empty(size, dtype=work, device=dev), torch.empty(size, dtype=work, device=dev)
    widen = o.dtype != work or o.device != dev  # copied into the work buffers (on dev, widened)
    wide_o = torch.empty(size, dtype=work, device=dev) if widen else None
    wide_r = torch.empty(size, dtype=work, device=dev) if widen else None
    # `within`: which elements are out (a reused mask), and the reference with them zeroed
    far_mask = torch.empty(size, dtype=torch.bool, device=dev) if within is not None else None
    near_r = torch.empty(size, dtype=work, device=dev) if within is not None else None
    alive = [True] * len(tols)
    diff_sq = ref_sq = diff_ref = 0.0
    for start in range(0, n, _SLICE):
        oc, rc = o[start:start + _SLICE], r[start:start + _SLICE]
        k = oc.numel()
        if widen:
            oc, rc = wide_o[:k].copy_(oc), wide_r[:k].copy_(rc)
        d = torch.sub(oc, rc, out=diff[:k])
        if within is not None:  # the rest count as exact: out of the judgement and the norms
            # not (|ref| <= within): beyond it, or NaN; into reused buffers (fresh masks and a
            # masked copy per slice made this path 10x slower than the plain one)
            far = torch.le(torch.abs(rc, out=limit[:k]), within, out=far_mask[:k]).logical_not_()
            d.masked_fill_(far, 0.0)
            rc = near_r[:k].copy_(rc).masked_fill_(far, 0.0)
        mag = torch.abs(d, out=magnitude[:k])
        size_r = torch.abs(rc, out=limit[:k])
        failed = []
        for j, tol in enumerate(tols):
            if alive[j]:
                worst = float(torch.sub(mag, size_r, alpha=tol.rtol, out=excess[:k]).max())
                if not worst <= atols[j]:  # NaN or inf anywhere, or an element out of tolerance
                    failed.append(j)
        if failed:
            # the same infinity, or NaN, on both sides is right (as `_statistics` judges it),
            # and out of the norms: a cumprod that overflows on x1e3 inputs stays on this path
            same = (oc == rc).logical_or_(torch.isnan(oc).logical_and_(torch.isnan(rc)))
            finite = torch.isfinite(oc).logical_and_(torch.isfinite(rc))
            for j in failed:
                good = torch.le(mag, size_r * tols[j].rtol + atols[j])  # False at any NaN or inf
                if not bool(good.logical_and_(finite).logical_or_(same).all()):  # inf <= inf is no match
                    alive[j] = False
            if not any(alive):
                return alive
            special = finite.logical_not_()
            d.masked_fill_(special, 0.0)
            mag.masked_fill_(special, 0.0)
            rc = rc.masked_fill(special, 0.0)
        # sums of squares as BLAS dots: vector_norm's two passes were the largest share of the
        # worker's judging on the H200 (stack samples, session 22); where a square overflows,
        # the scaled norm
        nd2, nr2 = float(torch.dot(mag, mag)), float(torch.dot(rc, rc))
        if not (math.isfinite(nd2) and math.isfinite(nr2)):
            nd2, nr2 = float(torch.linalg.vector_norm(mag)) ** 2, float(torch.linalg.vector_norm(rc)) ** 2
        nd, nr = math.sqrt(nd2), math.sqrt(nr2)
        # a difference whose squares vanish matters only beside a reference as small: against
        # ||ref|| >= _TINY it is < 4e-20 (and a bit-exact slice needs no second pass over it)
        if work == torch.float32 and nr < _TINY and (bool(rc.any()) or (nd < _TINY and bool(mag.any()))):
            # squares under float32's range vanish: values ~1e-23 made ||ref|| 0 and any
            # output "matched" with no norm bound (red team C, session 15); float64 here,
            # subnormal pairs as exact (a GPU may flush them; one rounding step of a 1e-43
            # product was 2% of a norm that small: an honest reduction order failed)
            d64, r64 = d.double(), rc.double()
            flushed = _subnormal_pair(oc, rc, out.dtype)
            d64.masked_fill_(flushed, 0.0)
            r64.masked_fill_(flushed, 0.0)
            diff_ref += float(torch.dot(d64, r64))
            nd, nr = float(torch.linalg.vector_norm(d64)), float(torch.linalg.vector_norm(r64))
        else:
            diff_ref += float(torch.dot(d, rc))
        diff_sq += nd ** 2
        ref_sq += nr ** 2
    if not all(math.isfinite(x) for x in (diff_sq, ref_sq, diff_ref)):
        return [False] * len(tols)  # the slow path judges norms that overflow a float
    if ref_sq == 0:
        return alive
    norm = math.sqrt(ref_sq)
    res = residual(diff_sq, diff_ref, ref_sq)
    return [a and math.sqrt(diff_sq) <= t.norm_bound(norm) and res <= t.residual_bound(norm)
            for a, t in zip(alive, tols)]


SPIKED_FEW = 1e-4
"""On spiked inputs, the share of an output's elements that may miss the elementwise test
(finite ones, the norm and residual bounds still held): where a spike cancels (an exclusive
cumsum as inclusive - x, at the spike), a backward-stable kernel is off by ~eps x spike on
an element far smaller. A sample of a reduction fails the norm bound, not a few elements."""


def compare(out: torch.Tensor, ref: torch.Tensor, tol: Tolerance | None,
            atol_scale: float = 1.0, few: float = 0.0, within: float | None = None,
            fast: bool = True) -> dict | None:
    """None when out matches ref (atol multiplied by atol_scale; up to `few` of the elements
    may miss the elementwise test alone; `within`: only the elements where |ref| <= within
    are judged, the norms theirs too); else mismatch statistics. `fast=False`: the caller's
    own `fast_match` already said no."""
    if out.is_complex():
        out, ref = torch.view_as_real(out), torch.view_as_real(ref)
    if tol is None:
        bad = out != ref
        if not bool(bad.any()):
            return None
        return {"mismatch_fraction": int(bad.sum()) / bad.numel(), "exact": True,
                **_example(out, ref, bad)}
    atol = tol.scaled_atol(atol_scale)
    if fast and out.numel() and _fast_match(out, ref, [tol], [atol], within)[0]:
        return None
    return _statistics(out, ref, tol, atol, few=few, within=within)


def matches(out: torch.Tensor, ref: torch.Tensor, tol: Tolerance | None, atol_scale: float = 1.0) -> bool:
    """Whether `compare` would find out matching ref, without its statistics: the exact
    judgement stops at the first slice with a bad element. For outputs wrong by design (the
    knock-out run's), whose statistics nobody reads: on a 6 GiB output they took 45 s."""
    if out.is_complex():
        out, ref = torch.view_as_real(out), torch.view_as_real(ref)
    if tol is None:
        return not bool((out != ref).any())
    atol = tol.scaled_atol(atol_scale)
    if out.numel() and _fast_match(out, ref, [tol], [atol])[0]:
        return True
    return _statistics(out, ref, tol, atol, early=True) is None


STATISTICS_ELEMENTS = 1 << 24
"""Once an output certainly mismatches (a NaN/inf misplaced, or more elements out of
tolerance than it may have), its statistics are those of the elements read so far, and at
least this many: the float64 pass over a whole 6 GiB output took ~30 s, and a wrong
kernel's five trials kept the worker 149 s on one verdict (H200, session 17)."""


def _statistics(out: torch.Tensor, ref: torch.Tensor, tol: Tolerance, atol: float,
                early: bool = False, few: float = 0.0, within: float | None = None) -> dict | None:
    """The exact judgement and its statistics (NaN/inf placement, errors, the first bad
    element), in float64 a slice at a time: memory stays bounded for a GiB output (whole,
    this took ~13x the output: a 6 GiB knock-out output once took the worker's 128 GiB).
    `early`: only whether it matches; a non-None result as soon as one slice does not.
    A certain mismatch stops after STATISTICS_ELEMENTS (the statistics say how many of the
    elements they describe: `judged_elements`)."""
    o_all, r_all = out.reshape(-1), ref.reshape(-1)
    n = o_all.numel()
    read = 0  # elements read
    judged = 0  # with `within`: the elements judged
    edge = overflow_edge(ref.dtype)
    may_forgive = max(16, int(n * OVERFLOW_FORGIVEN_SHARE))
    n_bad = n_special = n_forgiven = 0
    diff_sq = ref_sq = diff_ref = max_abs = max_rel = 0.0
    first_bad = argmax_abs = None
    for start in range(0, n, _SLICE):
        o, r = o_all[start:start + _SLICE].double(), r_all[start:start + _SLICE].double()
        o = torch.where(_subnormal_pair(o, r, out.dtype), r, o)  # as the fast pass: exact
        pos = None
        if within is not None:  # the elements a spike left at the problem's own scale
            keep = r.abs() <= within
            pos = keep.nonzero().squeeze(1)
            o, r = o[keep], r[keep]
            judged += o.numel()
        o_nan, r_nan = torch.isnan(o), torch.isnan(r)
        o_inf, r_inf = torch.isinf(o), torch.isinf(r)
        special_bad = (o_nan != r_nan) | (r_inf & (o != r)) | (o_inf & ~r_inf)
        # at the top of the range, where the order of operations decides overflow: forgiven
        # (a few elements of an output; past that, every one counts again)
        forgiven = special_bad & (_overflow_edge(o, r, edge) | _overflow_edge(r, o, edge))
        n_forgiven += int(forgiven.sum())
        if n_forgiven <= may_forgive:
            special_bad &= ~forgiven
        finite = torch.isfinite(o) & torch.isfinite(r)
        signed = torch.where(finite, o - r, torch.zeros_like(o))
        diff = signed.abs()
        rf = torch.where(finite, r, torch.zeros_like(r))
        bad = special_bad | (diff > atol + tol.rtol * rf.abs())
        diff_sq += float(diff.square().sum())
        ref_sq += float(rf.square().sum())
        diff_ref += float(torch.dot(signed, rf))
        if early and bool(bad.any()):
            return {"mismatch": True}
        n_bad += int(bad.sum())
        n_special += int(special_bad.sum())
        if first_bad is None and bool(bad.any()):
            first = int(bad.nonzero()[0])
            first_bad = start + (first if pos is None else int(pos[first]))
        if diff.numel():
            k = int(diff.argmax())
            if argmax_abs is None or float(diff[k]) > max_abs:
                max_abs, argmax_abs = float(diff[k]), start + (k if pos is None else int(pos[k]))
            max_rel = max(max_rel, float((diff / rf.abs().clamp_min(1e-30)).max()))
        read = min(n, start + _SLICE)
        certain = n_special > 0 or n_bad > int(few * n)  # (with `within` the count judged is not known yet)
        if certain and within is None and read < n and read >= STATISTICS_ELEMENTS:
            break
    ref_norm, diff_norm = math.sqrt(ref_sq), math.sqrt(diff_sq)
    norm_error = diff_norm / ref_norm if ref_norm > 0 else (0.0 if diff_norm == 0 else float("inf"))
    norm_bad = ref_norm > 0 and diff_norm > tol.norm_bound(ref_norm)
    residual_error = residual(diff_sq, diff_ref, ref_sq) / ref_norm if ref_norm > 0 else 0.0
    residual_bad = ref_norm > 0 and residual_error * ref_norm > tol.residual_bound(ref_norm)
    whole, allowed = n, int(few * (judged if within is not None else n))
    if within is not None:
        n = judged
    elif read < n:  # stopped early: a certain mismatch, described by the elements read
        n = read
    if not norm_bad and not residual_bad and (not n_bad or (not n_special and n_bad <= allowed)):
        return None
    stats = {
        "mismatch_fraction": n_bad / n if n else 0.0,
        "max_abs_error": max_abs, "max_rel_error": max_rel,
        "norm_error": norm_error, "norm_rtol": tol.norm_rtol, "atol": atol, "rtol": tol.rtol,
        "residual_error": residual_error, "residual_rtol": tol.residual,
        "nan_or_inf_mismatches": n_special,
    }
    if ref_norm > 0 and tol.precision * ref_norm < max(tol.norm_rtol * ref_norm, tol.noise):
        stats["norm_rtol"] = stats["precision_rtol"] = tol.precision  # the half contract's bound holds
        stats["precision_dtype"] = str(ref.dtype).removeprefix("torch.")
    if read < whole:
        stats["judged_elements"] = [read, whole]
    where = first_bad if first_bad is not None else argmax_abs
    if where is not None:
        stats.update(_element(out, ref, where))
    return stats


def _subnormal_pair(o: torch.Tensor, r: torch.Tensor, dtype: torch.dtype) -> torch.Tensor:
    """Where both sides are below `dtype`'s smallest normal magnitude (zero included)."""
    if not dtype.is_floating_point:
        return torch.zeros_like(o, dtype=torch.bool)
    tiny = torch.finfo(dtype).tiny
    return (o.abs() < tiny) & (r.abs() < tiny)


def overflow_edge(dtype: torch.dtype) -> float:
    """The magnitude from which an overflow on one side only is forgiven (OVERFLOW_EDGE)."""
    return float(torch.finfo(dtype).max) ** (1.0 - OVERFLOW_EDGE)


def _overflow_edge(a: torch.Tensor, b: torch.Tensor, edge: float) -> torch.Tensor:
    """Where `a` overflowed to an infinity and `b` is finite of the same sign, beyond `edge`."""
    return torch.isinf(a) & torch.isfinite(b) & (b.abs() >= edge) & (torch.sign(a) == torch.sign(b))


def _element(out: torch.Tensor, ref: torch.Tensor, flat: int) -> dict:
    coords = list(torch.unravel_index(torch.tensor(flat), out.shape)) if out.dim() else []
    return {"first_bad_index": [int(c) for c in coords],
            "got": float(out.reshape(-1)[flat].double()), "expected": float(ref.reshape(-1)[flat].double())}


def _example(out: torch.Tensor, ref: torch.Tensor, where: torch.Tensor) -> dict:
    idx = where.reshape(-1).nonzero()
    if not idx.numel():
        return {}
    flat = int(idx[0])
    coords = list(torch.unravel_index(torch.tensor(flat), out.shape)) if out.dim() else []
    return {"first_bad_index": [int(c) for c in coords],
            "got": float(out.reshape(-1)[flat].double()), "expected": float(ref.reshape(-1)[flat].double())}


def ignores_input(cand: list[list[torch.Tensor]], refs: list[list[torch.Tensor]],
                  tols: list[Tolerance | None]) -> tuple[int, int] | None:
    """A pair of trials where the candidate's outputs are bit-identical but the
    reference's differ beyond tolerance, or None."""
    for i in range(len(cand)):
        for j in range(i + 1, len(cand)):
            if len(cand[i]) != len(cand[j]) or len(refs[i]) != len(refs[j]):
                continue
            same = all(a.shape == b.shape and a.dtype == b.dtype and torch.equal(a, b)
                       for a, b in zip(cand[i], cand[j]))
            if not same:
                continue
            refs_differ = any(a.shape != b.shape or compare(a, b, t) is not None
                              for a, b, t in zip(refs[i], refs[j], tols))
            if refs_differ:
                return i, j
    return None
