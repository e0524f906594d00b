"""Idioms of public kernel code that the static walk accepts by their exact shape.

Each is a construct the plain rules of evaluator.static_allowlist reject (a decorator of
the file's own, a logger, a try at module level, a benchmark function), written the way
real kernel files write it. In the shape recognised here it hands the file nothing the
rules keep from it; any other shape is still judged by the plain rules.

  transparent decorator  evaluator.static_decorators (Liger's ensure_contiguous, fla's input_guard).
  logger                 `log = logging.getLogger(__name__ or "a name")` at module level,
                         bound once, and used only as `log.debug/info/warning/...(...)`
                         (LOGGER_METHODS): a Logger also hands out every logger of the
                         process (`.manager`) and takes callables (`addFilter`).
  module-level try       a try at module level runs once, at import, before the harness
                         measures anything, so it can catch nothing of the harness; each
                         branch is checked like module code. Its body names none of the
                         file's functions, classes or lambdas (a recursion of its own
                         could stop a library call half-way and carry on) and a handler
                         binds no name (AttributeError.obj hands out the object). A try
                         inside a function stays refused. A try that falls back from
                         one import to another (`except ImportError:`) is settled here:
                         when every import of its body is allowed and exists, the handler
                         can never run and is dropped before the checks. Both may also bind
                         names to literals (`HAS_TRITON = True` / `False`), which cannot raise,
                         and a handler may print a message of string literals (an install hint);
                         an `if HAS_TRITON:` is then settled (evaluator.static_branches).
  decorator alias        `ALIAS = D(...)` at module level, D a library decorator (A.DECORATORS)
                         and ALIAS bound only there and named only as `@ALIAS` or as the
                         D of a module-level rebind `k2 = ALIAS(k)` (unsloth's
                         `torch_amp_custom_fwd`, SGLang's `rmsnorm_autotune`): written out
                         at each use before the checks. Arguments are literals, library
                         names and `triton.Config(...)` of these.
  decorator as a rebind  `def k(...): ...` at module level, followed at once by
                         `k = D(k)` / `k = D(...)(k)` statements (unsloth's
                         `_k = triton.jit(_k)`, then `_k = triton.heuristics({...})(_k)`),
                         each D a library decorator (A.DECORATORS, by its import) that does
                         not name k: Python's decorator semantics, written out. Nothing runs
                         between the def and its last rebind that could take the plain
                         function, so the chain is folded into the def's decorators before
                         the checks (which then judge each D as a decorator). Right below
                         a @triton.jit kernel, `other = D(k)` with D autotune or heuristics
                         and `other` bound only there (SGLang's `k_autotune =
                         rmsnorm_autotune(k)`) is a second kernel: a copy of the def named
                         `other`, D on top. Any other shape of `triton.jit(...)`, heuristics
                         or autotune as a call is still a value, and refused.
  pytest marks           `import pytest` at module level, alone, bound nowhere else, whose
                         every read is a `@pytest.mark.NAME[(...)]` decorator of a module-level
                         def decorated with marks alone, or lies in the body of a module-level
                         def or in the test block (Triton's tutorials keep their parametrized
                         tests beside the kernel; pytest is not in the sandbox): the import and
                         the marks are dropped, here and in the source that runs (`pass` and
                         `(lambda f: f)` on the same lines: a mark returns what it marks), and
                         each marked def is a test-only function. Anything but the test block
                         that names it has it judged whole, where `pytest` is an undefined name.
  FX leaves              `torch.fx.wrap("f")` at module level (f a module-level def of the
                         file) or `@torch.fx.wrap` on a module-level def, with `import torch`
                         and at most a bare `import torch.fx` (torchrec's and xformers' way to
                         keep a Triton launcher opaque to symbolic tracing), and no other use
                         of torch.fx: the registrations and the import are dropped, here and in
                         the source that runs (`pass`, `(lambda f: f)`: wrap returns what it
                         wraps). wrap only records the module's globals for a later symbolic
                         trace to patch, and none runs in the candidate's process.
  test-only function     a module-level def that the test block (`if __name__ ==
                         "__main__":`) names or that is decorated with
                         triton.testing.perf_report(...) (and nothing else), and that
                         only the test block and other test-only functions name: nothing
                         the harness runs can reach it, so its body is not checked (its
                         decorator, defaults and annotations run at import and are).
"""
from __future__ import annotations

import ast
import copy
from collections.abc import Callable, Collection

from evaluator.static_scopes import Scopes, bound_names, is_main_guard, sole_target

LOGGER_METHODS = frozenset({"debug", "info", "warning", "warn", "error", "critical",
                            "exception", "log", "isEnabledFor"})
PERF_REPORT = "triton.testing.perf_report"
BENCHMARK = "triton.testing.Benchmark"
# what may wrap a kernel under a second name (`k_autotune = triton.autotune(...)(k)`)
TWIN_DECORATORS = frozenset({"triton.autotune", "triton.heuristics"})
# calls that build a plain value and run nothing of the file's (an autotune alias's configs)
INERT_CALLS = frozenset({"triton.Config"})
_IMPORT_ERRORS = frozenset({"ImportError", "ModuleNotFoundError"})


# ---------------------------------------------------------------------- import fallbacks
def settle_import_fallbacks(tree: ast.Module, importable: Callable[[ast.stmt], bool],
                            settled: list | None = None) -> None:
    """Replace each module-level `try: <imports> except ImportError: <imports>` by the arm that
    runs (in place). Where the body imports only what `importable` says exists and is allowed,
    the body: the handler is dead code the checks must not bind names from. Otherwise the first
    handler (an optional package that is not here, or not allowed: `from apex... import`, then
    `HAVE_APEX = False`, honest round s38), and the body is not judged. Each settled `try` is
    appended to `settled` with the arm kept ("body" or "handler"), and the source the
    candidate's process runs is pinned to it (`static_checks.pinned_source`): a kept body's
    handlers catch nothing, so a body that fails after all fails the load instead of running a
    handler nobody judged (red team s38: `import os.environ` names an attribute, which Python
    does not import); a kept handler's body raises ModuleNotFoundError before anything in it.
    A handler may hold a fallback of its own (a chain over three Triton versions: `except
    ImportError:` then `try: from ...cuda.libdevice import rsqrt / except ImportError: from
    triton.language.math import rsqrt`, honest round s51b): where that handler is kept, the
    nested one is settled the same way; where the body is kept, it is dead with its handler."""
    tree.body = _settle_fallbacks(tree.body, importable, settled, set())


def _settle_fallbacks(stmts: list[ast.stmt], importable: Callable[[ast.stmt], bool],
                      settled: list | None, constexprs: set[str]) -> list[ast.stmt]:
    """`stmts` with their import fallbacks settled, those in the arms of a module-level `if` too
    (Liger's `if compare_version("triton", ...): try: from ...libdevice import rsqrt / except
    ModuleNotFoundError: from ...cuda.libdevice import rsqrt / else: from triton.language.math
    import rsqrt`: honest round s42), which `settle_module_ifs` then settles or expands."""
    body = []
    for node in stmts:
        if isinstance(node, ast.If) and not is_main_guard(node):
            node.body = _settle_fallbacks(node.body, importable, settled, set(constexprs))
            node.orelse = _settle_fallbacks(node.orelse, importable, settled, set(constexprs))
        if not _import_fallback(node, frozenset(constexprs)):
            body.append(node)
            constexprs |= _constexpr_spellings(node)
            continue
        arm = "body" if all(importable(s) for s in node.body if not _flag(s, frozenset(constexprs))) else "handler"  # type: ignore[attr-defined]
        body.extend(node.body if arm == "body" else _settle_fallbacks(node.handlers[0].body, importable, settled, set(constexprs)))  # type: ignore[attr-defined]
        if settled is not None:
            settled.append((node, arm))
    return body


# ---------------------------------------------------------------------- pytest marks
PYTEST = "pytest"
TEST_MARK = "krl_test_marks"  # set on a def whose pytest marks were dropped (test_only_functions)


def settle_test_marks(tree: ast.Module, settled: list | None = None) -> None:
    """Drop a self-test's pytest import and marks (module docstring, "pytest marks"), in place:
    the import becomes `pass`, each marked def loses its marks and is flagged TEST_MARK. The
    dropped nodes (the import, then each mark) are appended to `settled`, for the source that
    runs (`static_checks.pinned_source`). Any other use of `pytest` leaves the file as it is."""
    imports = [s for s in tree.body if isinstance(s, ast.Import) and len(s.names) == 1
               and s.names[0].name == PYTEST and s.names[0].asname is None]
    if len(imports) != 1 or _binds(tree, PYTEST) != 1:
        return
    marked = [s for s in tree.body if isinstance(s, ast.FunctionDef) and s.decorator_list
              and any(_is_mark(d) for d in s.decorator_list)]
    if not all(_is_mark(d) for s in marked for d in s.decorator_list):
        return
    allowed = {id(n) for s in marked for d in s.decorator_list for n in ast.walk(d)}
    allowed |= {id(n) for s in tree.body if isinstance(s, ast.FunctionDef) or is_main_guard(s)
                for stmt in s.body for n in ast.walk(stmt)}
    if any(isinstance(n, ast.Name) and n.id == PYTEST and id(n) not in allowed for n in ast.walk(tree)):
        return
    if settled is not None:
        settled += [imports[0], *(d for s in marked for d in s.decorator_list)]
    tree.body = [ast.copy_location(ast.Pass(), s) if s is imports[0] else s for s in tree.body]
    for s in marked:
        s.decorator_list = []
        setattr(s, TEST_MARK, True)


def _is_mark(node: ast.expr) -> bool:
    """`pytest.mark.NAME` or `pytest.mark.NAME(...)`."""
    node = node.func if isinstance(node, ast.Call) else node
    return (isinstance(node, ast.Attribute) and isinstance(node.value, ast.Attribute) and node.value.attr == "mark"
            and isinstance(node.value.value, ast.Name) and node.value.value.id == PYTEST)


def _binds(tree: ast.AST, name: str) -> int:
    """How many places of the file bind `name` in any scope (imports, targets, parameters,
    defs, handlers, globals, match captures)."""
    return sum(bound_names(n).count(name) + (isinstance(n, ast.arg) and n.arg == name) for n in ast.walk(tree))


# ---------------------------------------------------------------------- FX leaves
FX_WRAP = ("torch", "fx", "wrap")


def settle_fx_wraps(tree: ast.Module, settled: list | None = None) -> None:
    """Drop the file's FX leaf registrations (module docstring, "FX leaves"), in place: each
    `torch.fx.wrap("f")` statement (f a module-level def of the file) and a bare `import torch.fx`
    become `pass`, each `@torch.fx.wrap` of a module-level def is taken off it; the dropped
    nodes are appended to `settled`, for the source that runs (`static_checks.pinned_source`:
    the decorator becomes `(lambda f: f)`, which is what wrap returns). Nothing of torch.fx
    runs: wrap only records the module's globals in a registry that a symbolic trace reads,
    and no trace runs in the candidate's process. Any other use of torch.fx leaves the file as
    it is (judged by the plain rules: torch.fx is not on the allowlist)."""
    defs = {s.name for s in tree.body if isinstance(s, ast.FunctionDef)}
    calls = [s for s in tree.body if isinstance(s, ast.Expr) and _fx_wrap_call(s.value, defs)]
    marked = [(s, d) for s in tree.body if isinstance(s, ast.FunctionDef) for d in s.decorator_list
              if _dotted_parts(d) == FX_WRAP]
    imports = [s for s in tree.body if isinstance(s, ast.Import) and len(s.names) == 1
               and s.names[0].name == "torch.fx" and s.names[0].asname is None]
    plain = [s for s in tree.body if isinstance(s, ast.Import) and len(s.names) == 1
             and s.names[0].name == "torch" and s.names[0].asname is None]
    if not (calls or marked) or len(plain) != 1 or _binds(tree, "torch") != 1 + len(imports):
        return
    dropped = {id(n) for s in calls for n in ast.walk(s)} | {id(n) for _, d in marked for n in ast.walk(d)}
    if any(_dotted_parts(n)[:2] == FX_WRAP[:2] and id(n) not in dropped for n in ast.walk(tree)
           if isinstance(n, ast.Attribute)):
        return
    if settled is not None:
        settled += [*imports, *calls, *(d for _, d in marked)]
    gone = {id(s) for s in (*imports, *calls)}
    tree.body = [ast.copy_location(ast.Pass(), s) if id(s) in gone else s for s in tree.body]
    for s, d in marked:
        s.decorator_list = [x for x in s.decorator_list if x is not d]


def _fx_wrap_call(node: ast.expr, defs: set[str]) -> bool:
    """`torch.fx.wrap("f")`, f one of `defs`."""
    return (isinstance(node, ast.Call) and _dotted_parts(node.func) == FX_WRAP and not node.keywords
            and len(node.args) == 1 and isinstance(node.args[0], ast.Constant)
            and node.args[0].value in defs)


def _dotted_parts(node: ast.AST) -> tuple[str, ...]:
    """`a.b.c` as ("a", "b", "c"); () for anything else."""
    parts: list[str] = []
    while isinstance(node, ast.Attribute):
        parts.append(node.attr)
        node = node.value
    return (node.id, *reversed(parts)) if isinstance(node, ast.Name) else ()


# ---------------------------------------------------------------------- decorator aliases
def inline_decorator_aliases(tree: ast.Module, decorators: Collection[str]) -> None:
    """Write each module-level `ALIAS = D(...)` out where it is used, when D is a library
    decorator (by the file's imports) and ALIAS, bound only there, is named only as a bare
    decorator (unsloth's `torch_amp_custom_fwd = torch.amp.custom_fwd(device_type="cuda")`, then
    `@torch_amp_custom_fwd`): in place, the assignment dropped. Each D here makes a stateless
    decorator, so one made per use decorates as the shared one does; the checks then judge
    `@D(...)` at each def. Only arguments that are inert where they stand are written out:
    literals and library names (`torch.float32`). The call runs once, at the assignment, in
    the module's scope, while its copies are judged at the uses, which may be in a class body
    that rebinds a name the arguments read, or in the test block the checks skip: an argument
    `exec(PAYLOAD)` ran unchecked that way (red team s38)."""
    imports = _imported_names(tree)
    names = Scopes(tree).module.names
    declared = declared_names(tree)
    in_decorators = {id(d) for node in ast.walk(tree) if isinstance(node, (ast.FunctionDef, ast.ClassDef))
                     for d in node.decorator_list if isinstance(d, ast.Name)}
    rebinds = [node.value for node in tree.body if _rebind_call(node) is not None]
    in_decorators |= {id(call.func) for call in rebinds}
    uses: dict[str, list[ast.Name]] = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.Name):
            uses.setdefault(node.id, []).append(node)
    aliases: dict[str, ast.Call] = {}
    for node in tree.body:
        if not (isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name)
                and isinstance(node.value, ast.Call)):
            continue
        name = node.targets[0].id
        if name in declared or len(names.get(name, ())) != 1 or _library_name(node.value.func, imports) not in decorators:
            continue
        if not all(_inert(a, imports) for a in [*node.value.args, *(k.value for k in node.value.keywords)]) or any(
                k.arg is None for k in node.value.keywords):
            continue
        loads = [u for u in uses.get(name, []) if u is not node.targets[0]]
        if loads and all(id(u) in in_decorators for u in loads):
            aliases[name] = node.value
    _inline_bare_decorator_aliases(tree, decorators, imports, names, declared, uses)
    if not aliases:
        return
    _drop_assignments(tree, aliases)
    for node in ast.walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.ClassDef)):
            node.decorator_list = [ast.copy_location(copy.deepcopy(aliases[d.id]), d)
                                   if isinstance(d, ast.Name) and d.id in aliases else d for d in node.decorator_list]
    for call in rebinds:  # `K2 = ALIAS(K)`: written out as `K2 = D(...)(K)`, a rebind or a copy (below)
        if isinstance(call.func, ast.Name) and call.func.id in aliases:
            call.func = ast.copy_location(copy.deepcopy(aliases[call.func.id]), call.func)


def _inline_bare_decorator_aliases(tree: ast.Module, decorators: Collection[str], imports: dict[str, str],
                                   names: dict, declared: set[str], uses: dict[str, list[ast.Name]]) -> None:
    """`ALIAS = D` at module level, D a library decorator named through the file's imports and
    ALIAS bound only there and named only as a decorator, `@ALIAS(...)` or `@ALIAS` (FlagGems'
    `libtuner` stubbed as `libtuner = triton.autotune`: honest round s51b): each use is written
    out as `@D(...)`/`@D` and the assignment dropped, as for `ALIAS = D(...)` above. The alias
    is the library's object itself, so the file runs what the checks judge."""
    heads: dict[int, ast.FunctionDef | ast.ClassDef] = {}
    for node in ast.walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.ClassDef)):
            for d in node.decorator_list:
                heads[id(d.func if isinstance(d, ast.Call) else d)] = node
    aliases: dict[str, ast.expr] = {}
    for node in tree.body:
        if not (isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name)
                and isinstance(node.value, (ast.Attribute, ast.Name))):
            continue
        name = node.targets[0].id
        if name in declared or len(names.get(name, ())) != 1 or _binds(tree, name) != 1 or (
                _library_name(node.value, imports) not in decorators):
            continue  # (bound nowhere else, in no scope: a parameter of that name is not the alias)
        loads = [u for u in uses.get(name, []) if u is not node.targets[0]]
        if loads and all(id(u) in heads for u in loads):
            aliases[name] = node.value
    if not aliases:
        return
    _drop_assignments(tree, aliases)
    for node in ast.walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.ClassDef)):
            for i, d in enumerate(node.decorator_list):
                head = d.func if isinstance(d, ast.Call) else d
                if isinstance(head, ast.Name) and head.id in aliases:
                    spelled = ast.copy_location(copy.deepcopy(aliases[head.id]), head)
                    if isinstance(d, ast.Call):
                        d.func = spelled
                    else:
                        node.decorator_list[i] = spelled


def _drop_assignments(tree: ast.Module, aliases: dict[str, ast.expr]) -> None:
    """Remove the module-level `ALIAS = value` statements of `aliases` (their uses written out)."""
    tree.body = [n for n in tree.body if not (isinstance(n, ast.Assign) and isinstance(n.targets[0], ast.Name)
                                              and n.targets[0].id in aliases and n.value is aliases[n.targets[0].id])]


def _inert(node: ast.expr, imports: dict[str, str]) -> bool:
    """A literal, a library name through the file's imports, or a tuple/list of these: what
    reads the same anywhere in the file and runs nothing."""
    if isinstance(node, ast.Constant):
        return True
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub):
        return isinstance(node.operand, ast.Constant)
    if isinstance(node, (ast.Tuple, ast.List)):
        return all(_inert(e, imports) for e in node.elts)
    if isinstance(node, ast.Dict):  # a Config's kwargs: literal keys, inert values
        return all(isinstance(k, ast.Constant) and _inert(v, imports) for k, v in zip(node.keys, node.values))
    if isinstance(node, ast.Call) and _library_name(node.func, imports) in INERT_CALLS:
        return all(_inert(a, imports) for a in [*node.args, *(k.value for k in node.keywords)]) and all(
            k.arg is not None for k in node.keywords)
    return isinstance(node, ast.Attribute) and _library_name(node, imports) is not None


def declared_names(tree: ast.AST) -> set[str]:
    """Names some `global`/`nonlocal` statement of the file declares (bound from elsewhere)."""
    return {n for node in ast.walk(tree) if isinstance(node, (ast.Global, ast.Nonlocal)) for n in node.names}


def _library_name(node: ast.expr, imports: dict[str, str]) -> str | None:
    """The dotted library name `a.b.c` spells through the file's imports, or None."""
    parts: list[str] = []
    while isinstance(node, ast.Attribute):
        parts.insert(0, node.attr)
        node = node.value
    return ".".join([imports[node.id], *parts]) if isinstance(node, ast.Name) and node.id in imports else None


# ---------------------------------------------------------------------- rebinds
def fold_decorator_rebinds(tree: ast.Module, decorators: Collection[str]) -> None:
    """Fold each module-level def's following `name = D(name)` statements into its decorator
    list (in place; the last rebind is the outermost decorator), where D qualifies by the
    file's imports to one of `decorators` and names nothing of the def's name.

    `other = D(name)` right below a @triton.jit kernel (SGLang's `k_autotune =
    rmsnorm_autotune(k)`), `other` bound only there and D autotune or heuristics
    (TWIN_DECORATORS), keeps the kernel as it is and binds `other` to D of the same JITFunction:
    it becomes a copy of the def named `other`, with D above the def's decorators."""
    imports = _imported_names(tree)
    bound = Scopes(tree).module.names
    body: list[ast.stmt] = []
    for node in tree.body:
        fn = body[-1] if body and isinstance(body[-1], ast.FunctionDef) else None
        deco = _rebind_decorator(node, fn.name, imports, decorators) if fn is not None else None
        if deco is not None:
            fn.decorator_list.insert(0, deco)
            continue
        deco = _rebind_decorator(node, fn.name, imports, decorators, other=True) if fn is not None else None
        target = sole_target(node)
        if deco is not None and isinstance(target, ast.Name) and len(bound.get(target.id, ())) == 1 and (
                _decorator_name(deco, imports) in TWIN_DECORATORS) and any(
                _decorator_name(d, imports) == "triton.jit" for d in fn.decorator_list):
            twin = copy.deepcopy(fn)  # the lines of the def it copies
            twin.name = target.id
            twin.decorator_list.insert(0, deco)
            body.append(twin)
        else:
            body.append(node)
    tree.body = body


def _decorator_name(deco: ast.expr, imports: dict[str, str]) -> str | None:
    return _library_name(deco.func if isinstance(deco, ast.Call) else deco, imports)


def _rebind_call(node: ast.stmt) -> ast.Call | None:
    """The call of a module-level `T = F(K)` (T and K names, K the only argument), else None."""
    if (isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name)
            and isinstance(node.value, ast.Call) and not node.value.keywords and len(node.value.args) == 1
            and isinstance(node.value.args[0], ast.Name)):
        return node.value
    return None


def _rebind_decorator(node: ast.stmt, name: str, imports: dict[str, str],
                      decorators: Collection[str], other: bool = False) -> ast.expr | None:
    """D of `name = D(name)` (of `T = D(name)`, T another name, when `other`), when D is a
    library decorator, else None."""
    call = _rebind_call(node)
    if call is None or call.args[0].id != name or (node.targets[0].id == name) == other:  # type: ignore[attr-defined]
        return None
    deco = call.func
    if any(isinstance(n, ast.Name) and n.id in (name, node.targets[0].id) for n in ast.walk(deco)):  # type: ignore[attr-defined]
        return None
    return deco if _library_name(deco.func if isinstance(deco, ast.Call) else deco, imports) in decorators else None


def _imported_names(tree: ast.Module) -> dict[str, str]:
    """Module-level names bound by one import and nothing else -> what they import (a name
    also bound otherwise is left out; the checks refuse such a rebinding of an import anyway)."""
    return {name: bound[0].target for name, bound in Scopes(tree).module.names.items()
            if len(bound) == 1 and bound[0].kind == "import"}


def dropped_import_names(settled: list) -> frozenset[str]:
    """The names that only a settled fallback's dropped body binds, where its handler is kept
    (`from apex... import fused_layer_norm_affine`): those no kept arm binds as well."""
    def bound(stmts: list[ast.stmt]) -> set[str]:
        names = set()
        for s in stmts:
            if isinstance(s, (ast.Import, ast.ImportFrom)):
                names |= {a.asname or a.name.split(".")[0] for a in s.names if a.name != "*"}
            elif isinstance(sole_target(s), ast.Name):
                names.add(sole_target(s).id)  # type: ignore[union-attr]
        return names

    kept = set().union(*(bound(n.body if arm == "body" else n.handlers[0].body) for n, arm in settled))
    dropped = set().union(*(bound(n.body) for n, arm in settled if arm == "handler"))
    return frozenset(dropped - kept)


def _import_fallback(node: ast.stmt, constexprs: frozenset[str] = frozenset()) -> bool:
    if not isinstance(node, ast.Try) or node.orelse or node.finalbody or not node.handlers:
        return False
    imports = (ast.Import, ast.ImportFrom)
    return all(isinstance(s, imports) or _flag(s, constexprs) for s in node.body) and all(
        _catches_import_error(h) and all(isinstance(s, (*imports, ast.Pass)) or _flag(s, constexprs)
                                         or _import_fallback(s, constexprs) or _install_hint(s) for s in h.body)
        for h in node.handlers)


def _install_hint(node: ast.stmt) -> bool:
    """`print("please install triton from ...")`: a message of string literals alone, which
    computes nothing (ColossalAI's HAS_TRITON guard, honest round s54). A handler the checks keep
    runs it as module code, judged there; a dropped one never runs (`pinned_source`)."""
    call = node.value if isinstance(node, ast.Expr) else None
    return (isinstance(call, ast.Call) and isinstance(call.func, ast.Name) and call.func.id == "print"
            and not call.keywords and all(isinstance(a, ast.Constant) and isinstance(a.value, str)
                                          for a in call.args))


def _flag(node: ast.stmt, constexprs: frozenset[str] = frozenset()) -> bool:
    """`HAS_TRITON = True`: a name bound to a literal, which cannot raise; or to a literal wrapped
    as `tl.constexpr(True)`, the form a kernel that reads the flag needs (Triton refuses a jit
    function's read of a module global that is not a constexpr; honest round s68), where
    `constexprs` holds the spellings of triton.language.constexpr that imports above the try bound
    (rebinding one is refused by the walk), so the call is Triton's and cannot raise either."""
    if not isinstance(sole_target(node), ast.Name):
        return False
    value = node.value  # type: ignore[attr-defined]
    if isinstance(value, ast.Call) and not value.keywords and len(value.args) == 1:
        return _dotted(value.func) in constexprs and isinstance(value.args[0], ast.Constant)
    return isinstance(value, ast.Constant)


def _dotted(e: ast.expr) -> str | None:
    """`a.b.c` as text, None for anything but names and attributes."""
    if isinstance(e, ast.Name):
        return e.id
    if isinstance(e, ast.Attribute):
        head = _dotted(e.value)
        return head and f"{head}.{e.attr}"
    return None


def _constexpr_spellings(node: ast.stmt) -> set[str]:
    """The spellings of triton.language.constexpr a module-level import binds: `import triton`
    (triton.language.constexpr), `import triton.language as tl` (tl.constexpr), `from triton
    import language as tl`, `from triton.language import constexpr`."""
    found = set()
    if isinstance(node, ast.Import):
        for a in node.names:
            if a.name == "triton.language" and a.asname:
                found.add(f"{a.asname}.constexpr")
            elif a.name.split(".")[0] == "triton" and not a.asname:
                found.add("triton.language.constexpr")
    elif isinstance(node, ast.ImportFrom) and not node.level:
        for a in node.names:
            if node.module == "triton" and a.name == "language":
                found.add(f"{a.asname or a.name}.constexpr")
            elif node.module == "triton.language" and a.name == "constexpr":
                found.add(a.asname or a.name)
    return found


def _catches_import_error(handler: ast.ExceptHandler) -> bool:
    """`except ImportError:` (or ModuleNotFoundError, or both), binding nothing: `as NAME` binds
    and then deletes NAME, any module global, which a settled handler left unjudged (red team s38)."""
    if handler.name is not None:
        return False
    kinds = handler.type.elts if isinstance(handler.type, ast.Tuple) else [handler.type]
    return all(isinstance(k, ast.Name) and k.id in _IMPORT_ERRORS for k in kinds)


# ---------------------------------------------------------------------- logger
def logger_definition(assign: ast.AST | None, scopes: Scopes,
                      qualify: Callable[[ast.AST], str | None]) -> bool:
    """`log = logging.getLogger(__name__ | "literal")`, a module-level statement whose
    target is bound nowhere else."""
    if not (isinstance(sole_target(assign), ast.Name)
            and isinstance(scopes.parent.get(id(assign)), ast.Module)):
        return False
    call = assign.value  # type: ignore[union-attr]
    if not (isinstance(call, ast.Call) and qualify(call.func) == "logging.getLogger"
            and not call.keywords and len(call.args) == 1):
        return False
    arg = call.args[0]
    named = isinstance(arg, ast.Name) and arg.id == "__name__" or (
        isinstance(arg, ast.Constant) and isinstance(arg.value, str) and arg.value)
    return bool(named) and len(scopes.module.names.get(sole_target(assign).id, ())) == 1  # type: ignore[union-attr]


# ---------------------------------------------------------------------- test-only functions
_KERNELBENCH_COPIES = frozenset({"get_inputs", "get_init_inputs"})


def test_only_functions(tree: ast.Module, scopes: Scopes,
                        qualify: Callable[[ast.AST], str | None]) -> set[int]:
    """ids of the module-level defs that only the test block and each other name (or
    nothing does)."""
    candidates = {}
    for node in tree.body:
        if isinstance(node, ast.FunctionDef) and node.name not in _implicit_names() and all(
                isinstance(d, ast.Call) and qualify(d.func) == PERF_REPORT
                for d in node.decorator_list) and len(scopes.module.names.get(node.name, ())) == 1:
            candidates[node.name] = node
    tested = {sub.id for node in tree.body if is_main_guard(node)
              for sub in ast.walk(node) if isinstance(sub, ast.Name)}
    # a test function is one the test block names or a perf_report benchmark, or the copy
    # of the problem's get_inputs/get_init_inputs that KernelBench solutions keep, seeding
    # torch (honest round, session 22), when nothing names it: the harness calls the
    # problem's own. Any other def nobody names could not run either, but is checked like
    # any code (what the checks teach holds for every def a file writes). A def whose pytest
    # marks were dropped (settle_test_marks) is a test too.
    candidates = {n: d for n, d in candidates.items() if n in tested or d.decorator_list
                  or n in _KERNELBENCH_COPIES or getattr(d, TEST_MARK, False)}
    uses: list[tuple[str, ast.FunctionDef | None]] = []  # (name, the candidate def it is in)
    for node in tree.body:
        if is_main_guard(node):
            continue
        inside = node if isinstance(node, ast.FunctionDef) and node.name in candidates else None
        # the decorators, defaults and annotations of a def run at import: only its body
        # is the def's own
        body = {id(sub) for stmt in inside.body for sub in ast.walk(stmt)} if inside else set()
        for sub in ast.walk(node):
            if isinstance(sub, ast.Name) and sub.id in candidates:
                uses.append((sub.id, inside if id(sub) in body else None))
    alive = True
    while alive:
        alive = False
        for name, owner in uses:
            if name in candidates and (owner is None or owner.name not in candidates):
                del candidates[name]
                alive = True
    return {id(n) for n in candidates.values()}


def _implicit_names() -> frozenset[str]:
    """Names something other than the file may look up in its module: ModelNew (the
    harness), every global of Triton's interpreter, whose rewrite of a kernel calls
    names no Name node of the file shows (`_InterpreterComparison` for a chained
    comparison), and every builtin (code run in the module's globals finds a def by a
    builtin's name first: red team s40 shadowed `range` with a marked test): a def by such a
    name is never test-only."""
    import builtins

    try:
        from triton.runtime import interpreter
    except ImportError:  # deliberate: a Triton build without the interpreter
        return frozenset({"ModelNew", *vars(builtins)})
    return frozenset({"ModelNew", *vars(builtins), *vars(interpreter)})
