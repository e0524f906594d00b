"""Which lanes of a dry launch's values the loaded data decides (evaluator.dry_launch): a mask
per handle, carried through the interpreter's builder while a kernel whose loaded values reach
its store masks or addresses (dry_facts `unmasked`) runs in the dry launch model.

The model's loads return zeros (or `other`), never the GPU's values, so a store lane whose mask
or address a loaded value reaches is not known there. Until session 66 such a kernel was either
stored maskless everywhere (a loaded value in the mask: an upper bound) or not run at all (one in
the address: nothing stored). Both bounded the lanes too generously for a capped grid: a mask
`(pid < 4096) | (x != x)` made every lane stored at the declared sizes, though on the GPU only the
first 4096 programs store (red team s65h, ok at 1.0041), and a store address plus a loaded zero
left the capped kernel unrun at both sizes, so nothing was whole anywhere (red team s65e, ok at
1.000001). Per lane, a value is `data` where some loaded value reaches it: each builder op's
result is data where any operand is, but for an `and` (`or`) of booleans, which is known where
either known operand is False (True), and a `select`, which takes the data of the side its known
condition picks; a load is data but where its known mask is False (its `other` then); an atomic's
result, a reduction or scan over data, and a handle the builder did not make are data throughout.
dry_memory then keeps the lanes a store makes for certain apart from those it may make.
"""
from __future__ import annotations

import contextlib

import numpy as np

KEY = "dry_data"  # the TensorHandle attribute: False, True, or a bool array over its data

# ops re-run on the operands' data masks: their lanes move (a per-lane mask broadcast as it is)
_SHAPED = ("create_expand_dims", "create_broadcast", "create_trans", "create_reshape", "create_cat",
           "create_join", "create_split", "create_permute", "create_unsplat")


def of(handle, shape: tuple | None = None) -> np.ndarray:
    """`handle`'s data mask as a bool array of `shape` (its data's by default); a handle the
    builder did not make is data throughout."""
    shape = np.shape(handle.data) if shape is None else shape
    mask = getattr(handle, "attr", {}).get(KEY, True)
    if mask is True or mask is False:
        return np.full(shape, mask, dtype=bool)
    try:
        return np.broadcast_to(mask, shape)
    except ValueError:
        return np.ones(shape, dtype=bool)


def set_(handle, mask) -> None:
    """Give `handle` its data mask (False where none of it is data: a cheap common case)."""
    if isinstance(mask, np.ndarray) and not mask.any():
        mask = False
    handle.attr[KEY] = mask


def clean(value) -> None:
    """Mark a kernel argument's handle (or a tl.tensor's) known: the launch's own arguments."""
    handle = getattr(value, "handle", value)
    if hasattr(handle, "attr"):
        handle.attr[KEY] = False


def _known(args: tuple, TensorHandle) -> bool:  # noqa: N803  (the class, passed: no import per op)
    """Whether every operand is a handle nothing loaded reaches, or no handle (the fast path)."""
    for a in args:
        if type(a) is TensorHandle:
            if a.attr.get(KEY, True) is not False:
                return False
        elif type(a) in (list, tuple) and any(isinstance(x, TensorHandle) for x in a):
            return False
    return True


def _handles(args: tuple) -> list:
    from triton.runtime.interpreter import TensorHandle

    out = []
    for a in args:
        if type(a) is TensorHandle:
            out.append(a)
        elif isinstance(a, (list, tuple)):
            out += [x for x in a if isinstance(x, TensorHandle)]
    return out


def _generic(ins: list, out) -> object:
    """Data where any operand is (broadcast to `out`'s lanes)."""
    masks = [m for m in (h.attr.get(KEY, True) for h in ins) if m is not False]
    if not masks:
        return False
    if any(m is True for m in masks):
        return True
    shape = np.shape(out.data)
    try:
        mask = masks[0] if len(masks) == 1 else np.logical_or.reduce(np.broadcast_arrays(*masks))
        return np.broadcast_to(mask, shape)
    except ValueError:
        return True


def _logic(name: str, lhs, rhs, out) -> object:
    """An `and` or `or`, known where a known operand decides its value: for `and` a 0, or an
    operand with bit 0 clear beside a boolean; for `or` all ones, or one with bit 0 set beside a
    boolean (`pid < 16` may come in as the int32 1 beside `x != x`)."""
    shape = np.shape(out.data)
    a, b = of(lhs, shape), of(rhs, shape)
    if not (a.any() or b.any()):
        return False
    if not all(np.issubdtype(h.data.dtype, np.integer) or h.data.dtype == np.bool_ for h in (lhs, rhs, out)):
        return a | b
    x, y = (np.broadcast_to(h.data, shape).astype(np.int64) for h in (lhs, rhs))
    x_bit, y_bit = lhs.data.dtype == np.bool_, rhs.data.dtype == np.bool_
    if name == "create_and":
        x_decides = (x == 0) | (((x & 1) == 0) & y_bit)
        y_decides = (y == 0) | (((y & 1) == 0) & x_bit)
    else:
        ones = -1 if not (x_bit and y_bit) else 1
        x_decides = (x == ones) | (((x & 1) == 1) & y_bit)
        y_decides = (y == ones) | (((y & 1) == 1) & x_bit)
    return (a | b) & ~((~a & x_decides) | (~b & y_decides))


def _select(cond, lhs, rhs, out) -> object:
    shape = np.shape(out.data)
    c, a, b = of(cond, shape), of(lhs, shape), of(rhs, shape)
    if not (c.any() or a.any() or b.any()):
        return False
    pick = np.broadcast_to(cond.data, shape).astype(bool)
    return c | np.where(pick, a, b)


def _shaped(op, args: tuple, kwargs: dict):
    """The op run again on its operands' data masks (as int1 handles)."""
    import triton.language as tl
    from triton.runtime.interpreter import TensorHandle

    def swap(a):
        if isinstance(a, TensorHandle):
            return TensorHandle(of(a).copy(), tl.int1)
        if isinstance(a, (list, tuple)):
            return type(a)(swap(x) for x in a)
        return a
    made = op(*(swap(a) for a in args), **kwargs)
    if isinstance(made, (list, tuple)):
        return [np.asarray(m.data, dtype=bool) for m in made]
    return np.asarray(made.data, dtype=bool)


def _wrapped(name: str, op):
    from triton.runtime.interpreter import TensorHandle

    special = name in ("create_and", "create_or", "create_select") or name in _SHAPED

    def run(*args, **kwargs):
        out = op(*args, **kwargs)
        if type(out) is TensorHandle:
            if KEY in out.attr:  # an op it called marked it already (create_load's load)
                return out
            if not special and not kwargs and _known(args, TensorHandle):
                out.attr[KEY] = False  # the common case: nothing loaded reaches it
                return out
            ins = _handles(args + tuple(kwargs.values()))
        elif not (isinstance(out, (list, tuple)) and any(type(o) is TensorHandle for o in out)):
            return out
        else:
            ins = _handles(args + tuple(kwargs.values()))
        _mark(name, op, out, ins, args, kwargs)
        return out
    return run


def _mark(name: str, op, out, ins: list, args: tuple, kwargs: dict) -> None:
    """Give `out` (one handle or several) its data mask by the op's rule."""
    from triton.runtime.interpreter import TensorHandle

    outs = out if isinstance(out, (list, tuple)) else (out,)
    if name in ("create_and", "create_or") and len(ins) == 2:
        masks = [_logic(name, ins[0], ins[1], out)]
    elif name == "create_select" and len(ins) == 3:
        masks = [_select(ins[0], ins[1], ins[2], out)]
    elif name in _SHAPED and any(h.attr.get(KEY, True) is not False for h in ins):
        try:
            made = _shaped(op, args, kwargs)
            masks = made if isinstance(made, list) else [made]
        except Exception:  # noqa: BLE001  (data throughout, as an op it does not know)
            masks = [True] * len(outs)
    else:
        masks = [_generic(ins, o) if isinstance(o, TensorHandle) else False for o in outs]
    for o, m in zip(outs, masks):
        if isinstance(o, TensorHandle):
            set_(o, m)


@contextlib.contextmanager
def carried(builder, skip: tuple):
    """Every `create_*` / `get_*` op of the builder (but `skip`: the dry run's memory ops, which
    set their own) gives its result a data mask; a reduction or scan over data is data."""
    from triton.runtime import interpreter as ti

    names = [n for n in dir(builder) if n.startswith(("create_", "get_")) and n not in skip
             and callable(getattr(builder, n, None))]
    saved = {n: builder.__dict__[n] for n in names if n in builder.__dict__}
    for n in names:
        setattr(builder, n, _wrapped(n, getattr(builder, n)))
    folds = [(cls, cls.apply) for cls in (ti.ReduceOps, ti.ScanOps)]
    for cls, apply in folds:
        cls.apply = _folded(apply)
    try:
        yield
    finally:
        for cls, apply in folds:
            cls.apply = apply
        for n in names:
            if n in saved:
                setattr(builder, n, saved[n])
            else:
                builder.__dict__.pop(n, None)


def _folded(apply):
    """A reduction's or scan's results: data throughout where any lane folded in is."""
    def run(self, input):
        out = apply(self, input)
        ins = input if isinstance(input, tuple) else (input,)
        data = any(getattr(getattr(t, "handle", None), "attr", {}).get(KEY, True) is not False for t in ins)
        for t in out if isinstance(out, tuple) else (out,):
            handle = getattr(t, "handle", None)
            if hasattr(handle, "attr"):
                handle.attr[KEY] = True if data else False
        return out
    return run
