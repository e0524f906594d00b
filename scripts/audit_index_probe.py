"""One aten overload, probed inside a forked child of scripts/audit_index_ops.py.

Every tensor argument owns a storage of exactly its own bytes, carved out of a larger
bytearray whose other bytes hold a guard pattern (torch.frombuffer on a slice: torch's own
bounds, the storage's size, are the tensor's). Each call runs twice, once with guard pattern
A and once with pattern B, after torch.manual_seed(0):
  * a guard byte changed                 -> writes_past (a write outside every storage)
  * the two results differ, or one raises -> reads_past (what lies outside decided them)
  * both raise                           -> raises (checked)
  * same results, guards intact          -> ok (consistent with in-bounds behaviour)
A segfault, abort or hang is seen by the parent (the child dies or goes quiet).

First a baseline: argument choices tried in turn until one call runs; then, one argument at
a time, adversarial values (huge, negative, just past the end, mismatched lengths, empty,
zero-stride and non-contiguous tensors) replace the baseline's."""

from __future__ import annotations

import itertools
import json
import warnings
from dataclasses import dataclass, field, replace

import torch

GUARD = 1 << 17  # elements each side: a read 100000 past a tensor lands in its guard
INDEX_WORDS = (
    "index",
    "indices",
    "idx",
    "offset",
    "length",
    "target",
    "sorter",
    "repeats",
    "pivots",
    "count",
    "bins",
    "crow",
    "col",
    "row",
    "perm",
    "batch_sizes",
    "labels",
)
BOOL_WORDS = ("mask", "condition")
PATTERNS = {"A": (1.5, 0, False), "B": (-2.75, 3, True)}  # float, int, bool guard fills
SHAPES = [(4, 4), (4,), (2, 4, 4), (1, 2, 4, 4), (1, 2, 2, 4, 4)]
DTYPE_MODES = ["named", "all_float", "all_long", "first_float"]
INT_VALUES = [-1, -5, 4, 5, 17, 100000, 2**31, 2**62, -(2**62)]
INDEX_VALUES = [4, 16, -5, -17, 100000, 2**40, -(2**40)]
LIST_VALUES = [-5, -1, 5, 100000, 2**62, -(2**62), 2**63 - 1]
# float arguments that size or place an output (scale factors) and float tensors that are
# coordinates (grid_sampler's grid): values near and past int64's range, and non-finite ones
FLOAT_VALUES = [
    -1.0,
    0.0,
    1e-30,
    2.0**31,
    2.0**62,
    2.0**63,
    -(2.0**62),
    1e300,
    float("inf"),
    float("-inf"),
    float("nan"),
]
FLOAT_NAMES = ("scale", "grid")
MAX_ATTEMPTS = 160


def is_index_name(name: str) -> bool:
    return any(w in name.lower() for w in INDEX_WORDS)


# ---------------------------------------------------------------- argument specs
@dataclass(frozen=True)
class TSpec:
    """A tensor to build: shape, dtype, layout (contig/stride0/noncontig), int fill value."""

    shape: tuple
    dtype: torch.dtype
    layout: str = "contig"
    fill: int = 0
    ffill: float | None = None  # a float tensor's fill (None: the 0.5..2.0 ramp)


@dataclass
class Built:
    args: list
    kwargs: dict
    tensors: list = field(default_factory=list)
    guards: list = field(default_factory=list)

    def guards_intact(self) -> bool:
        return all(g.intact() for g in self.guards)


class Guarded:
    """`numel` elements whose storage is exactly theirs, inside guard bytes of a pattern."""

    def __init__(self, numel: int, dtype: torch.dtype, pattern: str) -> None:
        item = torch.empty((), dtype=dtype).element_size()
        self.numel, self.pattern = numel, _guard_value(dtype, pattern)
        self.buf = bytearray((2 * GUARD + numel) * item)
        self.whole = torch.frombuffer(self.buf, dtype=dtype)
        self.whole.fill_(self.pattern)
        self.tensor = torch.frombuffer(self.buf, dtype=dtype, count=numel, offset=GUARD * item)

    def intact(self) -> bool:
        head, tail = self.whole[:GUARD], self.whole[GUARD + self.numel :]
        return bool((head == self.pattern).all()) and bool((tail == self.pattern).all())


def _guard_value(dtype: torch.dtype, pattern: str):
    f, i, b = PATTERNS[pattern]
    if dtype == torch.bool:
        return b
    return f if dtype.is_floating_point or dtype.is_complex else i


def _numel(shape: tuple) -> int:
    n = 1
    for s in shape:
        n *= s
    return n


def build_tensor(spec: TSpec, pattern: str, out: Built) -> torch.Tensor:
    n = _numel(spec.shape)
    if n == 0:
        t = torch.empty(spec.shape, dtype=spec.dtype)
        out.tensors.append(t)
        return t
    if spec.layout == "stride0":
        g = Guarded(1, spec.dtype, pattern)
        base, t = g.tensor, g.tensor.view([1] * len(spec.shape)).expand(spec.shape)
    elif spec.layout == "noncontig" and spec.shape:
        g = Guarded(2 * n, spec.dtype, pattern)
        base = g.tensor
        t = g.tensor.view(*spec.shape[:-1], 2 * spec.shape[-1])[..., ::2]
    else:
        g = Guarded(n, spec.dtype, pattern)
        base, t = g.tensor, g.tensor.view(spec.shape)
    _fill(base, spec)
    out.guards.append(g)
    out.tensors.append(t)
    return t


def _fill(base: torch.Tensor, spec: TSpec) -> None:
    n = base.numel()
    if spec.dtype == torch.bool:
        base.copy_(torch.arange(n) % 2 == 0)
    elif spec.dtype.is_floating_point and spec.ffill is not None:
        base.fill_(spec.ffill)
    elif spec.dtype.is_floating_point or spec.dtype.is_complex:  # complex: istft's input
        base.copy_((torch.arange(n) % 7) * 0.25 + 0.5)
    else:
        base.fill_(_clamp(spec.fill, spec.dtype))


def _clamp(value: int, dtype: torch.dtype) -> int:
    info = torch.iinfo(dtype)
    return max(info.min, min(info.max, value))


def build(schema, specs: dict, pattern: str) -> Built:
    out = Built([], {})
    for arg in schema.arguments:
        value = _materialize(specs[arg.name], pattern, out)
        if arg.kwarg_only:
            out.kwargs[arg.name] = value
        else:
            out.args.append(value)
    return out


def _materialize(spec, pattern: str, out: Built):
    if isinstance(spec, TSpec):
        return build_tensor(spec, pattern, out)
    if isinstance(spec, list) and spec and all(isinstance(s, (TSpec, type(None))) for s in spec):
        return [None if s is None else build_tensor(s, pattern, out) for s in spec]
    return spec


# ---------------------------------------------------------------- baseline choices
def _type(arg) -> str:
    return str(getattr(arg, "real_type", arg.type))


def _scalar_default(arg, k_int: int, shape: tuple):
    """A value for a non-tensor argument; KeyError when the audit cannot make one."""
    t, name = _type(arg), arg.name
    if arg.has_default_value():
        return arg.default_value
    if t.startswith("Optional["):
        return None
    if t in ("int", "SymInt"):
        return ([0, 1, -1] if "dim" in name else [1, 0, 2])[k_int % 3]
    if t in ("List[int]", "List[SymInt]"):
        return _int_list(name, k_int, shape)
    if t in ("Scalar", "number"):
        return 1
    if t == "float":
        return 0.5
    if t == "bool":
        return False
    if t == "ScalarType":
        return torch.float32
    if t == "List[float]":
        return [1.0, 1.0]
    if t == "List[bool]":
        return [True, True]
    if t == "str" and name in ("reduce", "padding", "mode"):
        return {"reduce": "sum", "padding": "same", "mode": "constant"}[name]
    raise KeyError(f"{name}: {t}")


def _int_list(name: str, k: int, shape: tuple) -> list:
    strides = [_numel(shape[i + 1 :]) for i in range(len(shape))]
    if "size" in name and "kernel" not in name or "shape" in name:
        options = [list(shape), [4, 4], [16]]
    elif "stride" in name and name != "stride":
        options = [strides, [1, 1], [1]]
    elif name == "stride":
        options = [strides, [1, 1], [1]]
    elif "dim" in name or "perm" in name:
        options = [[0], list(range(len(shape)))[::-1], [0, 1]]
    else:
        options = [[1, 1], [2, 2], [1], [0]]
    return options[k % len(options)]


def _tensor_dtype(arg, position: int, mode: str) -> torch.dtype:
    name = arg.name.lower()
    if mode == "all_float":
        return torch.float32
    if mode == "all_long":
        return torch.int64
    if mode == "first_float":
        return torch.float32 if position == 0 else torch.int64
    if any(w in name for w in BOOL_WORDS):
        return torch.bool
    return torch.int64 if is_index_name(name) else torch.float32


def _hand_baselines() -> dict:
    """Baselines the generic search cannot find (arguments whose shapes must agree)."""
    lp, tg = TSpec((5, 1, 3), torch.float32), TSpec((1, 2), torch.int64, fill=1)
    common = {"log_probs": lp, "targets": tg, "blank": 0, "reduction": 1, "zero_infinity": False}
    bag = {
        "weight": TSpec((4, 4), torch.float32),
        "indices": TSpec((4,), torch.int64),
        "offsets": TSpec((2,), torch.int64),
        "scale_grad_by_freq": False,
        "mode": 0,
        "sparse": False,
        "per_sample_weights": None,
        "include_last_offset": False,
    }
    return {
        "aten::embedding_bag.default": bag,
        "aten::embedding_bag.padding_idx": {**bag, "padding_idx": None},
        "aten::ctc_loss.IntList": {**common, "input_lengths": [5], "target_lengths": [2]},
        "aten::ctc_loss.Tensor": {
            **common,
            "input_lengths": TSpec((1,), torch.int64, fill=5),
            "target_lengths": TSpec((1,), torch.int64, fill=2),
        },
    }


def choice(schema, k: int) -> dict:
    """The k-th baseline choice of every argument (KeyError: one the audit cannot make)."""
    if k == attempts():  # the last attempt, after the generic ones (whose crashes count)
        return _hand_baselines()[f"{schema.name}.{schema.overload_name or 'default'}"]
    combos = list(itertools.product(range(len(SHAPES)), DTYPE_MODES, range(3), range(2)))
    s, mode, k_int, k_opt = combos[k]
    shape, specs, position = SHAPES[s], {}, 0
    for arg in schema.arguments:
        t = _type(arg)
        if t in ("Tensor", "Optional[Tensor]"):
            optional = t != "Tensor"
            if optional and (k_opt == 1 or not is_index_name(arg.name)) and mode == "named":
                specs[arg.name] = None
                continue
            specs[arg.name] = TSpec(shape, _tensor_dtype(arg, position, mode))
            position += 1
        elif t == "List[Tensor]":
            specs[arg.name] = [TSpec(shape, _tensor_dtype(arg, position, mode))] * 2
            position += 1
        elif t == "List[Optional[Tensor]]":
            specs[arg.name] = [TSpec(shape, torch.int64)]
        else:
            specs[arg.name] = _scalar_default(arg, k_int, shape)
    return specs


def attempts() -> int:
    return min(MAX_ATTEMPTS, len(SHAPES) * len(DTYPE_MODES) * 3 * 2)


# ---------------------------------------------------------------- adversarial variants
def variants(schema, base: dict) -> list[tuple[str, dict]]:
    """(label, specs) with one argument of the baseline replaced by an adversarial value."""
    found = []
    for arg in schema.arguments:
        value, t = base[arg.name], _type(arg)
        for label, new in _mutations(arg.name, t, value):
            found.append((f"{arg.name}:{label}", {**base, arg.name: new}))
    import audit_index_hand  # noqa: PLC0415  (the hand-made baselines' own combined variants)

    for label, overrides in audit_index_hand.extra_variants(_key(schema), base):
        found.append((label, {**base, **overrides}))
    return found


def _key(schema) -> str:
    return f"{schema.name}.{schema.overload_name or 'default'}"


def _mutations(name: str, t: str, value) -> list:
    if any(w in name for w in FLOAT_NAMES):
        floats = _float_mutations(t, value)
        if floats:
            return floats + (_tensor_mutations(value) if isinstance(value, TSpec) else [])
    if isinstance(value, TSpec):
        return _tensor_mutations(value)
    if isinstance(value, list) and value and isinstance(value[0], TSpec):
        return [(f"[0].{lab}", [new, *value[1:]]) for lab, new in _tensor_mutations(value[0])]
    if t in ("int", "SymInt", "Optional[int]", "Optional[SymInt]") and not _dtype_like(name, t):
        return [(f"={v}", v) for v in INT_VALUES]
    if "List[int]" in t or "List[SymInt]" in t:
        return _list_mutations(value if isinstance(value, list) else [])
    return []


def _float_mutations(t: str, value) -> list:
    if isinstance(value, TSpec) and value.dtype.is_floating_point:
        return [(f"ffill={v}", replace(value, ffill=v)) for v in FLOAT_VALUES]
    if t in ("float", "Optional[float]"):
        return [(f"={v}", v) for v in FLOAT_VALUES]
    if "List[float]" in t and isinstance(value, list):
        return [(f"all={v}", [v] * len(value)) for v in FLOAT_VALUES]
    return []


def _dtype_like(name: str, t: str) -> bool:
    return name in ("dtype", "layout", "memory_format") or "ScalarType" in t


def _tensor_mutations(spec: TSpec) -> list:
    found = []
    if not spec.dtype.is_floating_point and spec.dtype != torch.bool:
        found += [(f"fill={v}", replace(spec, fill=v)) for v in INDEX_VALUES]
        if spec.shape:
            longer = (spec.shape[0] * 2 + 1, *spec.shape[1:])
            found += [
                ("longer", replace(spec, shape=longer)),
                ("shorter", replace(spec, shape=(1, *spec.shape[1:]))),
            ]
    found += [("empty", replace(spec, shape=(0, *spec.shape[1:]) if spec.shape else (0,)))]
    if spec.shape:
        found += [
            ("stride0", replace(spec, layout="stride0")),
            ("noncontig", replace(spec, layout="noncontig")),
        ]
    return found


def _list_mutations(value: list) -> list:
    found = [(f"all={v}", [v] * max(1, len(value))) for v in LIST_VALUES]
    found += [("longer", value + [1] * 4), ("empty", [])]
    if len(value) > 1:
        found.append(("shorter", value[:-1]))
    return found


# ---------------------------------------------------------------- one call, judged
def call_once(op, schema, specs: dict, pattern: str):
    """(error or None, guards intact, snapshot of results and tensor arguments)."""
    torch.manual_seed(0)
    built = build(schema, specs, pattern)
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            result = op(*built.args, **built.kwargs)
    except Exception as e:  # noqa: BLE001  (deliberate: any raise is the op refusing)
        first = (str(e).strip().splitlines() or [""])[0]
        return f"{type(e).__name__}: {first[:160]}", built.guards_intact(), None
    return None, built.guards_intact(), snapshot([result, built.tensors])


def snapshot(value) -> list:
    if isinstance(value, torch.Tensor):
        t = value.detach()
        if t.layout != torch.strided:
            return [repr(t)]
        dense = torch.empty(t.shape, dtype=t.dtype).copy_(t).reshape(-1)
        return [(tuple(t.shape), str(t.dtype), dense.view(torch.uint8))]
    if isinstance(value, (list, tuple)):
        return [x for v in value for x in snapshot(v)]
    return [repr(value)]


def same(a: list, b: list) -> bool:
    if len(a) != len(b):
        return False
    for x, y in zip(a, b):
        if isinstance(x, tuple) and isinstance(y, tuple):
            if x[:2] != y[:2] or not torch.equal(x[2], y[2]):
                return False
        elif x != y:
            return False
    return True


def judge(op, schema, specs: dict) -> dict:
    try:
        return _judge(op, schema, specs)
    except Exception as e:  # noqa: BLE001  (deliberate: the audit's own failure, reported)
        return {"outcome": "audit_error", "error": repr(e)[:200]}


def _judge(op, schema, specs: dict) -> dict:
    ea, ga, sa = call_once(op, schema, specs, "A")
    eb, gb, sb = call_once(op, schema, specs, "B")
    if not (ga and gb):
        return {"outcome": "writes_past", "error": ea or eb}
    if ea and eb:
        return {"outcome": "raises", "error": ea}
    if ea or eb:
        return {
            "outcome": "reads_past",
            "error": f"raised under one guard pattern only: {ea or eb}",
        }
    if not same(sa, sb):
        return {"outcome": "reads_past", "error": None}
    return {"outcome": "ok", "error": None}


# ---------------------------------------------------------------- the child's loop
def run(op, schema, skip: set, emit) -> None:
    """Find a baseline, then judge every variant; `emit(kind, label, payload)` reports."""
    base, verdict = None, {"error": None}
    import audit_index_hand  # noqa: PLC0415

    hand = audit_index_hand.baseline(schema)
    if hand is not None and "baseline#hand" not in skip:
        emit("start", "baseline#hand", None)
        verdict = judge(op, schema, hand)
        if verdict["outcome"] != "raises":
            emit("result", "baseline", {**verdict, "attempt": "hand", "specs": describe(hand)})
            base = hand
    for k in range(attempts() + 1 if hand is None else 0):  # a hand baseline's op: no search
        label = f"baseline#{k}"
        try:
            specs = choice(schema, k)
        except (KeyError, IndexError) as e:
            if k == attempts():
                break  # no hand-written baseline
            emit("result", "baseline", {"outcome": "unsupported", "error": str(e)})
            return
        if label in skip:
            continue
        emit("start", label, None)
        verdict = judge(op, schema, specs)
        if verdict["outcome"] != "raises":
            emit("result", "baseline", {**verdict, "attempt": k, "specs": describe(specs)})
            base = specs
            break
    if base is None:
        emit(
            "result",
            "baseline",
            {"outcome": "no_baseline", "error": verdict["error"], "hand": hand is not None},
        )
        return
    for label, specs in variants(schema, base):
        if label in skip:
            continue
        emit("start", label, None)
        emit("result", label, judge(op, schema, specs))


def describe(specs: dict) -> str:
    def one(v):
        if isinstance(v, TSpec):
            return f"{str(v.dtype).replace('torch.', '')}{list(v.shape)}"
        if isinstance(v, list) and v and isinstance(v[0], TSpec):
            return "[" + ", ".join(one(x) for x in v) + "]"
        return repr(v)

    return json.dumps({k: one(v) for k, v in specs.items()})
