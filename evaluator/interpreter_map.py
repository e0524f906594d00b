"""`tl.map_elementwise` under the CPU interpreter.

Triton 3.5+ (the H200 image's 3.6 included) maps a @triton.jit scalar function over a block:
`tl.map_elementwise(fn, *args, pack=1)` broadcasts its arguments, calls `fn` on `pack` elements
of each at a time (the arguments in order, each argument's `pack` elements together) and
gathers its one or several results; the function may branch with a plain Python `if`, which
is the point (Triton's own documentation writes ELU/SELU so). The GPU builds it as a region
(`builder.new_block`), which Triton's InterpreterBuilder has no method for: honest code the
H200 runs raised AttributeError on the CPU (honest round s56d, honest/s56d_09_*).

Here the function runs element by element on scalar tensors, as the interpreter already runs
a `tl.reduce` combine function (ReduceOps: `combine_fn.fn` on one-element tensors), so every
op inside it goes through the guarded builder (bounds, casts, approximate instructions) as
any other kernel op. Which elements share a call when `pack > 1` is the compiled layout's
choice (consecutive registers of one thread); the CPU groups consecutive elements in row-major
order and runs the map a second time grouped one element further on: a result that differs
between the two groupings depends on which elements share a call, which the GPU's layout
decides and the CPU cannot know, and is refused (MapElementwiseError) rather than answered in
the CPU's order.

Speed (`_vectorised`, pack 1): one interpreted call per element costs about 0.25 ms, which timed
a mapped smooth L1 out at its CPU sizes (honest/s56d_17). So the function first runs on all
elements at once, each argument an array typed as the scalar it stands for (so the function
sees the GPU's types), and the first branch or index read of a value that is not the same on
all of them (`if d < beta`) stops the run and splits the elements by that value, each part
rerun from the start; a part ends when its run returns. Each element so takes the path it
takes alone, and the results are the per-element ones. The run must be pure for reruns to be
safe and must not mix elements: a memory op (load, store, atomic, descriptor), a print,
assert, barrier or inline asm, a block built in it (tl.arange, a splat: a block op would mix
the elements the run stands for), a result that is not one value per element, a NaN branch
value, or any error falls back to the element-by-element run, which answers (or raises) as
before. Installed by evaluator.interpreter_guard."""
from __future__ import annotations

import numpy as np


class MapElementwiseError(ValueError):
    """A tl.map_elementwise the CPU cannot answer as the GPU would."""


def install(interpreter) -> None:
    """Add tl.map_elementwise to the names the interpreter patches at each launch (idempotent)."""
    patch = interpreter._patch_reduce_scan
    if getattr(patch, "_krl_map", False):
        return
    tl = interpreter.tl

    def patched(scope):
        patch(scope)
        mapped = _mapper(interpreter)
        scope.set_attr(tl, "map_elementwise", mapped)
        scope.set_attr(tl.core, "map_elementwise", mapped)

    patched._krl_map = True  # type: ignore[attr-defined]
    interpreter._patch_reduce_scan = patched


def _mapper(interpreter):
    tl = interpreter.tl

    def map_elementwise(scalar_fn, *args, pack=1, **_):
        pack = int(getattr(pack, "value", pack))
        if pack < 1:
            raise MapElementwiseError(f"pack must be >= 1, got {pack}")
        args = [a if isinstance(a, tl.tensor) else interpreter._implicit_cvt(a) for a in args]
        shape = np.broadcast_shapes(*(np.shape(a.handle.data) if a.type.is_block() else () for a in args))
        block = any(a.type.is_block() for a in args)
        flats = [np.broadcast_to(a.handle.data.reshape(np.shape(a.handle.data) if a.type.is_block() else ()),
                                 shape).reshape(-1) for a in args]
        size = flats[0].size if flats else 1
        if size % pack:
            raise MapElementwiseError(f"tl.map_elementwise with pack={pack} over {size} elements: the count "
                                      "must be a multiple of pack")
        fn = getattr(scalar_fn, "fn", scalar_fn)
        scalar_types = [a.type.scalar for a in args]
        found = _vectorised(interpreter, fn, flats, scalar_types) if pack == 1 else None
        outs, dtypes, single = found if found is not None else _run(interpreter, fn, flats, scalar_types, pack, 0)
        if pack > 1 and size > pack:
            shifted, _, _ = _run(interpreter, fn, flats, scalar_types, pack, 1)
            if any(not np.array_equal(a, b, equal_nan=True) for a, b in zip(outs, shifted)):
                raise MapElementwiseError(
                    f"a tl.map_elementwise function (pack={pack}) whose results depend on which elements "
                    "share a call: the GPU's register layout groups them, which the CPU check cannot "
                    "know; compute each result from its own elements")
        results = []
        for data, dtype in zip(outs, dtypes):
            handle = interpreter.TensorHandle(data.reshape(shape) if block else data.reshape(1), dtype)
            results.append(tl.tensor(handle, tl.block_type(dtype, list(shape)) if block else dtype))
        # one tensor where the function returns one (a tuple of one where it returns several: pack > 1)
        return results[0] if single else tuple(results)

    return map_elementwise


def _run(interpreter, fn, flats, scalar_types, pack: int, shift: int):
    """Call fn on each group of `pack` consecutive elements (the flat order rotated by `shift`);
    the results as flat arrays in element order, their Triton dtypes, and whether fn returns one
    value (not a tuple)."""
    tl = interpreter.tl
    single = True
    size = flats[0].size if flats else 1
    order = np.roll(np.arange(size), -shift)
    outs: list[np.ndarray] | None = None
    dtypes: list = []
    for start in range(0, size, pack):
        where = order[start:start + pack]
        call = [tl.tensor(interpreter.TensorHandle(flat[i:i + 1].copy(), ty), ty)
                for flat, ty in zip(flats, scalar_types) for i in where]
        got = fn(*call)
        single = not isinstance(got, tuple)
        got = [got] if single else list(got)
        got = [g if isinstance(g, tl.tensor) else interpreter._implicit_cvt(g) for g in got]
        if len(got) % pack:
            raise MapElementwiseError(f"a tl.map_elementwise function (pack={pack}) returned {len(got)} values")
        if outs is None:
            dtypes = [g.type.scalar for g in got[::pack]]
            outs = [np.empty(size, dtype=g.handle.data.dtype) for g in got[::pack]]
        for k, out in enumerate(outs):
            for j, i in enumerate(where):
                value = got[k * pack + j]
                if value.type.scalar != dtypes[k]:
                    raise MapElementwiseError("a tl.map_elementwise function returns different types on "
                                              f"different elements ({value.type.scalar} and {dtypes[k]})")
                out[i] = value.handle.data.reshape(-1)[0]
    return outs or [], dtypes, single


class _Split(Exception):
    """A branch or index read of a value that differs between the elements of a vectorised run."""

    def __init__(self, values: np.ndarray) -> None:
        super().__init__("split")
        self.values = values


# what a vectorised run may not build: side effects (a rerun part would repeat them), and a block
# (tl.arange, a splat to a shape: an op over a block would mix the elements the run stands for)
_IMPURE = ("load", "store", "atomic", "descriptor", "print", "assert", "barrier", "gather", "scatter",
           "histogram", "asm", "make_range", "splat")


def _refuse(*_args, **_kwargs):
    raise RuntimeError("a memory or side-effecting op in a vectorised map")


def _vectorised(interpreter, fn, flats, scalar_types):
    """fn over all elements at once, split by the values its branches read (see the module
    doc); None where the run cannot be made so (the caller runs element by element)."""
    tl = interpreter.tl
    builder = interpreter.interpreter_builder
    size = flats[0].size if flats else 1
    impure = [n for n in dir(type(builder)) if n.startswith("create_") and any(w in n for w in _IMPURE)]
    impure = [n for n in impure if n not in vars(builder)]
    saved = {name: vars(tl.tensor).get(name) for name in ("__bool__", "__index__")}

    def uniform(self):
        data = np.asarray(self.handle.data).reshape(-1)
        if data.size > 1 and not (data == data[0]).all():
            raise _Split(data)
        return data[0]

    tl.tensor.__bool__ = lambda self: bool(uniform(self))
    tl.tensor.__index__ = lambda self: int(uniform(self))
    for name in impure:
        setattr(builder, name, _refuse)
    try:
        return _split_runs(interpreter, fn, flats, scalar_types, size)
    except Exception:  # noqa: BLE001  (any trouble: the element-by-element run answers or raises)
        return None
    finally:
        for name in impure:
            delattr(builder, name)
        for name, member in saved.items():
            if member is None:
                delattr(tl.tensor, name)
            else:
                setattr(tl.tensor, name, member)


def _split_runs(interpreter, fn, flats, scalar_types, size: int):
    tl = interpreter.tl
    outs: list[np.ndarray] | None = None
    dtypes: list = []
    single = True
    done = 0
    parts = [np.arange(size)]
    while parts:
        idx = parts.pop()
        call = [tl.tensor(interpreter.TensorHandle(flat[idx].copy(), ty), ty) for flat, ty in zip(flats, scalar_types)]
        try:
            got = fn(*call)
        except _Split as split:
            values = split.values
            if values.size != idx.size or values.dtype.kind == "f" and np.isnan(values).any():
                return None  # not one value per element, or a NaN no key equals
            keys = np.unique(values)
            if keys.size < 2:
                return None
            parts.extend(idx[values == key] for key in keys)
            continue
        single = not isinstance(got, tuple)
        got = [got] if single else list(got)
        got = [g if isinstance(g, tl.tensor) else interpreter._implicit_cvt(g) for g in got]
        if any(g.type.is_block() or np.asarray(g.handle.data).size not in (1, idx.size) for g in got):
            return None
        if outs is None:
            dtypes = [g.type.scalar for g in got]
            outs = [np.empty(size, dtype=np.asarray(g.handle.data).dtype) for g in got]
        if [g.type.scalar for g in got] != dtypes:
            return None
        for out, g in zip(outs, got):
            out[idx] = np.broadcast_to(np.asarray(g.handle.data).reshape(-1), idx.shape)
        done += idx.size
    return (outs, dtypes, single) if outs is not None and done == size else None
