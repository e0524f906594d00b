"""The values CUDA's kernels compute for the torch ops evaluator.cuda_fidelity hands over, on a
CPU candidate child's device tensors: random fills with curand's grain and Box-Muller layout,
scans in the dtype and variance by Welford in float32, CUDA's orders of topk(sorted=False) and
of ties. Each `_h_*` takes (func, args, kwargs) as a dispatch mode does and answers the op, or
NotImplemented for the CPU kernel's own answer (cuda_fidelity's module doc says why)."""
from __future__ import annotations

import math
from typing import Any

import torch

from evaluator import device_answers

aten = torch.ops.aten

# -- RNG grain -------------------------------------------------------------------------------

_BLOCK = 256  # DistributionTemplates.h: block_size_bound
_POW32 = 2.0 ** -32


def _grid_stride(numel: int) -> int:
    """blockDim.x * gridDim.x of PyTorch's grid-stride distribution kernels on the H200
    (calc_execution_policy)."""
    props = device_answers.H200
    per_sm = int(props.get("max_threads_per_multi_processor", 2048)) // _BLOCK
    blocks = min(int(props.get("multi_processor_count", 132)) * per_sm, max(1, -(-numel // _BLOCK)))
    return _BLOCK * blocks


def _u32(n: int, generator: Any = None) -> torch.Tensor:
    """n uniform 32-bit draws (as int64), from the CPU generator (or the call's own)."""
    return torch.randint(0, 1 << 32, (n,), dtype=torch.int64, generator=_cpu_generator(generator))


def _cpu_generator(generator: Any) -> Any:
    return generator if isinstance(generator, torch.Generator) and generator.device.type == "cpu" else None


def _curand_uniform(u: torch.Tensor) -> torch.Tensor:
    """curand_uniform's float in (0, 1]: float(u) * 2^-32 + 2^-33, in float32."""
    return u.to(torch.float32) * _POW32 + (_POW32 / 2)


def _curand_uniform_double(n: int, generator: Any) -> torch.Tensor:
    """curand_uniform2_double's doubles: a 53-bit z, z * 2^-53 + 2^-54."""
    z = torch.randint(0, 1 << 53, (n,), dtype=torch.int64, generator=_cpu_generator(generator))
    return z.to(torch.float64) * 2.0 ** -53 + 2.0 ** -54


def _uniforms(n: int, dtype: torch.dtype, generator: Any) -> torch.Tensor:
    """The uniform draws uniform_and_transform hands its transform: float32 (accscalar) for
    every dtype but double."""
    if dtype == torch.float64:
        return _curand_uniform_double(n, generator)
    return _curand_uniform(_u32(n, generator))


def _fma32(a: torch.Tensor, b: Any, c: Any) -> torch.Tensor:
    """fmaf(a, b, c) for float32 a (b, c float32 values): one rounding (through double)."""
    return (a.double() * float(b) + float(c)).to(torch.float32)


def _normals(n: int, dtype: torch.dtype, generator: Any) -> torch.Tensor:
    """curand_normal4 (curand_normal2_double for double) draws laid out as the grid-stride
    kernel writes them: each thread's draw covers lanes idx + ii * stride, and each Box-Muller
    pair is two lanes of one draw."""
    stride = _grid_stride(n)
    lanes = 2 if dtype == torch.float64 else 4
    rounds = max(1, -(-n // (lanes * stride)))
    if dtype == torch.float64:
        u = _curand_uniform_double(rounds * stride, generator).view(rounds, 1, stride)
        v = _curand_uniform_double(rounds * stride, generator).view(rounds, 1, stride) * 2.0 - 2.0 ** -53
        s = torch.sqrt(-2.0 * torch.log(u))
        pair = torch.cat([torch.sin(math.pi * v) * s, torch.cos(math.pi * v) * s], dim=1)
        return pair.reshape(-1)[:n]
    x = _u32(rounds * 4 * stride, generator).view(rounds, 2, 2, stride)  # (round, pair, lane, thread)
    u = _curand_uniform(x[:, :, 0])
    c = torch.tensor(_POW32, dtype=torch.float32) * torch.tensor(2 * math.pi, dtype=torch.float32)
    v = _fma32(x[:, :, 1].to(torch.float32), c, c / 2)
    s = torch.sqrt(-2.0 * torch.log(u))
    pair = torch.stack([torch.sin(v) * s, torch.cos(v) * s], dim=2)  # result.x = sin, result.y = cos
    return pair.reshape(-1)[:n]


def _generator_of(args: tuple, kwargs: dict, at: int) -> Any:
    return kwargs.get("generator", args[at] if len(args) > at else None)


def _fill(out: torch.Tensor, values: torch.Tensor) -> torch.Tensor:
    with torch.no_grad():
        out.copy_(values.view(out.shape) if out.is_contiguous() else values.reshape(out.shape))
    return out


def _uniform_into(out: torch.Tensor, low: float, high: float, generator: Any) -> torch.Tensor:
    if not out.is_floating_point() or out.numel() == 0:
        return NotImplemented
    dtype = out.dtype
    if dtype == torch.float64:
        rand = _curand_uniform_double(out.numel(), generator)
        frm, to = float(low), float(high)
        value = rand * (to - frm) + frm
    else:
        rand = _curand_uniform(_u32(out.numel(), generator))
        frm = torch.tensor(low, dtype=dtype)
        to = torch.tensor(high, dtype=dtype)
        span = (to - frm).float()
        value = _fma32(rand, span, frm.float()).to(dtype)
        frm, to = frm.item(), to.item()
    value = torch.where(value == to, torch.tensor(frm, dtype=value.dtype), value)  # (0, 1] to [0, 1)
    return _fill(out, value)


def _normal_into(out: torch.Tensor, mean: float, std: float, generator: Any) -> torch.Tensor:
    if not out.is_floating_point() or out.numel() == 0:
        return NotImplemented
    rand = _normals(out.numel(), out.dtype, generator)
    if out.dtype == torch.float64:
        return _fill(out, rand * float(std) + float(mean))
    return _fill(out, _fma32(rand, float(torch.tensor(std, dtype=torch.float32)),
                             float(torch.tensor(mean, dtype=torch.float32))).to(out.dtype))


def h_uniform_(func: Any, args: tuple, kwargs: dict) -> Any:
    low = kwargs.get("from", args[1] if len(args) > 1 else 0.0)
    high = kwargs.get("to", args[2] if len(args) > 2 else 1.0)
    return _uniform_into(args[0], low, high, _generator_of(args, kwargs, 3))


def h_normal_(func: Any, args: tuple, kwargs: dict) -> Any:
    mean = kwargs.get("mean", args[1] if len(args) > 1 else 0.0)
    std = kwargs.get("std", args[2] if len(args) > 2 else 1.0)
    return _normal_into(args[0], mean, std, _generator_of(args, kwargs, 3))


def _factory_generator(func: Any, args: tuple, kwargs: dict) -> Any:
    return kwargs.get("generator", args[1] if func._overloadname.startswith("generator") and len(args) > 1 else None)


def h_rand(func: Any, args: tuple, kwargs: dict) -> Any:
    out = func(*args, **kwargs)
    r = _uniform_into(out, 0.0, 1.0, _factory_generator(func, args, kwargs))
    return out if r is NotImplemented else r


def h_randn(func: Any, args: tuple, kwargs: dict) -> Any:
    out = func(*args, **kwargs)
    r = _normal_into(out, 0.0, 1.0, _factory_generator(func, args, kwargs))
    return out if r is NotImplemented else r


def h_normal(func: Any, args: tuple, kwargs: dict) -> Any:
    """normal(mean, std, ...) in its four forms: draw, then scale and shift as
    DistributionTemplates.h's normal_out_impl does (one op each)."""
    out = func(*args, **kwargs)
    if not out.is_floating_point() or out.numel() == 0:
        return out
    overload = func._overloadname
    mean = kwargs.get("mean", args[0] if args else 0.0)
    std = kwargs.get("std", args[1] if len(args) > 1 else 1.0)
    gen = kwargs.get("generator")
    if overload in ("float_float", "float_float_out"):
        return _normal_into(out, mean, std, gen)
    if overload == "Tensor_float":
        _normal_into(out, 0.0, std, gen)
        return out.add_(mean)
    _normal_into(out, 0.0, 1.0, gen)
    return out.mul_(std).add_(mean)


def _bernoulli_into(out: torch.Tensor, p: Any, generator: Any) -> Any:
    """uniform_and_transform's `rand < p` (a float p) or bernoulli_tensor_cuda_kernel's
    `rand <= p` (a tensor p): the draw in float32, in double for double."""
    if out.numel() == 0 or out.is_complex():
        return NotImplemented
    acc = torch.float64 if out.dtype == torch.float64 else torch.float32
    rand = _uniforms(out.numel(), out.dtype, generator).view(out.shape)
    if isinstance(p, torch.Tensor):
        prob = p.to(torch.float64 if p.dtype == torch.float64 else acc)
        hit = rand.to(prob.dtype) <= prob.expand(out.shape)
    else:
        hit = rand < torch.tensor(float(p), dtype=acc)
    return _fill(out, hit.to(out.dtype))


def h_bernoulli_(func: Any, args: tuple, kwargs: dict) -> Any:
    p = kwargs.get("p", args[1] if len(args) > 1 else 0.5)
    return _bernoulli_into(args[0], p, _generator_of(args, kwargs, 2))


def h_bernoulli(func: Any, args: tuple, kwargs: dict) -> Any:
    out = func(*args, **kwargs)
    if func._overloadname == "p":
        p = kwargs.get("p", args[1] if len(args) > 1 else 0.5)
    else:
        p = args[0]
    r = _bernoulli_into(out, p, kwargs.get("generator", args[2] if len(args) > 2 else None))
    return out if r is NotImplemented else r


def h_exponential_(func: Any, args: tuple, kwargs: dict) -> Any:
    out = args[0]
    if not out.is_floating_point() or out.numel() == 0:
        return NotImplemented
    lambd = float(kwargs.get("lambd", args[1] if len(args) > 1 else 1.0))
    rand = _uniforms(out.numel(), out.dtype, _generator_of(args, kwargs, 2))
    eps = torch.finfo(out.dtype).eps / 2
    log = torch.where(rand >= 1.0 - eps, torch.tensor(-eps, dtype=rand.dtype), torch.log(rand))
    return _fill(out, ((-1.0 / lambd) * log).to(out.dtype))


# -- reductions and scans --------------------------------------------------------------------

_FLOATS = (torch.float32, torch.float16, torch.bfloat16)


def h_scan(combine: Any) -> Any:
    """cumsum/cumprod of a float32/half/bfloat16 device tensor computed in the dtype, as CUDA's
    scan_dim does (its std::plus<scalar_t> rounds every step): along the last dimension by
    scan_innermost_dim's chunks of 32 (Sklansky within a chunk, the running total added to its
    first element), along any other by scan_outer_dim's running sum, one step at a time."""
    def handler(func: Any, args: tuple, kwargs: dict) -> Any:
        x = args[0]
        dim = kwargs.get("dim", args[1] if len(args) > 1 else 0)
        dtype = kwargs.get("dtype", args[2] if len(args) > 2 else None)
        src = x if dtype is None else x.to(dtype)
        if src.dtype not in _FLOATS or src.dim() == 0 or src.numel() == 0:
            return NotImplemented
        dim = dim % src.dim()
        if src.numel() == src.shape[dim]:
            out = _scan_single(src.reshape(-1), combine).view(src.shape)
        elif dim == src.dim() - 1:
            out = _scan_innermost(src, combine)
        else:
            moved = src.movedim(dim, -1)
            acc = moved[..., 0].clone()
            cols = [acc.clone()]
            for i in range(1, moved.shape[-1]):
                acc = combine(acc, moved[..., i])
                cols.append(acc.clone())
            out = torch.stack(cols, dim=-1).movedim(-1, dim)
        return out.contiguous()
    return handler


_ITEMS = 12  # items per thread of cub's scan tile (an assumption: CCCL's sm90 tuning not read)


def _scan_single(x: torch.Tensor, combine: Any) -> torch.Tensor:
    """A single row's scan as cub's DeviceScan does it (scan_dim hands a 1-D scan to cub):
    each thread's items combined one at a time onto the prefix of the threads before it
    (ThreadScanInclusive), the threads' aggregates scanned in a tree (Kogge-Stone)."""
    n = x.numel()
    groups = -(-n // _ITEMS)
    identity = 0 if combine is torch.add else 1
    buf = torch.cat([x, torch.full((groups * _ITEMS - n,), identity, dtype=x.dtype)]).view(groups, _ITEMS)
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


def _scan_innermost(x: torch.Tensor, combine: Any) -> torch.Tensor:
    rows, n = x.numel() // x.shape[-1], x.shape[-1]
    flat = x.reshape(rows, n)
    width = 32
    chunks = -(-n // width)
    identity = 0 if combine is torch.add else 1
    pad = torch.full((rows, chunks * width - n), identity, dtype=x.dtype)
    buf = torch.cat([flat, pad], dim=1).view(rows, chunks, width)
    out = torch.empty_like(buf)
    total = None
    for c in range(chunks):
        b = buf[:, c].clone()
        if total is not None:
            b[:, 0] = combine(b[:, 0], total)
        s = 1
        while s <= width // 2:
            idx = torch.arange(width // 2)
            a = (idx // s) * (2 * s) + s
            ti, si = a + idx % s, a - 1
            b[:, ti] = combine(b[:, ti], b[:, si])
            s <<= 1
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


def h_sort(func: Any, args: tuple, kwargs: dict) -> Any:
    """sort with stable unset or False: ties in an order fixed by the row (`_shuffled`: CUDA's
    bitonic and segmented sorts leave it to the algorithm), values and their sorted order
    unchanged."""
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
    shuffled, perm = _shuffled(x, dim, "sort", bool(descending))
    values, idx = torch.sort(shuffled, dim=-1, descending=descending, stable=True)
    return values.movedim(-1, dim), torch.gather(perm, -1, idx).movedim(-1, dim)


def h_value_index(func: Any, args: tuple, kwargs: dict) -> Any:
    """kthvalue, median(dim), mode: the index of a tie fixed by the row (`_shuffled`; value
    unchanged)."""
    x = args[0]
    if x.dim() == 0 or x.numel() == 0 or isinstance(x, torch.Tensor) and x.is_complex():
        return NotImplemented
    names = [a.name for a in func._schema.arguments]
    dim = kwargs.get("dim", args[names.index("dim")] if "dim" in names and len(args) > names.index("dim") else -1)
    dim = dim % x.dim()
    given = {**dict(zip(names, args)), **kwargs}
    shuffled, perm = _shuffled(x, dim, func._schema.name, given.get("k"))
    call = [{"dim": -1, "keepdim": True}.get(a.name, given.get(a.name, a.default_value))
            for a in func._schema.arguments[1:]]
    values, idx = func(shuffled, *call)
    idx = torch.gather(perm, -1, idx)
    if given.get("keepdim", False):
        return values.movedim(-1, dim), idx.movedim(-1, dim)
    return values.squeeze(-1), idx.squeeze(-1)
