"""Hand-made baselines for scripts/audit_index_probe.py (session 51d).

The generic baseline search of audit_index_probe tries one shape for every tensor argument; ops
whose arguments must agree (a convolution's weight with its input, a grid with its input,
col2im's column count with its sizes, max_unpool's indices with its output size) never ran, so
session 50f's audit left them "no_baseline" and never probed them with adversarial sizes
(F.fold read and wrote out of bounds: red team rt54). Each entry here names the arguments that
must agree; the others take their schema default (or None where optional). `EXTRA` adds
variants that change several arguments at once: a size computed as in + 2*padding -
dilation*(kernel-1) wraps around int64 only when two of them are huge together (im2col's
reads past its input, session 50f), and a grid's non-finite values under every padding mode
and align_corners. Session 52f: AGREEING, overloads with no integer argument whose tensors must
agree in length (gradient's spacing, orgqr's tau, batch_norm's running stats, an rnn's
batch_sizes and weights), probed with each tensor shorter, longer and empty in turn."""

from __future__ import annotations

import torch
from audit_index_probe import TSpec, _scalar_default, _type
from audit_index_table import F32, I64, f
from audit_index_table import table as _table

BIG = (2**62, 2**63 - 1, -(2**62), 2**31)


_TABLE: dict | None = None
# Overloads with no integer argument whose tensors' lengths must agree (session 52f): probed
# anyway, with every float tensor shorter, longer, one element and empty (SIZE_VALUES) in turn.
AGREEING = (
    "gradient.tensorarray",
    "gradient.tensorarrayint",
    "gradient.scalarrayarray",
    "gradient.scalarrayint",
    "orgqr.default",
    "ormqr.default",
    "linalg_householder_product.default",
    "batch_norm_update_stats.default",
    "batch_norm_stats.default",
    "batch_norm_elemt.default",
    "batch_norm_gather_stats.default",
    "batch_norm_gather_stats_with_counts.default",
    "batch_norm_backward_reduce.default",
    "batch_norm_backward_elemt.default",
    *(f"{n}.{o}" for n in ("gru", "rnn_tanh", "rnn_relu") for o in ("input", "data")),
    "gru_cell.default",
    "rnn_tanh_cell.default",
    "rnn_relu_cell.default",
    "lstm_cell.default",
)


def _out_args(schema) -> list:
    return [
        a
        for a in schema.arguments
        if a.kwarg_only and a.alias_info is not None and a.alias_info.is_write
    ]


def _functional(schema):
    """The functional overload an out= overload writes the results of (None: not out=)."""
    over = schema.overload_name
    if not _out_args(schema) or not (over == "out" or over.endswith("_out")):
        return None
    name = schema.name[len("aten::") :]
    base = "default" if over == "out" else over[: -len("_out")]
    packet = getattr(torch.ops.aten, name)
    return getattr(packet, base, None)


def has_out_baseline(schema) -> bool:
    global _TABLE
    if _TABLE is None:
        _TABLE = _table()
    return _functional(schema) is not None


def _key(schema) -> str:
    return f"{schema.name[len('aten::') :]}.{schema.overload_name or 'default'}"


def _out_baseline(schema) -> dict | None:
    """An out= overload: the functional overload's hand baseline, its results' exact shapes as
    the outputs (a guarded storage cannot be resized: a wrong shape only raises)."""
    import audit_index_probe as probe

    fun = _functional(schema)
    if fun is None:
        return None
    hand = baseline(fun._schema)
    tries = [hand] if hand is not None else []
    if hand is None:  # the generic search's choices for the functional overload, in turn
        for k in range(probe.attempts()):
            try:
                tries.append(probe.choice(fun._schema, k))
            except (KeyError, IndexError):
                break
    result = specs = None
    for specs in tries:
        built = probe.build(fun._schema, specs, "A")
        try:
            torch.manual_seed(0)
            result = fun(*built.args, **built.kwargs)
            break
        except Exception:  # noqa: BLE001  (the next choice; none: no baseline)
            result = None
    if result is None:
        return None
    results = list(result) if isinstance(result, (tuple, list)) else [result]
    outs = _out_args(schema)
    if len(results) != len(outs):
        return None
    specs = dict(specs)
    for arg, r in zip(outs, results):
        if not isinstance(r, torch.Tensor) or r.layout != torch.strided:
            return None
        specs[arg.name] = TSpec(tuple(r.shape), r.dtype)
    return specs


def baseline(schema) -> dict | None:
    """Every argument's spec for the schema's hand baseline; None: it has none."""
    global _TABLE
    if _TABLE is None:
        _TABLE = _table()
    if _out_args(schema):
        return _out_baseline(schema)
    given = _TABLE.get(f"{schema.name[len('aten::') :]}.{schema.overload_name or 'default'}")
    if given is None:
        return None
    specs = {}
    for arg in schema.arguments:
        if arg.name in given:
            specs[arg.name] = given[arg.name]
        elif arg.has_default_value():
            specs[arg.name] = arg.default_value
        elif _type(arg).startswith("Optional["):
            specs[arg.name] = None
        else:
            specs[arg.name] = _scalar_default(arg, 0, ())
    return specs


def extra_variants(key: str, base: dict) -> list[tuple[str, dict]]:
    """(label, overrides): several arguments adversarial at once."""
    name = key[len("aten::") :]
    found = []
    sizes = [
        a
        for a in ("padding", "dilation", "stride", "output_padding", "kernel_size")
        if isinstance(base.get(a), list) and base[a]
    ]
    for a in sizes:  # two sizes huge together: in + 2*pad - dil*(k-1) wraps around
        for b in sizes:
            if a < b:
                for v in BIG[:3]:
                    n = len(base[a])
                    found.append((f"{a}+{b}:all={v}", {a: [v] * n, b: [v] * len(base[b])}))
    if "padding" in base and "dilation" in base and isinstance(base["padding"], list):
        n = len(base["padding"])  # im2col's wrap: padding 2**62, dilation 2**62 and kernel 2..3
        found.append(
            (
                "padding=2**62,dilation=2**63-1",
                {"padding": [2**62] * n, "dilation": [2**63 - 1] * n},
            )
        )
    if "grid" in base:
        for mode in (0, 1, 2):
            for pad in (0, 1, 2):
                for ac in (False, True):
                    for v in (float("nan"), float("inf"), float("-inf"), 2.0**62, -(2.0**62), 1e30):
                        found.append(
                            (
                                f"grid:ffill={v},mode={mode},pad={pad},ac={ac}",
                                {
                                    "grid": TSpec(base["grid"].shape, F32, ffill=v),
                                    "interpolation_mode": mode,
                                    "padding_mode": pad,
                                    "align_corners": ac,
                                },
                            )
                        )
    if "scale_factors" in base:
        n = len(base["output_size"])
        for v in (2.0**62, 2.0**63, 1e300, 1e-30, float("inf"), float("nan"), -1.0, 2.0**31):
            for ac in (False, True):
                found.append(
                    (
                        f"output_size=None,scale_factors=all={v},ac={ac}",
                        {
                            "output_size": None,
                            "scale_factors": [v] * n,
                            **({"align_corners": ac} if "align_corners" in base else {}),
                        },
                    )
                )
    if name.startswith("segment_reduce"):
        for v in (4, 100000, -5, 2**40):
            found.append(
                (
                    f"unsafe=True,lengths:fill={v}",
                    {"unsafe": True, "lengths": TSpec((2,), I64, fill=v)},
                )
            )
    if name in AGREEING:
        for a, spec in base.items():
            tensors = spec if isinstance(spec, list) else [spec]
            for k, t in enumerate(tensors):
                if not isinstance(t, TSpec) or not t.shape:
                    continue
                for lab, shape in (
                    ("1", (1, *t.shape[1:])),
                    ("longer", (t.shape[0] * 4 + 1, *t.shape[1:])),
                    ("empty", (0, *t.shape[1:])),
                    ("last+3", (*t.shape[:-1], t.shape[-1] + 3)),
                    ("last=1", (*t.shape[:-1], 1)),
                ):
                    new = TSpec(shape, t.dtype, fill=t.fill, ffill=t.ffill)
                    val = [*tensors[:k], new, *tensors[k + 1 :]] if isinstance(spec, list) else new
                    found.append(
                        (f"{a}{f'[{k}]' if isinstance(spec, list) else ''}:{lab}", {a: val})
                    )
        if isinstance(base.get("spacing"), list) and not isinstance(base["spacing"][0], TSpec):
            n = len(base["spacing"])
            for v in (2.0**63, -(2.0**63), 1e-300, 0.0, float("nan"), 2**63 - 1, -(2**63)):
                found.append((f"spacing:all={v}", {"spacing": [v] * n}))
            found += [
                ("spacing:longer", {"spacing": [1.0] * (n + 3)}),
                ("spacing:empty", {"spacing": []}),
            ]
        if "momentum" in base:
            for v in (0.0, 1.0, -1e30, float("nan")):
                found.append(
                    (f"running_mean:1,momentum={v}", {"running_mean": f(1), "momentum": v})
                )
    if name.startswith("max_unpool"):
        shape = base["indices"].shape
        for v in (16, 64, 65, 100000, -1, -100000, 2**40):
            found.append(
                (
                    f"indices:fill={v},self:noncontig",
                    {
                        "indices": TSpec(shape, I64, fill=v),
                        "self": TSpec(base["self"].shape, F32, layout="noncontig"),
                    },
                )
            )
    return found
