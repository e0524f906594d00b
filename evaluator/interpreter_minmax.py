"""Float min, max and clamp under the CPU interpreter as sm_90 code computes them.

Measured on the H200 (scripts/probe_minmax_ties.py, tests/unit/evaluator/fixtures/
h200_minmax_ties.json, session 49), where numpy's answer differed (red team rt50):
- `tl.maximum`/`tl.minimum` (PTX max.f32/min.f32, NaN-propagating or not) of two zeros: max is
  +0 unless both are -0, min is -0 unless both are +0; numpy's fmax/fmin kept the first operand
  (`tl.maximum(-0.0, +0.0)` was -0 on the CPU only);
- `tl.clamp(x, lo, hi)` whose bounds Triton's sm_90 lowering recognises as symmetric
  (ClampFOpConversion::isClipPattern: `lo` computed as `0 - hi`, which is what `-hi` is in
  Triton, or two constants with lo == -hi) is one `min.xorsign.abs.f32 x, hi`: the smaller of
  |x| and |hi| (a NaN x gives |hi|), signed by sign(x) xor sign(hi). The interpreter's
  fmin(fmax(x, lo), hi) answered -hi for a NaN x and +0 for a negative x against a zero limit.
  Which clamps match is read off the compiled TTGIR by call site (`record`, from
  evaluator.device_ir); a clamp not recorded keeps fmin/fmax, as every clamp outside the pattern
  (bounds loaded from memory, asymmetric, NaN-propagating, a scalar clamp: measured, the rt50
  clamp of a scalar 0/0 between constants -1 and 1 is -1 on the H200) runs on the GPU.
"""
from __future__ import annotations

import re

import numpy as np

# (specialization key, (file, line, column)s) of a tl.clamp -> {whether the lowering's clip
# pattern matches} (`clip_form`)
_CLAMPS: dict[tuple, set] = {}


def record(key: tuple, ops: list, kernel_site, text) -> None:
    """For each compiled `tt.clampf` op (`ops`, in the walk's order), whether Triton's sm_90
    lowering takes its clip pattern (read off `text()`, the module printed: the bindings do not
    read a splat constant's value), by call site."""
    clips = _clip_patterns(text()) if ops else []
    for i, op in enumerate(ops):
        try:
            site = kernel_site(str(op.get_result(0).get_loc()))
            clip = len(clips) == len(ops) and clips[i] and not op.get_int_attr("propagateNan")
        except Exception:  # noqa: BLE001  (not read: the clamp keeps fmin/fmax)
            continue
        if site:
            _CLAMPS.setdefault((key, site), set()).add(bool(clip))


_NAME = r"(%[\w.#]+)"
_CLAMP_LINE = re.compile(r"= tt\.clampf " + _NAME + ", " + _NAME + ", " + _NAME + r"[^:\n]*: (\S+)")
_CONSTANT = re.compile(_NAME + r" = arith\.constant dense<([-+0-9.eEinfINFaN]+)>")
_NEGATED = re.compile(_NAME + r" = arith\.negf " + _NAME)
_SUBTRACTED = re.compile(_NAME + r" = arith\.subf " + _NAME + ", " + _NAME)


def _clip_patterns(text: str) -> list[bool]:
    """Per `tt.clampf` of the printed module, in order (leaves: the walk's order too), whether
    ClampFOpConversion::isClipPattern holds: the lower bound is `0 - hi` (or `-hi`: arith.negf,
    what the CPU's Triton makes of a unary minus; the H200 took `-tl.abs(b)` so), or both bounds
    are constants with lo == -hi. A kernel's helpers are inlined: one name space."""
    values = {}
    for name, value in _CONSTANT.findall(text):
        try:
            values[name] = float(value)
        except ValueError:
            continue
    negated = dict(_NEGATED.findall(text))
    subtracted = {name: (a, b) for name, a, b in _SUBTRACTED.findall(text)}
    found = []
    for _, lo, hi, kind in _CLAMP_LINE.findall(text):
        zero_minus = lo in subtracted and subtracted[lo][1] == hi and values.get(subtracted[lo][0]) == 0.0
        constants = lo in values and hi in values and values[lo] == -values[hi]
        # tensors only: the pattern reads splat constants (a scalar clamp of -1.0 and 1.0 is
        # fmin/fmax on the H200: hacks/rt50_clamp_xorsign_nan_switch_relu is ok there)
        found.append(kind.startswith("tensor<") and (negated.get(lo) == hi or zero_minus or constants))
    return found


def clip_form(key: tuple | None, site: tuple) -> bool:
    """Whether the clamp compiled at `site` of launch `key` is one min.xorsign.abs (every op
    recorded there agrees), else False (fmin/fmax)."""
    forms = _CLAMPS.get((key, site), set()) if key is not None else set()
    return forms == {True}


def _zeros(a: np.ndarray, b: np.ndarray, out: np.ndarray, larger: bool) -> np.ndarray:
    both = (a == 0) & (b == 0)
    if not np.any(both):
        return out
    negative = np.signbit(a) & np.signbit(b) if larger else np.signbit(a) | np.signbit(b)
    zero = np.where(negative, -0.0, 0.0).astype(out.dtype)
    return np.where(both, zero, out).astype(out.dtype)


def _fmax(a, b):
    return _zeros(np.asarray(a), np.asarray(b), np.asarray(np.fmax(a, b)), True)


def _fmin(a, b):
    return _zeros(np.asarray(a), np.asarray(b), np.asarray(np.fmin(a, b)), False)


def install(builder_type: type, interpreter) -> None:
    """Patch the interpreter builder's float min/max and clamp."""
    from evaluator.interpreter_casts import canonical_nan

    handle = interpreter.TensorHandle
    ops = {"create_minimumf": (np.minimum, False), "create_minnumf": (np.fmin, False),
           "create_maximumf": (np.maximum, True), "create_maxnumf": (np.fmax, True)}
    for name, (fn, larger) in ops.items():
        def patched(self, lhs, rhs, fn=fn, larger=larger):
            def op(a, b):
                return _zeros(np.asarray(a), np.asarray(b), np.asarray(fn(a, b)), larger)
            return self.binary_op(lhs, rhs, op)
        setattr(builder_type, name, patched)
    clamp = builder_type.create_clampf

    def create_clampf(self, arg, lo, hi, propagate_nans):
        if propagate_nans == interpreter._ir.PROPAGATE_NAN.NONE and _clipped():
            x, h = arg.data, np.broadcast_to(hi.data, np.shape(arg.data))
            with np.errstate(invalid="ignore"):
                size = np.fmin(np.abs(x), np.abs(h))
            flip = np.signbit(x) ^ np.signbit(h)
            return handle(canonical_nan(np.where(flip, -size, size).astype(x.dtype)), arg.dtype.scalar)
        if propagate_nans == interpreter._ir.PROPAGATE_NAN.NONE:  # max.f32 then min.f32, their zeros
            return self.binary_op(self.binary_op(arg, lo, _fmax), hi, _fmin)
        return clamp(self, arg, lo, hi, propagate_nans)

    builder_type.create_clampf = create_clampf


def _clipped() -> bool:
    """Whether the clamp being run is the launch's compiled clip pattern at its call site."""
    if not _CLAMPS:  # no clamp compiled in this process: no frame walk per call
        return False
    from evaluator import interpreter_races, interpreter_spin

    try:
        found = interpreter_spin.compiled_site(columns=True)
        return found is not None and clip_form(interpreter_races._Launch.compiled, found[0])
    except Exception:  # noqa: BLE001  (no record: fmin/fmax)
        return False
