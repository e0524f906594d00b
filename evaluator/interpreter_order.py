"""Floating-point sums and scans in an order of the GPU's kind, rounded as the GPU rounds.

Triton's interpreter summed with numpy: `tl.sum` of float16 accumulated in float32 and
rounded once (sum([1, 2**-11 x 1023]) was 1.5), `tl.sum`/`tl.cumsum` of bfloat16 added the
values' uint16 bit patterns as integers (64 ones summed to -4.6e-10, so an honest bfloat16 row
sum was garbage on the CPU), and float32 sums went numpy's pairwise way (red team rt24). The
GPU (Triton 3.6) keeps a float input's dtype (`_pick_sum_dtype`) and rounds every combine
`a + b` to it, in the order of its layout: each thread folds the elements it holds, the lanes
then combine in a butterfly (lane l with lane l + N/2, N halving), the warps likewise through
shared memory; a scan folds each thread's contiguous elements, scans the lanes Kogge-Stone
fashion (shfl_up by 1, 2, 4, ...) and carries the warps' and repetitions' totals in order.

Which layout a tensor has is the compiler's choice, read for each call off the kernel as Triton
compiles the launch's specialization for sm_90 (`compiled_layout`: evaluator.device_ir records
each tt.reduce / tt.scan operand's blocked encoding, or a slice of one, by call site, and
`reduction_layout` gives its elements per thread, lanes and warps along the axis); the
combines then go in the order Triton 3.6's ReduceOpToLLVM / ScanOpToLLVM emit them
(`reduce_exact`, `scan_exact`). Checked against an H200: all 27 cases of
scripts/probe_reduction_order.py (sums, cumsums, argmax of 64/256/1024 elements at 1/4/8 warps,
float16/bfloat16/float32) equal the GPU's exactly, and the row-sum errors' statistics too
(tests/unit/evaluator/test_interpreter_reduction_order.py). A reduction of another layout
evaluator.register_order reads as a linear layout, a tl.dot result's `#ttg.nvidia_mma` above
all, comes as the axis coordinates of its register, lane and warp bits (`bits_index`), folded
the same way: registers in register order, the lane bits along the axis in the xor butterfly
(highest first, `getThreadOffsetOnReductionAxis`), the warps' through shared memory likewise
(session 49, red team rt50; derived from Triton's sources, not yet measured:
scripts/probe_mma_reduce.py). A scan of such an operand still draws.

Where the layout cannot be read (no record at the call site, an encoding not modelled: a
linear layout whose bases move along two dims, an MMA scan; ops at one site that disagree and none uniquely of the call's operand shape and axis),
a fail-safe: one layout (elements per thread, lanes and warps along the axis, the in-thread
order: sequential, a pairwise tree, two interleaved accumulators as f16x2 packing makes, or a
tree per contiguous run) is drawn from the child's secret (evaluator.keyed_draw), keyed by the call site, the
operand's shape, the axis and the op (`placed`; red team rt49: keyed by length alone, the sums
of a tl.dot result along its two 64-long axes always agreed): the same call gets the same
layout for the whole child, as the same compiled
kernel does on the GPU (two equal sums compare equal), and another child draws another, so a
kernel that gates on one exact rounding of a sum is checked against answers of the GPU's own
kind, not numpy's one rounding. A thread folds at most 64 of the axis's elements (or n/256 for
longer axes), as real layouts do.
"""
from __future__ import annotations

import os

import numpy as np

from evaluator import keyed_draw

_LAYOUTS: dict = {}  # (pid, n, what, where) -> layout: a forked child draws its own (keyed_draw)
_MODES = ("sequential", "tree", "pairs", "runs")


def _float_kinds():
    import triton.language as tl

    return {tl.float16: "f16", tl.bfloat16: "bf16", tl.float32: "f32", tl.float64: "f64"}


def kind_of(dtype) -> str | None:
    """'f16', 'bf16', 'f32' or 'f64' for a float dtype this module computes, else None."""
    return _float_kinds().get(getattr(dtype, "scalar", dtype))


def values(data: np.ndarray, kind: str) -> np.ndarray:
    """A handle's data as the numbers it holds, in the dtype the combines compute in."""
    from evaluator.interpreter_casts import bfloat16_float32

    if kind == "bf16":
        return bfloat16_float32(data)
    if kind == "f16":
        return np.asarray(data, dtype=np.float16).astype(np.float32)
    return np.asarray(data)


def rounder(kind: str):
    """A combine's result rounded to the element dtype (float32 holds more than twice a 16-bit
    float's digits plus two, so computing in it and rounding once is the GPU's one rounding)."""
    from evaluator.interpreter_casts import bfloat16_bits, bfloat16_float32

    if kind == "bf16":
        return lambda v: bfloat16_float32(bfloat16_bits(v)).reshape(np.shape(v))
    if kind == "f16":
        return lambda v: np.asarray(v, dtype=np.float32).astype(np.float16).astype(np.float32)
    return lambda v: v


def stored(result: np.ndarray, kind: str) -> np.ndarray:
    """Computed values back to the handle's representation (bfloat16: bit patterns)."""
    from evaluator.interpreter_casts import bfloat16_bits

    if kind == "bf16":
        return bfloat16_bits(np.asarray(result, dtype=np.float32)).reshape(np.shape(result))
    if kind == "f16":
        return np.asarray(result).astype(np.float16)
    return np.asarray(result)


def layout(n: int, what: str, where: tuple = ()) -> tuple[int, int, int, str]:
    """(elements per thread c, lanes t, warps w, in-thread order) along an axis of n elements,
    drawn once per (n, what, where) in this process; `where` (`placed`: the call site, the
    operand's shape and the axis) keeps two different reductions of one length from sharing
    one draw, as two compiled ops do not share one layout on the GPU."""
    key = (os.getpid(), n, what, where)
    if key not in _LAYOUTS:
        if n < 1 or n & (n - 1):  # Triton's block dims are powers of two; anything else folds in order
            _LAYOUTS[key] = (max(n, 1), 1, 1, "sequential")
        else:
            rng = np.random.default_rng(keyed_draw.seed("reduction layout", n, what, where))
            most = max(64, n // 256)
            options = [(c, t, w) for c in (1, 2, 4, 8, 16) for t in (1, 2, 4, 8, 16, 32) for w in (1, 2, 4, 8)
                       if c * t * w <= n and n // (t * w) <= most]
            if not options:
                options = [(1, min(n, 32), max(1, min(8, n // 32)))]
            c, t, w = options[int(rng.integers(len(options)))]
            _LAYOUTS[key] = (c, t, w, _MODES[int(rng.integers(len(_MODES)))])
    return _LAYOUTS[key]


def _threads(x: np.ndarray, c: int, t: int, w: int) -> np.ndarray:
    """(..., n) -> (..., w, t, L): each thread's elements in index order (element i belongs to
    run i // c, run q to lane q % t of warp (q // t) % w, repetition q // (t * w))."""
    n = x.shape[-1]
    reps = n // (c * t * w)
    y = x.reshape(x.shape[:-1] + (reps, w, t, c))
    y = np.moveaxis(y, -4, -2)  # (..., w, t, reps, c)
    return y.reshape(x.shape[:-1] + (w, t, reps * c))


def _fold(y: np.ndarray, combine, mode: str, c: int) -> np.ndarray:
    """Each thread's elements (last axis) folded to one value in the in-thread order."""
    length = y.shape[-1]
    if length == 1:
        return y[..., 0]
    if mode == "tree":
        return _pairwise(y, combine)
    if mode == "pairs" and length % 2 == 0:
        return combine(_sequential(y[..., 0::2], combine), _sequential(y[..., 1::2], combine))
    if mode == "runs" and c > 1 and length % c == 0:
        runs = _pairwise(y.reshape(y.shape[:-1] + (length // c, c)), combine)
        return _sequential(runs, combine)
    return _sequential(y, combine)


def _sequential(y: np.ndarray, combine) -> np.ndarray:
    acc = y[..., 0]
    for i in range(1, y.shape[-1]):
        acc = combine(acc, y[..., i])
    return acc


def _pairwise(y: np.ndarray, combine) -> np.ndarray:
    """Adjacent pairs combined level by level (an odd last element waits a level)."""
    while y.shape[-1] > 1:
        n = y.shape[-1]
        even = combine(y[..., 0:n - 1:2], y[..., 1:n:2])
        y = np.concatenate([even, y[..., n - 1:]], axis=-1) if n % 2 else even
    return y[..., 0]


def _butterfly(y: np.ndarray, combine) -> np.ndarray:
    """The last axis (lanes or warps, a power of two) combined as the shuffle tree does: lane l
    with lane l + N/2, N halving."""
    while y.shape[-1] > 1:
        half = y.shape[-1] // 2
        y = combine(y[..., :half], y[..., half:])
    return y[..., 0]


def compiled_layout(n: int, shape: tuple | None = None, axis: int | None = None) -> tuple | None:
    """(s, t, w, reps) of the running reduction's or scan's axis as Triton compiles it for
    sm_90 (`evaluator.device_ir.reduction_layout`, read off the TTGIR of the launch's
    specialization at this call site, the op with this operand `shape` and `axis` where the
    site holds several), None where it cannot be read (no record, another encoding than
    blocked or a slice of one, another length than the interpreter's n)."""
    return placed(n, shape, axis)[0]


def placed(n: int, shape: tuple | None = None, axis: int | None = None, what: str = "",
           operand: object = None) -> tuple:
    """(the compiled layout as `compiled_layout` reads it or None, the key a drawn layout is
    drawn by: what, the call site and loops, the operand's shape and the axis). `operand`, the
    interpreter's array of the op's input where the caller has it: where this call's layout
    cannot be read, the first op of an equal operand with this op kind and axis answers for
    it (`_same_operand`)."""
    found = _placed(n, shape, axis, what, operand)
    return found if operand is None else _same_operand(operand, what, axis, found)


# (pid, what, axis, the operand's dtype, shape and bytes' digest) -> (layout, draw key) of the
# first op seen of it
_OPERANDS: dict = {}


def _same_operand(operand: object, what: str, axis: int | None, found: tuple) -> tuple:
    """`found` (layout, key) of this call, or, where its layout cannot be read, those of the
    first reduction or scan with this op and axis of an operand equal to this one (dtype,
    shape and bytes): two identical ops of one value are one op on the GPU (tt.reduce and
    tt.scan are pure, and so is the arithmetic before them: CSE merges `tl.sum(x * 1.5, 1)`
    written twice before layouts are assigned, so the TTGIR holds the first call site's op
    alone). The second call site had no record and drew a layout of its own, so
    `tl.cumsum(d, 1) != tl.cumsum(d, 1)` (and tl.sum of one tl.dot result twice) held on the
    CPU only: red team rt59, a file honest only where the two differed. Where both sites'
    layouts are read, each keeps its own."""
    import hashlib

    try:
        data = np.ascontiguousarray(operand)
        digest = hashlib.blake2b(data.view(np.uint8).reshape(-1).tobytes(), digest_size=16).digest()
    except (TypeError, ValueError):  # deliberate: an operand numpy cannot view keeps its site's own
        return found
    key = (os.getpid(), what, axis, str(data.dtype), data.shape, digest)
    held = _OPERANDS.get(key)
    if held is not None:
        return found if found[0] is not None else held
    if len(_OPERANDS) > 65536:
        _OPERANDS.clear()
    _OPERANDS[key] = found
    return found


def _placed(n: int, shape: tuple | None, axis: int | None, what: str, operand: object = None) -> tuple:
    from evaluator import device_ir, interpreter_races, interpreter_spin

    where: tuple = (what, None, tuple(shape) if shape is not None else None, axis)
    try:
        found = interpreter_spin.compiled_site(columns=True, runtime=True)  # loops as compiled: a static_range is none
        if found is None:
            return None, where
        site, loops = found
        where = (what, found, where[2], axis)
        read = device_ir.reduction_layout(interpreter_races._Launch.compiled, site, loops, shape, axis)
        if read is None and shape is not None:  # several ops at the site (an unrolled body): this run's own
            copies = device_ir.unrolled(interpreter_races._Launch.compiled, site, loops, (tuple(shape), axis))
            run = None if copies is None else _occurrence(interpreter_races._Launch, where, operand)
            read = None if copies is None else copies[run % len(copies)][2]
    except Exception:  # noqa: BLE001  (fail safe: a drawn layout)
        return None, where
    if read is None or read[0] != n:
        return None, where
    if isinstance(read[1], tuple):  # bits along the axis (an MMA operand: register_order.axis_bits)
        return (None if what == "scan" else ("bits", *read[1:])), where
    return exact(*read), where


_RUNS: dict = {"launch": None, "programs": {}}  # the running launch's owners -> program -> site -> runs


def _occurrence(launch, where: tuple, operand: object = None) -> int:
    """The index of the unrolled copy this run of the op at `where` is in the running program of
    the running launch: how many distinct runs came before (a `tl.static_range` body's copies
    run in iteration order). A run of the very operand an earlier run had (one array: one value)
    is that run's copy: CSE merged the two identical ops into one on the GPU."""
    if _RUNS["launch"] is not launch.owners:  # held, so a later launch's dict is another object
        _RUNS["launch"], _RUNS["programs"] = launch.owners, {}
    seen = _RUNS["programs"].setdefault(launch.program, {}).setdefault(where, [])
    for held, index in seen:
        if operand is not None and held is operand:
            return index
    index = len(seen)
    seen.append((operand, index))
    return index


def drawn(n: int, what: str, where: tuple = ()) -> tuple:
    """The drawn layout (`layout`) as `reduce_exact`/`scan_exact` take it (the in-thread
    order sequential)."""
    c, t, w, _ = layout(n, what, where)
    return exact(n, c, t, w) or (n, 1, 1, 1)


def exact(n: int, s: int, t: int, w: int) -> tuple | None:
    """(s, t, w, reps) along an axis of n elements of a blocked layout with s elements per
    thread, t lanes and w warps along it, counting only those that hold distinct data (a
    tile larger than the axis wraps: the rest hold copies, which the lowering leaves out:
    `getIntraWarpSizeWithUniqueData`, `getAxisNumWarpsWithUniqueData`), reps the times the
    tile repeats along the axis in each thread. None for a shape that does not tile."""
    if n < 1 or min(s, t, w) < 1:
        return None
    s = min(s, n)
    t = max(1, min(t, n // s))
    w = max(1, min(w, n // (s * t)))
    if n % (s * t * w):
        return None
    return s, t, w, n // (s * t * w)


def reduce_exact(xs: list, combine, lay: tuple) -> list:
    """Operands xs (each (..., n)) reduced along their last axis as ReduceOpToLLVM combines them
    under the layout `lay` ((s, t, w, reps), `exact`): each thread folds its reps * s elements
    in register order (index order: element i is in-thread position i % s of lane (i // s) % t,
    warp (i // (s t)) % w, repetition i // (s t w)), `acc = combine(acc, next)`; the lanes then
    in the xor butterfly (`warpReduce`: lane l takes lane l ^ N, N = t/2, ..., 1, as
    combine(own, other)); the warps' values, through shared memory, in the same butterfly.
    combine takes and returns lists of arrays."""
    if lay[0] == "bits":
        ys = [x[..., bits_index(*lay[1:])] for x in xs]
    else:
        s, t, w, reps = lay
        lead = xs[0].shape[:-1]
        ys = [np.moveaxis(x.reshape(lead + (reps, w, t, s)), -4, -2).reshape(lead + (w, t, reps * s)) for x in xs]
    acc = [y[..., 0] for y in ys]
    for i in range(1, ys[0].shape[-1]):
        acc = combine(acc, [y[..., i] for y in ys])
    for _ in range(2):  # the lanes of each warp, then the warps
        while acc[0].shape[-1] > 1:
            half = acc[0].shape[-1] // 2
            acc = combine([a[..., :half] for a in acc], [a[..., half:] for a in acc])
        acc = [a[..., 0] for a in acc]
    return acc


def bits_index(regs: tuple, lanes: tuple, warps: tuple) -> np.ndarray:
    """index[w, t, r]: the axis coordinate of the r-th of a thread's registers along the axis
    (in register order: ReduceOpToLLVM's `uniqueOffsets` is a MapVector, filled and folded in
    register order, the first register of each offset kept) of lane t
    and warp w along it, t and w numbering the lane and warp bits along the axis, lowest first
    (a layout read as bases: `register_order.axis_bits`; the xor butterfly over t and w is then
    `reduce_exact`'s)."""
    def span(values: tuple) -> np.ndarray:
        out = np.zeros(1, dtype=np.int64)
        for v in values:
            out = np.concatenate([out, out ^ v])
        return out

    return (span(warps)[:, None, None] ^ span(lanes)[None, :, None] ^ span(regs)[None, None, :])


def scan_exact(xs: list, combine, lay: tuple) -> list:
    """Inclusive scan of operands xs (each (..., n)) along their last axis as ScanOpToLLVM
    combines them under `lay` ((s, t, w, reps)), every combine (earlier, later): each
    thread scans each of its runs of s contiguous elements in order
    (`scanThreadContiguousElements`); the runs' totals are scanned across the t lanes Kogge-
    Stone fashion (`warpScan`: shfl_up by 1, 2, 4, ...); the blocks of t * s elements (each
    warp's, each repetition's) carry the totals of those before them, accumulated in order
    (`AddPartialReduce` through shared memory, `AddPartialReduceOneWarp` by shuffles: the
    same combines), the carry combined into each lane's run total, and each run's other
    elements combined with the previous lane's final total (lane 0: the carry)."""
    s, t, w, reps = lay
    lead = xs[0].shape[:-1]
    blocks = reps * w
    ys = [x.reshape(lead + (blocks, t, s)) for x in xs]
    inclusive = [[y[..., 0] for y in ys]]
    for j in range(1, s):
        inclusive.append(combine(inclusive[-1], [y[..., j] for y in ys]))
    lanes = inclusive[-1]  # (..., blocks, t)
    step = 1
    while step < t:
        moved = combine([v[..., :-step] for v in lanes], [v[..., step:] for v in lanes])
        lanes = [np.concatenate([v[..., :step], m], axis=-1) for v, m in zip(lanes, moved)]
        step *= 2
    outs = [np.empty(lead + (blocks, t, s), dtype=np.result_type(v)) for v in lanes]
    carries = _block_carries(lanes, combine, blocks, t)  # block b's carry (b >= 1), or None
    last = [v.copy() for v in lanes]
    if carries is not None:
        moved = combine([np.broadcast_to(c[..., None], v[..., 1:, :].shape) for c, v in zip(carries, lanes)],
                        [v[..., 1:, :] for v in lanes])
        for v, m in zip(last, moved):
            v[..., 1:, :] = m
    for j in range(s - 1):
        element = inclusive[j]  # (..., blocks, t)
        rest = combine([v[..., :-1] for v in last], [e[..., 1:] for e in element]) if t > 1 else []
        first = [e[..., :1].copy() for e in element]
        if carries is not None:
            moved = combine([c[..., None] for c in carries], [e[..., 1:, :1] for e in element])
            for f, m in zip(first, moved):
                f[..., 1:, :] = m
        for k, out in enumerate(outs):
            out[..., j] = np.concatenate([first[k], rest[k]], axis=-1) if t > 1 else first[k]
    for k, out in enumerate(outs):
        out[..., s - 1] = last[k]
    return [out.reshape(lead + (blocks * t * s,)) for out in outs]


def _block_carries(lanes: list, combine, blocks: int, t: int) -> list | None:
    """The carry into each block after the first ((..., blocks - 1) per operand): block 1's is
    block 0's total, each later one the previous carry combined with the previous block's total,
    in order. Every block's own combines with its carry then run in one call over all blocks:
    the same combines of the same operands as block by block, a few calls instead of a few per
    block (a file's own combine runs as Python per call; honest round s58e)."""
    if blocks == 1:
        return None
    carry = [v[..., 0, t - 1] for v in lanes]
    carries = [carry]
    for b in range(1, blocks - 1):
        carry = combine(carry, [v[..., b, t - 1] for v in lanes])
        carries.append(carry)
    return [np.stack([np.asarray(c[k]) for c in carries], axis=-1) for k in range(len(lanes))]


def _single(combine):
    """A combine of arrays as one of one-array lists."""
    return lambda a, b: [combine(a[0], b[0])]


def reduce_last(x: np.ndarray, combine, what: str, lay: tuple | None = None, where: tuple = ()) -> np.ndarray:
    """x (..., n) reduced along its last axis: per thread, then lanes, then warps, in the
    compiled layout `lay` where it was read (`compiled_layout`), else in a drawn one."""
    if lay is not None:
        return reduce_exact([x], _single(combine), lay)[0]
    c, t, w, mode = layout(x.shape[-1], what, where)
    per_thread = _fold(_threads(x, c, t, w), combine, mode, c)  # (..., w, t)
    return _butterfly(_butterfly(per_thread, combine), combine)


def scan_last(x: np.ndarray, combine, what: str, lay: tuple | None = None, where: tuple = ()) -> np.ndarray:
    """Inclusive scan of x (..., n) along its last axis, every combine (earlier, later) as the
    GPU's: each thread's run of c in order, the runs' totals Kogge-Stone across lanes, the warps'
    and repetitions' totals carried in order, then prefix and element combined (in the
    compiled layout `lay` where it was read: `scan_exact`)."""
    if lay is not None:
        return scan_exact([x], _single(combine), lay)[0]
    n = x.shape[-1]
    c, t, w, _ = layout(n, what, where)
    reps = n // (c * t * w)
    y = x.reshape(x.shape[:-1] + (reps, w, t, c))
    runs = [y[..., 0]]
    for j in range(1, c):
        runs.append(combine(runs[-1], y[..., j]))
    inclusive = np.stack(runs, axis=-1)  # within each thread's run
    lanes = inclusive[..., c - 1]  # (..., reps, w, t)
    step = 1
    while step < t:
        moved = combine(lanes[..., :-step], lanes[..., step:])
        lanes = np.concatenate([lanes[..., :step], moved], axis=-1)
        step *= 2
    totals = lanes[..., t - 1].reshape(x.shape[:-1] + (reps * w,))
    carried = [np.zeros_like(totals[..., 0])]  # a placeholder where nothing is carried (k = 0)
    for k in range(1, reps * w):
        carried.append(totals[..., 0] if k == 1 else combine(carried[-1], totals[..., k - 1]))
    carried = np.stack(carried, axis=-1).reshape(x.shape[:-1] + (reps, w, 1))
    first = (np.arange(reps * w) == 0).reshape(reps, w, 1)  # the block's first warp carries nothing
    left = np.concatenate([np.zeros_like(lanes[..., :1]), lanes[..., :-1]], axis=-1)  # lane l-1's total
    lane0 = (np.arange(t) == 0)  # lane 0 has no left neighbour
    both = combine(np.broadcast_to(carried, lanes.shape), left)
    prefix = np.where(first, left, np.where(lane0, carried, both))
    none = first & lane0  # (reps, w, t): the very first run has no prefix
    out = np.where(none[..., None], inclusive, combine(prefix[..., None], inclusive))
    return out.reshape(x.shape)


def arg_last(x: np.ndarray, largest: bool, left: bool, what: str, lay: tuple | None = None,
             where: tuple = ()) -> np.ndarray:
    """The index (int32) argmax/argmin of x (..., n) along its last axis answers on the GPU:
    Triton's combine on (value, index) pairs, `v1 > v2 or (left and v1 == v2 and i1 < i2)`
    (`<` for argmin) choosing the first pair, else the second, applied in the drawn layout's
    order. Without NaNs and with tie_break_left that is the leftmost extreme anywhere; a NaN
    loses every comparison, so where it lands depends on the order, as on the GPU; without
    tie_break_left a tie keeps the later operand (an H200 answered N-1 for all-equal tiles)."""
    lead = x.shape[:-1]

    def pick(i1, i2):
        v1 = np.take_along_axis(x, i1.reshape(lead + (-1,)), axis=-1).reshape(i1.shape)
        v2 = np.take_along_axis(x, i2.reshape(lead + (-1,)), axis=-1).reshape(i2.shape)
        with np.errstate(invalid="ignore"):
            first = v1 > v2 if largest else v1 < v2
            if left:
                first |= (v1 == v2) & (i1 < i2)
        return np.where(first, i1, i2)

    index = np.broadcast_to(np.arange(x.shape[-1], dtype=np.int64), x.shape)
    return reduce_last(np.ascontiguousarray(index), pick, what, lay, where).astype(np.int32)


def moved(data: np.ndarray, axis) -> np.ndarray:
    """The reduced axis last (axis None: everything, as one row)."""
    return np.asarray(data).reshape(1, -1) if axis is None else np.moveaxis(np.asarray(data), axis, -1)


def packed(out: np.ndarray, ndim: int, axis, keep_dims: bool):
    """A last-axis reduction's result shaped as ReduceOps packs it: axis None gives a scalar,
    or ones of the input's rank with keep_dims."""
    if axis is None:
        return out.reshape((1,) * ndim) if keep_dims else out[0]
    return np.expand_dims(out, axis) if keep_dims else out


def along(data: np.ndarray, axis, keep_dims: bool, fn) -> np.ndarray:
    """fn (a reduction of the last axis) applied along `axis`, packed as ReduceOps packs it."""
    return packed(fn(moved(data, axis)), np.ndim(data), axis, keep_dims)


def adder(kind: str):
    """A combine of Triton's sum: rounded to the element dtype, a NaN it makes (inf + -inf) with
    PTX's canonical bits, not x86's default NaN (interpreter_casts.canonical_nan; red team rt50)."""
    from evaluator.interpreter_casts import canonical_nan

    rnd = rounder(kind)
    return lambda a, b: canonical_nan(rnd(a + b))


def multiplier(kind: str):
    from evaluator.interpreter_casts import canonical_nan

    rnd = rounder(kind)
    return lambda a, b: canonical_nan(rnd(a * b))
