"""Audit of the aten ops a candidate may reach that take index data (session 50f).

Red team rt52 found aten CPU kernels that trust index data (a sparse COO index wrote past a
dense tensor, CTC loss's targets read past its log-probabilities). This audit is the
systematic version of their guess list:

1. enumerate what the static layer allows (evaluator.static_namespaces.tables(): torch,
   torch.nn.functional, torch.linalg/fft/special; the tensor methods not in
   static_allowlist.DENIED_ATTRIBUTES) and map each name to its aten overloads
   (torch._C._jit_get_all_schemas()); keep the overloads with an integer argument (int,
   int[], int?, SymInt...) or a tensor argument whose name says it is index data (indices,
   offsets, lengths, targets, sorter, repeats, pivots, ...), and no `out=` overloads;
2. call each overload in a forked child (a crash or hang kills the child, never the audit),
   one at a time, with adversarial values (scripts/audit_index_probe.py: huge, negative, just
   past the end, mismatched lengths, empty, zero-stride and non-contiguous tensors);
3. flag an overload whose call crashed, hung, wrote into the guard bytes around a tensor's
   storage, or whose result depends on those guard bytes (a read past the storage).

    PYTHONPATH=$PWD python scripts/audit_index_ops.py [--only NAME ...] [--limit N] [--merge]

Ops whose arguments must agree (convolutions, pads, upsampling, grid_sampler, max_unpool, ...)
take a hand-made baseline (scripts/audit_index_hand.py, session 51d), with variants that make
several sizes adversarial together and grids/scale factors non-finite or near 2**63; --merge
replaces only the probed overloads' rows of the existing report.

writes docs/audits/index_ops.json and docs/audits/index_ops.md. CTC loss (refused since rt52)
is probed as a positive control: the audit must flag it."""

from __future__ import annotations

import argparse
import json
import os
import resource
import select
import signal
import sys
import time
from collections import Counter
from pathlib import Path

import torch

sys.path.insert(0, str(Path(__file__).resolve().parent))
import audit_index_hand as hand  # noqa: E402
import audit_index_probe as probe  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
REPORT = ROOT / "docs" / "audits" / "index_ops"
# refused (rt52, and after this audit flagged them): still probed, and must stay flagged
CONTROLS = frozenset(
    {
        "ctc_loss",
        "embedding_bag",
        "median",
        "nanmedian",
        "lstm",
        "mkldnn_rnn_layer",
        "set_",
        "grid_sampler",
        "grid_sampler_2d",
        "grid_sampler_3d",
        "lu_unpack",
        "segment_reduce",
        "as_strided_",
        "native_batch_norm",
        "batch_norm_update_stats",
        "batch_norm_stats",
        "batch_norm_elemt",
        "batch_norm_gather_stats",
        "batch_norm_gather_stats_with_counts",
        "batch_norm_backward_reduce",
        "batch_norm_backward_elemt",
        "gru",
        "rnn_tanh",
        "rnn_relu",
    }
)
# flagged ops a candidate still reaches, their sizes bounded in its child instead of refused:
# the audit calls aten directly, so they stay flagged here
_SIZES = "sizes bounded in the candidate child (evaluator.watched_reads.{})"
BOUNDED = {
    **dict.fromkeys(("im2col", "col2im"), _SIZES.format("unfold_sizes_checked")),
    **dict.fromkeys(
        ("conv3d", "slow_conv3d", "replication_pad2d", "replication_pad3d"),
        _SIZES.format("conv_and_pad_sizes_checked") + ": F.conv*/torch.conv*, "
        "nn.Conv*, F.pad, nn.*Pad*",
    ),
    "max_pool1d": _SIZES.format("conv_and_pad_sizes_checked") + ": torch.max_pool1d, "
    "which F.max_pool1d and nn.MaxPool1d call",
    **dict.fromkeys(
        ("avg_pool3d", "narrow_copy"),
        "an overlapping out= refused in the "
        "candidate child (evaluator.watched_reads.outputs_not_overlapping): "
        "F.avg_pool3d is aten's avg_pool3d, torch.narrow_copy",
    ),
    **dict.fromkeys(
        ("slow_conv_transpose2d", "slow_conv_transpose3d"),
        "no spelling reaches it with a kernel_size of its own "
        "(F.conv_transpose2d takes the weight's); sizes bounded "
        "(watched_reads.conv_and_pad_sizes_checked)",
    ),
}
QUIET_S = 10.0  # a child silent this long is hung
OP_BUDGET_S = 90.0
MEMORY_HEADROOM = 3 << 30
FLAGS = ("crash", "timeout", "writes_past", "reads_past")
INT_TYPES = (
    "int",
    "SymInt",
    "List[int]",
    "List[SymInt]",
    "Optional[int]",
    "Optional[SymInt]",
    "Optional[List[int]]",
    "Optional[List[SymInt]]",
)
NO_INDEX = ("dtype", "layout", "memory_format")
# nondeterministic by contract: their output is uninitialised memory or a fresh draw
UNINITIALISED = ("empty", "resize")


# ---------------------------------------------------------------- what is allowed
def allowed_spellings() -> dict[str, list[str]]:
    """aten op name -> the spellings the static layer allows for it."""
    from evaluator.static_allowlist import DENIED_ATTRIBUTES, STORAGE_NAMES_ALLOWED
    from evaluator.static_namespaces import tables

    ns = tables().namespaces
    spell: dict[str, list[str]] = {}

    def add(aten: str, spelling: str) -> None:
        spell.setdefault(aten, []).append(spelling)

    for n in ns["torch"]:
        add(n, f"torch.{n}")
    for n in ns["torch.nn.functional"]:
        add(n, f"torch.nn.functional.{n}")
    for n in dir(torch._C._nn):  # the kernels nn.functional's Python wrappers call
        if not n.startswith("_"):
            add(n, f"torch._C._nn.{n} (via torch.nn.functional)")
    for sub in ("linalg", "fft", "special"):
        for n in ns.get(f"torch.{sub}", ()):
            add(f"{sub}_{n}" if not n.startswith(f"{sub}_") else n, f"torch.{sub}.{n}")
    for n in dir(torch.Tensor):
        if n.startswith("_") or n in DENIED_ATTRIBUTES or "hook" in n:
            continue
        if "storage" in n and n not in STORAGE_NAMES_ALLOWED:
            continue
        add(n, f"Tensor.{n}")
    for n in CONTROLS:
        add(n, "(refused: probed as a control)")
    return spell


def _type(arg) -> str:
    return str(getattr(arg, "real_type", arg.type))


def index_arguments(schema) -> list[str]:
    """The arguments that may index memory: integers, and tensors named as index data."""
    found = []
    for arg in schema.arguments:
        t = _type(arg)
        if t in INT_TYPES and arg.name not in NO_INDEX:
            found.append(arg.name)
        elif "Tensor" in t and (probe.is_index_name(arg.name) or t == "List[Optional[Tensor]]"):
            found.append(arg.name)
    return found


def _is_out_name(overload: str) -> bool:
    return overload == "out" or overload.endswith("_out")


def _is_out(schema) -> bool:
    return any(
        a.kwarg_only and a.alias_info is not None and a.alias_info.is_write
        for a in schema.arguments
    ) or schema.overload_name.endswith("out")


def enumerate_overloads(spell: dict, with_out: bool = False) -> list[dict]:
    """Every aten overload of an allowed name that takes index data (out= ones on request:
    only those whose functional overload has a hand baseline can run)."""
    found, skipped = [], Counter()
    for schema in torch._C._jit_get_all_schemas():
        if not schema.name.startswith("aten::"):
            continue
        name = schema.name[len("aten::") :]
        if name not in spell:
            continue
        if _is_out(schema) and not with_out:
            skipped["out="] += 1
            continue
        idx = index_arguments(schema)
        if not idx and with_out == "all" and _is_out(schema):
            idx = [a.name for a in schema.arguments if "Tensor" in _type(a)]  # the out= itself
        key = f"{name}.{schema.overload_name or 'default'}"
        if not idx and key in hand.AGREEING and not _is_out(schema):  # lengths that must agree
            idx = [a.name for a in schema.arguments if "Tensor" in _type(a)]
        if not idx:
            skipped["no index argument"] += 1
            continue
        found.append(
            {
                "name": name,
                "overload": schema.overload_name or "default",
                "schema": str(schema),
                "spellings": sorted(spell[name]),
                "index_args": idx,
                "_schema": schema,
            }
        )
    found.sort(key=lambda r: (r["name"], r["overload"]))
    return found, dict(skipped)


def resolve(name: str, overload: str):
    packet = getattr(torch.ops.aten, name)
    return getattr(packet, overload)


# ---------------------------------------------------------------- the forked child
def _child(entry: dict, skip: set, wfd: int) -> None:
    limit = _vm_size() + MEMORY_HEADROOM
    resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
    resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
    out = os.fdopen(wfd, "w", buffering=1)

    def emit(kind: str, label: str, payload) -> None:
        out.write(json.dumps({"kind": kind, "label": label, "payload": payload}) + "\n")

    try:
        op = resolve(entry["name"], entry["overload"])
        probe.run(op, entry["_schema"], skip, emit)
    except BaseException as e:  # noqa: BLE001  (deliberate: reported, then the child exits)
        emit("result", "child", {"outcome": "audit_error", "error": repr(e)[:200]})
    out.flush()
    os._exit(0)


def _vm_size() -> int:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmSize:"):
            return int(line.split()[1]) * 1024
    return 8 << 30


def _fork(entry: dict, skip: set):
    rfd, wfd = os.pipe()
    pid = os.fork()
    if pid == 0:
        os.close(rfd)
        _child(entry, skip, wfd)
    os.close(wfd)
    return pid, rfd


def _drain(pid: int, rfd: int, deadline: float) -> tuple[list[dict], str | None]:
    """Lines the child wrote, and how it ended when not cleanly (crash/timeout)."""
    lines, buf, ended = [], b"", None
    while True:
        ready, _, _ = select.select([rfd], [], [], QUIET_S)
        if not ready or time.monotonic() > deadline:
            os.kill(pid, signal.SIGKILL)
            ended = "timeout"
            break
        chunk = os.read(rfd, 65536)
        if not chunk:
            break
        buf += chunk
        *done, buf = buf.split(b"\n")
        lines += [json.loads(d) for d in done if d]
    os.close(rfd)
    _, status = os.waitpid(pid, 0)
    if ended is None and os.WIFSIGNALED(status):
        ended = f"crash: {signal.Signals(os.WTERMSIG(status)).name}"
    return lines, ended


def probe_overload(entry: dict) -> dict:
    """Every probe of one overload; a child that dies is re-forked past the fatal probe."""
    results: dict[str, dict] = {}
    skip: set[str] = set()
    deadline = time.monotonic() + OP_BUDGET_S
    while True:
        pid, rfd = _fork(entry, skip)
        lines, ended = _drain(pid, rfd, deadline)
        last = None
        for line in lines:
            if line["kind"] == "start":
                last = line["label"]
            else:
                results[line["label"]] = line["payload"]
                skip.add(line["label"])
                last = None if line["label"] == last or line["label"] == "baseline" else last
        if ended is None or last is None or time.monotonic() > deadline:
            if ended and last is None:
                results["child"] = {"outcome": ended.split(":")[0], "error": ended}
            break
        results[last] = {"outcome": ended.split(":")[0], "error": ended}
        skip.add(last)
    return _summarise(entry, results)


def _summarise(entry: dict, results: dict) -> dict:
    base = results.get("baseline", {})
    nondet = base.get("outcome") == "reads_past" or any(w in entry["name"] for w in UNINITIALISED)
    probes = {k: v for k, v in results.items() if not k.startswith("baseline#")}
    probes.update(
        {k: v for k, v in results.items() if k.startswith("baseline#") and v["outcome"] in FLAGS}
    )
    flagged = {}
    for label, verdict in probes.items():
        outcome = verdict["outcome"]
        if outcome == "reads_past" and nondet:
            verdict["outcome"] = "differs_nondeterministic"
        elif outcome in FLAGS:
            flagged[label] = verdict
    counts = Counter(v["outcome"] for k, v in probes.items() if k != "baseline")
    row = {k: v for k, v in entry.items() if k != "_schema"}
    errors = {k: v["error"] for k, v in probes.items() if v["outcome"] == "audit_error"}
    row.update(
        baseline=base,
        counts=dict(counts),
        flagged=flagged,
        nondeterministic=nondet,
        audit_errors=errors,
    )
    return row


# ---------------------------------------------------------------- report
def write_report(rows: list[dict], skipped: dict, seconds: float) -> None:
    REPORT.parent.mkdir(parents=True, exist_ok=True)
    meta = {
        "torch": torch.__version__,
        "overloads": len(rows),
        "skipped": skipped,
        "probes": sum(sum(r["counts"].values()) for r in rows),
        "seconds": round(seconds),
    }
    REPORT.with_suffix(".json").write_text(json.dumps({"meta": meta, "ops": rows}, indent=1))
    REPORT.with_suffix(".md").write_text(_markdown(rows, meta))


def _markdown(rows: list[dict], meta: dict) -> str:
    flagged = [r for r in rows if r["flagged"]]
    no_base = [
        r for r in rows if r["baseline"].get("outcome") in (None, "no_baseline", "unsupported")
    ]
    out = [
        f"# Index-data audit of the allowed aten ops ({meta['torch']})",
        "",
        "Made by `scripts/audit_index_ops.py` (see its docstring and docs/threat_model.md). "
        f"{meta['overloads']} overloads, {meta['probes']} adversarial probes, "
        f"{meta['seconds']} s; overloads left out: {meta['skipped']}.",
        "",
        "## Flagged",
        "",
        'Every flagged op is refused ("refused: probed as a control"), bounded '
        "in the candidate child, or not reachable as probed (the last column says which).",
        "",
        "| op | overload | probe | outcome | detail | spellings, or how it is closed |",
        "|---|---|---|---|---|---|",
    ]
    for r in flagged:
        for label, v in r["flagged"].items():
            spelled = BOUNDED.get(r["name"], ", ".join(r["spellings"]))
            if r["overload"].endswith("out") and not _out_reachable(r["spellings"]):
                spelled = (
                    "out= unreachable: no allowed spelling takes out= (F's Python "
                    "wrappers pass none; torch._C._nn is not spelled)"
                )
            out.append(
                f"| {r['name']} | {r['overload']} | `{label}` | {v['outcome']} | "
                f"{_cell(v.get('error'))} | {_cell(spelled)} |"
            )
    out += [
        "",
        f"## No baseline call found ({len(no_base)}: probed with adversarial values "
        "only through the first choice; a raise there says little. Most are other backends' "
        "ops (cudnn_*, miopen_*, mkldnn_* on mkldnn tensors) or scalar overloads; "
        "scripts/audit_index_hand.py builds the others')",
        "",
        ", ".join(f"`{r['name']}.{r['overload']}`" for r in no_base),
        "",
        "## Every overload probed",
        "",
        "| op | overload | baseline | outcomes |",
        "|---|---|---|---|",
    ]
    for r in rows:
        counts = ", ".join(f"{k} {v}" for k, v in sorted(r["counts"].items()))
        out.append(
            f"| {r['name']} | {r['overload']} | {r['baseline'].get('outcome', '?')} | {counts} |"
        )
    return "\n".join(out) + "\n"


def _out_reachable(spellings: list[str]) -> bool:
    """Whether a candidate can hand the op an out=: a torch.* builtin, or an F.* that is the
    aten builtin itself or a Python function with an `out` parameter (a refused op: True)."""
    import inspect

    import torch.nn.functional as F  # noqa: N812

    for sp in spellings:
        if sp.startswith("(refused"):
            return True
        if sp.startswith("torch.nn.functional."):
            fn = getattr(F, sp.rsplit(".", 1)[1], None)
            if fn is None:
                continue
            try:
                if "out" in inspect.signature(fn).parameters:
                    return True
            except (TypeError, ValueError):
                return True  # a builtin: aten's own binding, out= and all
        elif sp.startswith("torch.") and not sp.startswith("torch._C."):
            return True
    return False


def _cell(text) -> str:
    return str(text or "").replace("|", "/").replace("\n", " ")[:140]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--only", nargs="*", help="aten op names to probe (default: all)")
    parser.add_argument("--limit", type=int, default=0)
    parser.add_argument("--no-report", action="store_true")
    parser.add_argument(
        "--out",
        nargs="?",
        const="index",
        choices=("index", "all"),
        help="probe the out= overloads (with index data; 'all': every one)",
    )
    parser.add_argument(
        "--merge",
        action="store_true",
        help="replace only the probed overloads' rows of the existing report",
    )
    opts = parser.parse_args()
    torch.set_num_threads(1)
    entries, skipped = enumerate_overloads(allowed_spellings(), opts.out)
    if opts.out:  # out= overloads whose functional overload has a hand baseline, only
        entries = [
            e for e in entries if _is_out(e["_schema"]) and hand.has_out_baseline(e["_schema"])
        ]
    if opts.only:
        entries = [e for e in entries if e["name"] in opts.only]
    if opts.limit:
        entries = entries[: opts.limit]
    start, rows = time.monotonic(), []
    for i, entry in enumerate(entries):
        rows.append(probe_overload(entry))
        mark = "FLAGGED " + ",".join(sorted(rows[-1]["flagged"])) if rows[-1]["flagged"] else ""
        print(
            f"[{i + 1}/{len(entries)}] {entry['name']}.{entry['overload']} "
            f"{rows[-1]['baseline'].get('outcome')} {rows[-1]['counts']} {mark}",
            flush=True,
        )
    if opts.no_report:
        return
    seconds = time.monotonic() - start
    if opts.merge and REPORT.with_suffix(".json").exists():
        old = json.loads(REPORT.with_suffix(".json").read_text())
        new = {(r["name"], r["overload"]): r for r in rows}
        kept = [r for r in old["ops"] if (r["name"], r["overload"]) not in new]
        rows = sorted(kept + rows, key=lambda r: (r["name"], r["overload"]))
        seconds += old["meta"].get("seconds", 0)
        now = enumerate_overloads(allowed_spellings())[1]  # today's counts (AGREEING grows)
        skipped = {k: v for k, v in now.items() if not k.startswith("out=")}
        out_total = now.get("out=", 0)
        probed = len([r for r in rows if _is_out_name(r["overload"])])
        skipped.update({"out= (not probed)": out_total - probed} if probed else {"out=": out_total})
    write_report(rows, skipped, seconds)


if __name__ == "__main__":
    main()
