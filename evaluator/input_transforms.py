"""The input sets' transforms (evaluator.runner draws the problem's inputs, then applies one):
scaled (x1e-3, x1e3; half precision by 2^-4, 2^4) and spiked (one element a large share of its
tensor's absolute sum), with what is left alone (labels, masks, integer and complex inputs)."""
from __future__ import annotations

import math
import sys

import torch

SPIKE_SHARE = (0.02, 0.5)
"""A spike is a share of its tensor's absolute sum drawn log-uniformly from this range for
every draw: one missing element (or one counted 1/f times) moves any sum over the tensor, of
|x| or of x^2, by more than the norm bound, and a forward cannot infer the spike's size
(hence the tensor's norm) from a sample of the rest."""
SPIKE_MAX = 1e15  # its square stays far inside float32's range
SPIKE_CAPPED = 16.0
"""The spike's magnitude (`spike:16`) where the problem's own forward overflowed on the full one
(exp(x) of a spike of a share of the sum): e^16 still outweighs a million e^x of randn, so a
kernel that sums a sample misses most of its result."""
SPIKE_MAX_COPIES = 4  # positions sharing the chosen value that all get it (a symmetric pair)
SPIKE_DRAWS = 8
FEW_VALUES = 16  # distinct values among SAMPLE positions at most: labels or a mask, left alone
SAMPLE = 1024
_SPIKE_SLICE = 1 << 26  # elements per pass: a 17 GiB input's float64 |x| sum asked 32 GiB at once
SPIKED = (torch.float32, torch.float64)
HALF = (torch.float16, torch.bfloat16)
HALF_SCALE_EXP = 4
"""Half-precision inputs are scaled by 2^-4 and 2^4 where float32's are by 1e-3 and 1e3 (whose
products leave float16's range): exact, and enough to move an output a constant could have
matched. Unscaled, a float16 problem was only ever judged on draws of one distribution, and
a kernel that wrote 2.0 for an MSE of two randn tensors was ok at reward 1.97 (red team F,
session 18)."""
COMPLEX = (torch.complex64, torch.complex128)


def transform_inputs(inputs: list, transform: str, seed: int = 0) -> tuple[list, str]:
    """Apply 'base', 'scale:F', 'shift:F', 'spike' or 'near_tie' to floating (and complex) tensors, also
    those inside lists and tuples of the inputs; returns the inputs and the transform actually
    applied. Scaling and shifting apply only when every floating input is float32/float64,
    complex or half (half precision is only scaled, by a power of two: HALF_SCALE_EXP); a
    spike goes into each float32/float64 input that can take one (a complex one's real view),
    and the set is 'base' when none could. `seed` places the spikes.

    Red team B (session 15): complex tensors and float tensors inside a list argument were
    never spiked nor scaled, so a sampled global norm over them was ok (and scale:1e3 was
    reported applied to a complex input it had left as it was)."""
    kind, _, arg = transform.partition(":")
    if kind == "near_tie":
        gen = torch.Generator().manual_seed(seed ^ 0x7E1E)
        out, placed = _near_tied(inputs, gen)
        return out, transform if placed else "base"
    if kind == "spike":
        gen = torch.Generator().manual_seed(seed ^ 0x5D1CE)
        # (tensor, spiked?): a big input takes its spike in place, so identity cannot tell
        out, placed = _spiked(inputs, gen, cap=float(arg) if arg else SPIKE_MAX)
        return out, transform if placed else "base"
    floats = [x for x in leaves(inputs) if x.is_floating_point() or x.is_complex()]
    half = any(x.dtype in HALF for x in floats)
    if kind == "base" or not floats or any(x.dtype not in SPIKED + HALF and not x.is_complex() for x in floats) \
            or (half and kind != "scale"):
        return inputs, "base"
    if kind not in ("scale", "shift"):
        raise ValueError(f"unknown input distribution {transform!r}")
    factor = float(arg)
    if half:  # a power of two, exact in any dtype, inside half precision's range
        factor = 2.0 ** max(-HALF_SCALE_EXP, min(HALF_SCALE_EXP, round(math.log2(factor))))
        transform = f"scale:{factor:g}"
    gen = torch.Generator().manual_seed(seed ^ 0x5CA1E)
    moved, count = _moved(inputs, factor, kind == "scale", gen)
    return (moved, transform) if count else (inputs, "base")


_NESTED = (list, tuple)  # exact types: a candidate's or a library's container is left alone
_DEPTH = 3


def leaves(items: list | tuple, depth: int = 0) -> list[torch.Tensor]:
    found = []
    for x in items:
        if type(x) in _NESTED and depth < _DEPTH:
            found += leaves(x, depth + 1)
        elif isinstance(x, torch.Tensor):
            found.append(x)
    return found


def _moved(items: list | tuple, factor: float, scale: bool, gen: torch.Generator,
           depth: int = 0) -> tuple[list, int]:
    """The items with every floating (or complex) tensor scaled or shifted, but those with few
    distinct values (labels, masks), which the spike leaves alone too: hinge targets of +-1
    made +-1000 are no longer labels, and a kernel written for the problem's labels failed
    (honest round, session 16: KernelBench level1/100, BCE with logits); and how many moved."""
    out, count = [], 0
    for x in items:
        if type(x) in _NESTED and depth < _DEPTH:
            inner, k = _moved(x, factor, scale, gen, depth + 1)
            x, count = type(x)(inner), count + k
        elif isinstance(x, torch.Tensor) and (x.is_floating_point() or x.is_complex()) \
                and not (x.numel() > 4 * FEW_VALUES and looks_like_labels(x, gen)):  # a small weight may repeat
            x, count = (x * factor if scale else x + factor), count + 1
        out.append(x)
    return out, count


def looks_like_labels(x: torch.Tensor, gen: torch.Generator) -> bool:
    """Whether a sample of `x` holds at most FEW_VALUES distinct values (a mask, labels)."""
    if x.is_complex():
        x = torch.view_as_real(x)
    return x.numel() >= 2 and torch.unique(x[_positions(x, gen, SAMPLE)]).numel() <= FEW_VALUES


def _spiked(items: list | tuple, gen: torch.Generator, depth: int = 0,
            cap: float = SPIKE_MAX) -> tuple[list, bool]:
    """`spike` on every tensor that can take one, at any depth; whether one was placed.
    (The loop's own reference to each tensor is what `_owned` measured: keep its shape.)"""
    out, placed = [], False
    for x in items:
        if type(x) in _NESTED and depth < _DEPTH:
            inner, p = _spiked(x, gen, depth + 1, cap)
            out.append(type(x)(inner))
        elif isinstance(x, torch.Tensor) and x.dtype in SPIKED:
            y, p = spike(x, gen, cap)
            out.append(y)
        elif isinstance(x, torch.Tensor) and x.dtype in COMPLEX:
            y, p = spike(torch.view_as_real(x), gen, cap)  # a view: spiked in a copy
            out.append(torch.view_as_complex(y) if p else x)
        else:
            out.append(x)
            p = False
        placed = placed or p
    return out, placed


NEAR_TIE_ULPS = 12
"""A near tie sits 1 to 2^12 units in the last place below its row's maximum (log-uniform):
an argmax over keys rounded to float16 (13 bits fewer than float32) or any shorter key ties
or misorders it in most rows, while every float32 comparison still tells the two apart."""


def _near_tied(items: list, gen: torch.Generator) -> tuple[list, bool]:
    """`near_tie` on every top-level float32/float64 tensor of at least two elements in its
    last dimension (labels left alone); whether one was placed."""
    out, placed = [], False
    for x in items:
        ok = isinstance(x, torch.Tensor) and x.dtype in SPIKED and x.dim() >= 1 and x.shape[-1] >= 2
        if ok and not looks_like_labels(x, gen):
            out.append(near_tie(x, gen))
            placed = True
        else:
            out.append(x)
    return out, placed


def near_tie(x: torch.Tensor, gen: torch.Generator) -> torch.Tensor:
    """A copy of `x` in which each row (along the last dimension) has one other element set
    just below the row's maximum (NEAR_TIE_ULPS): the problem's own answer (the index of the
    maximum, a sort order) is unchanged, but a key with fewer bits than the input's own
    ties the two. Red team s69D: an argmax over float16-rounded keys was wrong on ~0.2% of
    randn rows and ok in ~1 check of 9 (`integer_output` problems are compared exactly, so
    only a row whose top two meet shows it)."""
    rows = x.detach().reshape(-1, x.shape[-1]).clone()
    top, where = rows.max(dim=1)
    n = rows.shape[1]
    other = (where.cpu() + 1 + torch.randint(n - 1, (rows.shape[0],), generator=gen)) % n
    ulps = torch.floor(2.0 ** (NEAR_TIE_ULPS * torch.rand(rows.shape[0], generator=gen, dtype=torch.float64)))
    wide = top.double()
    spacing = (torch.nextafter(top, torch.full_like(top, math.inf)) - top).double()
    below = (wide - ulps.to(wide.device) * spacing).to(rows.dtype)
    finite = torch.isfinite(below) & (below < top)
    index = torch.arange(rows.shape[0], device=rows.device)[finite]
    rows[index, other.to(rows.device)[finite]] = below[finite]
    return rows.reshape(x.shape)


def _positions(x: torch.Tensor, gen: torch.Generator, count: int) -> tuple[torch.Tensor, ...]:
    """`count` random positions of `x` as one index tensor per dimension (on x's device),
    drawn on the CPU, where `gen` is, whatever device get_inputs runs under (a draw on the
    device failed there, and every spiked set fell back to making GiBs on the host)."""
    flat = torch.randint(x.numel(), (count,), generator=gen, device="cpu")
    index = []
    for size in reversed(x.shape):
        index.append(flat % size)
        flat = flat // size
    return tuple(i.to(x.device) for i in reversed(index))


IN_PLACE_BYTES = 64 << 20
_FRESH_REFS: list[int] = []  # references a tensor only the input list holds has inside spike


def _owned(x: torch.Tensor, refs: int) -> bool:
    """Whether a spike may be written into `x` itself: a big tensor (a copy of a GiB input
    was one more GiB on a device whose reservation was measured without it) that nothing
    but the input list holds (`refs`, its reference count in spike, no more than a fresh
    one's there, measured once on this interpreter), neither a view nor viewed. A tensor
    get_inputs keeps (a module global) has one more reference and is copied; were one ever
    written, the reference child's second draw from the same seed would differ, a loud
    problem error."""
    if not _FRESH_REFS:
        _FRESH_REFS.append(-1)  # measuring: spike returns at once
        transform_inputs(list([torch.ones(2)]), "spike")
    return (x.numel() * x.element_size() >= IN_PLACE_BYTES and x._base is None
            and 0 < refs <= _FRESH_REFS[-1]
            and torch._C._storage_Use_Count(x.untyped_storage()._cdata) <= 2)


def spike(x: torch.Tensor, gen: torch.Generator, cap: float = SPIKE_MAX) -> tuple[torch.Tensor, bool]:
    """(`x` with a spike, True), or (`x`, False) where it takes none. The spiked tensor is a
    copy of `x` (or `x` itself, when `_owned`) whose value at one random position is scaled to a random share
    (SPIKE_SHARE) of the tensor's absolute sum, sign kept; where that exact value occurs at
    most SPIKE_MAX_COPIES times, at each of them.

    The error of an output normalised by one global reduction (x / ||x||, a mean loss) is
    one common factor, held only to the norm bound, and at real sizes a reduction over a
    small sample of the tensor stays inside it on the problem's own inputs. With one element
    this large, a sample either misses it or counts it 1/f times, and is off by far more.
    Scaling by the position's own value keeps zeros zero (triangular inputs stay triangular),
    signs (positive inputs stay positive) and equal values equal (a symmetric matrix stays
    symmetric); a tensor with few distinct values (a mask, labels) is left as it is."""
    refs = sys.getrefcount(x)
    if _FRESH_REFS == [-1]:
        _FRESH_REFS.append(refs)
        return x, False
    n = x.numel()
    if n < 2:
        return x, False
    owned = _owned(x, refs)  # before any view of x below holds its storage too
    flat = x.view(-1) if x.is_contiguous() else None  # slices of a big input, never a float64 copy
    parts = [x] if flat is None else [flat[i:i + _SPIKE_SLICE] for i in range(0, n, _SPIKE_SLICE)]
    total = sum(float(torch.linalg.vector_norm(p, 1, dtype=torch.float64)) for p in parts)
    if not math.isfinite(total) or total == 0.0:
        return x, False
    if looks_like_labels(x, gen):
        return x, False
    low, high = (math.log(s) for s in SPIKE_SHARE)
    share = math.exp(low + (high - low) * float(torch.rand((), generator=gen, device="cpu")))
    for _ in range(SPIKE_DRAWS):
        where = _positions(x, gen, 1)
        value = x[where]
        v = float(value)
        if v == 0.0 or not math.isfinite(v):
            continue
        copies = sum(int((p == value).sum()) for p in parts)
        out = x if owned else x.clone()  # x's layout either way
        big = math.copysign(min(share * total, cap, SPIKE_MAX), v)
        if copies <= SPIKE_MAX_COPIES:
            whole = out.view(-1) if flat is not None else None
            for part in ([out] if whole is None else [whole[i:i + _SPIKE_SLICE] for i in range(0, n, _SPIKE_SLICE)]):
                part.masked_fill_(part == value, big)
        else:
            out[where] = big
        return out, True
    return x, False


