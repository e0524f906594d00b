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
2**(E - KEPT_BITS), E the exponent of the largest magnitude among them, summed exactly, and the
sum is the new float32 accumulator. Where max_num_imprecise_acc <= K (WarpGroupDotOp::
needsPartialAccumulator), Triton's WGMMA lowering accumulates into a fresh partial sum and adds
it to the dot's accumulator with a float32 add (round to nearest) every
ceil(max_num_imprecise_acc / 32) k-steps and at the last one. Not measured: the sign rule of
the truncation (toward zero here), whether the hardware aligns in sub-groups of the 32, and
whether a carry out of the sum is kept (scripts/probe_fp8_dot.py prints the cases that tell).

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
    if form is not None:
        wgmma, imprecise = form
        return imprecise if wgmma else None
    warps = interpreter_layout._num_warps()
    return max_num_imprecise_acc if shape_rule(a_shape, b_shape, max_num_imprecise_acc, warps) else None


def _step(acc: np.ndarray, products: np.ndarray, bits: int) -> np.ndarray:
    """One wgmma k-step: the accumulator (..., M, N) plus its products (..., M, N, k), every term
    truncated toward zero to 2**(E - bits), E the largest term's exponent; summed exactly (the
    terms span fewer than 53 bits) and returned as float32 values."""
    terms = np.concatenate([acc[..., None], products], axis=-1)
    with np.errstate(invalid="ignore", over="ignore"):
        largest = np.max(np.abs(terms), axis=-1, keepdims=True)
        _, exponent = np.frexp(np.where(np.isfinite(largest), largest, 1.0))
        unit = np.ldexp(1.0, exponent - 1 - bits)  # frexp: largest = m * 2**e, m in [0.5, 1)
        kept = np.trunc(terms / unit) * unit
        kept = np.where(np.isfinite(terms), kept, terms)
        return kept.sum(axis=-1).astype(np.float32).astype(np.float64)


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
        count += step
        if not partial:
            d = _step(d, products, bits)
            continue
        running = _step(np.zeros(shape) if running is None else running, products, bits)
        if count >= max_num_imprecise_acc or i == steps - 1:  # promoted: a float32 add
            with np.errstate(invalid="ignore", over="ignore"):
                d = (d.astype(np.float32) + running.astype(np.float32)).astype(np.float64)
            running, count = None, 0
    return d.astype(np.float32)
