"""The trusted reference child's own noise on an input set: how far each output is from what the
same computation gives without its rounding. The worker's norm and residual bounds never ask
for less than noise_floor.NOISE_FLOOR times it: where the true output is zero (a mean of a group
norm's output), the float32 reference is rounding noise and no relative bound can be met.

Two measurements, weighed by the worker (noise_floor.noise_pair: the larger counts, per output,
norm and residual apart):
  moved  a second forward on the float inputs moved by a few units in the last place: the
         rounding of every intermediate is drawn again (and the output's sensitivity shows);
  wide   the same forward in float64 (the model's floating parameters and buffers and the
         floating inputs upcast; float32 outputs only): the reference's own rounding error.
Moving the inputs redraws nothing where they are small beside what they are added to: on
KernelBench level2/23's x1e-3 trial the convolution's output is its bias plus 1e-3 of the
input's share, a few ulp of the input move most of its elements by less than half an ulp, and
the moved measurement was 1/125 of the reference's real rounding at worst (CPU, 120 draws):
an honest kernel was 1.3-4x ||ref|| from that reference and failed. The wide one measures the
rounding itself; the honest kernel was at most 12.9x it away (median 1.3x; 400 draws of a
two-element output, where the ratio of two noise norms has a heavy tail), and never beyond
both noise_floor.NOISE_FLOOR x moved and 4x wide.

Where the float32 reference has few correct digits (its error from the float64 answer past
FEW_DIGITS of that answer: a true zero, a sum that cancels), the wide measurement is one draw
of a random rounding, and a bound made of one draw is only as wide as that draw happened to
be: level2/23's two outputs on x1e-3 are each a rounding residue of ~1e-7, and about one
reference in 150 lands within ~1e-8 of the float64 answer by chance (CPU, 440 draws: 8e-9,
1.8e-8 and 5e-9 against a typical 1e-7), so 16x its error was under an honest kernel's
ordinary 1e-7..6e-7 (its residual 27-77x ||ref||, incorrect; session 58). There the
rounding is drawn again, REDRAWS times (`redraws`): every float input and every floating
parameter and buffer of a copy of the model moved toward zero by up to NOISE_ULPS ulp, the
float32 forward of that copy held to its float64 twin's forward on the same moved values.
Each draw's difference is rounding and nothing else (both forwards see the same numbers, so
the output's sensitivity to the move cancels), now drawn at a point where the large terms a
small input is added to (the convolution's bias) round differently too. The floor is the
RMS of the draws' norms and residuals (the first draw included) and the largest element
difference of any: the rounding's size, no longer one sample of it. The candidate computes
nothing here and chooses nothing: the draws are the trusted reference's, at seeds of its
own, so the floor a cheat meets is 16x the reference's typical rounding, not a lucky one
(where the one draw happened to be large the RMS is smaller: a tighter floor, not a looser
one for everyone). An answer with digits keeps its one measurement (its floor is ~1e-6 of
its norm, under the relative bounds), so zeros, a constant or a skipped term there stay
incorrect; on a near-zero answer a kernel more than 16x the rounding away (a normalised
value left out of the mean, values stored in bfloat16) stays incorrect (test_noise_floor).
"""
from __future__ import annotations

import copy
import math
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

import torch

from evaluator.compare import residual
from evaluator.precision import float64_inputs, float64_twin
from evaluator.runner import leaves, looks_like_labels

NOISE_ULPS = 4  # how far `noise_norms` moves each float input, in units in the last place
_NOISE_SLICE = 1 << 24


def diff_norms(a: torch.Tensor, b: torch.Tensor) -> list[float] | None:
    """[||a - b||, its part that is not a common factor of b (compare.residual), max |a - b|]
    in float64, a slice at a time (no whole-size temporary); None unless both are float tensors of one
    shape, or where the numbers are not finite. A normalised output's noise is mostly one
    common factor (its norm's rounding), which must not loosen the residual bound (a bfloat16
    answer to x / ||x|| once passed it: red team D, session 16)."""
    if not (isinstance(a, torch.Tensor) and isinstance(b, torch.Tensor)) or a.shape != b.shape \
            or not a.is_floating_point() or not b.is_floating_point():
        return None
    fa, fb, d_sq, d_r, r_sq, d_max = a.reshape(-1), b.reshape(-1), 0.0, 0.0, 0.0, 0.0
    for i in range(0, fa.numel(), _NOISE_SLICE):
        r = fb[i:i + _NOISE_SLICE].double()
        d = fa[i:i + _NOISE_SLICE].double() - r
        d_sq += float(d.square().sum())
        d_r += float(torch.dot(d, r))
        r_sq += float(r.square().sum())
        d_max = max(d_max, float(d.abs().max())) if d.numel() else d_max
    if not all(math.isfinite(x) for x in (d_sq, d_r, r_sq, d_max)):
        return None
    return [math.sqrt(d_sq), residual(d_sq, d_r, r_sq), d_max]


def noise_norms(forward: Callable[[list], tuple], inputs: list, outs: list[torch.Tensor],
                wide_forward: Callable[[list], tuple] | None = None,
                redraw: Callable[[int], tuple] | None = None) -> list | None:
    """Per output, [moved norm, moved residual, wide norm, wide residual, wide max] (module
    docstring; 0.0 for a measurement not made): the worker weighs the two norms
    (noise_floor.noise_pair) and floors the elementwise bound by the wide max
    (noise_floor.element_floor); None per
    output that neither could measure, None in all where neither measured any. The wide
    forward (`wide_forward`: the forward of a float64 twin of the model, precision.float64_twin)
    runs first on float64 copies of the inputs, the moved one then moves `inputs` in place (the
    set is released after). `redraw` (`redraws`) draws the rounding again where an output
    has few correct digits (module docstring)."""
    wide = wide_norms(wide_forward, inputs, outs, redraw)
    moved = moved_norms(forward, inputs, outs)
    if moved is None and wide is None:
        return None
    moved = moved or [None] * len(outs)
    wide = wide or [None] * len(outs)
    return [None if a is None and b is None else [*(a or [0.0, 0.0])[:2], *(b or [0.0, 0.0, 0.0])]
            for a, b in zip(moved, wide)]


# The float64 twin's tensors (inputs, parameters, outputs, in float64) at most this many
# bytes: on the H200, KernelBench level-1 problems of 1-4 GiB (a depthwise-separable conv of a
# 16x64x512x512 input) lost their reference child in the wide forward (session 27), and every
# candidate of the problem was then "not a verdict". Past it the moved measurement stands alone.
WIDE_MAX_BYTES = 512 << 20


def wide_affordable(inputs: list, outs: list[torch.Tensor], model: object) -> bool:
    """Whether the float64 twin's forward is small enough to run (`WIDE_MAX_BYTES`)."""
    def f64_bytes(ts) -> int:
        return sum(t.numel() * 8 for t in ts if isinstance(t, torch.Tensor) and t.is_floating_point())
    params = [*model.parameters(), *model.buffers()] if isinstance(model, torch.nn.Module) else []
    return f64_bytes(inputs) + f64_bytes(outs) + f64_bytes(params) <= WIDE_MAX_BYTES


def wide_norms(wide_forward: Callable[[list], tuple] | None, inputs: list,
               outs: list[torch.Tensor], redraw: Callable[[int], tuple] | None = None) -> list | None:
    """Per float32 output, `diff_norms` of the same forward in float64 from it (None for any
    other output); None in all where no output is float32 or the float64 forward fails (an
    operator without float64, a problem mixing its own float32 tensors in, the device's memory:
    the moved measurement then stands alone). It runs on a twin of the model, so what a forward
    keeps on its module (an RNN's hidden state: level3/33 kept a float64 one and its next
    forward failed) stays the reference's own. Its device memory is not the problem's
    footprint (`kept_peak`): admission sizes the problem by its own forward. An output with
    few correct digits (`_few_digits`) is measured over `redraw`'s draws too (`_redrawn`)."""
    if wide_forward is None or not any(t.dtype == torch.float32 for t in outs):
        return None
    try:
        with _outside_footprint(outs[0].device):
            wide, _ = wide_forward(float64_inputs(inputs))
    except Exception:  # noqa: BLE001  (no float64 forward: no wide measurement)
        return None
    if len(wide) != len(outs):
        return None
    norms = [diff_norms(w, o) if o.dtype == torch.float32 else None for w, o in zip(wide, outs)]
    few = [j for j, (w, n) in enumerate(zip(wide, norms)) if _few_digits(w, n)]
    if few and redraw is not None:
        with _outside_footprint(outs[0].device):
            norms = _redrawn(redraw, norms, few)
    return [_no_digits(w, n) for w, n in zip(wide, norms)]


REDRAWS = 4
"""How many times the rounding of an output with few correct digits is drawn again
(`redraws`), beside the reference's own: the floor is the RMS over all five. One draw's norm
over a two-element output has a heavy lower tail (under 5% of its typical size about once in
400; level2/23's reference was 1/10 to 1/50 of it in 3 of 440: module docstring); five draws
put ten squares under the mean, and their RMS under a fifth of its size is a few in a million
likely. On those 440 draws the honest kernel was at most 0.28 of the redrawn floor."""

FEW_DIGITS = 2.0 ** -16
"""An output is redrawn where the float32 reference's error from its float64 answer is at least
this share of that answer (fewer than 16 of float32's 24 bits right: a true zero, a cancelling
sum): there WIDE_FLOOR times the error is past 2^-12 of the output, at the float32 residual
bound (1.5e-4), so the floor decides the verdict. Elsewhere it lies under the relative bounds
and one draw does no harm; an exact answer (no error, not zero) is not redrawn."""


def _few_digits(exact: object, norms: list[float] | None) -> bool:
    if norms is None or not isinstance(exact, torch.Tensor) or not exact.is_floating_point():
        return False
    return norms[0] >= FEW_DIGITS * float(torch.linalg.vector_norm(exact, dtype=torch.float64))


def _redrawn(redraw: Callable[[int], tuple], norms: list, few: list[int]) -> list:
    """`norms` with each output in `few` measured over the reference's draw and `redraw`'s
    (REDRAWS of them, fewer where one fails or an output cannot be measured): the RMS of the
    norms and of the residuals, and the largest element difference."""
    drawn = {j: [norms[j]] for j in few}
    for k in range(REDRAWS):
        try:
            narrow, wide = redraw(k)
        except Exception:  # noqa: BLE001  (the problem refuses the moved copy: the draws so far stand)
            break
        if len(narrow) != len(norms) or len(wide) != len(norms):
            break
        for j in few:
            d = diff_norms(wide[j], narrow[j])
            if d is not None:
                drawn[j].append(d)
    out = list(norms)
    for j, ds in drawn.items():
        out[j] = [math.sqrt(sum(d[0] ** 2 for d in ds) / len(ds)), math.sqrt(sum(d[1] ** 2 for d in ds) / len(ds)),
                  max(d[2] for d in ds)]
    return out


def redraws(run: Callable[[Any, list], tuple], model: Any, inputs: list) -> Callable[[int], tuple]:
    """Draw k of the reference's rounding (module docstring): (the float32 outputs, the float64
    twin's) of a copy of `model` whose floating parameters and buffers, and of copies of the
    `inputs` whose float ones (label-like tensors left alone), are moved toward zero by up to
    NOISE_ULPS ulp, each draw at its own fixed seed. `run(model, inputs)` is the reference's
    forward of a given model; neither the model nor the inputs are changed."""
    def draw(k: int) -> tuple[list, list]:
        gens: dict = {}
        sample = torch.Generator().manual_seed(0x0153)
        narrow = copy.deepcopy(model)
        params = [t for m in (narrow.modules() if isinstance(narrow, torch.nn.Module) else ())
                  for store in (m._parameters, m._buffers) for t in store.values()
                  if t is not None and t.is_floating_point()]
        moved = _copied(inputs)
        with torch.no_grad():
            for t in [*params, *(x for x in leaves(moved) if x.is_floating_point()
                                 and not looks_like_labels(x, sample))]:
                _move(t, gens.setdefault(t.device, torch.Generator(device=t.device).manual_seed(0x0153 + 1 + k)))
        wide, _ = run(float64_twin(narrow), float64_inputs(moved))
        out, _ = run(narrow, moved)
        return out, wide
    return draw


def _copied(items: list | tuple, depth: int = 0) -> list:
    """The items with every tensor cloned, lists and tuples followed a few levels deep."""
    return [type(x)(_copied(x, depth + 1)) if type(x) in (list, tuple) and depth < 4
            else x.clone() if isinstance(x, torch.Tensor) else x for x in items]


def _move(x: torch.Tensor, gen: torch.Generator) -> None:
    """`x` moved toward zero by up to NOISE_ULPS units in the last place, in place, a slice at a
    time: signs, zeros and infinities kept, probabilities stay in [0, 1]."""
    step = NOISE_ULPS * torch.finfo(x.dtype).eps
    if not x.is_contiguous():  # (a parameter stored transposed: whole)
        x.detach().mul_(torch.rand(x.shape, generator=gen, device=x.device, dtype=x.dtype).mul_(-step).add_(1.0))
        return
    flat = x.detach().view(-1)
    for i in range(0, flat.numel(), _NOISE_SLICE):
        part = flat[i:i + _NOISE_SLICE]
        u = torch.rand(part.shape, generator=gen, device=part.device, dtype=part.dtype)
        part.mul_(u.mul_(-step).add_(1.0))


def _no_digits(exact: torch.Tensor, norms: list[float] | None) -> list[float] | None:
    """An output whose float64 answer is smaller than the float32 reference's error from it has
    no correct digit (a mean of group-normalised values, ~0): that error is the reference's own
    value, one common factor of it by construction, so its residual part (~0) says nothing
    about the direction of another correct kernel's rounding, and the whole error floors both
    bounds. KernelBench level2/23's honest kernel was incorrect on its x1e-3 trial now and
    then (its rounding's residual against a floor of ~1e-16: sessions 33-34, programs
    interleaved). Where the answer has digits (x / ||x||, red team D of session 16) the
    residual stays the measured one."""
    if norms is None or not isinstance(exact, torch.Tensor) or not exact.is_floating_point():
        return norms
    size = float(torch.linalg.vector_norm(exact, dtype=torch.float64))  # the twin's output: float64 already
    return [norms[0], norms[0], *norms[2:]] if size < norms[0] else norms


_KEPT_PEAK = [0]  # the allocator's peak before the last wide forward, since `forget_peak`


def kept_peak() -> int:
    """The most this process's allocator held outside the wide forwards since `forget_peak`
    (with torch.cuda.max_memory_reserved(), what the child reports as its footprint)."""
    return _KEPT_PEAK[0]


def forget_peak() -> None:
    _KEPT_PEAK[0] = 0


@contextmanager
def _outside_footprint(device: torch.device) -> Iterator[None]:
    """On the GPU: the block's allocations leave no trace in the peak the child reports (its
    memory handed back after), the peak before it kept in `kept_peak`."""
    if device.type != "cuda":
        yield
        return
    _KEPT_PEAK[0] = max(_KEPT_PEAK[0], torch.cuda.max_memory_reserved(device))
    try:
        yield
    finally:
        torch.cuda.empty_cache()
        torch.cuda.reset_peak_memory_stats(device)


def moved_norms(forward: Callable[[list], tuple], inputs: list, outs: list[torch.Tensor]) -> list | None:
    """Per output, [||moved - out||, its residual] (`diff_norms`) after a second forward on the
    set's float inputs moved toward zero by up to NOISE_ULPS units in the last place (in place:
    the set is released after), label-like tensors left alone. None per output that is not
    float or changes shape; None in all where an input cannot be moved in place or the
    problem refuses the moved inputs."""
    sample = torch.Generator().manual_seed(0x0153)
    moving = [x for x in leaves(inputs) if x.is_floating_point() and not looks_like_labels(x, sample)]
    if not moving or any(not x.is_contiguous() or x._base is not None for x in moving):
        return None
    gen = torch.Generator(device=moving[0].device).manual_seed(0x0153)
    with torch.no_grad():
        for x in moving:  # toward zero only: probabilities stay in [0, 1], signs and zeros kept
            _move(x, gen)
    try:
        moved, _ = forward(inputs)
    except Exception:  # noqa: BLE001  (the problem refuses the moved inputs: no floor, no verdict)
        return None
    return [diff_norms(a, b) for a, b in zip(moved, outs)] if len(moved) == len(outs) else None
