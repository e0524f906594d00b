"""Under the CPU interpreter, `tl.inline_asm_elementwise` of one PTX float instruction.

Triton's interpreter raises NotImplementedError on any inline assembly, so an honest kernel
that takes the GPU's fast tanh (`tanh.approx.f32 $0, $1;`, a common GELU and softcap idiom)
failed on the CPU only. The GPU's compiler has already accepted the assembly by the time the
interpreter runs it (evaluator.device_lowering assembles every kernel that holds inline asm
with ptxas), so only valid PTX gets here; what it computes is read off the instruction.

The instructions run here are PTX's f32 arithmetic of one result (INSTRUCTIONS), one element
per instance (`pack=1`), on float32 operands, with `$0` the result and `$1..` the arguments
in order. The `.approx` ones are not exact on the GPU: each result here is the exact value
moved up or down by an error drawn per argument in [0, the instruction's largest error on an
H200] (INSTRUCTIONS: the measured maximum where recorded, the PTX bound otherwise), so a kernel
passes here only if it passes with errors up to the GPU's worst, and the error's size, like
the GPU's, varies between arguments (the whole bound at every element told the CPU by
`min |err| >= 1.25e-5` for tanh.approx: red team rt49).

The direction's rule (`_direction`, evaluator.keyed_draw): the GPU's instruction is a fixed
function of its argument's bits, so the error's direction and size are too, drawn from (the candidate child's
secret, the instruction without .ftz, the float32 bits of the argument after .ftz's flush): equal
arguments give equal results at every call and every call site, in every kernel of the child,
and another child draws other directions (red team rt48: 128 equal tanh.approx arguments came
back as two values, per-element draws, where the H200 gives one). What the GPU's error looks
like between arguments is not known here, so each child also draws (per instruction) how far
one direction holds (over runs of 2^0 to 2^16 consecutive float32 bit patterns: a run's results
move alike and stay monotone where the function is) and, for an odd or even function (tanh,
sin, rcp; cos), whether the error keeps its symmetry (f(-x) == -f(x), or f(x)): a kernel that
branches on either property takes its wrong arm on the CPU in some children.
Any other assembly (several instructions, packed halves, integer or bit tricks, a register
the GPU reads) is refused with a clear error naming what runs: the CPU cannot know what it
computes. On the GPU nothing here runs.
"""
from __future__ import annotations

import dataclasses
import re
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from evaluator import keyed_draw


class KernelAsmNotEmulated(NotImplementedError):
    """Inline assembly the CPU check cannot run."""


@dataclass(frozen=True)
class Instruction:
    arity: int
    compute: Callable[..., np.ndarray]  # float64 operands -> float64 result
    relative: float = 0.0  # the maximum error: |err| <= relative * |y| + absolute
    absolute: float = 0.0
    # the function's range: a result is kept inside it, and one whose float32 value is an end
    # of it is exact (tanh.approx gives exactly +-1 where tanh rounds there: an H200's GELU of
    # a large negative input is exactly 0, where 1 - 1.00002 made it -0.008, incorrect)
    ends: tuple[float, float] | None = None
    # the argument range the error holds in (PTX: sin/cos.approx over [-100pi, 100pi]); an
    # argument outside it is refused, its GPU result unknown here
    within: float | None = None
    ftz: bool = False
    name: str = ""  # INSTRUCTIONS' key (the direction's draw is keyed by it)
    # the largest error measured on an H200, as a fraction of the bound above (1: none recorded,
    # the PTX bound used): each result's error is drawn in [0, measured] of the bound
    symmetry: int = 0  # 1: odd (f(-x) == -f(x)), 2: even (f(-x) == f(x)), 0: neither
    measured: float = 1.0
    # the arguments whose result the instruction gives exactly beside results that are powers of
    # two (`run`): sin of a zero, which the absolute part of its error moved off 0 in every
    # child (red team rt60; the H200 agreed in session 54), and cos of a zero (1, measured in
    # session 55, where the per-argument `_ends` draw would have moved it)
    exact_at: Callable[..., np.ndarray] | None = None
    # which of the special answers above were reasoned, not measured, for this instruction
    # (`unmeasured`): each is a per-child coin (keyed_draw.coin) between the exact answer and
    # the keyed error as at any other argument, so a kernel gated on it takes its wrong arm in
    # some children, whichever arm the GPU takes (red team rt72: cos.approx of |t| <= 1e-4 and
    # sin.approx at pi/2 +- 6e-5 were exactly 1 in every child by `ends`, measured on tanh only,
    # and a relu gated on it was ok at reward 1.0 on the CPU). "ends": the `ends` rule; "tiny":
    # an argument whose exact result rounds to the argument itself (tanh and sin near 0, where
    # the GPU's hardware may well answer the argument, the model moved it by its error).
    # Measured since (session 55, sm_90): "ends" of sin/cos.approx is answered by argument
    # (`_ends`: a draw per argument, not per child); tiny tanh/sin below 6.4e-8 are `measured_at`
    unmeasured: frozenset[str] = frozenset()
    # a result that is exactly a float32 power of two is exact (`run`): measured for ex2, rcp,
    # sqrt and rsqrt; not lg2, whose powers of two below 1 are answered off (`measured_at`)
    powers_exact: bool = True
    # whether PTX takes a .ftz form (ptxas for sm_90 refuses `tanh.approx.ftz.f32`: "Illegal
    # modifier '.ftz' for instruction 'tanh'", session 55's probe), else the CPU ran a kernel the GPU
    # cannot compile
    takes_ftz: bool = True
    # the answers measured on sm_90 at special arguments (scripts/probe_mufu_exact.py, session 55
    # on an H100: the H200 has the same SM): argument -> (where, answer), over every rule above
    measured_at: Callable[[np.ndarray], tuple[np.ndarray, np.ndarray]] | None = None


def _lg2_at_powers(a: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """lg2.approx of 2^k, measured for every k in [-126, 127] (session 55, sm_90, .ftz alike): k
    exactly for k >= 0; for k < 0 the next float32 towards zero at the step of |k|'s binade
    (2^(ceil(log2 |k|) - 24)), two steps below 1 for k = -1 (-0.99999988). Session 53 had
    reasoned them all exact; session 54's H200 run refuted it (rt60)."""
    where = (a > 0) & _power_of_two(a)
    k = np.log2(np.where(where, a, 1.0))
    step = np.exp2(np.ceil(np.log2(np.maximum(np.abs(k), 1.0))) - 24.0)
    return where, np.where(k >= 0, k, k + np.maximum(step, 2.0 ** -23))


def _tiny(answer: Callable[[np.ndarray], np.ndarray]) -> Callable[[np.ndarray], tuple[np.ndarray, np.ndarray]]:
    """A measured answer for 0 < |a| <= 6.4e-8 (session 55, sm_90: 64 arguments 1e-9 apart):
    tanh.approx gives the argument itself, sin.approx zero (the sign of a negative argument's
    zero is reasoned from oddness, not measured). Above it the `tiny` rule stays a coin."""
    def at(a: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        return (a != 0) & (np.abs(a) <= _TINY_MEASURED), answer(a)
    return at


_TINY_MEASURED = 6.4e-8


def _exact(fn: Callable[..., np.ndarray], arity: int) -> Instruction:
    return Instruction(arity, fn)


# PTX ISA, "Floating-Point Instructions" (f32): the maximum errors of the .approx forms. All
# held on an H200 (session 45, .device/asm45.py: 4M points over each one's range, no result
# outside its bound). tanh.approx's documented 2^-10.987 is the sm_75 bound: on an H200 its
# largest relative error was 9.9e-6 (2^-16.6), so 2^-16 here; with 2^-10.987 an honest
# GELU that was ok on the H200 came out incorrect on the CPU.
INSTRUCTIONS: dict[str, Instruction] = {
    "tanh.approx": Instruction(1, np.tanh, relative=2.0 ** -16, ends=(-1.0, 1.0), symmetry=1,
                               measured=9.9e-6 / 2.0 ** -16, unmeasured=frozenset({"tiny"}),
                               measured_at=_tiny(lambda a: a), takes_ftz=False),
    "ex2.approx": Instruction(1, np.exp2, relative=2.0 ** -22),
    "lg2.approx": Instruction(1, np.log2, relative=2.0 ** -22, absolute=2.0 ** -22.6, powers_exact=False,
                              measured_at=_lg2_at_powers),
    "rcp.approx": Instruction(1, lambda a: 1.0 / a, relative=2.0 ** -23, symmetry=1),
    "sqrt.approx": Instruction(1, np.sqrt, relative=2.0 ** -23),
    "rsqrt.approx": Instruction(1, lambda a: 1.0 / np.sqrt(a), relative=2.0 ** -22.9),
    "sin.approx": Instruction(1, np.sin, absolute=2.0 ** -20.5, ends=(-1.0, 1.0), within=100 * np.pi,
                              symmetry=1, exact_at=lambda a: a == 0, unmeasured=frozenset({"ends", "tiny"}),
                              measured_at=_tiny(lambda a: np.copysign(0.0, a))),
    "cos.approx": Instruction(1, np.cos, absolute=2.0 ** -20.5, ends=(-1.0, 1.0), within=100 * np.pi,
                              symmetry=2, exact_at=lambda a: a == 0, unmeasured=frozenset({"ends"})),
    # Triton's `/` of float32 (evaluator.interpreter_casts.approximate_builtins): PTX bounds it
    # at 2 ulp over the full range (1.5 * 2^-24 of |y| and the rounding stay within it); not
    # measured on an H200. A quotient float32 holds exactly is claimed exact (x / 2.0, 6.0 / 3.0:
    # index arithmetic through a float division stays whole), reasoned, not measured
    "div.full": Instruction(2, lambda a, b: a / b, relative=1.5 * 2.0 ** -24, powers_exact=False,
                            exact_at=lambda a, b: (a / b).astype(np.float32) == a / b),
    "rcp.rn": _exact(lambda a: 1.0 / a, 1),
    "sqrt.rn": _exact(np.sqrt, 1),
    "div.rn": _exact(lambda a, b: a / b, 2),
    "add": _exact(lambda a, b: a + b, 2),
    "sub": _exact(lambda a, b: a - b, 2),
    "mul": _exact(lambda a, b: a * b, 2),
    "min": _exact(np.fmin, 2),
    "max": _exact(np.fmax, 2),
    "abs": _exact(np.abs, 1),
    "neg": _exact(np.negative, 1),
}
INSTRUCTIONS = {name: dataclasses.replace(inst, name=name) for name, inst in INSTRUCTIONS.items()}
# .ftz flushes subnormal arguments and results to zero, kept by their sign (`_flushed`); .rn is
# IEEE's rounding of add/sub/mul, as numpy's. fma/mad are not here: float64 then float32 rounds
# twice, where the GPU rounds once (red team s45b told them apart by ==).
_LINE = re.compile(r"^\s*([a-z0-9.]+)\s+(\$\d+(?:\s*,\s*\$\d+)*)\s*;?\s*$")
_RUNS = (0, 4, 8, 12, 16)  # log2 of how many consecutive float32 bit patterns share a direction


def _direction(inst: Instruction, args: list[np.ndarray]) -> np.ndarray:
    """The signed error per element as a fraction of the bound, in [-measured, measured]: its
    sign and its size each a pure function of the arguments' float32 bits and the instruction,
    for this child (the module doc's rule). The size is uniform over [0, measured], never the
    bound itself at every element (red team rt49: an error of the whole bound everywhere gave
    `min |err| >= 1.25e-5` on the CPU, where the H200's tanh.approx is below 9.9e-6 and often
    near 0)."""
    shape = np.broadcast_shapes(*(np.shape(a) for a in args))
    bits = [np.broadcast_to(np.asarray(a, dtype=np.float32), shape).view(np.uint32).astype(np.uint64)
            for a in args]
    mirrored = inst.symmetry and keyed_draw.coin("asm mirrored", inst.name)
    run = _RUNS[keyed_draw.seed("asm run", inst.name) % len(_RUNS)]
    word = np.zeros(shape, dtype=np.uint64)
    for b in bits:
        b = b & np.uint64(0x7FFFFFFF) if mirrored else b  # the magnitude's bits: the same for -x
        word = (word << np.uint64(32)) | (b >> np.uint64(run))
    sign = np.where(keyed_draw.mix(word, "asm", inst.name) >> np.uint64(63), 1.0, -1.0)
    size = (keyed_draw.mix(word, "asm size", inst.name) >> np.uint64(11)).astype(np.float64) * 2.0 ** -53
    sign = sign * size * inst.measured
    if mirrored and inst.symmetry == 1:  # odd: -x's result is x's negated, its error too
        sign = np.where(bits[0] >> np.uint64(31), -sign, sign)
    return sign


def parse(asm: str, constraints: str, operands: int) -> Instruction:
    """The instruction of `asm` (raises KernelAsmNotEmulated where this cannot run it)."""
    text = " ".join(str(asm).split())
    match = _LINE.match(text)
    if match is None or text.count(";") > 1:
        raise _refused(text, "it is not one instruction of the form `op.f32 $0, $1, ...;`")
    opcode, registers = match.group(1), [r.strip() for r in match.group(2).split(",")]
    parts = opcode.split(".")
    if parts[-1] != "f32":
        raise _refused(text, f"`{opcode}` does not work on .f32 values")
    kept = [p for p in parts[:-1] if p != "ftz"]
    inst = INSTRUCTIONS.get(".".join(kept)) or INSTRUCTIONS.get(".".join(p for p in kept if p != "rn"))
    if inst is not None and "ftz" in parts:
        if not inst.takes_ftz:
            raise _refused(text, f"ptxas (sm_90) refuses the .ftz modifier of `{inst.name}`: it does not compile there")
        inst = dataclasses.replace(inst, ftz=True)
    if inst is None:
        raise _refused(text, f"`{opcode}` is not an f32 instruction the CPU runs")
    if registers != [f"${i}" for i in range(inst.arity + 1)] or inst.arity != operands:
        raise _refused(text, f"its registers are not `$0` (the result) then $1..${inst.arity} "
                       f"(the {operands} arguments) in order")
    spec = [c.strip() for c in str(constraints).split(",")]
    if len(spec) != inst.arity + 1 or spec[0] not in ("=r", "=f") or any(c not in ("r", "f") for c in spec[1:]):
        raise _refused(text, f"its constraints {constraints!r} are not one 32-bit result and "
                       f"{inst.arity} 32-bit arguments")
    return inst


def _refused(text: str, why: str) -> KernelAsmNotEmulated:
    return KernelAsmNotEmulated(
        f"inline assembly `{text[:120]}` cannot be checked on the CPU: {why}. The CPU interpreter "
        f"runs one PTX f32 instruction per element ({', '.join(sorted(INSTRUCTIONS))}; "
        ".approx ones with their documented error), pack=1; write anything else with tl operations")


def run(inst: Instruction, values: list[np.ndarray]) -> np.ndarray:
    """The instruction over float32 operands: exact, then moved by an error drawn per argument
    (`_direction`) up to its largest on an H200."""
    with np.errstate(all="ignore"):
        args = [np.asarray(v, dtype=np.float64) for v in values]
        if inst.ftz:  # .ftz: subnormal arguments and results are zero (of their sign), as on the GPU
            args = [_flushed(a) for a in args]
        if inst.within is not None and any(np.any(np.abs(a) > inst.within) for a in args):
            raise KernelAsmNotEmulated(
                f"an argument of magnitude {max(float(np.nanmax(np.abs(a))) for a in args):g} is outside "
                f"[-{inst.within:g}, {inst.within:g}], where PTX bounds this instruction's error: its GPU "
                "result is unknown here; reduce the argument first")
        exact = inst.compute(*args)
        if not (inst.relative or inst.absolute):
            if inst.ftz:
                exact = _flushed(np.asarray(exact, dtype=np.float32).astype(np.float64))
            return np.asarray(exact, dtype=np.float32)
        sign = _direction(inst, args)
        moved = exact + sign * (inst.relative * np.abs(exact) + inst.absolute)
        # an infinite (or NaN) answer is the GPU's as it is: moving it made inf - inf = NaN where
        # ex2.approx overflows, lg2.approx(0) and rcp/rsqrt.approx(+-0) (honest round s48: a SiLU
        # through ex2.approx gave NaN for x ~ -1000, the H200 -0)
        moved = np.where(np.isfinite(exact), moved, exact)
        # a result that is exactly a power of two is exact (ex2 of every integer in [-126, 127],
        # sqrt/rsqrt of every power of four, rcp of every power of two: measured on sm_90 in
        # session 55): tl.sqrt(4.0) is 2 as on the GPU, not 2 - 1 ulp (red team rt56 put
        # tl.sqrt, tl.exp2 and tl.rsqrt through this model). Not lg2's (`_lg2_at_powers`)
        if inst.powers_exact:
            moved = np.where(_power_of_two(exact), exact, moved)
        rounded = np.asarray(exact, dtype=np.float32)
        if _tiny_claimed(inst):  # the argument itself where the exact result rounds to it
            moved = np.where((rounded == args[0]) & (args[0] != 0), rounded, moved)
        if inst.ends is not None:
            at_end = (rounded == inst.ends[0]) | (rounded == inst.ends[1])
            lo, hi = inst.ends
            # not claimed: inside the range (sm_90 answers cos.approx 1 - 2^-24 there, session 55)
            inside = np.clip(moved, np.nextafter(np.float32(lo), np.float32(hi)),
                             np.nextafter(np.float32(hi), np.float32(lo)))
            claimed = _ends(inst, args[0])
            moved = np.where(at_end, np.where(claimed, rounded, inside), np.clip(moved, lo, hi))
        if inst.exact_at is not None:
            moved = np.where(inst.exact_at(*args), exact, moved)
        if inst.measured_at is not None:  # what sm_90 answered there, over every rule above
            where, answer = inst.measured_at(args[0])
            moved = np.where(where, answer, moved)
        moved = np.asarray(moved, dtype=np.float32)
        # .ftz flushes a subnormal result only: a normal one is the plain instruction's (one MUFU
        # op either way; rounding the exact value to float32 first made the two differ)
        return _flushed(moved).astype(np.float32) if inst.ftz else moved


def _tiny_claimed(inst: Instruction) -> bool:
    """Whether this child answers a tiny argument as itself (the `tiny` rule): a keyed coin per
    child and instruction where unmeasured (Instruction.unmeasured), never elsewhere (what was
    measured is `measured_at`'s)."""
    return "tiny" in inst.unmeasured and keyed_draw.coin("asm special", "tiny", inst.name)


def _ends(inst: Instruction, a: np.ndarray) -> np.ndarray | bool:
    """Where a result that rounds to an end of the range is that end: always where measured
    (tanh.approx); else a keyed draw per argument's bits, one in four, fixed within a child
    (sin/cos.approx, session 55 on sm_90: cos.approx of 64 tiny t was exactly 1 for 12 and
    1 - 2^-24 for the rest, sin.approx beside pi/2 exactly 1 for 18 of 64, by argument: a
    per-child coin over every argument gave all 64 exactly 1 in half the children, where the
    GPU never does)."""
    if "ends" not in inst.unmeasured:
        return True
    bits = np.asarray(a, dtype=np.float32).view(np.uint32).astype(np.uint64)
    return (keyed_draw.mix(bits, "asm ends", inst.name) >> np.uint64(62)) == 0


def _power_of_two(exact: np.ndarray) -> np.ndarray:
    """Where a float64 value is a normal float32 power of two (+-2^k), exactly."""
    as32 = np.asarray(exact, dtype=np.float32)
    bits = np.atleast_1d(as32).view(np.uint32).reshape(np.shape(as32))
    normal = np.isfinite(as32) & (np.abs(as32) >= np.finfo(np.float32).tiny)
    return normal & (as32.astype(np.float64) == exact) & ((bits & np.uint32(0x7FFFFF)) == 0)


def _flushed(a: np.ndarray) -> np.ndarray:
    tiny = np.abs(a) < np.finfo(np.float32).tiny
    return np.where(tiny & (a != 0), np.copysign(0.0, a), a)


class _Results:
    def __init__(self, handles: list) -> None:
        self._handles = handles

    def get_result(self, i: int):
        return self._handles[i]


def install(builder_type: type, interpreter) -> None:
    """Replace the interpreter builder's create_inline_asm (once)."""
    if getattr(builder_type, "_krl_asm", False):
        return
    import triton.language as tl

    tensor_handle = interpreter.TensorHandle

    def create_inline_asm(self, inlineAsm, constraints, values, type, isPure, pack):  # noqa: A002, N803
        types = list(type) if isinstance(type, (list, tuple)) else [type]
        if int(pack) != 1 or len(types) != 1:
            raise _refused(str(inlineAsm), f"pack={pack} with {len(types)} result(s): only pack=1 "
                           "with one result runs here")
        scalar = getattr(types[0], "element_ty", types[0])
        if scalar != tl.float32 or any(v.get_element_ty() != tl.float32 for v in values):
            raise _refused(str(inlineAsm), "its arguments and result are not all tl.float32")
        inst = parse(inlineAsm, constraints, len(values))
        data = run(inst, [np.broadcast_to(v.data, np.broadcast_shapes(*(np.shape(w.data) for w in values)))
                          for v in values])
        return _Results([tensor_handle(data, tl.float32)])

    builder_type.create_inline_asm = create_inline_asm
    builder_type._krl_asm = True
