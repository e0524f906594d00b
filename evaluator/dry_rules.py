"""The dry model's rules at the declared sizes (evaluator.dry_phase): given the model's counts of
what the forward's launches stored at the CPU's sizes and at the declared ones (dry_launch's
`storages`), which storage, kernel or store site came out short. Pure functions of those dicts:
dry_phase runs the models and words the refusal. Each rule's reason is in its docstring and in
dry_phase's module docstring.
"""
from __future__ import annotations


def _short(cpu: dict, dec: dict, union_only: bool = False) -> tuple[str, str, int, int] | None:
    """(storage, element size, elements, stored) of the first storage stored whole at the CPU's
    sizes and not at the declared ones (or of a returned tensor, `output i`, whose own elements
    were: a view of a longer storage); None where there is none. Then, unless `union_only`, the
    same of what one kernel updated in place (`_updated_short`: its size is `kernel@size`)."""
    for name, seen in cpu["storages"].items():
        there = dec["storages"].get(name)
        if there is None:
            continue
        if "elements" in seen:  # a returned tensor's own elements
            if seen["elements"] and seen["stored"] == seen["elements"] and there["stored"] < there["elements"]:
                return name, "its", int(there["elements"]), int(there["stored"])
            steered = _steered_short(seen, there, None, int(seen["elements"]), int(there["elements"]))
            if steered is not None:
                return name, f"its{steered[0]}", int(there["elements"]), steered[1]
            continue
        for size in {**seen["stored"], **(seen.get("loose") or {})}:
            count = int(seen["stored"].get(size, 0))
            whole, total = _elements(seen, size), _elements(there, size)
            got = int(there["stored"].get(size, 0))
            if whole and count == whole and got < total:
                return name, size, total, got
            steered = _steered_short(seen, there, size, whole, total)
            if steered is not None:
                return name, f"{size}{steered[0]}", total, steered[1]
    return None if union_only else _updated_short(cpu, dec)


def _steered_short(seen: dict, there: dict, size: str | None, whole: int, total: int) -> tuple[str, int] | None:
    """(":sure" or ":loose", the declared sizes' count) where what the loaded data decides
    (evaluator.dry_taint) leaves a storage (`size`; None: a returned tensor's own elements) short
    at the declared sizes and not at the CPU's: stored for certain whole at the CPU's sizes and
    not at the declared ones (a capped grid's mask ORed with a loaded NaN test stores every
    lane maybe, the first 4096 programs' for certain: red team s65h), or more elements than
    every lane that may store there at the declared sizes (those at known addresses, and every
    lane at an address a loaded value makes, `loose`) where at the CPU's they could all be
    (a capped grid storing at a loaded zero's offset: red team s65e). Without such lanes both
    are the union rule itself."""
    def count(entry: dict, key: str) -> int:
        value = entry.get(key, entry["stored"])
        return int(value if size is None else (value or {}).get(size, entry["stored"].get(size, 0)))
    if not whole or not total:
        return None
    if count(seen, "certain") == whole and count(there, "certain") < total:
        return ":sure", count(there, "certain")
    elem = int(size) if size is not None else int(there.get("itemsize") or 1)
    could = count(there, "stored") + _loose(there, elem)
    if seen.get("loose") and count(seen, "stored") + _loose(seen, elem) >= whole and could < total:
        return ":loose", could
    return None


def _loose(seen: dict, elem: int) -> int:
    """The elements of `elem` bytes the lanes at loaded addresses may store at most: an aligned
    lane of s bytes covers s // elem of them, or one."""
    return sum(int(n) * max(1, int(s) // elem) for s, n in (seen.get("loose") or {}).items())


def _updated_short(cpu: dict, dec: dict) -> tuple[str, str, int, int] | None:
    """A storage (or returned tensor) one kernel updated in place whole at the CPU's sizes (it
    loaded every element, then stored it) and not at the declared ones. The union of every
    launch's stores is no measure of work finished in place: a full-grid Triton copy y = x, then
    a ReLU grid capped at 4096 one-block programs applying max(y, 0) to y, stored all of y at
    the declared sizes, where the GPU leaves all but the first 4M outputs x's negatives (red
    team s61d). Judged per kernel, not for the union of updates: a second full-grid pass
    updating y in place (y * 0.5 after a capped 2 * max(y, 0)) would make that union whole.
    An update is a load of the element before its store in one launch, so an honest split whose
    share moves between kernels with the size (a stream-K matmul's data-parallel tiles, plain
    stores) is never judged by it."""
    for name, seen in cpu["storages"].items():
        there = dec["storages"].get(name)
        if there is None:
            continue
        for key, count in (seen.get("updated") or {}).items():
            whole, total = _elements(seen, key), _elements(there, key)
            got = _got(there.get("updated"), key)
            if whole and count == whole and got < total:
                return name, key, total, got
    return _overwritten_short(cpu, dec)


OVERWRITE_KEPT = 0.9
"""The least part of its share of a storage at the CPU's sizes that a kernel storing over earlier
launches' stores must keep at the declared ones (`_overwritten_short`): a boundary's share moves
with the sizes (a lower triangle of 96 rows is 0.505 of the square, of 4096 rows 0.500)."""


def _overwritten_short(cpu: dict, dec: dict) -> tuple[str, str, int, int] | None:
    """A storage one kernel stored over earlier launches' stores (plain stores: nothing loaded)
    at a smaller share of its elements at the declared sizes than at the CPU's. The union and
    the update rule both passed a needed full-grid launch finished by a capped one that loads
    nothing it overwrites (red team s64d, each ok on main: a full-grid y = x with ReLU on the even
    elements, then a grid capped at 4096 programs storing max(x, 0) into the odd ones; a full-grid
    y = x, then a capped grid storing 0 where x < 0): on the GPU all but the first 4M elements
    keep x's negatives. A stream-K split stores each tile once and is never judged by it; a pass
    over the whole storage keeps its share at every size. A kernel that overwrites nothing at the
    declared sizes is not judged: a forward that takes another path at large sizes (a fix-up pass
    only small inputs need) switches on its sizes, which the GPU's own trials judge.

    Judged per launch too (`kernel#i@size`) where the forward makes the same launches in the
    same order at both sizes: the capped launch's kernel also rewrote, in a full-grid launch of
    its own, 14 in 16 elements already stored right, and kept its share at 0.94 of the CPU's
    (s64d); its capped launch's own share fell to a 128th. Where the launches differ (a chunk
    loop's count grows with the sizes) launch i is no one launch at both sizes: per kernel only.
    Then, each the same, by the part of its span it left as earlier launches stored it
    (`_gap_grown`: a share that redundant rewrites inside one launch diluted, s65d)."""
    overwrites = [o for o in _overwrites(cpu, dec) if _judged_site(*o[1:4])]
    for name, seen, there, key, count, got in overwrites:
        whole, total = _elements(seen, key), _elements(there, key)
        if whole and total and got * whole < OVERWRITE_KEPT * count * total:
            return name, f"{key}:over", total, got
    for name, seen, there, key, count, got in overwrites:
        if _gap_grown(seen, there, key, count, got):
            return name, f"{key}:gap", _elements(there, key), got
    return None


def _overwrites(cpu: dict, dec: dict):
    """(storage, its CPU model, its declared model, kernel or launch key, elements overwritten at
    the CPU's sizes, at the declared ones) of each key that overwrote at both; launch keys
    (`kernel#i`) only where the forward makes the same launches in the same order at both."""
    launches = _names(cpu) == _names(dec)
    for name, seen in cpu["storages"].items():
        there = dec["storages"].get(name)
        if there is None:
            continue
        for key, count in (seen.get("overwritten") or {}).items():
            got = _got(there.get("overwritten"), key)
            if got and ("#" not in key or launches):
                yield name, seen, there, key, count, got


SITE_SPAN = 0.5
"""The least part of a storage a store site's overwrites span (first to last element) at the
CPU's sizes for the site to be judged alone (`_judged_site`)."""


def _judged_site(seen: dict, there: dict, key: str) -> bool:
    """Whether `key` is judged by the overwrite rules: a kernel or a launch always; one store
    site of a kernel (`kernel|Lline@size`: dry_memory `_writers`) where its overwrites span at
    least SITE_SPAN of the storage at the CPU's sizes. Judged per kernel, a capped loop's
    stores were diluted by a full-grid store of the same kernel rewriting 7 in 16 elements
    already right: 0.95 of its share, its gap 1.04 of the CPU's, 2.3% of y wrong on the GPU
    (red team s66d, ok at 1.0028); each store site alone, the capped one's share fell to a
    quarter. A store covering one tile (a scan's first tile stored without a carry) spans
    little and is not judged alone: its share shrinks with the sizes."""
    if "|L" not in key:
        return True
    span = int((seen.get("overwrite_span") or {}).get(key, 0))
    return span >= SITE_SPAN * _elements(seen, key)


def _got(counts: dict | None, key: str) -> int:
    """`key`'s count in the declared sizes' model; for one identity of a `def` launched as two
    or more at the CPU's (`qualname~k@size`: evaluator.kernel_identity.keys) where the declared
    sizes launch it as one, that `def`'s own (`qualname@size`): two launches on two storages whose
    constexprs differ at the CPU's sizes only are then each the one kernel there."""
    counts = counts or {}
    if key in counts:
        return int(counts[key])
    kernel, at, size = key.rpartition("@")
    qual, split, _ = kernel.rpartition("~")
    if not split or "#" in kernel or any(k.startswith(f"{qual}~") for k in counts):
        return 0
    return int(counts.get(f"{qual}{at}{size}", 0))


def _gap_grown(seen: dict, there: dict, key: str, count: int, got: int) -> bool:
    """Whether, between the first and last elements `key` (a kernel, or one launch `kernel#i`)
    stored over earlier launches' stores, the part it left as they were grew at the declared
    sizes past 1 / OVERWRITE_KEPT of the CPU's. A share is moved by redundant rewrites: one launch
    rewriting 14 in 16 elements already right and, in a loop stopping at 4096 blocks, storing the
    element 1 mod 16 a needed full-grid launch left x in, kept 0.94 of its share (red team s65d,
    ok at 1.0047); what it left, 1/16 of y at the CPU's sizes and 0.117 at 4096 x 8192, is the
    capped part's loss, which no redundant rewrite hides, only adds to. Within the span, so that
    a padded buffer's tail nobody rewrites is no gap."""
    span_c = int((seen.get("overwrite_span") or {}).get(key, 0))
    span_d = _got(there.get("overwrite_span"), key)
    if not span_c or not span_d or count > span_c or got > span_d:
        return False
    return (span_d - got) * span_c * OVERWRITE_KEPT > (span_c - count) * span_d


def _names(seen: dict) -> list:
    """The kernels of a model's launches, in their order."""
    return [made[0] for made in seen.get("launches") or ()]


def _elements(seen: dict, size: str) -> int:
    """A storage's elements of `size` bytes (`kernel@size` for one kernel's updates), or a
    returned tensor's own."""
    return seen["elements"] if "elements" in seen else seen["bytes"] // int(size.rpartition("@")[2].partition(":")[0])
