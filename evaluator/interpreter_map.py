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
the CPU's order. Installed by evaluator.interpreter_guard."""
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
        outs, dtypes = _run(interpreter, fn, flats, scalar_types, pack, 0)
        if pack > 1 and size > pack:
            shifted, _ = _run(interpreter, fn, flats, scalar_types, pack, 1)
            if any(not np.array_equal(a, b, equal_nan=True) for a, b in zip(outs, shifted)):
                raise MapElementwiseError(
                    f"a tl.map_elementwise function (pack={pack}) whose results depend on which elements "
                    "share a call: the GPU's register layout groups them, which the CPU check cannot "
                    "know; compute each result from its own elements")
        results = []
        for data, dtype in zip(outs, dtypes):
            handle = interpreter.TensorHandle(data.reshape(shape) if block else data.reshape(1), dtype)
            results.append(tl.tensor(handle, tl.block_type(dtype, list(shape)) if block else dtype))
        return results[0] if len(results) == 1 else tuple(results)

    return map_elementwise


def _run(interpreter, fn, flats, scalar_types, pack: int, shift: int):
    """Call fn on each group of `pack` consecutive elements (the flat order rotated by `shift`);
    the results as flat arrays in element order, and their Triton dtypes."""
    tl = interpreter.tl
    size = flats[0].size if flats else 1
    order = np.roll(np.arange(size), -shift)
    outs: list[np.ndarray] | None = None
    dtypes: list = []
    for start in range(0, size, pack):
        where = order[start:start + pack]
        call = [tl.tensor(interpreter.TensorHandle(flat[i:i + 1].copy(), ty), ty)
                for flat, ty in zip(flats, scalar_types) for i in where]
        got = fn(*call)
        got = list(got) if isinstance(got, tuple) else [got]
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
    return outs or [], dtypes
