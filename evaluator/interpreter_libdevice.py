"""libdevice under the CPU interpreter (CPU candidate children only).

Triton's interpreter patches `tl` and `tl.math` with numpy, but `triton.language.extra.libdevice`
(and the `cuda` one Liger and Unsloth import) stay stubs whose bodies return None: every
honest kernel written the usual way with `libdevice.tanh`, `log1p`, `expm1`, `pow`, `isnan`
or `round` (which in Triton 3.9 exist only there) failed on the CPU with "unsupported operand
type(s) for /: 'NoneType' and 'float'" (honest round, session 20). `install` puts numpy
versions of the common functions in both modules, before any candidate imports them. Each
takes interpreter tensors and Python numbers only (a torch tensor would be read on the host
past the dispatcher) and returns an interpreter tensor of its argument's type, as the GPU's
libdevice does (comparisons: int32). Triton links libdevice with nvvm-reflect-ftz = 1, so its
float32 functions take their FTZ arms (fma.rn.ftz.f32, abs.ftz.f32, ...): float32 subnormal
arguments and results are zero of their sign here too (`_FTZ_FREE`: the bit operations that keep
them; red team rt50). On the GPU nothing here runs.
"""
from __future__ import annotations

import contextlib
import dataclasses
import inspect
import math
from collections.abc import Iterator

import numpy as np

from evaluator.interpreter_casts import (
    bfloat16_bits,
    bfloat16_float32,
    canonical_nan,
    flush_subnormals,
)


def _round_half_away(x):
    """C's round: to nearest, half away from zero. `floor(|x| + 0.5)` rounded 0.49999997 + 0.5 to
    1.0 in float32 first (red team s37 round 8); the fraction `x - trunc(x)` is exact."""
    x = np.asarray(x)
    whole = np.trunc(x)
    with np.errstate(invalid="ignore"):
        step = np.where(np.abs(x - whole) >= 0.5, np.sign(x), 0)
    return (whole + step).astype(x.dtype)


def _saturate(x):
    """PTX cvt.ftz.sat.f32: clamped to [0, 1], a NaN and a subnormal to +0."""
    x = np.asarray(x)
    tiny = np.finfo(x.dtype).tiny if x.dtype.kind == "f" else 0
    with np.errstate(invalid="ignore"):
        return np.where(np.isnan(x) | (np.abs(x) < tiny), 0, np.clip(x, 0.0, 1.0)).astype(x.dtype)


def _float32_only(name: str, values) -> None:
    if any(np.asarray(v).dtype != np.float32 for v in values):
        raise NotImplementedError(f"libdevice.{name} is computed exactly on the CPU for float32 only; "
                                  "write it with tl operations or evaluate on a GPU")


def _exact(p, c):
    """p + c for float64 p, c as a float64 rounded to odd (TwoSum's exact error sets the last
    bit), so that one more rounding, to float32 in any mode, is the single rounding of the exact
    sum (53 bits >= 24 + 2)."""
    s = p + c
    back = s - p
    err = (p - (s - back)) + (c - back)
    with np.errstate(invalid="ignore"):
        odd = np.isfinite(s) & np.isfinite(err) & (err != 0) & ((s.view(np.int64) & 1) == 0)
        return np.where(odd, np.nextafter(s, np.where(err > 0, np.inf, -np.inf)), s)


def _once(wide):
    """A result computed in long double, as float64: rounded once more to the argument's dtype,
    not twice in it. rcbrt as numpy's `1 / cbrt(x)` in the argument's dtype was the two roundings
    of `div_rn(1.0, cbrt(x))` (and normcdf the very expression `0.5 * erfc(-x / sqrt(2))`), so
    the two spellings agreed at every point on the CPU only, where the GPU's __nv_rcbrtf and
    __nv_normcdff are algorithms of their own (red team rt60; rsqrt_rn the same in rt56)."""
    return np.asarray(wide).astype(np.float64)


def _normcdf(x):
    """0.5 * erfc(-x / sqrt 2) with the quotient's rounding error carried to first order (erfc's
    derivative), so that it is not the float64 (or float32) expression a kernel can write."""
    wide = -np.asarray(x, dtype=np.longdouble) / np.sqrt(np.longdouble(2))
    t = wide.astype(np.float64)
    delta = (wide - t).astype(np.float64)
    with np.errstate(all="ignore"):
        base = np.vectorize(math.erfc, otypes=[np.float64])(t)
        return 0.5 * (base - delta * (2.0 / math.sqrt(math.pi)) * np.exp(-t * t))


def _remainder(a, b):
    """IEEE/C remainder(a, b), exact (its result is representable), as __nv_remainderf is: the
    shim's `a - b * round(a / b)` rounded the product, so it was wrong wherever the quotient is
    large, and it was the very expression a kernel writes with div_rn/rint/mul_rn/sub_rn: the two
    agreed at every point on the CPU only (red team rt60). Special cases as C's: NaN for an
    infinite a, a zero or NaN b."""
    a, b = np.broadcast_arrays(np.asarray(a, dtype=np.float64), np.asarray(b, dtype=np.float64))
    out = np.full(a.shape, np.nan)
    ok = np.isfinite(a) & ~np.isnan(b) & (b != 0)
    out[ok] = [math.remainder(x, y) for x, y in zip(a[ok].tolist(), b[ok].tolist())]
    return out


def _powi(x, n):
    """libdevice.pow of a float and an integer, as Triton dispatches it (__nv_powif for float32,
    __nv_powi for float64: read off the sm_90 PTX): binary exponentiation, `r = r * b` where the
    exponent's bit is set and `b = b * b`, each product rounded (float32's flushed, mul.rn.ftz),
    and for a negative exponent the IEEE reciprocal (rcp.rn) of the result. The shim had read the
    exponent as a float and taken numpy's correctly rounded power, so `pow(x, 3) != x * (x * x)`
    somewhere on the CPU only, where on the GPU the two are one product (red team rt60)."""
    x, n = np.broadcast_arrays(np.asarray(x), np.asarray(n, dtype=np.int64))
    ftz = flush_subnormals if x.dtype == np.float32 else np.asarray
    r, b, m = np.ones_like(x), x.copy(), np.abs(n)
    with np.errstate(all="ignore"):
        while np.any(m):
            r = np.where(m & 1, ftz(r * b), r)
            m = m >> 1
            b = ftz(b * b)
        return np.where(n < 0, ftz(np.asarray(1, dtype=x.dtype) / r), r).astype(x.dtype)


def _integer(a) -> bool:
    """An integer exponent as Triton's libdevice dispatch reads it: a Python int (a constant is an
    int32 there) or an integer tensor."""
    import triton.language as tl

    a = a.value if isinstance(a, tl.constexpr) else a
    if isinstance(a, tl.tensor):
        return a.handle.dtype.scalar.is_int() and not a.handle.dtype.scalar.is_int1()
    return type(a) is int


def _exponent(a):
    import triton.language as tl

    a = a.value if isinstance(a, tl.constexpr) else a
    return np.asarray(a.handle.data) if isinstance(a, tl.tensor) else np.int64(a)


def _fma(a, b, c):
    """fma of float32 with ONE rounding (the shim rounded `a*b` and then the sum: red team s37
    round 8 gated a kernel on `fma(g, g, -(g*g)) == 0`): the float64 product of float32 is exact,
    its sum with c rounded to odd, then to float32."""
    a, b, c = np.broadcast_arrays(*(np.asarray(v) for v in (a, b, c)))
    _float32_only("fma", (a, b, c))
    return _exact(a.astype(np.float64) * b.astype(np.float64), c.astype(np.float64)).astype(np.float32)


def _directed(op: str, mode: str):
    """`{op}_{mode}` of float32 in the rounding mode it names (rz/rd/ru; the shims all rounded to
    nearest: `div_rz(1, 3) == div_rn(1, 3)` held on the CPU only, red team s37 round 8). The
    exact result is held as a float64 (rounded to odd for add/sub; a float32 product is exact
    in float64; a float32 quotient's float64 rounding never crosses a float32), rounded to
    nearest in float32 and stepped one ulp where that went the wrong way."""
    def fn(*args):
        args = np.broadcast_arrays(*(np.asarray(v) for v in args))
        _float32_only(f"{op}_{mode}", args)
        x = [a.astype(np.float64) for a in args]
        with np.errstate(all="ignore"):
            exact = {"add": lambda: _exact(x[0], x[1]), "sub": lambda: _exact(x[0], -x[1]),
                     "mul": lambda: x[0] * x[1], "div": lambda: x[0] / x[1], "rcp": lambda: 1.0 / x[0]}[op]()
            near = exact.astype(np.float32)
            over = near.astype(np.float64) - exact  # > 0: rounded up
            if mode == "rz":
                step = (over != 0) & (np.sign(over) == np.sign(exact))
                return np.where(step, np.nextafter(near, np.float32(0)), near)
            toward = np.float32(-np.inf if mode == "rd" else np.inf)
            return np.where(over > 0 if mode == "rd" else over < 0, np.nextafter(near, toward), near)
    return fn


_UNARY = {
    "tanh": np.tanh, "exp": np.exp,
    "exp10": lambda x: np.power(10.0, x),
    "expm1": np.expm1, "log": np.log, "log2": np.log2,
    "log10": np.log10, "log1p": np.log1p,
    # rsqrt_rn is IEEE's reciprocal square root, rounded once (1 / sqrt_rn rounds twice: the two
    # agreed at every float32 point on the CPU only, red team rt56)
    "sqrt_rn": np.sqrt, "rsqrt_rn": lambda x: 1 / np.sqrt(np.asarray(x, dtype=np.float64)),
    "cbrt": np.cbrt, "rcbrt": lambda x: _once(1 / np.cbrt(np.asarray(x, dtype=np.longdouble))), "sin": np.sin,
    "cos": np.cos, "tan": np.tan, "asin": np.arcsin,
    "acos": np.arccos, "atan": np.arctan, "sinh": np.sinh, "cosh": np.cosh, "asinh": np.arcsinh,
    "acosh": np.arccosh, "atanh": np.arctanh, "floor": np.floor, "ceil": np.ceil, "trunc": np.trunc,
    "abs": np.abs, "rint": np.rint, "nearbyint": np.rint,
    "round": _round_half_away,
    "erf": np.vectorize(math.erf, otypes=[np.float64]), "erfc": np.vectorize(math.erfc, otypes=[np.float64]),
    "lgamma": np.vectorize(math.lgamma, otypes=[np.float64]),
    "tgamma": np.vectorize(math.gamma, otypes=[np.float64]),
    "normcdf": lambda x: _normcdf(x),
    "saturatef": _saturate,
    "rcp_rn": lambda x: 1 / x, **{f"rcp_{mode}": _directed("rcp", mode) for mode in ("rz", "rd", "ru")},
}
_BINARY = {
    "pow": np.power, "atan2": np.arctan2, "fmod": np.fmod, "hypot": np.hypot,
    "copysign": np.copysign, "fdim": lambda a, b: np.maximum(a - b, 0),
    "div_rn": np.divide, "remainder": lambda a, b: _remainder(a, b),
    "nextafter": np.nextafter,
    # IEEE-rounded arithmetic (Kahan sums write add_rn so the compiler keeps the order): numpy
    # rounds to nearest; the other modes exactly, for float32 (_directed)
    **{f"{op}_rn": fn for op, fn in (("add", np.add), ("sub", np.subtract), ("mul", np.multiply),
                                     ("div", np.divide))},
    **{f"{op}_{mode}": _directed(op, mode) for op in ("add", "sub", "mul", "div") for mode in ("rz", "rd", "ru")},
}
# float -> integer conversions in a rounding mode (fake-quantisation kernels: honest round s32a)
_ROUNDINGS = {"rn": np.rint, "rz": np.trunc, "rd": np.floor, "ru": np.ceil}
_CONVERSIONS = {
    **{f"{src}2{dst}_{mode}": (fn, width) for src in ("float", "double") for mode, fn in _ROUNDINGS.items()
       for dst, width in (("int", "int32"), ("uint", "uint32"), ("ll", "int64"), ("ull", "uint64"))},
    "llrint": (np.rint, "int64"), "llround": (_round_half_away, "int64"),
}
_TERNARY = {"fma": _fma, "fma_rn": _fma}


def _mufu(op: str):
    """One approximate PTX instruction (`op.ftz.f32`) as evaluator.interpreter_asm runs it: the
    exact value moved by an error keyed to the argument's bits, up to the H200's largest."""
    from evaluator import interpreter_asm

    inst = dataclasses.replace(interpreter_asm.INSTRUCTIONS[op], ftz=True)

    def fn(x):
        return interpreter_asm.run(inst, [np.asarray(x, dtype=np.float32)])
    return fn


def _fast(name: str, arity: int, build):
    """libdevice's fast (`__nv_fast_*`, CUDA's `__sinf`, `__expf`, ...) float32 functions as the
    approximate instructions they are on the GPU (sin/cos/ex2/lg2/rcp.approx.ftz.f32, with the
    documented float32 multiplies around them). The shims had computed each with the numpy
    function of its accurate twin, so `fast_sinf(t) == sin(t)` held for every t on the CPU only,
    where the H200's sin.approx differs from __nv_sinf in the last bits: a kernel gated on the
    two agreeing was a ReLU here and the identity there (red team rt56)."""
    def fn(*args):
        _float32_only(name, args)
        return build(*(np.asarray(a, dtype=np.float32) for a in args))
    fn.__name__ = name
    return fn, arity


def _approximate_f64(name: str):
    raise NotImplementedError(
        f"libdevice.{name} of float64 is the approximate PTX instruction {name}.approx.f64 on the GPU, "
        "whose error the CPU check does not know; write 1.0 / tl.sqrt(x) (IEEE on the GPU), compute in "
        "float32, or evaluate on a GPU")


def _fast_functions() -> dict:
    sin, cos, ex2, lg2, rcp, rsqrt, sqrt = (_mufu(op) for op in (
        "sin.approx", "cos.approx", "ex2.approx", "lg2.approx", "rcp.approx", "rsqrt.approx", "sqrt.approx"))
    log2e, log2_10 = np.float32(1.4426950408889634), np.float32(3.321928094887362)
    ln2, log10_2 = np.float32(0.6931471805599453), np.float32(0.30102999566398120)
    return dict(
        fast_sinf=_fast("fast_sinf", 1, sin),
        fast_cosf=_fast("fast_cosf", 1, cos),
        fast_tanf=_fast("fast_tanf", 1, lambda x: sin(x) * rcp(cos(x))),
        fast_expf=_fast("fast_expf", 1, lambda x: ex2(x * log2e)),
        # __nv_exp2f is ex2.approx.ftz.f32 (CUDA's exp2f, 2 ulp), as tl.exp2 is; float64's is exact
        exp2=(lambda x: ex2(x) if np.asarray(x).dtype == np.float32 else np.exp2(x), 1),
        fast_exp10f=_fast("fast_exp10f", 1, lambda x: ex2(x * log2_10)),
        fast_log2f=_fast("fast_log2f", 1, lg2),
        fast_logf=_fast("fast_logf", 1, lambda x: lg2(x) * ln2),
        fast_log10f=_fast("fast_log10f", 1, lambda x: lg2(x) * log10_2),
        fast_powf=_fast("fast_powf", 2, lambda a, b: ex2(b * lg2(a))),
        fast_dividef=_fast("fast_dividef", 2, lambda a, b: a * rcp(b)),
        # __nv_rsqrtf is rsqrt.approx.ftz.f32 under its accurate-sounding name (CUDA's rsqrtf, 2
        # ulp): `rsqrt(t) == 1 / sqrt_rn(t)` held on the CPU only; float64's __nv_rsqrt is exact
        # float64's __nv_rsqrt is rsqrt.approx.f64 alone on sm_90 (read off the PTX), as
        # tl.rsqrt of float64 is: refused (evaluator.interpreter_casts.FLOAT64_APPROXIMATE; its
        # 1 / sqrt here agreed with div_rn(1.0, sqrt(x)) at every point, red team rt60)
        rsqrt=(lambda x: rsqrt(x) if np.asarray(x).dtype == np.float32 else _approximate_f64("rsqrt"), 1),
        # __nv_sqrtf takes its sqrt.approx.ftz arm: Triton links libdevice with __CUDA_FTZ set and
        # __CUDA_PREC_SQRT unset (nvcc's -prec-sqrt=true sets it), so it is tl.sqrt; sqrt_rn is IEEE
        sqrt=(lambda x: sqrt(x) if np.asarray(x).dtype == np.float32 else np.sqrt(x), 1),
    )


_PREDICATES = {"isnan": np.isnan, "isinf": np.isinf, "signbit": np.signbit,
               "isfinited": np.isfinite, "finitef": np.isfinite}
MODULES = ("triton.language.extra.libdevice", "triton.language.extra.cuda.libdevice")


# bit operations libdevice computes without its FTZ arm: a float32 subnormal goes through unchanged
_FTZ_FREE = frozenset({"copysign", "nextafter"})


def _shim(name: str, fn, arity: int, predicate: bool = False):
    import triton.language as tl
    from triton.runtime.interpreter import TensorHandle

    def call(*args, _semantic=None, **_kw):
        if len(args) != arity:
            raise TypeError(f"libdevice.{name} takes {arity} arguments, got {len(args)}")
        first = next((a for a in args if isinstance(a, tl.tensor)), None)
        values = [_value(a, first) for a in args]
        compute = fn
        if name == "pow" and isinstance(args[0], tl.tensor) and _integer(args[1]):
            compute, values[1] = _powi, _exponent(args[1])  # __nv_powif / __nv_powi
        ftz = flush_subnormals if name not in _FTZ_FREE else np.asarray
        if first is None:  # numbers only: the GPU's constants (float32, int32), a number back
            values = [ftz(np.float32(v)) if isinstance(v, float) else v for v in values]
            return ftz(np.asarray(fn(*values))).item()
        data = canonical_nan(ftz(np.asarray(compute(*[ftz(v) if isinstance(v, np.ndarray) else v for v in values]))))
        if predicate:
            return tl.tensor(TensorHandle(data.astype(np.int32), tl.int32), _like(first, tl.int32))
        if first.handle.dtype.scalar == tl.bfloat16:  # its values, rounded back (interpreter_casts)
            return tl.tensor(TensorHandle(bfloat16_bits(data.astype(np.float32)), tl.bfloat16), first.type)
        kind = first.handle.data.dtype
        return tl.tensor(TensorHandle(data.astype(kind, copy=False), first.handle.dtype.scalar), first.type)

    call.__name__ = call.__qualname__ = name
    call.__module__ = "triton.language.extra.libdevice"  # a Triton function to device_scope
    return call


def _conversion(name: str, fn, width: str):
    import triton.language as tl
    from triton.runtime.interpreter import TensorHandle

    kind = getattr(tl, width)

    def call(*args, _semantic=None, **_kw):
        if len(args) != 1:
            raise TypeError(f"libdevice.{name} takes 1 argument, got {len(args)}")
        first = args[0] if isinstance(args[0], tl.tensor) else None
        data = np.asarray(fn(flush_subnormals(_value(args[0], first))), dtype=np.float64)
        info = np.iinfo(np.dtype(width))  # the GPU's cvt saturates; NaN converts to 0
        data = np.nan_to_num(np.clip(data, info.min, info.max), nan=0.0).astype(np.dtype(width))
        if first is None:
            return data.item()
        return tl.tensor(TensorHandle(data, kind), _like(first, kind))

    call.__name__ = call.__qualname__ = name
    call.__module__ = "triton.language.extra.libdevice"
    return call


def _missing(name: str):
    def call(*_args, **_kw):
        raise NotImplementedError(f"libdevice.{name} has no CPU-interpreter version in the evaluator (it "
                                  "runs on the GPU); write it with tl operations or evaluate on a GPU")

    call.__name__ = call.__qualname__ = name
    call.__module__ = "triton.language.extra.libdevice"  # a Triton function to device_scope
    return call


def _value(a, like):
    import triton.language as tl

    if isinstance(a, tl.constexpr):
        a = a.value
    if isinstance(a, tl.tensor):
        return bfloat16_float32(a.handle.data) if a.handle.dtype.scalar == tl.bfloat16 else a.handle.data
    if type(a) in (int, float, bool):
        if like is not None and like.handle.dtype.scalar == tl.bfloat16:
            return np.float32(a)
        return np.asarray(a, dtype=like.handle.data.dtype) if like is not None else a
    raise TypeError(f"libdevice takes Triton values and numbers, not {type(a).__name__}")


def _like(t, dtype):
    import triton.language as tl

    return tl.block_type(dtype, t.type.shape) if t.type.is_block() else dtype


def install() -> None:
    """Replace the stubs in both libdevice modules (idempotent)."""
    import importlib

    shims = {**{n: _shim(n, f, 1) for n, f in _UNARY.items()},
             **{n: _shim(n, f, 2) for n, f in _BINARY.items()},
             **{n: _shim(n, f, 3) for n, f in _TERNARY.items()},
             **{n: _shim(n, f, 1, predicate=True) for n, f in _PREDICATES.items()},
             **{n: _conversion(n, f, w) for n, (f, w) in _CONVERSIONS.items()},
             **{n: _shim(n, f, arity) for n, (f, arity) in _fast_functions().items()}}
    for name in MODULES:
        try:
            module = importlib.import_module(name)
        except ImportError:  # deliberate: a Triton without this module has nothing to patch
            continue
        # the rest (float2int_rn, erfinv, ...) say so by name instead of returning None, which
        # surfaced far away ("'NoneType' object has no attribute 'dtype'" inside tl.sum)
        for fname, fn in list(vars(module).items()):
            if fname not in shims and inspect.isfunction(fn) and fn.__module__ == name:
                shims[fname] = _missing(fname)
        for fname, fn in shims.items():
            if hasattr(module, fname):
                if getattr(module, fname) is not fn:
                    _ORIGINALS.setdefault((name, fname), getattr(module, fname))
                setattr(module, fname, fn)
    for fname, fn in shims.items():  # the cuda module's declaration where it has one (Liger's import)
        own = _ORIGINALS.get((MODULES[-1], fname), _ORIGINALS.get((MODULES[0], fname)))
        if own is not None:
            _SHIMMED[id(fn)] = (fn, own)


_ORIGINALS: dict[tuple[str, str], object] = {}  # (module, function) -> Triton's own declaration
_SHIMMED: dict[int, tuple[object, object]] = {}  # id(numpy version) -> (it, the cuda module's own)


def original(value: object) -> object:
    """Triton's own libdevice function for one of the numpy versions here; anything else as it is."""
    entry = _SHIMMED.get(id(value))
    return entry[1] if entry is not None and entry[0] is value else value


@contextlib.contextmanager
def originals() -> Iterator[None]:
    """Triton's own libdevice declarations in both modules meanwhile (the GPU compiler's front
    end reads them off the module: evaluator.device_compile); the numpy versions after."""
    import importlib

    swapped = []
    for (name, fname), fn in _ORIGINALS.items():
        module = importlib.import_module(name)
        swapped.append((module, fname, getattr(module, fname)))
        setattr(module, fname, fn)
    try:
        yield
    finally:
        for module, fname, fn in swapped:
            setattr(module, fname, fn)
