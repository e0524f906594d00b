"""CUDA's orders for the torch ops evaluator.cuda_fidelity hands over, on a CPU candidate
child's device tensors: cumsum/cumprod in the dtype and in the order and chunk widths of CUDA's
scan kernels, variance by Welford in float32, CUDA's order of topk(sorted=False), and the order
of ties (sort by CUDA's algorithm for the row's length, mode's and kthvalue's measured tie
indices, median's keyed to the row). Each `h_*` takes (func, args, kwargs) as a dispatch mode
does and answers the op, or NotImplemented for the CPU kernel's own answer. The random values
are evaluator.cuda_values'."""
from __future__ import annotations

from typing import Any

import numpy
import torch

aten = torch.ops.aten
_M32 = 0xFFFFFFFF  # the C++ side computes the scan width in uint32

# -- reductions and scans --------------------------------------------------------------------

_FLOATS = (torch.float32, torch.float16, torch.bfloat16)
_SCANNED = (*_FLOATS, torch.float64)


def h_scan(combine: Any) -> Any:
    """cumsum/cumprod of a floating device tensor computed in the dtype, as CUDA's scan_dim
    does (ScanUtils.cuh; its std::plus<scalar_t> rounds every step): a tensor of one row by
    cub (_scan_single); along the last dimension by scan_innermost_dim's chunks (_scan_innermost);
    along any other by scan_outer_dim's running value from the identity, one step at a time
    (so a -0.0 first element sums to +0.0, as there)."""
    def handler(func: Any, args: tuple, kwargs: dict) -> Any:
        x = args[0]
        dim = kwargs.get("dim", args[1] if len(args) > 1 else 0)
        dtype = kwargs.get("dtype", args[2] if len(args) > 2 else None)
        src = x if dtype is None else x.to(dtype)
        if src.dtype not in _SCANNED or src.dim() == 0 or src.numel() == 0:
            return NotImplemented
        dim = dim % src.dim()
        if src.numel() == src.shape[dim]:
            out = _scan_single(src.reshape(-1), combine).view(src.shape)
        elif dim == src.dim() - 1:
            out = _scan_innermost(src, combine)
        else:
            moved = src.movedim(dim, -1)
            acc = torch.full_like(moved[..., 0], _identity(combine))
            cols = []
            for i in range(moved.shape[-1]):
                acc = combine(acc, moved[..., i])
                cols.append(acc.clone())
            out = torch.stack(cols, dim=-1).movedim(-1, dim)
        return out.contiguous()
    return handler


def _identity(combine: Any) -> int:
    return 0 if combine is torch.add else 1


_ITEMS = 12  # items per thread of cub's scan tile (an assumption: CCCL's sm90 tuning not read)


def _scan_single(x: torch.Tensor, combine: Any) -> torch.Tensor:
    """A single row's scan as cub's DeviceScan does it (scan_dim hands a 1-D scan to cub):
    each thread's items combined one at a time onto the prefix of the threads before it
    (ThreadScanInclusive), the threads' aggregates scanned in a tree (Kogge-Stone)."""
    n = x.numel()
    groups = -(-n // _ITEMS)
    buf = torch.cat([x, torch.full((groups * _ITEMS - n,), _identity(combine), dtype=x.dtype)]).view(groups, _ITEMS)
    agg = buf[:, 0].clone()
    for i in range(1, _ITEMS):
        agg = combine(agg, buf[:, i])
    scan, step = agg.clone(), 1
    while step < groups:
        nxt = scan.clone()
        nxt[step:] = combine(scan[step:], scan[:-step])
        scan, step = nxt, step * 2
    out = torch.empty_like(buf)
    acc = buf[:, 0].clone()
    acc[1:] = combine(scan[:-1], buf[1:, 0])
    out[:, 0] = acc
    for i in range(1, _ITEMS):
        acc = combine(acc, buf[:, i])
        out[:, i] = acc
    return out.reshape(-1)[:n]


def inner_scan_width(num_rows: int, row_size: int) -> int:
    """The chunk scan_innermost_dim scans a row in: 2 * num_threads_x, num_threads_x =
    2^get_log_num_threads_x_inner_scan<uint32_t>(num_rows, row_size): the ceil-log2 of the row
    size less that of the rows, plus 9, halved, in [4, 9]. Its arithmetic is uint32_t's, so
    rows more than 2^9 times the row size wrap to 9, the widest."""
    log_x = max(0, (row_size - 1).bit_length())
    log_y = max(0, (num_rows - 1).bit_length())
    log_x = ((9 + ((log_x - log_y) & _M32)) & _M32) // 2
    return 2 << min(max(4, log_x), 9)


def _scan_innermost(x: torch.Tensor, combine: Any) -> torch.Tensor:
    """tensor_kernel_scan_innermost_dim: each row in chunks of inner_scan_width, the running
    total of the chunks before (the identity before the first) combined into a chunk's first
    element, then Sklansky's tree over the chunk (level s adds element a-1 to the s elements
    from a, for a = s, 3s, 5s, ...)."""
    rows, n = x.numel() // x.shape[-1], x.shape[-1]
    flat = x.reshape(rows, n)
    width = inner_scan_width(rows, n)
    chunks = -(-n // width)
    identity = _identity(combine)
    pad = torch.full((rows, chunks * width - n), identity, dtype=x.dtype)
    buf = torch.cat([flat, pad], dim=1).view(rows, chunks, width)
    out = torch.empty_like(buf)
    total = torch.full((rows,), identity, dtype=x.dtype)
    levels = []
    s = 1
    while s <= width // 2:
        idx = torch.arange(width // 2)
        a = (idx // s) * (2 * s) + s
        levels.append((a + idx % s, a - 1))
        s <<= 1
    for c in range(chunks):
        b = buf[:, c].clone()
        b[:, 0] = combine(b[:, 0], total)
        for ti, si in levels:
            b[:, ti] = combine(b[:, ti], b[:, si])
        out[:, c] = b
        total = b[:, -1].clone()
    return out.view(rows, chunks * width)[:, :n].reshape(x.shape)


def _welford(x: torch.Tensor, dims: list[int]) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor]:
    """(mean, m2, count) over `dims` by Welford in float32: lanes of a strided split, each
    updated one value at a time, then combined pairwise (Chan's formula), as CUDA's
    WelfordOps reduce does."""
    moved = x.movedim(dims, list(range(-len(dims), 0))) if dims else x.unsqueeze(-1)
    flat = moved.reshape(*moved.shape[:moved.dim() - len(dims)] if dims else moved.shape[:-1], -1).float()
    n = flat.shape[-1]
    lanes = min(n, max(32, -(-n // 64)))
    per = -(-n // lanes)
    pad = per * lanes - n
    vals = torch.cat([flat, torch.zeros(*flat.shape[:-1], pad)], dim=-1).view(*flat.shape[:-1], per, lanes)
    valid = (torch.arange(per * lanes) < n).view(per, lanes)
    mean = torch.zeros(*flat.shape[:-1], lanes)
    m2 = torch.zeros_like(mean)
    cnt = torch.zeros(lanes)
    for i in range(per):
        v, ok = vals[..., i, :], valid[i]
        c = cnt + ok.float()
        delta = v - mean
        new_mean = mean + torch.where(ok, delta / torch.clamp(c, min=1.0), torch.zeros(()))
        m2 = m2 + torch.where(ok, delta * (v - new_mean), torch.zeros(()))
        mean, cnt = new_mean, c
    while mean.shape[-1] > 1:
        if mean.shape[-1] % 2:
            mean = torch.cat([mean, torch.zeros_like(mean[..., :1])], -1)
            m2 = torch.cat([m2, torch.zeros_like(m2[..., :1])], -1)
            cnt = torch.cat([cnt, torch.zeros(1)])
        ma, mb, qa, qb, na, nb = mean[..., 0::2], mean[..., 1::2], m2[..., 0::2], m2[..., 1::2], cnt[0::2], cnt[1::2]
        nab = na + nb
        frac = torch.where(nab > 0, nb / torch.clamp(nab, min=1.0), torch.zeros(()))
        delta = mb - ma
        mean = ma + delta * frac
        m2 = qa + qb + delta * delta * na * frac
        cnt = nab
    return mean[..., 0], m2[..., 0], cnt[0]


def _reduced_dims(x: torch.Tensor, dim: Any) -> list[int]:
    if dim is None or (isinstance(dim, (list, tuple)) and len(dim) == 0):
        return list(range(x.dim()))
    dims = [dim] if isinstance(dim, int) else list(dim)
    return sorted({d % max(x.dim(), 1) for d in dims})


def h_var(std: bool, with_mean: bool) -> Any:
    """var/std/var_mean/std_mean of a float32/half/bfloat16 device tensor by Welford in float32
    (`_welford`), the correction and keepdim as asked."""
    def handler(func: Any, args: tuple, kwargs: dict) -> Any:
        x = args[0]
        if x.dtype not in _FLOATS or x.numel() == 0 or x.dim() == 0:
            return NotImplemented
        overload = func._overloadname
        dim = kwargs.get("dim", args[1] if len(args) > 1 else None)
        if overload.startswith("correction"):
            correction = kwargs.get("correction", args[2] if len(args) > 2 else None)
            correction = 1.0 if correction is None else float(correction)
            keepdim = kwargs.get("keepdim", args[3] if len(args) > 3 else False)
        elif overload in ("dim",):
            correction = 1.0 if kwargs.get("unbiased", args[2] if len(args) > 2 else True) else 0.0
            keepdim = kwargs.get("keepdim", args[3] if len(args) > 3 else False)
        elif overload == "default":
            dim = None
            correction = 1.0 if kwargs.get("unbiased", args[1] if len(args) > 1 else True) else 0.0
            keepdim = False
        else:
            return NotImplemented
        dims = _reduced_dims(x, dim)
        mean, m2, n = _welford(x, dims)
        var = m2 / torch.clamp(n - correction, min=0.0)
        var = torch.where(n - correction > 0, var, torch.full_like(var, float("nan")))
        value = torch.sqrt(var) if std else var
        if keepdim:
            for d in dims:
                value, mean = value.unsqueeze(d), mean.unsqueeze(d)
        value, mean = value.to(x.dtype), mean.to(x.dtype)
        return (value, mean) if with_mean else value
    return handler


# -- order -----------------------------------------------------------------------------------

def h_topk(func: Any, args: tuple, kwargs: dict) -> Any:
    """topk(sorted=False) as CUDA's gatherTopK writes it: the values beyond the k-th in index
    order, then as many of the k-th value's ties as fit, in index order (NaN the largest)."""
    x = args[0]
    k = kwargs.get("k", args[1] if len(args) > 1 else None)
    dim = kwargs.get("dim", args[2] if len(args) > 2 else -1)
    largest = kwargs.get("largest", args[3] if len(args) > 3 else True)
    is_sorted = kwargs.get("sorted", args[4] if len(args) > 4 else True)
    if is_sorted or x.dim() == 0 or x.is_complex() or x.dtype == torch.bool or not isinstance(k, int) or k == 0:
        return NotImplemented
    values, _ = func(x, k, dim, largest, True)
    moved = x.movedim(dim, -1)
    kth = values.movedim(dim, -1)[..., k - 1:k]
    beyond = moved > kth if largest else moved < kth
    tie = moved == kth
    if moved.is_floating_point():  # NaN is the largest value, and a NaN k-th value ties NaNs
        nan, kth_nan = torch.isnan(moved), torch.isnan(kth)
        beyond = (beyond | nan) & ~kth_nan if largest else beyond | (~nan & kth_nan)
        tie = tie | (nan & kth_nan)
    room = k - beyond.sum(-1, keepdim=True)
    take = beyond | (tie & (torch.cumsum(tie.to(torch.int64), -1) <= room))
    order = torch.sort((~take).to(torch.uint8), dim=-1, stable=True).indices[..., :k]
    return torch.gather(moved, -1, order).movedim(-1, dim), order.movedim(-1, dim)


_BITS = {1: torch.uint8, 2: torch.int16, 4: torch.int32, 8: torch.int64}


def _shuffled(x: torch.Tensor, dim: int, *op: Any) -> tuple[torch.Tensor, torch.Tensor]:
    """x moved so `dim` is last, each row permuted, and the permutations (x's shape, dim last).
    A row's permutation is a pure function of (this child's secret, `op`, the row's length and
    dtype, the row's bits): CUDA's sort of a row is a fixed function of that row, so equal rows
    get equal tie orders, in one call or two (a fresh torch.randperm per call told the CPU by
    `sort(x).indices != sort(x).indices`, and advanced the host's generator, which the GPU's
    sort never touches: red team rt48); another child draws others (evaluator.keyed_draw)."""
    import numpy as np

    from evaluator import keyed_draw

    moved = x.movedim(dim, -1).contiguous()
    words = moved.detach().view(_BITS[moved.element_size()]).numpy().astype(np.int64).view(np.uint64)
    n = moved.shape[-1]
    key = ("tie order", *op, n, str(x.dtype))
    row = keyed_draw.rows(words, *key)[..., None]
    order = keyed_draw.mix(row ^ keyed_draw.mix(np.arange(n, dtype=np.uint64), "position", *key), *key)
    perm = torch.from_numpy(np.argsort(order, axis=-1, kind="stable"))
    return torch.gather(moved, -1, perm), perm


# sortKeyValueInplace (ATen/native/cuda/Sort.cu), which sorts every row of at most 4096
# (should_use_small_sort): SmallBitonicSort only where `!stable && sort_size <= 32`, else
# WarpMergeSort (<= 128) or MediumRadixSort; longer rows take the segmented cub radix sort. All
# but the bitonic network keep ties in index order.
BITONIC_MAX = 32


def _bitonic_stages(size: int = BITONIC_MAX) -> list[tuple[numpy.ndarray, numpy.ndarray, numpy.ndarray]]:
    """bitonicSort<Power2SortSize=32> (ATen/native/cuda/SortUtils.cuh) as (pos, pos + stride,
    dir) per stage over its size // 2 threads."""
    threads = numpy.arange(size // 2)
    stages = []
    width = 2
    while width < size:
        flag = (threads & (width // 2)) != 0
        stride = width // 2
        while stride > 0:
            pos = 2 * threads - (threads & (stride - 1))
            stages.append((pos, pos + stride, flag))
            stride //= 2
        width *= 2
    stride = size // 2
    while stride > 0:
        pos = 2 * threads - (threads & (stride - 1))
        stages.append((pos, pos + stride, numpy.zeros_like(threads, dtype=bool)))
        stride //= 2
    return stages


def bitonic_sort(rows: torch.Tensor, descending: bool) -> tuple[torch.Tensor, torch.Tensor]:
    """rows [..., n <= 32] sorted as SmallBitonicSort does (bitonicSortKVInPlace): padded to 32
    with invalid slots, bitonicSwap's `swap = (comp(kA, kB) && validA) || !validB`, exchanged
    where swap == dir, comp LTOp<K, true> (ascending) or GTOp<K, true> (descending), NaN the
    largest. Ties (-0.0 and +0.0, NaNs, equal values) end where the network puts them."""
    n = rows.shape[-1]
    lead = rows.shape[:-1]
    keys = torch.zeros(*lead, BITONIC_MAX, dtype=rows.dtype)
    keys[..., :n] = rows
    values = torch.arange(BITONIC_MAX).expand(*lead, BITONIC_MAX).clone()
    valid = (torch.arange(BITONIC_MAX) < n).expand(*lead, BITONIC_MAX).clone()
    for pos, other, flag in _bitonic_stages():
        a, b = torch.from_numpy(pos), torch.from_numpy(other)
        ka, kb = keys[..., a], keys[..., b]
        if keys.is_floating_point():
            na, nb = torch.isnan(ka), torch.isnan(kb)
            comp = (na & ~nb) | (ka > kb) if descending else (nb & ~na) | (ka < kb)
        else:
            comp = ka > kb if descending else ka < kb
        swap = (comp & valid[..., a]) | ~valid[..., b]
        exchange = swap == torch.from_numpy(flag)
        for t in (keys, values, valid):
            ta, tb = t[..., a], t[..., b]
            t[..., a] = torch.where(exchange, tb, ta)
            t[..., b] = torch.where(exchange, ta, tb)
    return keys[..., :n], values[..., :n]


def h_sort(func: Any, args: tuple, kwargs: dict) -> Any:
    """sort with stable unset or False as CUDA's sort_cuda_kernel runs it: a row of 2..32 through
    SmallBitonicSort's network (`bitonic_sort`: its tie order, not a draw), any other row stably
    (WarpMergeSort, the radix sorts), as the H200 returns 64 equal values as 0..63 (red team
    rt49: a shuffle of every row's ties told the CPU)."""
    x = args[0]
    if func._overloadname == "stable":
        if kwargs.get("stable", args[1] if len(args) > 1 else None):
            return NotImplemented
        dim = kwargs.get("dim", args[2] if len(args) > 2 else -1)
        descending = kwargs.get("descending", args[3] if len(args) > 3 else False)
    elif func._overloadname == "default":
        dim = kwargs.get("dim", args[1] if len(args) > 1 else -1)
        descending = kwargs.get("descending", args[2] if len(args) > 2 else False)
    else:
        return NotImplemented
    if x.dim() == 0 or x.numel() == 0:
        return NotImplemented
    dim = dim % x.dim()
    if x.shape[dim] > BITONIC_MAX or x.is_complex():
        return torch.sort(x, dim=dim, descending=bool(descending), stable=True)
    moved = x.movedim(dim, -1)
    _, idx = bitonic_sort(moved.detach(), bool(descending))
    return torch.gather(moved, -1, idx).movedim(-1, dim), idx.movedim(-1, dim)


def h_value_index(func: Any, args: tuple, kwargs: dict) -> Any:
    """kthvalue, median(dim), mode: the index of a tie as the H200 answers it: mode's last
    index, kthvalue's first (both measured), median's fixed by the row (`_shuffled`: its
    algorithm's choice is not modelled); the value unchanged."""
    x = args[0]
    if x.dim() == 0 or x.numel() == 0 or isinstance(x, torch.Tensor) and x.is_complex():
        return NotImplemented
    names = [a.name for a in func._schema.arguments]
    dim = kwargs.get("dim", args[names.index("dim")] if "dim" in names and len(args) > names.index("dim") else -1)
    dim = dim % x.dim()
    given = {**dict(zip(names, args)), **kwargs}
    call = [{"dim": -1, "keepdim": True}.get(a.name, given.get(a.name, a.default_value))
            for a in func._schema.arguments[1:]]
    name = func._schema.name.split("::")[-1]
    if name in ("mode", "kthvalue"):
        # the H200 answers the LAST index holding the mode and the FIRST holding the k-th value
        # (measured this session on rows of 8..129 with ties: .device rng probe, session 48)
        row = x.movedim(dim, -1)
        values, idx = func(row, *call)
        at = torch.arange(row.shape[-1]).expand(row.shape)
        eq = row == values
        pick = torch.where(eq, at, -1).amax(-1, keepdim=True) if name == "mode" else \
            torch.where(eq, at, row.shape[-1]).amin(-1, keepdim=True)
        idx = torch.where(eq.any(-1, keepdim=True), pick, idx)  # a NaN k-th value: the CPU's index
    else:
        shuffled, perm = _shuffled(x, dim, func._schema.name, given.get("k"))
        values, idx = func(shuffled, *call)
        idx = torch.gather(perm, -1, idx)
    if given.get("keepdim", False):
        return values.movedim(-1, dim), idx.movedim(-1, dim)
    return values.squeeze(-1), idx.squeeze(-1)
