"""float8 `tl.dot` with a float32 accumulator as the H200's wgmma accumulates it (installed by
evaluator.interpreter_casts.dot_operands).

Triton lowers a float8 x float8 -> float32 dot to wgmma (sm_90's warp-group MMA, k = 32 per
instruction for 8-bit operands) where AccelerateMatmul allows MMA v3: a 2-D dot, K >= 32, M a
multiple of 64, N of 8, num_warps a multiple of 4, and max_num_imprecise_acc >= 32 (its
default on sm_90 is 2**30: backends/nvidia/compiler.py). Otherwise it is MMA v2 (mma.sync on
operands widened to float16), which the H200 sums exactly at the sizes measured. wgmma's
float8 accumulation is not float32's: each instruction aligns its 32 products and the
accumulator it adds them to on the largest of their exponents and keeps 13 bits below it
(measured on the H200, docs/open_attacks/h200_fp8_dot.json: products 2**-12 next to 1 are
kept, 2**-14 vanish, at K = 32, 128 and 256 with 64 and 128 rows, and vanish in later
k-steps next to an accumulator of 1; 16-row mma tiles are exact). The interpreter summed
exactly, so a file could switch on the difference (red team rt48).

The emulation (`wgmma_fp8_accumulated`): for each k-step of 32, the products (exact in
float64) and the running accumulator are truncated toward zero to a multiple of
2**(E - KEPT_BITS), E the largest of the accumulator's exponent and the products' nominal ones
(the sum of the operands' exponents, before a significand product past 2 carries), summed
exactly, and the sum, cut again to KEPT_BITS below its own leading bit, is the new float32
accumulator. Measured on the H200 (scripts/probe_fp8_dot.py, tests/unit/evaluator/fixtures/
h200_fp8_probe.json, session 49): every case and four random tiles bit-equal, with this rule;
the first model (the products' own exponents, the sum not cut again) missed a carry case, and
matched 73-97% of the random tiles' elements. Where max_num_imprecise_acc <= K (WarpGroupDotOp::
needsPartialAccumulator), Triton's WGMMA lowering accumulates into a fresh partial sum and adds
it to the dot's accumulator with a float32 add (round to nearest) every
ceil(max_num_imprecise_acc / 32) k-steps and at the last one. Measured too: truncation toward
zero, one alignment over the 32 products, an N = 8 dot exact.

Whether a dot is a wgmma is read off the launch's TTGIR (evaluator.device_ir.dot_form: the op
at this call site is ttng.warp_group_dot, with its maxNumImpreciseAcc), else from the shapes as
AccelerateMatmul decides (`shape_rule`).
"""
from __future__ import annotations

import numpy as np

KEPT_BITS = 13  # bits kept below the largest term's exponent (h200_fp8_dot.json)
K_STEP = 32  # wgmma's k for 8-bit operands
SM90_IMPRECISE_DEFAULT = 2 ** 30  # Triton's max_num_imprecise_acc_default for capability 90


def shape_rule(a_shape: tuple, b_shape: tuple, max_num_imprecise_acc: int, num_warps: int | None) -> bool:
    """Whether Triton 3.9's AccelerateMatmul makes a float8 -> float32 dot of these operand shapes
    MMA v3 (wgmma) on sm_90 (supportMMA(op, 3)); num_warps None is the launch default, 4."""
    if len(a_shape) != 2 or len(b_shape) != 2:
        return False  # a batched (3-D) dot falls back to MMA v2
    m, k = a_shape
    n = b_shape[1]
    warps = 4 if num_warps is None else num_warps
    return (k >= K_STEP and m % 64 == 0 and n % 8 == 0 and warps % 4 == 0
            and max_num_imprecise_acc >= 32)


def wgmma_form(a_shape: tuple, b_shape: tuple, max_num_imprecise_acc: int) -> int | None:
    """The max_num_imprecise_acc of the running float8 dot if the GPU runs it as wgmma, else None
    (MMA v2). Read off the compiled TTGIR at this call site where it was recorded
    (`device_ir.dot_form`), else `shape_rule` with the launch's num_warps."""
    from evaluator import device_ir, interpreter_layout, interpreter_races, interpreter_spin

    try:
        found = interpreter_spin.compiled_site(columns=True)
        form = None if found is None else device_ir.dot_form(interpreter_races._Launch.compiled, found[0], a_shape)
    except Exception:  # noqa: BLE001  (no record: the shapes decide)
        form = None
    if len(b_shape) == 2 and b_shape[1] < 16:
        return None  # measured: an N = 8 float8 dot sums exactly on the H200 (Triton 3.6), wgmma or not
    if form is not None:
        wgmma, imprecise = form
        return imprecise if wgmma else None
    warps = interpreter_layout._num_warps()
    return max_num_imprecise_acc if shape_rule(a_shape, b_shape, max_num_imprecise_acc, warps) else None


def _exponents(x: np.ndarray) -> np.ndarray:
    """frexp's exponent of each value (x = m * 2**e, m in [0.5, 1)); a very small one for 0."""
    with np.errstate(invalid="ignore"):
        return np.where((x != 0) & np.isfinite(x), np.frexp(np.where(np.isfinite(x), x, 1.0))[1], -100000)


def _step(acc: np.ndarray, products: np.ndarray, nominal: np.ndarray, bits: int) -> np.ndarray:
    """One wgmma k-step: the accumulator (..., M, N) plus its products (..., M, N, k). The terms
    align on E, the largest of the accumulator's exponent and the products' nominal ones (the
    sum of their operands' exponents: a product whose significands multiply past 2 is not
    counted one higher), each cut toward zero to 2**(E - bits); their exact sum is cut again to
    `bits` below its own leading bit and is the float32 result (measured on the H200:
    h200_fp8_probe.json, every case and random tile bit-equal)."""
    terms = np.concatenate([acc[..., None], products], axis=-1)
    with np.errstate(invalid="ignore", over="ignore", divide="ignore"):
        exponent = np.maximum(np.max(nominal, axis=-1), _exponents(acc))[..., None]
        unit = np.ldexp(1.0, np.clip(exponent - 1 - bits, -1074, 1023))
        kept = np.trunc(terms / unit) * unit
        kept = np.where(np.isfinite(terms), kept, terms)
        total = kept.sum(axis=-1)
        unit = np.ldexp(1.0, np.clip(_exponents(total) - 1 - bits, -1074, 1023))
        total = np.where(np.isfinite(total) & (total != 0), np.trunc(total / unit) * unit, total)
        return total.astype(np.float32).astype(np.float64)


def wgmma_fp8_accumulated(a: np.ndarray, b: np.ndarray, acc: np.ndarray, max_num_imprecise_acc: int,
                          bits: int = KEPT_BITS, step: int = K_STEP) -> np.ndarray:
    """a @ b + acc (float8 operands as their exact values, a float32 accumulator) as sm_90's wgmma
    computes it under Triton (the module doc): float32."""
    a64, b64 = np.asarray(a, dtype=np.float64), np.asarray(b, dtype=np.float64)
    shape = np.broadcast_shapes(np.shape(acc), a64.shape[:-1] + b64.shape[-1:])
    d = np.broadcast_to(np.asarray(acc, dtype=np.float32).astype(np.float64), shape).copy()
    depth = a64.shape[-1]
    partial = max_num_imprecise_acc <= depth  # WarpGroupDotOp::needsPartialAccumulator
    steps = -(-depth // step)
    running, count = None, 0
    bt = np.swapaxes(b64, -1, -2)
    for i in range(steps):
        ks = slice(i * step, (i + 1) * step)
        with np.errstate(invalid="ignore", over="ignore"):
            products = a64[..., :, None, ks] * bt[..., None, :, ks]
        nominal = _exponents(a64[..., :, None, ks]) + _exponents(bt[..., None, :, ks]) - 1
        count += step
        if not partial:
            d = _step(d, products, nominal, bits)
            continue
        running = _step(np.zeros(shape) if running is None else running, products, nominal, bits)
        if count >= max_num_imprecise_acc or i == steps - 1:  # promoted: a float32 add
            with np.errstate(invalid="ignore", over="ignore"):
                d = (d.astype(np.float32) + running.astype(np.float32)).astype(np.float64)
            running, count = None, 0
    return d.astype(np.float32)
