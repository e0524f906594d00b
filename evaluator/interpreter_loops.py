"""A kernel's loop variable as the GPU compiler types it (CPU interpreter only).

On the GPU a `for k in tl.range(...)` (or plain `range(...)`) loop is an scf.for whose
induction variable is a scalar tensor: int32, or the wider integer type of its bounds
(`CodeGenerator.visit_For`: integer_promote_impl of lb, ub and step), so `k.to(tl.int64)`
and `k.dtype` work there. Triton's interpreter replaces tl.range with Python's range
(`_patch_lang`), whose ints have neither: an honest cumsum written `start = k.to(tl.int64)
* BLOCK` raised AttributeError on the CPU only (honest round, session 31). Here a kernel's
tl.range and range yield `LoopIndex` ints: plain ints to Python (indexing, comparisons,
arithmetic stay C-speed where no tensor is involved), with the scalar tensor's `dtype`,
`.to()` and other tensor methods, and arithmetic with ints keeping the class, so
`(k * BLOCK).to(tl.int64)` works as on the GPU. `tl.static_range` stays Python's range: its
variable is a constexpr on the GPU.
"""
from __future__ import annotations

import operator
import sys

import numpy as np

_CLASSES: dict = {}  # tl dtype -> its LoopIndex subclass
_constexpr: type = type(None)  # triton.language.constexpr, once installed
# the dry launch model's (evaluator.dry_launch): (range, the calling kernel's frame) -> the
# trips it runs; None outside that model
DRY_SHORTEN = None
_INT32_MIN, _INT32_END = -(2 ** 31), 2 ** 31


class LoopIndex(int):
    """A loop variable: an int, with the scalar tensor's dtype and methods (set per subclass)."""

    __slots__ = ()
    dtype = None  # the tl dtype of the induction variable (class attribute of each subclass)
    type = None
    _np = None

    def tensor(self):
        """The scalar tensor the GPU's loop variable is."""
        import triton.language as tl
        from triton.runtime.interpreter import TensorHandle

        # known to the dry model (evaluator.dry_taint): a loop it runs has a bound no load reaches
        handle = TensorHandle(np.array([int(self)], dtype=self._np), self.dtype, {"dry_data": False})
        return tl.tensor(handle, self.dtype)

    def to(self, dtype, *args, **kwargs):
        return self.tensor().to(dtype, *args, **kwargs)

    def __getattr__(self, name: str):
        if name.startswith("_"):  # numpy's and pickle's probes: an int's answer
            raise AttributeError(name)
        return getattr(self.tensor(), name)


# Python's and Triton's integer division differ where a sign does (floor against the GPU's
# truncation, arith.divsi/remsi), and Python's ints never wrap where the GPU's i32 does: an
# operation whose operands or result leave the range where the two agree is computed as the
# GPU computes it, through the interpreter's own scalar tensors (red team s36: `j // 2` at
# j = -1 and `j * 4` at j = 2**30 ran a ReLU on the CPU in a kernel the GPU compiles empty)
_SIGNED_OPS = ("__floordiv__", "__rfloordiv__", "__mod__", "__rmod__", "__rshift__", "__rrshift__",
               "__lshift__", "__rlshift__")


def _keeping(name: str):
    op = getattr(int, name)

    def method(self, other):
        if isinstance(other, _constexpr) and isinstance(other.value, (int, float)):
            other = other.value
        if isinstance(other, float):  # the GPU converts the i32 to f32 (sitofp) first
            return getattr(self.tensor(), name)(other)
        if not isinstance(other, int):  # a tensor: its own rules (int's NotImplemented hands it on)
            return op(self, other)
        cls = type(self)
        if isinstance(other, LoopIndex):
            if type(other) is not cls:
                cls = _wider(cls, type(other))
        elif not _INT32_MIN <= other < _INT32_END:  # the GPU makes a wider literal i64 (or unsigned)
            cls = _wider(cls, _literal_class(other))
        if name in _SIGNED_OPS and (self < 0 or other < 0):
            return _on_the_device(name, self, other)
        out = op(self, other)
        if out is NotImplemented:
            return out
        return cls(out) if cls._lo <= out < cls._hi else _on_the_device(name, self, other)

    method.__name__ = name
    return method


def _keeping_unary(name: str):
    op = getattr(int, name)

    def method(self):
        out = op(self)
        cls = type(self)
        return cls(out) if cls._lo <= out < cls._hi else _on_the_device(name, self)

    method.__name__ = name
    return method


def _comparing(name: str):
    op = getattr(int, name)

    def method(self, other):
        if isinstance(other, _constexpr) and isinstance(other.value, (int, float)):
            other = other.value
        if isinstance(other, float):  # f32 on the GPU (red team s36: `j > 0.5` was a Python bool)
            return getattr(self.tensor(), name)(other)
        if not isinstance(other, int):
            return op(self, other)
        # an i1 on the GPU, where the loop variable is dynamic: `and`/`or` then evaluate every
        # operand (`_device_logic` reads a LoopIndex as a Triton value), as the GPU does
        return index_class(_int1())(op(int(self), int(other)))

    method.__name__ = name
    return method


def _on_the_device(name: str, self, *other):
    """`self <name> other` as the GPU computes it: on the scalar tensors of the loop variable
    (and of a LoopIndex or int operand), with Triton's promotion, wrap and division."""
    lhs = self.tensor()
    rhs = [o.tensor() if isinstance(o, LoopIndex) else o for o in other]
    out = getattr(lhs, name)(*rhs)
    value = out.handle.data.reshape(-1)[0]
    return index_class(out.dtype)(int(value))


def _literal_class(value: int) -> type:
    """The class of an int literal the GPU's code generator makes a scalar of (to_tensor)."""
    import triton.language as tl

    for dtype in (tl.int32, tl.uint32, tl.int64, tl.uint64):
        cls = index_class(dtype)
        if cls._lo <= value < cls._hi:
            return cls
    raise ValueError(f"integer {value} is out of the GPU's range")


def _int1():
    import triton.language as tl

    return tl.int1


for _name in ("add", "sub", "mul", "floordiv", "mod", "lshift", "rshift", "and", "or", "xor"):
    setattr(LoopIndex, f"__{_name}__", _keeping(f"__{_name}__"))
    setattr(LoopIndex, f"__r{_name}__", _keeping(f"__r{_name}__"))
for _name in ("neg", "pos", "abs", "invert"):
    setattr(LoopIndex, f"__{_name}__", _keeping_unary(f"__{_name}__"))
def _dividing(name: str):
    op = getattr(int, name)

    def method(self, other):
        if isinstance(other, _constexpr):
            other = other.value
        if isinstance(other, (int, float)):  # the GPU's f32 division, never Python's float64
            return getattr(self.tensor(), name)(other.tensor() if isinstance(other, LoopIndex) else other)
        return op(self, other)

    method.__name__ = name
    return method


for _name in ("__truediv__", "__rtruediv__"):
    setattr(LoopIndex, _name, _dividing(_name))
for _name in ("lt", "le", "gt", "ge", "eq", "ne"):
    setattr(LoopIndex, f"__{_name}__", _comparing(f"__{_name}__"))
LoopIndex.__hash__ = int.__hash__


def index_class(dtype) -> type:
    """The LoopIndex subclass of a tl integer dtype."""
    cls = _CLASSES.get(dtype)
    if cls is None:
        from triton.runtime.interpreter import _get_np_dtype

        bits = dtype.int_bitwidth
        lo, hi = (-(1 << (bits - 1)), 1 << (bits - 1)) if dtype.is_int_signed() else (0, 1 << bits)
        cls = type(f"LoopIndex_{dtype.name}", (LoopIndex,),
                   {"__slots__": (), "dtype": dtype, "type": dtype, "_np": _get_np_dtype(dtype),
                    "_lo": lo, "_hi": hi})
        _CLASSES[dtype] = cls
    return cls


def _wider(a: type, b: type) -> type:
    from triton.runtime.interpreter import interpreter_semantic

    return index_class(interpreter_semantic.integer_promote_impl(a.dtype, b.dtype))


class LoopRange:
    """What a kernel's `tl.range(...)`/`range(...)` returns under the interpreter: Python's
    range of LoopIndex values."""

    __slots__ = ("_range", "_cls")

    def __init__(self, values: range, cls: type) -> None:
        self._range, self._cls = values, cls

    def __iter__(self):
        return map(self._cls, self._range)

    def __reversed__(self):
        return map(self._cls, reversed(self._range))

    def __len__(self) -> int:
        return len(self._range)

    def __getitem__(self, i):
        got = self._range[i]
        return LoopRange(got, self._cls) if isinstance(got, range) else self._cls(got)

    def __contains__(self, value) -> bool:
        return value in self._range


def _bound(value):
    """(int value, tl dtype or None for a Python int) of a loop bound."""
    import triton.language as tl

    if isinstance(value, tl.constexpr):
        value = value.value
    if isinstance(value, LoopIndex):
        return int(value), value.dtype
    if isinstance(value, tl.tensor):
        return operator.index(value), value.dtype
    return operator.index(value), None


def device_range(arg1, arg2=None, step=None, **_kwargs) -> LoopRange:
    """tl.range / range in a kernel body (num_stages, loop_unroll_factor and the other hints
    are the compiler's business)."""
    if step is None:
        step = 1
    if arg2 is None:
        arg1, arg2 = 0, arg1
    bounds = (_bound(arg1), _bound(arg2), _bound(step))
    import triton.language as tl

    dtype = tl.int32
    if any(d is not None and d != tl.int32 for _, d in bounds) or \
            any(d is None and not _INT32_MIN <= v < _INT32_END for v, d in bounds):
        from triton.runtime.interpreter import interpreter_semantic as sem

        types = [d if d is not None else sem.to_tensor_type(v) for v, d in bounds]
        dtype = sem.integer_promote_impl(sem.integer_promote_impl(types[0], types[1]), types[2])
        if not dtype.is_int() or dtype.is_bool():
            dtype = tl.int32
    from evaluator import interpreter_moved

    interpreter_moved.loop_entered()  # a load the compiler moves reads nothing stored since
    made = LoopRange(_gpu_range(bounds, dtype), index_class(dtype))
    return made if DRY_SHORTEN is None else DRY_SHORTEN(made, sys._getframe(1))


class KernelLoopError(RuntimeError):
    """A loop the GPU runs differently from Python's range: it never ends there."""


def _gpu_range(bounds: tuple, dtype) -> range:
    """The values an scf.for of `dtype` takes (`CodeGenerator.visit_For`): a constexpr step
    (a Python int here) keeps Python's meaning, a negative one included; otherwise the loop is
    `for (i = lb; i < ub; i += step)` on the dtype's bits compared signed, so a runtime step
    that is not positive runs no iteration or never ends, unsigned bounds past the signed
    range compare as negative, and a counter whose next value passes the dtype's maximum
    wraps and never ends (red team s36 round 6: each ran a ReLU on the CPU in a kernel that
    does nothing, or never returns, on the GPU)."""
    (lb, _), (ub, _), (step, step_type) = bounds
    bits = dtype.int_bitwidth
    signed_max = (1 << (bits - 1)) - 1

    def signed(value: int) -> int:
        value &= (1 << bits) - 1
        return value - (1 << bits) if value > signed_max else value

    if step_type is None and step < 0:
        return range(lb, ub, step)
    lb, ub, step = signed(lb), signed(ub), signed(step)
    if lb >= ub:
        return range(0)
    if step <= 0:
        raise KernelLoopError(f"a loop from {lb} to {ub} with a step of {step} computed at run time never "
                              "ends on the GPU (its counter only stops at the upper bound); make the step "
                              "positive, or a constexpr")
    values = range(lb, ub, step)
    if values[-1] + step > signed_max:
        raise KernelLoopError(f"this loop's {dtype.name} counter passes {signed_max} after {values[-1]} "
                              f"(step {step}) and wraps on the GPU, where the loop then never ends; "
                              "use a wider type for its bounds, or a bound the counter reaches")
    if dtype.is_int_unsigned():
        mask = (1 << bits) - 1
        return range(lb & mask, (lb & mask) + len(values) * step, step) if lb >= 0 else values
    return values


def install(interpreter) -> None:
    """tl.range (in every launch's patched triton.language) yields LoopIndex values; an
    assignment of one (`j = k`, which the interpreter's rewrite passes to to_tensor) keeps its
    dtype. Plain `range` is bound in interpreter_scope.device_scope."""
    global _constexpr
    if getattr(interpreter, "_krl_loop_index", False):
        return
    import triton.language as tl

    _constexpr = tl.constexpr

    patch_lang = interpreter._patch_lang
    from evaluator.interpreter_guard import _State as guard

    covered: set[int] = set()  # the languages the running launch's patches hold (ids)

    def _patch_lang(fn):
        langs = [lang for lang in (tl, tl.core) if any(value is lang for value in fn.__globals__.values())]
        if not guard.running:  # a launch begins: its own patch (restored when it ends)
            covered.clear()
        elif covered.issuperset(map(id, langs)):
            # a helper's call inside a running program: Triton patches the language again on
            # every device-function call (a scan of each module's members; a sixth of an
            # interpreted elementwise kernel's time), to the very patches the launch holds
            return interpreter._LangPatchScope()
        scope = patch_lang(fn)
        for lang in langs:  # where the interpreter put its range in place of tl.range
            scope.set_attr(lang, "range", device_range)
        covered.update(map(id, langs))
        return scope

    semantic = interpreter.interpreter_semantic
    to_tensor_type = semantic.to_tensor_type

    def typed(x):
        return x.dtype if isinstance(x, LoopIndex) else to_tensor_type(x)


    to_tensor = semantic.to_tensor

    def sanitized(x, check_type=True):
        # `t = (pid, 1)`, `a, b = pid, 1`: the GPU's assignment makes every element a tensor
        # (`_sanitize_target_value`); the interpreter's rewrite of an assignment left a tuple's
        # ints Python's (red team s36 round 6)
        if not check_type and isinstance(x, tuple):
            items = [sanitized(v, False) for v in x]
            return type(x)._make(items) if hasattr(type(x), "_make") else tuple(items)
        return to_tensor(x, check_type)

    comparison = interpreter._InterpreterComparison
    less = comparison.__lt__

    def chained(self, rhs):
        # `0 < k < f(...)`: a comparison of a loop variable is a scalar tensor on the GPU, whose
        # chain then evaluates every comparator (visit_Compare); Triton's chain short-circuits
        # on anything that is no tl.tensor, and the LoopIndex comparison is an int (red team s37
        # round 8: an atomic exchange in the chain ran on the GPU only)
        result = less(self, rhs)
        if isinstance(result.result, LoopIndex):
            result.tensor_results.append(result.result.tensor())
            result.result = result.tensor_results[-1]
        return result

    interpreter._patch_lang = _patch_lang
    semantic.to_tensor_type = typed
    semantic.to_tensor = sanitized
    comparison.__lt__ = chained
    interpreter._krl_loop_index = True
