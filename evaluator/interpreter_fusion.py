"""A float multiply feeding an add or subtract under the CPU interpreter as sm_90 code computes it:
contracted into one fused multiply-add, rounded once.

Triton compiles with FP fusion on (its default, `enable_fp_fusion`), so LLVM's NVPTX back end
contracts `fmul` then `fadd`/`fsub` in one basic block into `fma.rn` (NVPTX fuses aggressively:
whatever other uses the product has). `g * g - p` with `p = g * g` is then the exact rounding
error of the product on the GPU (read off the PTX for GPUTarget("cuda", 90, 32):
`fma.rn.f32 %r2, %r1, %r1, %r10`), and numpy's two roundings made it 0 everywhere: a ReLU
gated on it was honest on the CPU only, ok at reward 1.0 (red team rt76,
hacks/rt76_fp_contraction_product_error_switch_relu).

Which adds contract is read off the module the TTGIR passes leave, per launch specialization
and call site (`record`, from evaluator.device_ir): an `arith.addf`/`arith.subf` one of whose
operands is an `arith.mulf` result in the same block (the DAG combiner works one basic block at
a time; a product made before a loop or a branch and added inside it stays two roundings);
where both are, the first operand's is fused, as the combiner tries it first. Under the
interpreter every float32/float64/float16 product remembers its operands, and an add or
subtract at a recorded site computes the fused value from them. A site not recorded (a launch
the front end did not check, an unread location) keeps numpy's two roundings.
Not modelled (open): a product that reaches the add through ops the lowering makes no
instruction of (`tt.broadcast`, `tt.expand_dims`: LLVM sees the fmul itself and may fuse it),
the combiner's preference for the product with fewer uses where both operands are products,
and bfloat16 (its fma.rn.bf16).
"""
from __future__ import annotations

import numpy as np

# (specialization key, (file, line, column)s of an addf/subf) -> {the operand index whose
# product the sm_90 lowering fuses, or -1 for none} (`fused_operand`)
_FUSED: dict[tuple, set] = {}
_FLOATS = (np.dtype(np.float32), np.dtype(np.float64), np.dtype(np.float16))
_ADDS = ("arith.addf", "arith.subf")


def record(key: tuple, ops: list, kernel_site) -> None:
    """For each compiled add or subtract (`ops`: (op, {result id: mulf op}) as the walk found
    them, products defined before their users), which operand's product is fused, by call site."""
    for op, products in ops:
        try:
            block = op.get_block().id()
            fused = -1
            for i in range(2):
                product = products.get(op.get_operand(i).id())
                if product is not None and product.get_block().id() == block:
                    fused = i
                    break
            site = kernel_site(str(op.get_result(0).get_loc()))
        except Exception:  # noqa: BLE001  (not read: the add keeps two roundings)
            continue
        if site:
            _FUSED.setdefault((key, site), set()).add(fused)


def fused_operand(key: tuple | None, site: tuple) -> int:
    """The operand (0, 1) whose product the add compiled at `site` of launch `key` fuses, where
    every op recorded there agrees; else -1."""
    forms = _FUSED.get((key, site), set()) if key is not None else set()
    return next(iter(forms)) if len(forms) == 1 else -1


def _fma(a, b, c, dtype):
    from triton._C.libtriton import interpreter as _interpreter

    a, b, c = np.broadcast_arrays(np.asarray(a, dtype), np.asarray(b, dtype), np.asarray(c, dtype))
    if dtype == np.float32:
        return np.asarray(_interpreter.fma_fp32(a, b, c), dtype)
    if dtype == np.float64:
        return np.asarray(_interpreter.fma_fp64(a, b, c), dtype)
    with np.errstate(all="ignore"):  # float16: the float64 product is exact
        return (a.astype(np.float64) * b + c).astype(dtype)


def _site():
    """The running add's (file, line, column) chain, as Triton's locations give it: the binary
    operator's start in the innermost kernel frame, the helper calls' starts above it."""
    from evaluator import interpreter_spin

    frames = interpreter_spin._kernel_frames(interpreter_spin._DEEPEST)
    if not frames or len(frames) >= interpreter_spin._DEEPEST:
        return None
    code = frames[0].f_code
    try:
        line, _, column, _ = list(code.co_positions())[frames[0].f_lasti // 2]
    except (IndexError, ValueError):
        return None
    if line is None or column is None:
        return None
    outer = interpreter_spin.compiled_site(columns=True, frames=frames[1:]) if frames[1:] else ((), 0)
    if outer is None:
        return None
    return ((code.co_filename, line, column + 1), *outer[0])


def install(builder_type: type, interpreter) -> None:
    """Products remember their operands; an add or subtract at a fused site rounds once."""
    from evaluator import interpreter_races

    mul, add, sub = builder_type.create_fmul, builder_type.create_fadd, builder_type.create_fsub

    def create_fmul(self, lhs, rhs):
        out = mul(self, lhs, rhs)
        if np.asarray(out.data).dtype in _FLOATS and _FUSED:
            out.rt76_product = (lhs.data, rhs.data)
        return out

    def fused(self, lhs, rhs, sign: float, fallback):
        tagged = [getattr(h, "rt76_product", None) for h in (lhs, rhs)]
        if not any(t is not None for t in tagged):
            return fallback(self, lhs, rhs)
        try:
            site = _site()
            which = fused_operand(interpreter_races._Launch.compiled, site) if site else -1
        except Exception:  # noqa: BLE001  (no record: two roundings)
            which = -1
        if which < 0 or tagged[which] is None:
            return fallback(self, lhs, rhs)
        a, b = tagged[which]
        other = (rhs if which == 0 else lhs).data
        dtype = np.asarray(lhs.data).dtype

        def op(_l, _r):
            if which == 0:  # a*b + c, a*b - c
                return _fma(a, b, np.asarray(other, dtype) * dtype.type(sign), dtype)
            return _fma(np.asarray(a, dtype) * dtype.type(sign), b, other, dtype)  # c + a*b, c - a*b

        return self.binary_op(lhs, rhs, op)

    def create_fadd(self, lhs, rhs):
        return fused(self, lhs, rhs, 1.0, add)

    def create_fsub(self, lhs, rhs):
        return fused(self, lhs, rhs, -1.0, sub)

    builder_type.create_fmul, builder_type.create_fadd = create_fmul, create_fadd
    builder_type.create_fsub = create_fsub
