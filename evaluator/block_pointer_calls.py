"""Block pointers handed to a @triton.jit helper of the file, on the CPU (for
evaluator.block_pointers): the helpers, how a call's arguments bind to their parameters, and
the check that every call of a helper passes block pointers at the same parameters.

Triton 3.6 passes a block pointer to a helper by value (the 2.x-3.0 fused-attention tutorial's
`_attn_fwd_inner(acc, l_i, m_i, q, K_block_ptr, V_block_ptr, ...)` advances its own copies).
The rewrite hands the helper the pointer's written-out variables (base, shapes, strides,
offsets) and its block shape as `tl.constexpr` parameters, at every call of it; a helper
passed a block pointer at a parameter at one call and something else there at another (or
named other than by a call: launched, aliased, handed on) is refused, as is a block parameter
with a default or an annotation: a helper that takes one is one kind of function, as 3.6
compiles it, and nothing else. Also here, for block_pointers' kernels: `one_origin` (a read two
make_block_ptr sites may reach through an if or a loop is refused: 3.6 carries only offsets
there), `no_while_carry` (3.6 cannot lower a block pointer an scf.while carries) and `stored`
(the names a kernel's body binds)."""
from __future__ import annotations

import ast

from evaluator.static_scopes import bound_names

FUNCTIONS = (ast.FunctionDef, ast.AsyncFunctionDef)


class Unsupported(Exception):
    """A use of block pointers the rewrite does not cover (or Triton 3.6 itself refuses)."""

    def __init__(self, node: ast.AST, what: str) -> None:
        super().__init__(what)
        self.line = getattr(node, "lineno", None)
        self.what = what


def dotted(node: ast.AST) -> str | None:
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        head = dotted(node.value)
        return None if head is None else f"{head}.{node.attr}"
    return None


def _bound_names(stmt: ast.stmt) -> list[str]:
    """The module-level names a statement binds."""
    if isinstance(stmt, (*FUNCTIONS, ast.ClassDef)):
        return [stmt.name]
    if isinstance(stmt, (ast.Import, ast.ImportFrom)):
        return [(a.asname or a.name).split(".")[0] for a in stmt.names]
    return [n.id for n in ast.walk(stmt) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store)]


def _jit(decorator: ast.expr) -> bool:
    name = dotted(decorator.func if isinstance(decorator, ast.Call) else decorator)
    return name in ("jit", "triton.jit")


def jit_helpers(tree: ast.Module) -> dict[str, ast.FunctionDef]:
    """The file's module-level functions under one `@triton.jit` (or `@jit`, `@triton.jit(...)`)
    whose name nothing else at module level binds."""
    names = [n for stmt in tree.body for n in _bound_names(stmt)]
    return {s.name: s for s in tree.body  # type: ignore[misc]
            if isinstance(s, FUNCTIONS) and names.count(s.name) == 1
            and len(s.decorator_list) == 1 and _jit(s.decorator_list[0])}


def positional(fn: ast.FunctionDef) -> list[ast.arg]:
    return [*fn.args.posonlyargs, *fn.args.args]


def bind(call: ast.Call, fn: ast.FunctionDef) -> dict[str, ast.AST]:
    """The call's arguments by the helper's parameter names: a positional argument's expression,
    or the `name=...` keyword itself."""
    if any(isinstance(a, ast.Starred) for a in call.args) or any(k.arg is None for k in call.keywords):
        raise Unsupported(call, f"`{fn.name}` is passed a block pointer: call it without *args or **kwargs")
    params = positional(fn)
    if len(call.args) > len(params):
        raise Unsupported(call, f"`{fn.name}` is called with more positional arguments than it has parameters")
    got: dict[str, ast.AST] = {a.arg: v for a, v in zip(params, call.args)}
    by_keyword = {a.arg for a in [*fn.args.args, *fn.args.kwonlyargs]}
    for k in call.keywords:
        if k.arg not in by_keyword or k.arg in got:
            raise Unsupported(call, f"`{fn.name}` has no parameter `{k.arg}` to pass by name (or it is given twice)")
        got[k.arg] = k  # type: ignore[index]
    return got


def value(arg: ast.AST | None) -> ast.AST | None:
    return arg.value if isinstance(arg, ast.keyword) else arg


def block_parameters(fn: ast.FunctionDef, names: dict[str, int]) -> list[ast.arg]:
    """The helper's parameters named in `names`, each plain (no annotation, no default)."""
    params = positional(fn)
    defaulted = params[len(params) - len(fn.args.defaults):] + [
        a for a, d in zip(fn.args.kwonlyargs, fn.args.kw_defaults) if d is not None]
    out = [a for a in [*params, *fn.args.kwonlyargs] if a.arg in names]
    for a in out:
        if a.annotation is not None or any(a is d for d in defaulted):
            raise Unsupported(a, f"parameter `{a.arg}` of `{fn.name}` is passed a block pointer: give it "
                              "no annotation and no default")
    return out


def merge(params: dict[str, dict[str, int]], found: list[tuple[str, str, int, ast.AST]]) -> bool:
    """Add (helper, parameter, rank) facts; whether any was new. Two ranks at one parameter
    are refused."""
    changed = False
    for helper, param, rank, call in found:
        known = params.setdefault(helper, {})
        if param not in known:
            known[param], changed = rank, True
        elif known[param] != rank:
            raise Unsupported(call, f"`{helper}` is passed block pointers of rank {known[param]} and {rank} "
                              f"as `{param}`")
    return changed


def check(tree: ast.Module, helpers: dict[str, ast.FunctionDef], params: dict[str, dict[str, int]],
          ranks_at) -> None:
    """Every call of a helper that takes block pointers passes one (of the same rank) at each of
    those parameters; the helper is named only as the callee of a direct call."""
    callees = {id(n.func) for n in ast.walk(tree) if isinstance(n, ast.Call)}
    for node in ast.walk(tree):
        if isinstance(node, ast.Name) and node.id in params and id(node) not in callees:
            raise Unsupported(node, f"`{node.id}` is passed block pointers, so it is named only to call it "
                              "(not launched, aliased, rebound or handed on)")
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in params:
            ranks, got = ranks_at(node), bind(node, helpers[node.func.id])
            for param, rank in params[node.func.id].items():
                arg = value(got.get(param))
                if not (isinstance(arg, ast.Name) and ranks.get(arg.id) == rank):
                    raise Unsupported(node, f"`{node.func.id}` is passed a block pointer of rank {rank} as "
                                      f"`{param}` at one call and something else at this one: pass block "
                                      "pointers to a helper at the same parameters at every call")


def padded(node: ast.AST, text: str) -> str:
    """`text` (ending in a closing bracket) made as many lines long as `node`'s span."""
    want = node.end_lineno - node.lineno  # type: ignore[attr-defined,operator]
    have = text.count("\n")
    if have > want or not text.endswith(")"):
        raise Unsupported(node, "this block-pointer expression could not be rewritten in place; "
                          "write it more plainly")
    return text[:-1] + "\n" * (want - have) + ")"


def one_origin(fn: ast.AST, assigns: list[ast.Assign], params, is_make, source,
               constant=lambda test: False, unrolled=lambda loop: False) -> None:
    """Every use of a block pointer reads one that traces back to one `tl.make_block_ptr` site (or
    one helper parameter) along every path. Triton 3.6 carries only a block pointer's offsets
    through an `if` or a loop (RewriteTensorPointer's rewriteIfOp/rewriteForOp yield offsets
    alone): after it, the base, shape and strides are those of the make_block_ptr the first arm's
    (or the loop's initial) value came from, whichever arm ran, while the CPU's written-out
    variables take the arm's own. `r = tl.advance(p, ...)` in one arm and `r = tl.advance(q, ...)`
    in the other read q's base on the CPU and p's on the H200 (red team rt62), and so does a name
    made before a loop and made again inside it, read after it. The sites reaching each statement
    are followed through the function's ifs and loops (a make or an advance replaces a name's
    sites, arms and loop iterations join them); a name read where two reach is refused. Straight-line
    re-makes (a fresh pointer per pass) are one site at each read. `is_make(assign)` tells a make
    from an advance, `source(assign)` is an advance's source Name.

    What the front end resolves before any IR exists joins nothing: an `if` whose test
    `constant(test)` says is a compile-time constant (3.6's code generator emits only the arm
    taken, and so does the interpreter) and a loop `unrolled(loop)` says is a `tl.static_range`
    (emitted as straight-line copies). Those give alternatives, one of which is the program the
    GPU compiles, each followed on its own; past _ALTERNATIVES of them they are joined (refusing
    more, never less)."""
    ids = {id(n): n for n in assigns}

    def read(node: ast.AST, states: list) -> None:
        for n in ast.walk(node):
            if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load) and any(
                    len(s.get(n.id, ())) > 1 for s in states):
                raise Unsupported(n, f"block pointer `{n.id}` is read where it may come from two "
                                  "tl.make_block_ptr sites (made or advanced differently in the arms of an "
                                  "if, or made again inside a loop): Triton 3.6 carries only a block "
                                  "pointer's offsets out of an if or a loop, its base, shape and strides "
                                  "one site's; give each make_block_ptr its own name")

    def join(a: dict, b: dict) -> dict:
        return {k: a.get(k, frozenset()) | b.get(k, frozenset()) for k in {*a, *b}}

    def joined(states: list) -> dict:
        out: dict = {}
        for s in states:
            out = join(out, s)
        return out

    def distinct(states: list) -> list:
        out: list = []
        for s in states:
            if s not in out:
                out.append(s)
        return out if len(out) <= _ALTERNATIVES else [joined(out)]

    def assign(stmt: ast.Assign, state: dict) -> dict:
        src = None if is_make(stmt) else source(stmt)
        return {**state, stmt.targets[0].id: frozenset({id(stmt)}) if src is None else  # type: ignore[attr-defined]
                state.get(src.id, frozenset()) if isinstance(src, ast.Name) else frozenset()}

    def loop(stmt: ast.stmt, states: list, runtime: bool = False) -> list:
        if unrolled(stmt) and not runtime:  # copies in a row, as many as the constant range says
            seen, frontier = list(states), states
            while frontier:
                frontier = distinct([s for s in flow(stmt.body, frontier) if s not in seen])
                if len(seen) + len(frontier) > _ALTERNATIVES:
                    return loop(stmt, [joined(seen + frontier)], runtime=True)
                seen += frontier
            return seen
        out = []
        for state in states:
            while True:  # the sets only grow: a fixpoint
                after = join(state, joined(flow(stmt.body, [state])))
                if after == state:
                    break
                state = after
            out.append(state)
        return out

    def flow(stmts: list, states: list) -> list:
        for stmt in stmts:
            if id(stmt) in ids:
                read(stmt.value, states)
                states = distinct([assign(stmt, s) for s in states])  # type: ignore[arg-type]
            elif isinstance(stmt, ast.If):
                read(stmt.test, states)
                if constant(stmt.test):
                    states = distinct(flow(stmt.body, states) + flow(stmt.orelse, states))
                else:
                    states = distinct([join(a, b) for s in states
                                       for a in flow(stmt.body, [s]) for b in flow(stmt.orelse, [s])])
            elif isinstance(stmt, (ast.For, ast.AsyncFor, ast.While)):
                read(stmt.iter if not isinstance(stmt, ast.While) else stmt.test, states)
                states = flow(stmt.orelse, distinct(loop(stmt, states)))
            elif isinstance(stmt, (ast.With, ast.AsyncWith, ast.Try)):
                for item in getattr(stmt, "items", []):
                    read(item, states)
                states = flow(stmt.body, states)
                for part in ("handlers", "orelse", "finalbody"):
                    for h in getattr(stmt, part, []):
                        body = h.body if isinstance(h, ast.excepthandler) else [h]
                        states = distinct([join(s, joined(flow(body, [s]))) for s in states])
            elif not isinstance(stmt, (*FUNCTIONS, ast.ClassDef)):
                read(stmt, states)
        return states

    flow(fn.body, [{name: frozenset({("param", name)}) for name in params}])  # type: ignore[attr-defined]


_ALTERNATIVES = 64


def no_while_carry(fn: ast.AST, assigns: list[ast.Assign], params) -> None:
    """No block pointer is carried through a `while` loop: 3.6's RewriteTensorPointer rewrites a
    tensor pointer carried by scf.for and scf.if only, and reaches llvm_unreachable ("others such
    as `scf::WhileOp` ... are not supported yet") for one an scf.while carries, while the CPU's
    written-out scalars loop happily (red team rt62). A name assigned inside a while body that is
    bound before it (or a helper's block parameter) is carried."""
    made = {id(n) for n in assigns}
    for loop in [n for n in ast.walk(fn) if isinstance(n, ast.While)]:
        inside = {id(n) for n in ast.walk(loop)}
        for node in assigns:
            name = node.targets[0].id  # type: ignore[attr-defined]
            if id(node) in inside and (name in params or any(
                    id(o) in made and id(o) not in inside and o.targets[0].id == name for o in assigns)):
                raise Unsupported(node, f"block pointer `{name}` is carried through a while loop, which "
                                  "Triton 3.6 cannot lower (RewriteTensorPointer handles for loops and ifs "
                                  "only); use a for loop")


def compile_time(tree: ast.Module, fn: ast.AST, language: set[str]):
    """For one_origin, what 3.6's front end settles in `fn` before any IR exists: `constant(test)`,
    an if test made of literals and `tl.constexpr` parameters the body never rebinds (operators,
    comparisons, and/or/not of them); `unrolled(loop)`, a `for` over `tl.static_range(...)`.
    Parameters count only in a kernel the file launches and never calls or hands on (every use
    of its name is `kernel[grid](...)`): a @jit helper's parameter is a constant where its call
    passes one, whatever its annotation says."""
    names = [n for stmt in tree.body for n in _bound_names(stmt)]
    uses = [(n, parent) for parent in ast.walk(tree) for n in ast.iter_child_nodes(parent)
            if isinstance(n, ast.Name) and n.id == getattr(fn, "name", None) and isinstance(n.ctx, ast.Load)]
    calls_of = {id(c.func) for c in ast.walk(tree) if isinstance(c, ast.Call)}
    launched = isinstance(fn, FUNCTIONS) and fn in tree.body and names.count(fn.name) == 1 and all(
        isinstance(parent, ast.Subscript) and parent.value is n and id(parent) in calls_of for n, parent in uses)
    constants = (constexpr_parameters(tree, fn, language) - stored(fn)) if launched else set()
    plain = (ast.Constant, ast.Compare, ast.BoolOp, ast.UnaryOp, ast.BinOp, ast.cmpop, ast.boolop,
             ast.unaryop, ast.operator, ast.expr_context)

    def constant(test: ast.AST) -> bool:
        return all(isinstance(n, plain) or isinstance(n, ast.Name) and n.id in constants for n in ast.walk(test))

    def unrolled(loop: ast.stmt) -> bool:
        return isinstance(loop, ast.For) and isinstance(loop.iter, ast.Call) and dotted(loop.iter.func) in {
            f"{name}.static_range" for name in language}

    return constant, unrolled


def constexpr_parameters(tree: ast.Module, fn: ast.AST, language: set[str]) -> set[str]:
    """`fn`'s parameters Triton surely compiles as `tl.constexpr`. Triton's rule is its
    KernelParam.is_constexpr: "constexpr" in the annotation's normalized name, which is the
    evaluated object's (`tl.constexpr` is "constexpr", a module alias `i32_constexpr = tl.int32`
    is "int32": a runtime scalar) or, as a string, the text itself (a string annotation, or any
    annotation under `from __future__ import annotations`). So a parameter counts where its
    annotation is `<L>.constexpr` for a name L the file imports triton.language as, or a name
    it imports as `from triton.language import constexpr [as name]`, each bound once at module
    level; or a string holding "constexpr"; or, under the future import, any annotation whose
    text holds it. A dotted name that merely ends in "constexpr" is not (red team rt67: such
    an alias of tl.int32 had an if on it followed as a compile-time constant)."""
    names = [n for stmt in tree.body for n in _bound_names(stmt)]
    once = lambda dotted_name: names.count(dotted_name.split(".")[0]) == 1  # noqa: E731
    spelled = {f"{lang}.constexpr" for lang in language if once(lang)}
    spelled |= {a.asname or a.name for node in tree.body if isinstance(node, ast.ImportFrom)
                and node.module == "triton.language" and not node.level
                for a in node.names if a.name == "constexpr" and once(a.asname or a.name)}
    textual = any(isinstance(node, ast.ImportFrom) and node.module == "__future__"
                  and any(a.name == "annotations" for a in node.names) for node in tree.body)

    def surely(annotation: ast.expr | None) -> bool:
        if annotation is None:
            return False
        if isinstance(annotation, ast.Constant):
            return isinstance(annotation.value, str) and "constexpr" in annotation.value
        return dotted(annotation) in spelled or (textual and "constexpr" in ast.unparse(annotation))

    args = getattr(fn, "args", None)
    return {a.arg for a in [*getattr(args, "posonlyargs", []), *getattr(args, "args", []),
                            *getattr(args, "kwonlyargs", [])] if surely(a.annotation)}


def stored(fn: ast.AST) -> set[str]:
    """Names a function's body binds (assignments, loop and `with` targets, walruses, imports,
    `global`/`nonlocal` statements, nested defs, `except ... as` names, match captures), its
    parameters aside. Only the body: its
    decorators, defaults and annotations run in the enclosing scope (fla's
    `@triton.autotune(configs=[triton.Config({'BT': BT}) for BT in [32, 64, 128]])` binds a
    comprehension's BT there, not the kernel's `BT: tl.constexpr`: honest round s52)."""
    nodes = [n for stmt in getattr(fn, "body", [fn]) for n in ast.walk(stmt)]
    return {name for n in nodes if n is not fn for name in bound_names(n)}
