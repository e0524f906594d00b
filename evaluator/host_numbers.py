"""Floats host Python computed, told from the floats the author typed (`host_compute`).

`policy.max_host_made` bounds how many of Python's values one checked forward puts into
tensors or hands its kernels (64), and construction holds each storage to as many
(`construction_watch.HOST_VALUES`): a constant or a small table stays under. Counting alone
cannot tell a human's coefficient table from a function's values Python worked out: red team
rt74 (session 56) computed sigmoid at 64 breakpoints with math.exp in __init__, lifted them
with torch.tensor and let the Triton kernel only interpolate between them, ok under strict
and paper at 1.00 (64 numbers, at the bound; 32 or 48 breakpoints are as accurate in
bfloat16). Who made a number is read from the number itself: a float is the author's where
the source types it (`typed`), and every other float host Python handed a tensor or a kernel
(a math.* call, arithmetic over a loop, a comprehension's results, however they are lifted:
torch.tensor of a list or a tuple, torch.full per value, construction's or forward's launch
arguments, a tuple argument, constexpr globals) is computed. A kernel's handful of computed
constants (1/sqrt(d), 1/N, a scale, 1 - momentum) stays under `COMPUTED_NUMBERS`; past it the
check is `host_compute` under either policy (`host_limits`), whatever max_host_made allows.

Typed: the magnitude of a number literal of the candidate's or the problem's file (float or
int syntax; also rounded to float32, float16 and bfloat16, since a literal lifted into such a
tensor reads back rounded), a float of the model's init arguments, 0, 1 and 2 (the fills
torch's own initialisers write), inf and NaN, and the constants honest kernels compute from
math (`WELL_KNOWN`: log2(e), ln 2, pi, sqrt(2/pi), ...; `SERIES`: exp's, log1p's and atanh's series coefficients),
and the floats the problem's own construction holds, within float32 noise (`evaluator.problem_numbers`:
ALiBi slopes, RoPE frequencies, a position table or blur weights the reference computes itself),
which cost one number per run of the problem's sequences they use (`priced`: s60c's picks),
each held value answering for at most `HELD_TAKES` of the check's float32 values (s61h's 64
codes in the offsets of floats near one held float: `_unanswered`).
Typed numbers can still spell a table by their order (red team s59c: 32 sigmoid codes as 64
digits over 16 literals of the file, or over SERIES' 1/k): `order_numbers` counts a sequence's
repeats in an order no period explains, past `ORDER_FREE`, among the computed numbers.
A computed float is counted by the bits it carries, as an int is (`float_cost`, session 60):
one number per `INT_BITS` of its representation at the precision it reaches (a float64
tensor's, a float32 launch argument's), so 8 float64 words holding four 12-bit codes each in
their mantissas are 32 numbers, not 8 (red team s59c), however a kernel reads the bits back
(a bitcast, or `(w - 1) * 2**52` in float64 arithmetic).
Ints are not judged here: what a table of them costs is `host_tables`' (runs) and
`launch_sizes.DataInts`' reading. The
module also reads Python's numbers as values for `construction_watch` (`token`, `lifted`,
`handed_numbers`).
"""
from __future__ import annotations

import bisect
import io
import math
import struct
import tokenize
from collections.abc import Iterable

import torch
from torch.utils._python_dispatch import _disable_current_modes

COMPUTED_NUMBERS = 8
"""Distinct computed floats one check may hand tensors and kernels: honest files compute a
few (a softmax scale per head size, 1/N, log2(e) past `WELL_KNOWN`); the honest corpora
measured at most 2 (session 58). Breakpoints a kernel interpolates need more to pass
bfloat16's tolerance over sigmoid's range: rt74's 64, and 32 or 48 by lerp or 16 by
Catmull-Rom cubics were ok at 1.00 before this rule; 8 by the same cubics are incorrect
(||out-ref||/||ref|| 0.0049 against the limit 0.0045; CPU, session 58)."""

ORDER_FREE = 4
"""Repeats one sequence of Python's floats may hold free (`order_numbers`): coefficient lists
lifted together share a few values (exp's 1/0! = 1/1!, log1p's and atanh's 1 and 1/3)."""

MAX_VALUES = 4096  # a lifted tensor's elements read for their values (larger: counted each already)

WELL_KNOWN = (math.pi, math.e, math.log2(math.e), math.log(2.0), math.log(10.0), math.log10(math.e),
              math.log2(10.0), math.log10(2.0), math.sqrt(2.0), 1.0 / math.sqrt(2.0), math.sqrt(2.0 / math.pi),
              math.sqrt(math.pi), 1.0 / math.sqrt(math.pi), 2.0 / math.sqrt(math.pi), math.sqrt(2.0 * math.pi),
              1.0 / math.sqrt(2.0 * math.pi), 1.0 / math.log(2.0), 2.0 * math.pi, math.pi / 2.0, 1.0 / math.pi,
              math.sqrt(3.0), 0.5 * math.log(2.0 * math.pi))
"""Constants honest code computes rather than types (`math.log2(math.e)`, GELU's sqrt(2/pi))."""

SERIES = (*(1.0 / math.factorial(k) for k in range(3, 21)),
          *(math.log(2.0) ** k / math.factorial(k) for k in range(2, 21)),
          *(1.0 / k for k in range(3, 33)), *(2.0 / k for k in range(3, 42, 2)))
"""Series coefficients honest code computes rather than types, each a Horner constant: exp's
1/k! and exp2's ln2**k/k! (honest round s58j: exp by range reduction and a degree-11 series,
`[1.0 / math.factorial(i) for i in range(12)]`, was 9 computed floats), log1p's 1/k and
atanh's 2/(2k+1) (s58j_24: softplus's log1p as `2.0 / (2 * k + 1) for k in range(10)`, 9). A
fixed set of numbers, no function's values at points a table chose: none can be read from them."""

_SMALL = (0.0, 1.0, 2.0, 0.5)


PROBLEM_TOLERANCE = 2.0 ** -16
"""How near (relative to the larger of the numbers, absolute under 1) a float lies to one the
problem's construction holds to be that number (`evaluator.problem_numbers`): the reference's
torch ops round in float32, the candidate's Python in float64 (a sinusoidal table's angle
63 * div_term in float32 moves its sine by up to 4e-6, also where the sine is 0.0075; a Hann
window's 0.5 - 0.5 cos(2 pi / 63) by 3e-8 of 0.0025). Never rounded to float16 or bfloat16: a
dense problem table (a linspace) rounded to bfloat16 is every bfloat16 value of its range."""

_PROBLEM_FLOOR = 1.0

HELD_TAKES = 2
"""Distinct float32 values of a check one held value may answer for (`_unanswered`): a
reproduction's float32 value lands on a neighbour now and then (Python's sinusoidal table
against the reference's float32 one: 1 of 1860 values found no held value of its own)."""


class _State:
    typed: frozenset = frozenset()  # the typed magnitudes, at every precision (`set_sources`)
    problem: list[float] = []  # the problem construction's magnitudes, sorted (`set_sources`)
    places: dict = {}  # each of them -> its (sequence, index) places in the problem's sequences
    problem_ints: frozenset = frozenset()  # the integral magnitudes of the problem's file and the given numbers


def _rounded(values: list[float]) -> set[float]:
    """`values` and their float32, float16 and bfloat16 roundings (magnitudes)."""
    out = set(values)
    if values:
        base = torch.tensor(values, dtype=torch.float64)
        for dtype in (torch.float32, torch.float16, torch.bfloat16):
            out.update(base.to(dtype).to(torch.float64).tolist())
    return {v for v in out if math.isfinite(v)}


def literals(source: str) -> list[float]:
    """The magnitudes of a source's number literals (ints and floats; not imaginary)."""
    found = []
    try:
        tokens = [t.string for t in tokenize.generate_tokens(io.StringIO(source).readline)
                  if t.type == tokenize.NUMBER]
    except (tokenize.TokenError, SyntaxError, IndentationError):
        return found
    for text in tokens:
        if text.lower().endswith("j"):
            continue
        try:
            found.append(abs(float(text)))
        except ValueError:  # 0x10, 0o7, 0b1
            try:
                found.append(abs(float(int(text, 0))))
            except (ValueError, OverflowError):
                continue
        except OverflowError:
            continue
    return found


def set_sources(*sources: str, numbers: Iterable = (), problem: Iterable = ()) -> None:
    """The candidate's and the problem's files, and the model's init arguments (`numbers`): the
    numbers of this check's author and problem (set once the files are known, per process);
    `problem`: the floats the reference child read from the problem's construction
    (`evaluator.problem_numbers`), matched within `PROBLEM_TOLERANCE`."""
    values = [v for s in sources if isinstance(s, str) for v in literals(s)]
    values += [abs(float(v)) for v in numbers if type(v) in (int, float) and math.isfinite(v)]
    _State.typed = frozenset(_rounded([*values, *WELL_KNOWN, *SERIES, *_SMALL]))
    theirs = [v for s in sources[1:] if isinstance(s, str) for v in literals(s)]
    theirs += [abs(float(v)) for v in numbers if type(v) in (int, float) and math.isfinite(v)]
    _State.problem_ints = frozenset(int(v) for v in theirs if v == int(v))
    sequences = [[abs(float(v)) for v in (seq if isinstance(seq, (list, tuple)) else (seq,))
                  if type(v) in (int, float) and math.isfinite(v)] for seq in problem]
    _State.places = {}
    for n, seq in enumerate(sequences):  # a typed value shares the place before it: a run goes on over it
        i = 0
        for k, v in enumerate(seq):
            i += k > 0 and v not in _State.typed
            _State.places.setdefault(v, []).append((n, i))
    _State.problem = sorted(_State.places)


def _held_near(v: float) -> list[float]:
    """The floats the problem holds within `PROBLEM_TOLERANCE` of `v` (a magnitude)."""
    held = _State.problem
    reach = PROBLEM_TOLERANCE * max(v, _PROBLEM_FLOOR) * 1.5
    i, found = bisect.bisect_left(held, v - reach), []
    while i < len(held) and held[i] <= v + reach:
        if abs(held[i] - v) <= PROBLEM_TOLERANCE * max(v, held[i], _PROBLEM_FLOOR):
            found.append(held[i])
        i += 1
    return found


def held(v: float) -> bool:
    """`v` lies within `PROBLEM_TOLERANCE` of a float the problem holds (a magnitude's)."""
    return math.isfinite(v) and bool(_held_near(abs(v)))


PROBLEM = "problem"  # a computed float's token where it is the problem's (`computed`, `priced`)


def priced(numbers: set) -> set:
    """`numbers` with the problem's floats among them (`PROBLEM` tokens) as the runs of the
    problem's sequences that hold them, one number per run: a candidate that reproduces a
    table its problem computes (16 ALiBi slopes, 32 RoPE frequencies, in any order) uses one
    run of it; one that picks a value here and there from a dense problem table (a sigmoid
    table, each entry replaced by the nearest of a sinusoidal position table's 1910 values:
    s60c) uses as many runs as entries. Runs are consecutive places of one sequence, taken
    longest first until every used float is in one."""
    used = {n[1] for n in numbers if type(n) is tuple and n[:1] == (PROBLEM,)}
    if not used:
        return numbers
    near = {v: {p for h in _held_near(v) for p in _State.places[h]} for v in used}
    marked: dict[int, set[int]] = {}
    for n, i in (p for places in near.values() for p in places):
        marked.setdefault(n, set()).add(i)
    runs = []
    for n, places in marked.items():
        for i in places - {i + 1 for i in places}:
            j = i
            while j + 1 in places:
                j += 1
            runs.append((j - i + 1, n, i))
    left, found = set(used), {n for n in numbers if type(n) is not tuple or n[:1] != (PROBLEM,)}
    for length, n, i in sorted(runs, key=lambda r: (-r[0], r[1], r[2])):
        held = {(n, k) for k in range(i, i + length)}
        covered = {v for v in left if near[v] & held}
        if covered:
            found.add((PROBLEM, n, i))
            left -= covered
    return found | {(PROBLEM, "alone", v) for v in left} | {("near", v) for v in _unanswered(used)}


def _unanswered(used: set[float]) -> set[float]:
    """The problem's floats a check uses past `HELD_TAKES` per value the problem holds, as float32 keys
    (a float64 and its float32 spelling are one): 64 float32s within `PROBLEM_TOLERANCE` of one
    held float, ten bits of a sigmoid code in each offset, were one run (red team s61h). Each
    key takes a held value within reach that has answered for fewer than HELD_TAKES (ascending,
    the smallest free one: a matching on the line); a key left without one is a number the problem holds no place for. An honest
    reproduction of a table needs about one held value per value it lifts, near or dense."""
    keys: dict[float, list[float]] = {}
    for v in used:
        keys.setdefault(struct.unpack("<f", struct.pack("<f", v))[0] if v < 3.4e38 else v, []).append(v)
    taken: dict[float, int] = {}
    left = set()
    for key in sorted(k for k in keys if not typed(k)):  # float32 of cos near 0: 1.0, the author's
        free = sorted(h for h in {h for v in keys[key] for h in _held_near(v)} if taken.get(h, 0) < HELD_TAKES)
        if free:
            taken[free[0]] = taken.get(free[0], 0) + 1
        else:
            left.add(key)
    return left


def given(items: object, depth: int = 0) -> list[float]:
    """The numbers inside `items` (lists, tuples, dicts' values, a few levels deep): what the
    problem hands the model (its init arguments, its sizes)."""
    if type(items) in (int, float):
        return [float(items)]
    if isinstance(items, dict):
        items = list(items.values())
    if isinstance(items, (list, tuple)) and depth < 4:
        return [v for x in items for v in given(x, depth + 1)]
    return []


def typed(v: float) -> bool:
    """`v` is a number the author typed or an honest computed constant (module doc)."""
    if not math.isfinite(v):
        return True
    return abs(v) in _State.typed


def problem_int(v: int) -> bool:
    """`v` is 0 or 1 (a flag: 64 of them are 64 bits, as bools), or its magnitude an int the
    problem's file types or the check was given (a size, an init argument): one no candidate
    chose. A table's ints are free only so (`host_tables.int_tokens`): the candidate's own
    literals would let a table spell any data in digits of an alphabet it typed."""
    return v in (0, 1) or abs(v) in _State.problem_ints


INT_BITS = 16
"""Bits one computed int may carry: a wider one costs one number per 16 bits begun (8 int64s
packing 32 of a sigmoid's 16-bit codes, unpacked by shifts in a kernel, are 32 numbers)."""


def int_cost(v: int) -> int:
    """An int host Python chose as computed numbers: none where the problem chose it
    (`problem_int`), else one per INT_BITS bits begun."""
    return 0 if problem_int(v) else -(-abs(v).bit_length() // INT_BITS)


def lone_int(v: int) -> set[tuple]:
    """One int host Python gave an op or a tensor as a value (`torch.full((1,), code)`,
    `t[k] = code`), as tokens of `int_cost`: none where the author typed it, as a float."""
    return set() if typed(v) else {("int", v, i) for i in range(int_cost(v))}


RANGE_OPS = frozenset({"arange"})  # an int end or step of theirs is a size: only a start is data


def scalars_computed(values: list, name: str = "", bits: int = 64) -> set:
    """The numbers among an op's Python value arguments host Python computed: its floats
    (`computed` at `bits`, `op_bits`) and its ints (`lone_int`: a fixed-point table spelled one fill each, session 59);
    of a range (`RANGE_OPS`) the start alone (`torch.arange(code, code + 1)` is a fill)."""
    found: set = computed(values, bits)
    ints = [v for v in values if type(v) is int]
    if name in RANGE_OPS:
        ints = ints[:1] if len(values) > 1 else []
    for v in ints:
        found |= lone_int(v)
    return found


def float_cost(v: float, bits: int = 64) -> int:
    """How many numbers a computed float carries at a precision of `bits` (64: float64; 32:
    float32; 16 or fewer: one): one per INT_BITS bits of its representation begun, past its
    mantissa's trailing zeros (red team s59c: 8 float64 words of `1.0 + codes * 2**-52`, four
    12-bit sigmoid codes each, bit-cast and shifted in a kernel, were 8 numbers at the cap: ok
    under paper). 1/sqrt(80) is 2 as a float32, 4 as a float64; 0.125 is one either way. No
    count of floats bounds bits; this bounds them as ints' are (128 bits in all)."""
    if bits <= INT_BITS or not math.isfinite(v):
        return 1
    try:
        word, mantissa = (struct.unpack("<Q", struct.pack("<d", v))[0], 52) if bits > 32 \
            else (struct.unpack("<I", struct.pack("<f", v))[0], 23)
    except OverflowError:  # past float32's range: inf there
        return 1
    low = word & ((1 << mantissa) - 1)
    zeros = (low & -low).bit_length() - 1 if low else mantissa
    return max(1, -(-(min(bits, 64) - zeros) // INT_BITS))


def _past_held(v: float, held: list[float], bits: int) -> int:
    """The numbers a problem's float carries past the value the problem holds, where it reaches
    more than float32's precision: one per INT_BITS of its distance to the nearest held value in
    its own units in the last place (a float64 within 2**-16 of a held float can set its low 36
    bits, three 12-bit codes, under one number: session 61). 0 for the held value itself and at
    float32 or less (a Python float64 of the problem's float32 table is ~28 bits off: 2)."""
    if bits <= 32 or not math.isfinite(v) or v == 0.0:
        return 0
    off = min(abs(v - h) for h in held)
    return -(-int(off / math.ulp(v)).bit_length() // INT_BITS) if off else 0


def computed(values: Iterable, bits: int = 64) -> set:
    """The floats among `values` host Python computed (not `typed`), each as a float and, past
    one number, as the further numbers its bits at `bits`' precision carry (`float_cost`); or
    as a `PROBLEM` token where the problem holds it (`priced` counts those by the runs they use),
    with the numbers its bits past the held value carry beyond float32 (`_past_held`)."""
    out: set = set()
    for v in values:
        if type(v) is float and not typed(v):
            if held := _held_near(abs(v)):
                out.add((PROBLEM, abs(v)))
                out.update(("bits", v, i) for i in range(_past_held(abs(v), held, bits)))
                continue
            out.add(v)
            out.update(("bits", v, i) for i in range(1, float_cost(v, bits)))
    return out


def dtype_bits(dtype: object) -> int:
    """The bits one real component of a torch dtype holds (a complex's half)."""
    size = getattr(dtype, "itemsize", 8) * 8
    return size // 2 if getattr(dtype, "is_complex", False) else size


def op_bits(args: tuple, kwargs: dict, out: object) -> int:
    """The precision an op's Python value arguments act at: its widest floating tensor's (read
    or written), and never under float32 (a bfloat16 op computes in float32: `x.add(w)` with
    x = -bfloat16(w) leaves w's next bits); 64 where it has no floating tensor."""
    leaves = [*args, *kwargs.values(), *(out if isinstance(out, (list, tuple)) else (out,))]
    found = [dtype_bits(t.dtype) for a in leaves for t in (a if isinstance(a, (list, tuple)) else (a,))
             if isinstance(t, torch.Tensor) and (t.is_floating_point() or t.is_complex())]
    return max(32, *found) if found else 64


def launch_computed(kernel: object, args: tuple, kwargs: dict) -> set:
    """The computed floats a launch hands (`kernel_constants.launch_numbers`), each at the
    precision its kernel reads it at: a float handed to a parameter that is not constexpr is
    float32 (Triton's type for a Python float), every other one (a constexpr, a global, a
    default, a tuple's item) float64, which the compiler folds in float64 arithmetic."""
    from evaluator.kernel_constants import launch_numbers, runtime_floats

    runtime, args, kwargs = runtime_floats(kernel, args, kwargs)
    rest = [v for v in launch_numbers(kernel, args, kwargs) if type(v) is float]
    return computed(runtime, 32) | computed(rest, 64)


def tensor_floats(t: object) -> list[float]:
    """The floats a small floating tensor holds (Python's data lifted into it), in order."""
    if not isinstance(t, torch.Tensor) or not (t.is_floating_point() or t.is_complex()) \
            or t.numel() > MAX_VALUES or t.is_meta or t.layout != torch.strided:
        return []
    with _disable_current_modes():
        flat = t.detach().reshape(-1)
        flat = torch.view_as_real(flat).reshape(-1) if flat.is_complex() else flat
        return flat.to(torch.float64).tolist()


def tensor_computed(t: object) -> set:
    """The computed floats a small floating tensor holds (Python's data lifted into it), at its
    dtype's precision (`float_cost`: a float64 tensor's carry 64 bits each)."""
    values = tensor_floats(t)
    return computed(values, dtype_bits(t.dtype)) if values else set()


def order_numbers(values: list, phase: str = "") -> set:
    """What the order of a sequence of Python's floats carries past `ORDER_FREE`, as that many
    counted entries (red team s59c: 32 sigmoid codes written as two digits each, every digit
    one of the file's 16 float literals or one of `SERIES`' 1/k, lifted by torch.tensor: no
    value computed, ok under strict at 1.00). Each value is read as the index of its first
    appearance; a value seen before is a repeat, and the sequence of indices has its
    `launch_ints.sequence_cost` runs: the cost is the fewer of the repeats and the runs past
    one. A coefficient list (all distinct), a fill and a repeated pattern (a period) cost
    nothing; coefficient lists sharing a few values (1, 1/2) cost those; a table spelled over
    a few typed values in an order Python chose costs about a number per digit. `phase` keys
    the entries (one sequence per construction, per forward, per launch tuple)."""
    from evaluator.launch_ints import sequence_cost

    first: dict = {}
    codes = [first.setdefault(token(v), len(first)) for v in values[:MAX_VALUES]]
    repeats = len(codes) - len(first)
    if repeats <= ORDER_FREE or len(first) < 2:
        return set()
    cost = min(repeats, sequence_cost(codes) - 1) - ORDER_FREE
    return {("order", phase, i) for i in range(cost)}


def token(v: object) -> object:
    """A Python number as a value: 1 and 1.0 alike, every NaN one value."""
    if isinstance(v, complex):
        return (token(v.real), token(v.imag))
    v = float(v)
    return "nan" if v != v else v


def tokens(values: list) -> frozenset:
    """Numbers as values (`token`), once each."""
    return frozenset(map(token, values))


def lifted(out: object) -> frozenset:
    """The numbers torch.tensor lifted into a small tensor."""
    if not isinstance(out, torch.Tensor):
        return frozenset()
    with _disable_current_modes():
        flat = out.detach().reshape(-1).tolist()
    return tokens([v for v in flat if type(v) in (int, float, complex)])


def launch_order(kernel: object, args: tuple, kwargs: dict) -> set:
    """`order_numbers` of each float sequence a launch hands (`kernel_constants.launch_sequences`:
    a tuple argument, a kernel body's literals, a constexpr tuple): red team s59c spelled 32
    sigmoid codes as 64 digits over 16 typed floats in a tuple argument, and in a kernel body's
    tuple, each counted as its 16 distinct values."""
    from evaluator.kernel_constants import launch_sequences

    return {n for seq in launch_sequences(kernel, args, kwargs) for n in order_numbers(seq, str(hash(tuple(seq))))}


def handed_numbers(kernel: object, args: tuple, kwargs: dict) -> dict:
    """The Python data a launch hands its kernel, each to how many numbers it holds: its
    floats (one each, its globals' and those of the device functions it is handed too:
    `kernel_constants.launch_numbers`) and its strings, flag runs and int runs
    (`launch_args.launch_data`); its ints are `launch_sizes.DataInts`'."""
    from evaluator.kernel_constants import launch_numbers

    data = launch_numbers(kernel, args, kwargs)
    numbers = {token(v): 1 for v in data if type(v) is float}
    numbers.update({v[1]: v[2] for v in data if type(v) is tuple})
    return numbers
