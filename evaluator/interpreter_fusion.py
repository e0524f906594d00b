"""A float multiply feeding an add or subtract under the CPU interpreter as sm_90 code computes it:
contracted into one fused multiply-add, rounded once.

Triton compiles with FP fusion on (its default, `enable_fp_fusion`), so LLVM's NVPTX back end
contracts `fmul` then `fadd`/`fsub` in one basic block into `fma.rn` (NVPTX fuses aggressively:
whatever other uses the product has). `g * g - p` with `p = g * g` is then the exact rounding
error of the product on the GPU (read off the PTX for GPUTarget("cuda", 90, 32):
`fma.rn.f32 %r2, %r1, %r1, %r10`), and numpy's two roundings made it 0 everywhere: a ReLU
gated on it was honest on the CPU only, ok at reward 1.0 (red team rt76,
hacks/rt76_fp_contraction_product_error_switch_relu).

Which adds contract is read off the module the TTGIR passes leave, per launch specialization,
call site, operand and the product's own call site (`record`, from evaluator.device_ir): an
`arith.addf`/`arith.subf` one of whose operands is an `arith.mulf` result in the same block,
or an expand_dims/broadcast of one (the DAG combiner works one basic block at a time; a
product made before a loop and added inside it stays two roundings, mul.f32 and sub.f32 in the
PTX); where both are, the first operand's is fused, as the combiner tries it first. A select
is no product (`tl.where(c, g * g, 0.25) - p` fuses p: `fma.rn(-g, g, select(!c, 0.25, p))`).
Under the interpreter every float32/float64/float16/bfloat16 product remembers its operands
and its call site, through views, and an add or subtract computes the fused value where the
record says so; a product operand with no record at the add's site fuses too (the add was
merged by CSE into one the GPU fused, or a layout conversion the lowering does in registers
stands between). A launch the front end did not check keeps numpy's two roundings.
Not modelled (open, red team rt76): LLVM's own moves, which the TTGIR does not show: an `if`
whose cheap arm SimplifyCFG speculates into a select, fusing a product made above it (fma.rn
in the PTX at BLOCK=1024); a `ttg.convert_layout` through shared memory between a product
and its add, which the GPU cannot fuse and the interpreter does (not built: no such file
found); the combiner's preference for the product with fewer uses where both operands are
products. A noinline helper is its own function on the GPU (a real call): a product made on
one side of its call and added on the other is never fused (red team rt78: `_sub(g * g, p)`
with `_sub` noinline was 0 on the GPU, the product's error on the CPU: a ReLU gated on it ok
on the CPU only, hacks/rt78_fp_contraction_sub_in_noinline_helper_switch_relu); its own
products and adds carry its lines only (no record: fused). Half
products round once to their type (fma.rn.f16, fma.rn.bf16). Reading the decisions off the PTX itself (its `.loc` lines) would close these at the cost
of LLVM's O3 per specialization.
"""
from __future__ import annotations

import numpy as np

# (specialization key, (file, line, column)s of an addf/subf, operand index, the product's
# (file, line, column)s) -> {whether the sm_90 lowering fuses that operand's product}; and the
# same by (key, add's site, operand index) alone (`fused_operand`). An add's site is where its
# expression starts, which `a * b - p + c * d` shares between two adds: the product's own site
# tells them apart, and where the TTGIR's CSE has made one product of two (`p = g * g; g * g -
# p`), the operand index alone does
_FUSED: dict[tuple, set] = {}
_BY_INDEX: dict[tuple, set] = {}

# the code objects of the interpreter's rewritten noinline @triton.jit functions (`install`)
_NOINLINE: set = set()

_FLOATS = (np.dtype(np.float32), np.dtype(np.float64), np.dtype(np.float16))
_ADDS = ("arith.addf", "arith.subf")
_VIEWS = ("tt.expand_dims", "tt.broadcast")
PRODUCT_OPS = ("arith.mulf", *_VIEWS)


def product_like(op, name: str, products: dict) -> None:
    """Note `op`'s result in `products` (result id -> (its block, the product's location))
    where it is a product the lowering leaves an fmul under: an `arith.mulf`, or an
    `tt.expand_dims` or `tt.broadcast` of one (no instruction of its own: the fsub of
    `(g * 1.5)[:, None] - p[None, :]` is fma.rn in the PTX), each in the product's block. A
    select is no product: the DAG combiner fuses the other operand's (`tl.where(c, g * g, 0.25)
    - p` is `fma.rn(-g, g, select(!c, 0.25, p))` on sm_90)."""
    try:
        block = op.get_block().id()
        result = op.get_result(0).id()
        if name == "arith.mulf":
            products[result] = (block, str(op.get_result(0).get_loc()))
        elif name in _VIEWS:
            found = products.get(op.get_operand(0).id())
            if found is not None and found[0] == block:
                products[result] = found
    except Exception:  # noqa: BLE001  (not noted: no add fuses it)
        return


def record(key: tuple, ops: list, kernel_site) -> None:
    """For each compiled add or subtract (`ops`: (op, products) as the walk found them,
    products noted by `product_like` before their users), whether each operand's product is
    fused (the first operand's in the add's block; else the second's), by the add's call site,
    the operand and the product's call site."""
    for op, products in ops:
        try:
            block = op.get_block().id()
            found = [products.get(op.get_operand(i).id()) for i in range(2)]
            fused = next((i for i in range(2) if found[i] is not None and found[i][0] == block), -1)
            site = kernel_site(str(op.get_result(0).get_loc()))
            made = [kernel_site(f[1]) if f is not None else None for f in found]
        except Exception:  # noqa: BLE001  (not read: the add keeps two roundings)
            continue
        if not site:
            continue
        for i in range(2):
            if found[i] is not None and made[i]:
                _FUSED.setdefault((key, site, i, made[i]), set()).add(i == fused)
                _BY_INDEX.setdefault((key, site, i), set()).add(i == fused)


def fused_operand(key: tuple | None, site: tuple, made: list) -> int:
    """The operand (0, 1) whose product the add compiled at `site` of launch `key` fuses,
    `made` the interpreted operands' products' sites (None: no product), as LLVM picks it: the
    first product operand whose record (by its product's site, else by its index alone) says
    fused. One with no record at all is fused: no compiled add had a product there, because
    the TTGIR's CSE merged this add into an equal one elsewhere (`e1 = g * g - p` kept, then
    `e = g * g - p`: one subf, at e1's line, which the GPU fused and uses for both), or a
    `ttg.convert_layout` stands between (the lowering does most in registers, and LLVM then
    fuses through it). -1 where a record is split, or none is fused, or the launch was not
    compiled."""
    if key is None:
        return -1
    for i in range(2):
        if made[i] is None:
            continue
        forms = _FUSED.get((key, site, i, made[i]))
        if forms is None or len(forms) != 1:
            forms = _BY_INDEX.get((key, site, i), forms)
        if forms is None:
            return i
        if len(forms) != 1:
            return -1
        if True in forms:
            return i
    return -1


def _fma(a, b, c, dtype):
    _interpreter = _FMA[0] if _FMA else _fma_module()
    a, b, c = np.asarray(a, dtype), np.asarray(b, dtype), np.asarray(c, dtype)
    if not a.shape == b.shape == c.shape:  # a per-element combine's are all () (nothing to broadcast)
        a, b, c = np.broadcast_arrays(a, b, c)
    if dtype == np.float32:
        return np.asarray(_interpreter.fma_fp32(a, b, c), dtype)
    if dtype == np.float64:
        return np.asarray(_interpreter.fma_fp64(a, b, c), dtype)
    with np.errstate(all="ignore"):  # float16: the float64 product is exact
        return (a.astype(np.float64) * b + c).astype(dtype)


_FMA: list = []  # Triton's interpreter module (its fma_fp32 / fma_fp64), imported once


def _fma_module():
    """Imported on the first fused add, not on each: an add runs per element in a per-element
    scan combine (interpreter_reduce `_each`)."""
    from triton._C.libtriton import interpreter

    _FMA.append(interpreter)
    return interpreter


def _site():
    """The running add's (file, line, column) chain, as Triton's locations give it: the binary
    operator's start in the innermost kernel frame, the helper calls' starts above it."""
    from evaluator import interpreter_spin

    frames = interpreter_spin._kernel_frames(interpreter_spin._DEEPEST)
    if not frames or len(frames) >= interpreter_spin._DEEPEST:
        return None
    code = frames[0].f_code
    positions = interpreter_spin._POSITIONS.get(code)
    if positions is None:  # once per code object (interpreter_spin's cache)
        positions = interpreter_spin._POSITIONS[code] = list(code.co_positions())
    try:
        line, _, column, _ = positions[frames[0].f_lasti // 2]
    except (IndexError, ValueError):
        return None
    if line is None or column is None:
        return None
    outer = interpreter_spin.compiled_site(columns=True, frames=frames[1:]) if frames[1:] else ((), 0)
    if outer is None:
        return None
    return ((code.co_filename, line, column + 1), *outer[0])


def _call_scope():
    """The innermost running noinline helper's frame (None: the kernel's own function, with its
    inlined helpers): LLVM contracts within one function, and a noinline call is a real one."""
    from evaluator import interpreter_spin

    if not _NOINLINE:
        return None
    frames = interpreter_spin._kernel_frames(interpreter_spin._DEEPEST)
    return next((f for f in frames if f.f_code in _NOINLINE), None)


class _Product:
    """What an interpreted product remembers: its operands (viewed as the product is); a
    bfloat16 product's as their float32 values (the interpreter holds bfloat16 as bits); the
    noinline call it was made in (`_call_scope`)."""

    def __init__(self, a, b, site, bf16: bool = False, scope=None):
        self.a, self.b, self.site, self.bf16, self.scope = a, b, site, bf16, scope

    def viewed(self, view) -> _Product:
        return _Product(view(self.a), view(self.b), self.site, self.bf16, self.scope)


def _note_noinline(interpreter) -> None:
    """Record the rewritten code of every noinline @triton.jit function the interpreter runs
    (its InterpretedFunction keeps triton.jit's keywords; idempotent)."""
    cls = interpreter.InterpretedFunction
    rewrite = cls.rewrite
    if getattr(rewrite, "_krl_noinline", False):
        return

    def noted(self):
        fn = rewrite(self)
        if getattr(self, "kwargs", {}).get("noinline"):
            _NOINLINE.add(fn.__code__)
        return fn

    noted._krl_noinline = True  # type: ignore[attr-defined]
    cls.rewrite = noted


def _bf16_fused(product: _Product, other, which: int, sign: float) -> np.ndarray:
    """fma.rn.bf16: the float64 value (a bfloat16 product is exact there) rounded once to
    bfloat16's 8 significant bits, nearest even, as float32 (which the caller's rounding to
    bfloat16 then keeps as it is)."""
    a, b, c = (np.asarray(v, dtype=np.float64) for v in (product.a, product.b, other))
    with np.errstate(all="ignore"):
        exact = a * b + sign * c if which == 0 else c + sign * (a * b)
        mantissa, exponent = np.frexp(exact)
        rounded = np.ldexp(np.round(mantissa * 256.0) / 256.0, exponent)
        rounded = np.where(np.isfinite(exact), rounded, exact)
    return rounded.astype(np.float32)


def _fused_values(product: _Product, other, which: int, sign: float, dtype):
    """`product op other` (op: + or -, `which`: the product's side) with one rounding."""
    other = np.asarray(other, dtype)
    if which == 0:  # a*b + c, a*b - c
        return _fma(product.a, product.b, other * dtype.type(sign), dtype)
    return _fma(np.asarray(product.a, dtype) * dtype.type(sign), product.b, other, dtype)  # c + a*b, c - a*b


def install(builder_type: type, interpreter) -> None:
    """Products remember their operands through views; an add or subtract at a fused site
    rounds once."""
    from evaluator import interpreter_races
    from evaluator.interpreter_casts import _is_bf16, bfloat16_float32

    _note_noinline(interpreter)
    mul, add, sub = builder_type.create_fmul, builder_type.create_fadd, builder_type.create_fsub
    expand, broadcast = builder_type.create_expand_dims, builder_type.create_broadcast

    def create_fmul(self, lhs, rhs):
        out = mul(self, lhs, rhs)
        if not _FUSED:
            return out
        bf16 = _is_bf16(out.dtype)
        if not bf16 and np.asarray(out.data).dtype not in _FLOATS:
            return out
        try:
            site = _site()
        except Exception:  # noqa: BLE001  (no site: no add fuses it)
            site = None
        if site:
            scope = _call_scope()
            if bf16:
                out.rt76_product = _Product(bfloat16_float32(lhs.data), bfloat16_float32(rhs.data), site, True, scope)
            else:
                out.rt76_product = _Product(lhs.data, rhs.data, site, scope=scope)
        return out

    def create_expand_dims(self, arg, axis):
        out = expand(self, arg, axis)
        product = getattr(arg, "rt76_product", None)
        if product is not None:
            out.rt76_product = product.viewed(lambda d: np.expand_dims(d, axis))
        return out

    def create_broadcast(self, arg, shape):
        out = broadcast(self, arg, shape)
        product = getattr(arg, "rt76_product", None)
        if product is not None:
            out.rt76_product = product.viewed(lambda d: np.broadcast_to(d, shape))
        return out

    def fused(self, lhs, rhs, sign: float, fallback):
        tagged = [getattr(h, "rt76_product", None) for h in (lhs, rhs)]
        if not any(t is not None for t in tagged):
            return fallback(self, lhs, rhs)
        try:
            scope = _call_scope()  # a product from across a noinline call is a call's value
            tagged = [t if t is not None and t.scope is scope else None for t in tagged]
            if not any(t is not None for t in tagged):
                return fallback(self, lhs, rhs)
            site = _site()
            made = [t.site if t is not None else None for t in tagged]
            which = fused_operand(interpreter_races._Launch.compiled, site, made) if site else -1
        except Exception:  # noqa: BLE001  (no record: two roundings)
            which = -1
        if which < 0 or tagged[which] is None:
            return fallback(self, lhs, rhs)
        product, other = tagged[which], (rhs if which == 0 else lhs).data
        if product.bf16:
            other = bfloat16_float32(other)
            return self.binary_op(lhs, rhs, lambda _l, _r: _bf16_fused(product, other, which, sign))
        dtype = np.asarray(lhs.data).dtype
        return self.binary_op(lhs, rhs, lambda _l, _r: _fused_values(product, other, which, sign, dtype))

    def create_fadd(self, lhs, rhs):
        return fused(self, lhs, rhs, 1.0, add)

    def create_fsub(self, lhs, rhs):
        return fused(self, lhs, rhs, -1.0, sub)

    builder_type.create_fmul, builder_type.create_fadd = create_fmul, create_fadd
    builder_type.create_fsub = create_fsub
    builder_type.create_expand_dims, builder_type.create_broadcast = create_expand_dims, create_broadcast
