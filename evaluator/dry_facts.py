"""What the dry launch model (evaluator.dry_launch) may take from a kernel's source: whether
where it stores can depend on what it loads, and which of its loops it may run one trip of.

The model runs a kernel's programs with memory replaced: every load returns zeros (or its
`other`), so it is right about where the kernel stores only where no loaded value reaches a
store's address or mask, an atomic's, or a branch or loop bound (a gather's indices, a flag a
program spins on, an `if` on a loaded maximum). Such a kernel runs with each lane's dependence
on the data carried (`unmasked`, below), and one whose branch or loop tests read loaded values
(`branched`, session 69) with each test checked known (evaluator.evaluator.dry_tests: on
the problem's draw a flag torch made is known; where the data decides a test the launch is
rolled back, as when such a kernel had no model). `data_bound` is left for a kernel whose
source cannot be read.

And it runs each runtime loop (`range` / `tl.range`) whose body stores nothing (nor does a
helper it calls) and whose assigned names reach no store's address or mask and no branch or
loop bound for ONE trip (`shortened`, by the range call's file and line): a matmul's K loop
carries its accumulator to a store's value only, so its trip count changes what is stored,
never where. A loop that stores, where its names reach no store's address or mask and no branch
but its own tests of its counter (`if ki == k_tiles - 1:` storing a K loop's tile: s58i), runs
its first and last trips (`ends`, `_ends_rule`). A kernel whose loaded values reach store masks
or addresses and no branch or loop (`mask & (x == x)`, `y + offs + shift`) is run with each
lane's dependence on the data carried (`unmasked`, evaluator.dry_taint: stored maybe where the
data decides the mask, anywhere where it makes the address).
Everything is judged by name over the whole function, flow-insensitively (a name
that is ever given a loaded value is data everywhere), and a read written inline in a test, a
mask or an address is data itself (`_Scan.data`: `if tl.load(flag) == 1:` named no name, and the
model took the branch its zeros chose, red team s68d), which only ever says "data" or "keep
the loop" more often than needed: the model then judges less, never wrongly.
"""
from __future__ import annotations

import ast
import inspect
import textwrap
from dataclasses import dataclass

# calls whose result is memory's (or a device's) word, not a function of the kernel's arguments
_READS = ("load", "atomic_", "inline_asm", "gather", "histogram", "rand", "philox")
_WRITES = ("store", "atomic_")


@dataclass(frozen=True)
class Facts:
    shortened: frozenset  # (file, line) of range calls whose loop runs one trip in the model
    ends: frozenset  # (file, line) of range calls whose loop runs its first and last trips only
    data_bound: str | None  # why no model judges this kernel (None: it may)
    unmasked: bool  # a loaded value reaches store masks or addresses only: run with dry_taint
    reads: bool  # the body reads memory (a helper's result is then data)
    writes: bool  # the body stores or makes an atomic (a helper's arguments then matter)
    addressed: bool = False  # `unmasked`, and a loaded value reaches a store's address
    branched: bool = False  # `unmasked`, and a loaded value reaches a branch or loop test


_CACHE: dict = {}


def facts(fn: object) -> Facts:
    """The facts of a @triton.jit function (the Python function inside it, cached)."""
    py = getattr(fn, "fn", fn)
    if py not in _CACHE:
        _CACHE[py] = Facts(frozenset(), frozenset(), "being read", False, True, True)  # recursion: the worst case
        try:
            _CACHE[py] = _read(py)
        except (OSError, TypeError, SyntaxError, AttributeError) as exc:  # (a wrapper with no __globals__)
            _CACHE[py] = Facts(frozenset(), frozenset(), f"its source cannot be read ({exc})", False, True, True)
    return _CACHE[py]


def _read(py) -> Facts:
    lines, first = inspect.getsourcelines(py)
    tree = ast.parse(textwrap.dedent("".join(lines)))
    ast.increment_lineno(tree, first - 1)
    func = next(n for n in ast.walk(tree) if isinstance(n, ast.FunctionDef))
    # only the helpers it calls: reading every jitted global made a helper's reading start the
    # reading of a kernel that calls it, which then took the helper's "being read" placeholder
    # (writes, reads) and was cached data-bound: no model for it (s61d)
    called = {_callee(c) for c in ast.walk(func) if isinstance(c, ast.Call)}
    helpers = {name: facts(v) for name, v in py.__globals__.items() if name in called and _jitted(v)}
    scan = _Scan(func, helpers)
    data = scan.tainted(scan.sources())
    bound = scan.sink(data)
    # where loaded values reach store masks or addresses and no branch or loop (`mask & (x == x)`,
    # `y + offs + shift`), the model runs it with each lane's dependence on the data carried
    # (evaluator.dry_taint): a lane the data decides is stored maybe, never for certain (that mask
    # gave no model at all: s61d; stored maskless, a capped grid's cap went unseen: s65h; not run,
    # a capped grid storing at a loaded zero's offset was whole nowhere: s65e)
    unmasked = bound is not None and scan.sink(data, stores=False) is None
    addressed = bound is not None and scan.sink(data, masks=False, branches=False) is not None
    # where they reach a branch or a loop's bound (`if tl.load(flag) == 1:` choosing a capped
    # store), it runs so too, each test checked known there (evaluator.dry_tests): on the
    # problem's draw the test is the GPU's (evaluator.dry_values); not run, the capped store
    # was nowhere at either size (red team s68d)
    branched = bound is not None and not unmasked
    unmasked = unmasked or branched
    bound = None
    short, ends = set(), set()
    for loop in scan.loops:
        where = (py.__code__.co_filename, loop.iter.lineno)
        if not scan.writes_in(loop):
            if scan.sink(scan.tainted(scan.assigned(loop)), inline=False) is None:
                short.add(where)
        elif scan.stores_at_its_ends(loop):
            ends.add(where)
    for h in scan.called:
        if helpers[h].data_bound is not None:
            bound = bound or f"its helper {h}: {helpers[h].data_bound}"
        short |= helpers[h].shortened
        ends |= helpers[h].ends
        unmasked = unmasked or helpers[h].unmasked
        addressed = addressed or helpers[h].addressed
        branched = branched or helpers[h].branched
    return Facts(frozenset(short), frozenset(ends), bound, unmasked, scan.reads, scan.writes, addressed, branched)


def _jitted(v: object) -> bool:
    return type(v).__name__ in ("JITFunction", "InterpretedFunction") and hasattr(v, "fn")


def _callee(call: ast.AST) -> str:
    """A call's name ("" for anything else: a loop over a tuple or a name, `for i in (0, 1):`,
    raised here, and the whole forward had no model, red team s68d)."""
    f = getattr(call, "func", None)
    return f.attr if isinstance(f, ast.Attribute) else f.id if isinstance(f, ast.Name) else ""


class _Scan:
    """One kernel body: its calls, assignments, loops and the expressions that steer stores."""

    def __init__(self, func: ast.FunctionDef, helpers: dict):
        self.func, self.helpers = func, helpers
        self.called = {_callee(c) for c in ast.walk(func) if isinstance(c, ast.Call)} & set(helpers)
        calls = [c for c in ast.walk(func) if isinstance(c, ast.Call)]
        self.reads = any(self._reads(c) for c in calls)
        self.writes = any(self._writes(c) for c in calls)
        self.loops = [n for n in ast.walk(func) if isinstance(n, ast.For) and isinstance(n.iter, ast.Call)
                      and _callee(n.iter) == "range"]

    def _reads(self, call: ast.Call) -> bool:
        name = _callee(call)
        return name.startswith(_READS) or (name in self.helpers and self.helpers[name].reads)

    def _writes(self, call: ast.Call) -> bool:
        name = _callee(call)
        return name.startswith(_WRITES) or (name in self.helpers and self.helpers[name].writes)

    def writes_in(self, node: ast.AST) -> bool:
        return any(isinstance(c, ast.Call) and self._writes(c) for c in ast.walk(node))

    def sources(self) -> set[str]:
        """Names given a value memory holds."""
        out = set()
        for node in ast.walk(self.func):
            value = getattr(node, "value", None) if isinstance(node, (ast.Assign, ast.AugAssign, ast.AnnAssign)) \
                else node.iter if isinstance(node, ast.For) else None
            if value is not None and any(isinstance(c, ast.Call) and self._reads(c) for c in ast.walk(value)):
                out |= _targets(node)
        return out

    @staticmethod
    def assigned(node: ast.AST) -> set[str]:
        out = set()
        for n in ast.walk(node):
            if isinstance(n, (ast.Assign, ast.AugAssign, ast.AnnAssign, ast.For, ast.NamedExpr)):
                out |= _targets(n)
        return out

    def tainted(self, seed: set[str]) -> set[str]:
        """`seed` and every name given a value computed from one of them (to a fixed point)."""
        out = set(seed)
        flows = [(_targets(n), n.iter if isinstance(n, ast.For) else n.value) for n in ast.walk(self.func)
                 if isinstance(n, (ast.Assign, ast.AugAssign, ast.AnnAssign, ast.For, ast.NamedExpr))
                 and (isinstance(n, ast.For) or n.value is not None)]
        grown = True
        while grown:
            grown = False
            for targets, value in flows:
                if not targets <= out and _uses(value, out):
                    out |= targets
                    grown = True
        return out

    def sink(self, names: set[str], masks: bool = True, stores: bool = True, inline: bool = True,
             branches: bool = True) -> str | None:
        """Where a name of `names` (or, with `inline`, a read written in place: `data`) steers
        what is stored (None: nowhere); with `masks` False, a store's (or atomic's) own mask is
        not counted; with `stores` False, only branches and loops are (a store's mask and
        address: dry_taint carries them per lane); with `branches` False, only stores are."""
        if not inline:
            return self._sink(names, masks, stores, _uses, branches)
        return self._sink(names, masks, stores, self.data, branches)

    def _sink(self, names: set[str], masks: bool, stores: bool, data, branches: bool = True) -> str | None:
        for node in ast.walk(self.func):
            if branches and isinstance(node, (ast.If, ast.While, ast.IfExp)) and data(node.test, names):
                return f"a branch or loop at line {node.lineno} tests a value it loads"
            if branches and isinstance(node, ast.For) and _callee(node.iter) != "static_range" \
                    and data(node.iter, names):
                return f"a loop at line {node.lineno} runs to a value it loads"
            if stores and isinstance(node, ast.Call) and self._writes(node) and \
                    any(data(a, names) for a in self.steering(node, masks)):
                return f"a store at line {node.lineno} goes where a loaded value says"
        return None

    def data(self, node: ast.AST, names: set[str]) -> bool:
        """Whether `node` uses a name of `names` or reads memory itself: a load written inline
        (`if tl.load(flag_ptr) == 1:`, `mask=... | (tl.load(f) == 0)`) named no name, so the model
        took the branch, or the mask, its zeros chose (red team s68d)."""
        return _uses(node, names) or any(isinstance(c, ast.Call) and self._reads(c) for c in ast.walk(node))

    def steering(self, call: ast.Call, masks: bool = True) -> list:
        """A store's (or a helper's) arguments that say where it stores: all but the value (and
        but the mask, with `masks` False: never a helper's arguments)."""
        if _callee(call) in self.helpers:
            return list(call.args) + [k.value for k in call.keywords]
        skipped = {1} if masks else {1, 2}
        return [a for i, a in enumerate(call.args) if i not in skipped] + \
            [k.value for k in call.keywords if k.arg not in ("value", "val", "cmp") and (masks or k.arg != "mask")]

    def stores_at_its_ends(self, loop: ast.For) -> bool:
        return _ends_rule(self, loop)


def _ends_rule(scan: "_Scan", loop: ast.For) -> bool:
    """Whether a loop that stores stores the same as its first and last trips do: its names
    (what it assigns, and what those reach) steer no store's address or mask, no loop and no
    branch outside it, and a branch inside it reads of them the loop's own counter alone
    (`if ki == k_tiles - 1:` in a K loop: tutorial 09's flattened shape, s58i). Each trip then
    stores the same elements or nothing, by a test of the counter and of values fixed before the
    loop; the first and last trips are where such a test (first, last, every trip) holds. A
    test that holds on a middle trip only (`ki == 5`) is missed: the model then stores less at
    both sizes alike, which refuses only where the CPU's trips ran it and the declared ones'
    ends do not."""
    names = scan.tainted(scan.assigned(loop))
    counter = _targets(loop)
    inside = {id(n) for n in ast.walk(loop)}
    for node in ast.walk(scan.func):
        if isinstance(node, (ast.If, ast.While, ast.IfExp)) and _uses(node.test, names):
            if isinstance(node, ast.While) or id(node) not in inside or _uses(node.test, names - counter):
                return False
        if isinstance(node, ast.For) and node is not loop and _uses(node.iter, names):
            return False
        if isinstance(node, ast.Call) and scan._writes(node) and any(_uses(a, names) for a in scan.steering(node)):
            return False
    return True


def _targets(node: ast.AST) -> set[str]:
    if isinstance(node, ast.Assign):
        parts = node.targets
    elif isinstance(node, (ast.AugAssign, ast.AnnAssign, ast.For, ast.NamedExpr)):
        parts = [node.target]
    else:
        return set()
    return {n.id for p in parts for n in ast.walk(p) if isinstance(n, ast.Name)}


def _uses(node: ast.AST, names: set[str]) -> bool:
    return any(isinstance(n, ast.Name) and n.id in names for n in ast.walk(node))


# calls in a kernel that store nowhere and hand no pointer on (besides `tl.*` and jitted helpers)
_PLAIN_CALLS = frozenset({"range", "min", "max", "int", "float", "len", "abs", "print", "isinstance",
                          "static_range", "static_print", "static_assert", "cdiv", "constexpr", "zip",
                          "enumerate", "tuple"})


def stored_params(fn: object) -> frozenset[str] | None:
    """The kernel's parameters a store, an atomic or a writing helper may reach through its
    pointer (every name computed from the parameter, flow-insensitively); None where that is not
    known (its source, a call the reading does not know): then every parameter. The dry launch
    model's real forward (evaluator.dry_tells) holds the storages handed to these parameters
    as written by a launch it does not run; a kernel's read-only inputs stay readable (FlagGems'
    cross entropy counts its targets after the launch that read them, honest s49_04)."""
    return _reached(fn, loads=False)


def loaded_params(fn: object) -> frozenset[str] | None:
    """The kernel's parameters a load, an atomic or a reading helper may reach through its
    pointer (as `stored_params`; a reading helper's every argument); None where not known. The
    dry model's real forward (evaluator.dry_tells `feeds`) runs the launches whose stores a
    steered launch loads: a storage it only stores into asks for none of them."""
    return _reached(fn, loads=True)


def _reached(fn: object, loads: bool) -> frozenset[str] | None:
    """The parameters a store (or with `loads`, a load) may reach through its pointer."""
    py = getattr(fn, "fn", fn)
    try:
        lines, first = inspect.getsourcelines(py)
        func = next(n for n in ast.walk(ast.parse(textwrap.dedent("".join(lines)))) if isinstance(n, ast.FunctionDef))
    except (OSError, TypeError, SyntaxError, StopIteration):
        return None
    called = {_callee(c) for c in ast.walk(func) if isinstance(c, ast.Call)}
    helpers = {name: facts(v) for name, v in py.__globals__.items() if name in called and _jitted(v)}
    scan = _Scan(func, helpers)
    where = []  # the expressions that say where something is stored (or loaded)
    for call in (c for c in ast.walk(func) if isinstance(c, ast.Call)):
        name = _callee(call)
        if name in helpers and loads:
            where += list(call.args) + [k.value for k in call.keywords] if helpers[name].reads else []
        elif name in helpers:
            where += scan.steering(call) if helpers[name].writes else []
        elif scan._reads(call) if loads else scan._writes(call):
            where += [call.func] + call.args[:1] + [k.value for k in call.keywords if k.arg in ("pointer", "ptr", "base")]
        elif not (isinstance(call.func, ast.Attribute) or name in _PLAIN_CALLS):
            return None
    params = [a.arg for a in func.args.args + func.args.kwonlyargs]
    return frozenset(p for p in params if any(_uses(w, scan.tainted({p})) for w in where))
