"""Which element of its operands each element of a `tt.cat` or a reorderable `tt.reshape` holds
on the GPU, from the layouts Triton compiled it with.

Triton lowers both ops without moving data between threads (lib/Conversion/TritonGPUToLLVM/
ViewOpToLLVM.cpp, the same in 3.6 and 3.9): `CatOpConversion` unpacks each thread's registers
of lhs, then of rhs, and packs them in that order as the result's registers; `ReshapeOpConversion`
(`allow_reorder`, a view that is not `isExpensiveView`) packs the source's registers unchanged
as the result's. Which tensor element a thread's register holds is its layout's: a linear
layout maps (register, lane, warp) bits to coordinates, each set bit XOR-ing in its basis
(`bases`). So element e of the result, held in register r of lane l of warp w, is the operand
element that the operand's layout puts in register r (for a cat: r, or r minus lhs's register
count, of rhs) of the same lane and warp (`cat_order`, `reshape_order`).

The layouts are read off the op's printed operand and result types in the TTGIR the CPU check
compiles for sm_90 (evaluator.device_ir records them): `#ttg.blocked` (Triton's
BlockedEncodingAttr::toLinearLayout: identity bases over sizePerThread, threadsPerWarp,
warpsPerCTA in `order`, combineCtaCgaWithShape: registers repeat the tile along each dim,
minor first, to cover the shape; bases past a smaller shape are zeroed, largest first, so
threads hold copies), `#ttg.slice` (the parent's layout with the sliced dim dropped and
all-zero register bases removed), `#ttg.linear` (the bases as printed) and `#ttg.nvidia_mma`,
a tl.dot result (`_mma`; the order of its reductions: `axis_bits`). An element held by
several threads or registers (a copy) is taken from the one whose copying bits are all zero:
the copy a store writes (the redundant-data mask). Anything else (a rank-3 MMA result, a CTA split
over several CTAs, a type this grammar does not read, counts that do not match): None, and the
interpreter draws a keyed permutation (evaluator.interpreter_layout).
"""
from __future__ import annotations

import re

import numpy as np

_TENSOR = re.compile(r"tensor<((?:\d+x)+)(?:[^,<>]|<[^<>]*>)+, (#ttg\..*)>$")  # a pointer's <f32> too
_BLOCKED = re.compile(r"#ttg\.blocked<\{(.*)\}>$")
_SLICE = re.compile(r"#ttg\.slice<\{dim = (\d+), parent = (#ttg\..*)\}>$")
_LINEAR = re.compile(r"#ttg\.linear<\{(.*)\}>$")
_MMA = re.compile(r"#ttg\.nvidia_mma<\{(.*)\}>$")
_LIST = r"\[([\d, ]*)\]"
_NESTED = r"\[((?:\[[\d, ]*\](?:, )?)*)\]"


def _ints(text: str) -> list[int]:
    return [int(v) for v in text.split(",") if v.strip()]


def parse(type_text: str) -> tuple[tuple, str] | None:
    """(shape, encoding text) of a printed ranked tensor type (of numbers or pointers), None
    for another type."""
    match = _TENSOR.match(type_text)
    if match is None:
        return None
    return tuple(int(d) for d in match.group(1).rstrip("x").split("x")), match.group(2)


def bases(encoding: str, shape: tuple) -> tuple[list, list, list] | None:
    """(register, lane, warp) bases of `encoding` over `shape`: each a list of coordinate
    tuples, one per input bit, lowest bit first. None for an encoding not read here."""
    if (blocked := _BLOCKED.match(encoding)) is not None:
        return _blocked(blocked.group(1), shape)
    if (sliced := _SLICE.match(encoding)) is not None:
        return _slice(int(sliced.group(1)), sliced.group(2), shape)
    if (linear := _LINEAR.match(encoding)) is not None:
        return _linear(linear.group(1), shape)
    if (mma := _MMA.match(encoding)) is not None:
        return _mma(mma.group(1), shape)
    return None


def _mma(fields: str, shape: tuple) -> tuple[list, list, list] | None:
    """An `#ttg.nvidia_mma` (a tl.dot result) as Triton's NvidiaMmaEncodingAttr::toLinearLayout
    builds it (LinearLayoutConversions.cpp, nvidiaMmaTile with kWidth 2, order and repOrder
    [1, 0]): over a tile of instrShape's (m, n) (mma.sync v2: [16, 8]; wgmma v3: [16, N, 16]
    gives [16, N]), 2 registers along dim 1, lanes 4 along dim 1 then 8 along dim 0, registers
    m/8 along dim 0 then n/8 along dim 1; the warps over warpsPerCTA in the warp order (v3:
    [0, 1], wgmma's warps go along M first; v2: [1, 0]); then fitted to the shape as a blocked
    layout is (combineCtaCgaWithShape, dim 1 first). Rank 2 only; None otherwise."""
    found = {name: _ints(values) for name, values in re.findall(r"(\w+) = " + _LIST, fields)}
    major = re.search(r"versionMajor = (\d+)", fields)
    wpc, instr = found.get("warpsPerCTA"), found.get("instrShape")
    if major is None or wpc is None or instr is None or len(shape) != 2 or len(wpc) != 2:
        return None
    if "CTAsPerCGA" in fields and any(v != 1 for v in found.get("CTAsPerCGA", [])):
        return None
    version = int(major.group(1))
    if version == 3 and len(instr) == 3 or version == 2 and len(instr) == 2:
        m, n = instr[0], instr[1]
    else:
        return None
    if m % 8 or n % 8 or any(v < 1 or v & (v - 1) for v in (m, n, *wpc, *shape)):
        return None
    reg = [(0, 1)] + [(8 << i, 0) for i in range((m // 8).bit_length() - 1)]
    reg += [(0, 8 << i) for i in range((n // 8).bit_length() - 1)]
    lane = [(0, 2), (0, 4), (1, 0), (2, 0), (4, 0)]
    covered = [m, n]
    warp = []
    for dim in ((0, 1) if version == 3 else (1, 0)):
        for bit in range(wpc[dim].bit_length() - 1):
            warp.append(tuple(covered[dim] << bit if d == dim else 0 for d in range(2)))
        covered[dim] *= wpc[dim]
    return _fitted(reg, lane, warp, shape, [1, 0])


def _blocked(fields: str, shape: tuple) -> tuple[list, list, list] | None:
    found = {name: _ints(values) for name, values in re.findall(r"(\w+) = " + _LIST, fields)}
    rank = len(shape)
    spt, tpw, wpc, order = (found.get(k) for k in ("sizePerThread", "threadsPerWarp", "warpsPerCTA", "order"))
    if None in (spt, tpw, wpc, order) or any(len(v) != rank for v in (spt, tpw, wpc, order)):
        return None
    if sorted(order) != list(range(rank)) or "CTAsPerCGA" in fields and any(v != 1 for v in found.get("CTAsPerCGA", [])):
        return None
    if any(v < 1 or v & (v - 1) for v in (*spt, *tpw, *wpc, *shape)):
        return None

    covered = [1] * rank  # each dim's size so far: the product of layouts puts lanes past registers

    def identity(sizes: list) -> list:  # identityStandardND: order[0] (most minor) first
        out = []
        for dim in order:
            for bit in range(sizes[dim].bit_length() - 1):
                out.append(tuple(covered[dim] << bit if d == dim else 0 for d in range(rank)))
            covered[dim] *= sizes[dim]
        return out

    return _fitted(identity(spt), identity(tpw), identity(wpc), shape, order)


def _fitted(reg: list, lane: list, warp: list, shape: tuple, order: list) -> tuple[list, list, list]:
    """A CTA tile's bases fitted to `shape` as combineCtaCgaWithShape fits them."""
    rank = len(shape)
    for dim in order:  # ensureLayoutNotSmallerThan: repeat the tile in registers, minor dim first
        size = max((b[dim] for b in reg + lane + warp), default=0) * 2 or 1
        while size < shape[dim]:
            reg.append(tuple(size if d == dim else 0 for d in range(rank)))
            size *= 2
    groups = [reg, lane, warp]
    for dim in range(rank):  # ensureLayoutNotLargerThan: zero the largest bases first
        size = max((b[dim] for g in groups for b in g), default=0) * 2 or 1
        ranked = sorted(((b[dim], gi, bi) for gi, g in enumerate(groups) for bi, b in enumerate(g) if b[dim]),
                        reverse=True)
        for _value, gi, bi in ranked:
            if size <= shape[dim]:
                break
            basis = list(groups[gi][bi])
            basis[dim] = 0
            groups[gi][bi] = tuple(basis)
            size //= 2
    # a register basis zeroed there is dropped, not kept as a copy (ensureLayoutNotLargerThan
    # without broadcastRegisters: the thread holds fewer registers)
    return [b for b in groups[0] if any(b)], groups[1], groups[2]


def _slice(dim: int, parent: str, shape: tuple) -> tuple[list, list, list] | None:
    if not 0 <= dim <= len(shape):
        return None
    inner = bases(parent, (*shape[:dim], 1, *shape[dim:]))
    if inner is None:
        return None
    reg, lane, warp = ([tuple(v for d, v in enumerate(b) if d != dim) for b in g] for g in inner)
    return [b for b in reg if any(b)], lane, warp


def _linear(fields: str, shape: tuple) -> tuple[list, list, list] | None:
    found = {}
    for name in ("register", "lane", "warp", "block"):
        match = re.search(name + r" = " + _NESTED, fields)
        if match is None:
            return None
        found[name] = [tuple(_ints(b)) for b in re.findall(_LIST, match.group(1))]
    if found["block"] or any(len(b) != len(shape) for g in found.values() for b in g):
        return None
    return found["register"], found["lane"], found["warp"]


def _elements(encoding: str, shape: tuple) -> np.ndarray | None:
    """held[w, l, r]: the row-major index of the element register r of lane l of warp w holds."""
    found = bases(encoding, shape)
    if found is None:
        return None
    if any(v < 1 or v & (v - 1) for v in shape):
        return None
    parts = []
    for group in found:
        index = np.zeros(1 << len(group), dtype=np.int64)
        for bit, basis in enumerate(group):
            if any(v < 0 or v >= s for v, s in zip(basis, shape)):
                return None
            step = 1 << bit
            index[step:2 * step] = _xor(index[:step], basis, shape)
        parts.append(index)
    reg, lane, warp = parts
    # a coordinate packed with dim 0's bits highest is its row-major index (power-of-two dims)
    return warp[:, None, None] ^ lane[None, :, None] ^ reg[None, None, :]


def _pack_bits(shape: tuple) -> list[int]:
    """Bit offset of each dim in a packed coordinate (each dim a power of two)."""
    offsets, at = [], 0
    for size in reversed(shape):
        offsets.append(at)
        at += size.bit_length() - 1
    return offsets[::-1]


def _xor(index: np.ndarray, basis: tuple, shape: tuple) -> np.ndarray:
    packed = sum(v << off for v, off in zip(basis, _pack_bits(shape)))
    return index ^ packed


def _canonical(held: np.ndarray, size: int) -> np.ndarray | None:
    """For each element, the (warp, lane, register) position, flattened, of its copy with the
    lowest position (the copy whose copying bits are zero); None if an element is not held."""
    values, first = np.unique(held.reshape(-1), return_index=True)  # each value's first position
    if values.size != size or values[0] != 0 or values[-1] != size - 1:
        return None
    return first.astype(np.int64)


def cat_order(lhs: str, rhs: str, result: str) -> np.ndarray | None:
    """perm with result.flat[e] == concatenate(lhs.flat, rhs.flat)[perm[e]] for a compiled
    `tt.cat` whose operand and result types print as given (the module doc), None where not
    read."""
    types = [parse(t) for t in (lhs, rhs, result)]
    if None in types:
        return None
    (ls, le), (rs, re_), (out_shape, oe) = types
    held = [_elements(e, s) for e, s in ((le, ls), (re_, rs), (oe, out_shape))]
    if any(h is None for h in held):
        return None
    a, b, out = held
    if a.shape[:2] != out.shape[:2] or b.shape[:2] != out.shape[:2] or a.shape[2] + b.shape[2] != out.shape[2]:
        return None
    source = np.concatenate([a, b + int(np.prod(ls))], axis=2)  # in the result's registers
    return _mapped(out, source, int(np.prod(out_shape)))


def reshape_order(src: str, result: str) -> np.ndarray | None:
    """perm with result.flat[e] == src.flat[perm[e]] for a compiled reorderable `tt.reshape`
    (its registers kept, the module doc), None where not read."""
    types = [parse(t) for t in (src, result)]
    if None in types:
        return None
    (ss, se), (out_shape, oe) = types
    a, out = _elements(se, ss), _elements(oe, out_shape)
    if a is None or out is None or a.shape != out.shape:
        return None
    return _mapped(out, a, int(np.prod(out_shape)))


def _mapped(out: np.ndarray, source: np.ndarray, size: int) -> np.ndarray | None:
    first = _canonical(out, size)
    if first is None or source.size != out.size:
        return None
    return source.reshape(-1)[first]


def axis_bits(type_text: str, axis: int | None) -> tuple | None:
    """(n, register, lane, warp values) of a reduction's operand along `axis`, for a layout this
    module reads (an MMA result above all): n the axis's length, then for each of the register,
    lane and warp bits, lowest first, the axis coordinate its basis adds, the bits that do not
    move along the axis (other dims, copies) left out. ReduceOpToLLVM folds each output's
    registers in the order of their coordinates along the axis, then xor-shuffles over the lane
    bits along the axis (the highest first), then the warps' values likewise through shared
    memory (evaluator.interpreter_order.reduce_bits). None where a basis moves along the axis
    and another dim at once, or the bits do not cover the axis once each."""
    found = parse(type_text)
    if found is None or axis is None:
        return None
    shape, encoding = found
    if not 0 <= axis < len(shape):
        return None
    groups = bases(encoding, shape)
    if groups is None:
        return None
    picked = []
    for group in groups:
        values = []
        for basis in group:
            if basis[axis] and any(v for d, v in enumerate(basis) if d != axis):
                return None
            if basis[axis]:
                values.append(int(basis[axis]))
        picked.append(tuple(values))
    every = sorted(v for g in picked for v in g)
    if every != [1 << i for i in range(len(every))] or 1 << len(every) != shape[axis]:
        return None
    return (shape[axis], *picked)
