"""Static checks on a candidate source, with `ast` (never regex), before anything runs.

Cheapest layer of the verdict pipeline, run in the worker. It answers:
  1. Is it a kernel file at all? (decodes as UTF-8, fits the size bound, parses,
     defines ModelNew with a forward, defines a Triton kernel) -> format_error /
     compile_error / the no_triton_kernel hack.
  2. Does every line stay inside the allowlist of evaluator.static_allowlist? The
     WHOLE file is walked (module level, every function and method, __init__,
     decorators, default arguments, annotations, lambdas, comprehensions), every node
     type it does not know is rejected, and names are resolved with Python's scoping
     (evaluator.static_scopes), so no alias, default argument or shadowing hides what
     a name is.

Whether the kernels did the work is not decided here: the runtime measures it
(launch records, profiler coverage, knock-out). Each finding names the construct on
its line and says what to write instead.
"""
from __future__ import annotations

import ast
import functools
import logging
import tokenize
from collections.abc import Sequence
from dataclasses import dataclass, field

from common.config.evaluator import StaticConfig
from evaluator import block_pointers, gpu_names
from evaluator import static_allowlist as A
from evaluator.static_branches import module_variants, other_arms_names, settle_module_ifs
from evaluator.static_budget import Watchdog
from evaluator.static_idioms import (
    dropped_import_names,
    fold_decorator_rebinds,
    inline_decorator_aliases,
    settle_fx_wraps,
    settle_import_fallbacks,
    settle_test_marks,
)
from evaluator.static_namespaces import exists, imports_cleanly, tables
from evaluator.static_scopes import CheckTooCostly
from evaluator.static_walk import Checker

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class Finding:
    """One problem: status it implies, short code, message for the model, line."""

    status: str  # "format_error" | "compile_error" | "hack"
    code: str
    message: str
    line: int | None = None


@dataclass
class StaticReport:
    findings: list[Finding] = field(default_factory=list)
    kernels: list[str] = field(default_factory=list)
    # the source the candidate's process runs: the checked one with what the checks settled
    # pinned (`pinned_source`); None where the checks did not get that far
    source: str | None = None

    @property
    def status(self) -> str | None:
        """The verdict status the findings imply (None: passed)."""
        for status in ("hack", "compile_error", "format_error"):
            if any(f.status == status for f in self.findings):
                return status
        return None

    @property
    def hacks(self) -> list[str]:
        return sorted({f.code for f in self.findings if f.status == "hack"})


def decode_source(raw: str | bytes, cfg: StaticConfig) -> tuple[str | None, Finding | None]:
    """The candidate as text, or the format error that stops it."""
    size = len(raw.encode("utf-8", "surrogatepass") if isinstance(raw, str) else raw)
    if size > cfg.max_source_bytes:
        return None, Finding("format_error", "source_too_large",
                             f"the file is {size} bytes; the limit is {cfg.max_source_bytes}")
    if isinstance(raw, bytes):
        try:
            raw = raw.decode("utf-8")
        except UnicodeDecodeError as exc:
            return None, Finding("format_error", "not_utf8", f"the file is not UTF-8 "
                                 f"({exc.reason} at byte {exc.start})")
    if not raw.strip():
        return None, Finding("format_error", "empty_source", "the file is empty")
    return raw, None


def check_source(source: str, cfg: StaticConfig, lower_block_pointers: bool | None = None) -> StaticReport:
    """All findings for one candidate source (already decoded). The text is first read with
    universal newlines (`\r\n` and `\r` become `\n`), as Python's parser and its import of the
    file do: then a line is the same line to the parser, to the encoding declaration's check
    (`tokenize.detect_encoding` splits on `\n` alone), to the pins and to the file the child
    imports. Red team s38: with `\r` line ends, every pin landed on other text than the
    condition it settled, and a utf-7 declaration sat on Python's first line while the checks
    read it as a later one. With `lower_block_pointers` (a CPU evaluation; by default, where the
    installed Triton has none) the file's block pointers are first written out as plain loads and
    stores (`evaluator.block_pointers`), and the checks judge, and the child runs, that file."""
    source = source.replace("\r\n", "\n").replace("\r", "\n")
    report = StaticReport(source=source)
    declared = _declared_encoding(source)
    if declared is not None:
        report.findings.append(Finding("hack", "dynamic_code", f"`coding: {declared[:40]}`: the "
                                       "file declares an encoding other than utf-8, and Python would "
                                       "read other code from it than the text that was checked (in "
                                       "utf-7 `+AAo-` in a comment is a new line); declare none, or "
                                       "utf-8", 1))
        return report
    # Deliberate: a file nested deeper than the parser or this walk can recurse is
    # rejected, not a crash of the worker (no honest kernel nests a thousand levels).
    try:
        with Watchdog(cfg.check_budget_s):
            if block_pointers.removed() if lower_block_pointers is None else lower_block_pointers:
                source, problems = block_pointers.lower(source)
                report.findings += [Finding("compile_error", "block_pointer", m, line) for line, m in problems]
                if problems:
                    return report
            tree = ast.parse(source, filename="candidate.py")
            fallbacks: list[tuple[ast.Try, str]] = []
            ifs: list[tuple[ast.If, bool]] = []
            settle_import_fallbacks(tree, functools.partial(_importable, cfg=cfg), fallbacks)
            report.findings += _settled_apart(fallbacks, cfg)
            settle_module_ifs(tree, ifs)
            marks: list[ast.AST] = []
            settle_test_marks(tree, marks)
            settle_fx_wraps(tree, marks)
            report.source = pinned_source(source, ifs, fallbacks, marks)
            unjudged = dropped_import_names(fallbacks)
            found = []
            variants = module_variants(tree)  # each file the module-level ifs can make
            for variant, elsewhere in zip(variants, other_arms_names(variants)):
                inline_decorator_aliases(variant, A.DECORATORS)
                fold_decorator_rebinds(variant, {k for k, (where, _) in A.DECORATORS.items() if "f" in where})
                checker = Checker(variant, cfg, source, unjudged | elsewhere)
                checker.run()
                kernels = [k.name for k in checker.kernels.values()]
                report.kernels += [k for k in kernels if k not in report.kernels]
                found += [*(Finding(*f) for f in checker.findings), *_structure(variant, kernels)]
    except (SyntaxError, ValueError) as exc:
        line = getattr(exc, "lineno", None)
        report.findings.append(Finding("compile_error", "syntax_error", f"{type(exc).__name__}: "
                                       f"{getattr(exc, 'msg', exc)}", line))
        return report
    except CheckTooCostly:
        report.findings.append(Finding("compile_error", "too_costly", f"the static checks ran past "
                                       f"{cfg.check_budget_s:g} s on this file; write it more plainly"))
        return report
    except RecursionError:
        report.findings.append(Finding("compile_error", "too_deeply_nested", "the file nests "
                                       "expressions or blocks too deeply to check; flatten them"))
        return report
    except Exception as exc:  # a construct the checker does not handle: refused, never passed
        # on (the worker answered "crashed, not your kernel", which no one trains on), and logged
        log.exception("the static checks failed on a candidate")
        report.findings.append(Finding("compile_error", "unchecked", f"the static checks could not "
                                       f"read this file ({type(exc).__name__}); write it more plainly"))
        return report
    seen = set()
    for f in found:
        if (f.code, f.line) not in seen:
            seen.add((f.code, f.line))
            report.findings.append(f)
    return report


def _declared_encoding(source: str) -> str | None:
    """The encoding a coding declaration (PEP 263, line 1 or 2) names when it is not utf-8,
    else None. The file is written as utf-8 and imported from disk, where Python decodes it
    by that declaration (so do linecache and Triton): the checks must see what runs."""
    head = source.encode("utf-8", "surrogatepass").splitlines(keepends=True)[:2]
    try:
        encoding, _ = tokenize.detect_encoding(iter(head).__next__)
    except SyntaxError as exc:  # an unknown encoding, or one that contradicts a BOM
        return str(exc)
    except StopIteration:
        return None
    return None if encoding in ("utf-8", "utf-8-sig") else encoding


def pinned_source(source: str, ifs: list[tuple[ast.If, bool]], fallbacks: list[tuple[ast.Try, str]],
                  marks: Sequence[ast.AST] = ()) -> str:
    """`source` as the checks judged it: each module-level `if` they settled has its condition
    replaced by the value they settled it to, and each import fallback they settled runs the
    arm they kept: a kept body's handlers catch nothing (`except ():`), a kept handler's body
    raises ModuleNotFoundError before its first statement. What the checks decided before
    anything runs (a feature probe of the installed library, an import that cannot fail) is
    then what the candidate's process does, whatever it would have answered itself: the checks
    predict this worker's library, and the child's differs (it imports more, the evaluator
    patches it; red team s38 ran an unjudged arm through a probe of an attribute only the child
    had). A self-test's pytest import and marks that the checks dropped (`settle_test_marks`),
    and the FX leaf registrations (`settle_fx_wraps`), become `pass` and `(lambda f: f)`. Line
    numbers are kept (a span over several lines becomes a parenthesised one of as many lines)."""
    # (line, column, end line, end column, text): a span replaced; an empty span, text inserted
    edits = [_span(s.test, "True" if value else "False") for s, value in ifs]
    edits += [_span(h.type, "") for t, arm in fallbacks if arm == "body" for h in t.handlers if h.type is not None]
    edits += [(t.body[0].lineno, t.body[0].col_offset, t.body[0].lineno, t.body[0].col_offset,
               "raise ModuleNotFoundError; ") for t, arm in fallbacks if arm == "handler"]
    edits += [(*_at(m), "pass" + "\n" * (m.end_lineno - m.lineno)) if isinstance(m, ast.stmt)  # type: ignore[attr-defined]
              else _span(m, _IDENTITY) for m in marks]  # type: ignore[arg-type]
    edits += [(first.lineno, first.col_offset, first.lineno, first.col_offset, f"{RESOURCE}(); ")
              for first in (_runs_first(h)[0] for h in _handlers(source))]
    if not edits:
        return source
    lines = source.encode("utf-8").split(b"\n")
    for line, col, end_line, end_col, text in sorted(edits, reverse=True):
        first, last = line - 1, end_line - 1
        joined = lines[first][:col] + text.encode() + lines[last][end_col:]
        lines[first:last + 1] = joined.split(b"\n")
    pinned = b"\n".join(lines).decode("utf-8")
    if _shape(ast.parse(pinned)) != _shape(_pinned_tree(source, ifs, fallbacks, marks)):
        # the text edits must make exactly the tree the checks mean to run, on the same lines
        # (a line numbered otherwise than Python numbers it moved every pin, red team s38)
        raise ValueError("the checks could not pin what they settled; write the file more plainly")
    return pinned


def _pinned_tree(source: str, ifs: list[tuple[ast.If, bool]], fallbacks: list[tuple[ast.Try, str]],
                 marks: Sequence[ast.AST]) -> ast.Module:
    """The tree `pinned_source` means to make, by the same edits on a fresh parse."""
    at = _at
    tests = {at(s.test): value for s, value in ifs}
    tries = {at(t): arm for t, arm in fallbacks}
    dropped = {at(m) for m in marks}
    tree = ast.parse(source)
    for node in ast.walk(tree):  # (a settled `if` lifted what it holds to module level)
        if isinstance(node, (ast.Module, ast.If)):
            node.body = [ast.copy_location(ast.Pass(), s) if at(s) in dropped else s for s in node.body]
            if isinstance(node, ast.If):
                node.orelse = [ast.copy_location(ast.Pass(), s) if at(s) in dropped else s for s in node.orelse]
        elif isinstance(node, ast.FunctionDef):
            node.decorator_list = [ast.parse(_IDENTITY, mode="eval").body if at(d) in dropped else d
                                   for d in node.decorator_list]
    for node in ast.walk(tree):
        if isinstance(node, ast.If) and at(node.test) in tests:
            node.test = ast.Constant(tests[at(node.test)])
        elif isinstance(node, ast.Try) and at(node) in tries:
            if tries[at(node)] == "body":
                for h in node.handlers:
                    h.type = ast.Tuple(elts=[], ctx=ast.Load()) if h.type is not None else None
            else:
                first = node.body[0]
                node.body.insert(0, ast.Raise(exc=ast.Name("ModuleNotFoundError", ast.Load()), cause=None,
                                              lineno=first.lineno, col_offset=first.col_offset))
    # after the raises: a clause whose nested fallback is settled to its handler runs RESOURCE,
    # then that raise (the text's insertions at one place, in `sorted` order)
    for h in _handlers(tree):
        first, body = _runs_first(h)
        body.insert(0, ast.Expr(value=ast.Call(func=ast.Name(RESOURCE, ast.Load()), args=[], keywords=[]),
                                  lineno=first.lineno, col_offset=first.col_offset))
    return tree


_IDENTITY = "lambda f: f"
# What every handler of the file's (module-level) try statements runs first, in the candidate's
# process: it raises again a MemoryError or RecursionError (evaluator.runner.resource_errors).
# Those say what the machine has, not what the code computes: `b"x" * 30_000_000_000` raised
# under the CPU sandbox's address-space limit and not on a GPU host with the memory, and an
# `except Exception:` read the difference as a switch (honest/red round s47). The name is
# no builtin a file can write (the checks refuse a name the file never defines).
RESOURCE = "__krl_resource_errors__"


def _handlers(source: str | ast.Module) -> list[ast.ExceptHandler]:
    """Every except clause of the file (try statements stand at module level only)."""
    tree = ast.parse(source) if isinstance(source, str) else source
    kinds = (ast.Try, getattr(ast, "TryStar", ast.Try))
    return [h for node in ast.walk(tree) if isinstance(node, kinds) for h in node.handlers]


def _runs_first(handler: ast.ExceptHandler) -> tuple[ast.stmt, list[ast.stmt]]:
    """The statement an except clause runs first, and the body holding it, where RESOURCE is
    inserted on its line: the clause's first statement, or where that is a try with no finally,
    the first statement of its body, and so on down (a fallback chain of imports nested in the
    handler: `except ImportError:` then `try: from ... import rsqrt`, xformers' libdevice_find
    written out; honest round s51b). A try's body runs unconditionally and each of its own
    handlers begins with RESOURCE too, so what is raised again there leaves the nested try as
    it would have left the clause; a finally could swallow it (`finally: break` in a loop), so
    none is entered. Any other compound statement first (an if, a loop, a with) is refused: the
    call cannot share its line, and its body need not run."""
    body = handler.body
    while isinstance(body[0], ast.Try) and not body[0].finalbody:
        body = body[0].body
    if not isinstance(body[0], _SIMPLE):
        raise ValueError("an except clause must begin with a simple statement or a try "
                         "(without finally); put the if, loop or with after an assignment")
    return body[0], body


_SIMPLE = (ast.Expr, ast.Assign, ast.AugAssign, ast.AnnAssign, ast.Import, ast.ImportFrom, ast.Pass,
           ast.Raise, ast.Return, ast.Assert, ast.Delete, ast.Global, ast.Nonlocal, ast.Break,
           ast.Continue)


def _at(node: ast.AST) -> tuple[int, int, int, int]:
    return node.lineno, node.col_offset, node.end_lineno, node.end_col_offset  # type: ignore[attr-defined,return-value]


def _shape(tree: ast.Module) -> tuple[str, list]:
    """A tree's structure and the line of each statement."""
    return ast.dump(tree), [(type(n).__name__, n.lineno) for n in ast.walk(tree) if isinstance(n, ast.stmt)]


def _span(node: ast.expr, value: str) -> tuple[int, int, int, int, str]:
    """Replace an expression by `(value)` on as many lines as it spans."""
    return (node.lineno, node.col_offset, node.end_lineno, node.end_col_offset,  # type: ignore[return-value]
            f"({value}" + "\n" * (node.end_lineno - node.lineno) + ")")  # type: ignore[operator]


def _importable(node: ast.stmt, cfg: StaticConfig) -> bool:
    """Whether an import statement imports only allowed names that exist (so it cannot
    fail at run time)."""
    t = tables()
    if isinstance(node, ast.ImportFrom):
        if node.level or not node.module or not t.importable(node.module, cfg.allowed_imports) or (
                not imports_cleanly(node.module)):
            return False
        return all(a.name != "*" and a.name in t.namespaces[node.module] and exists(f"{node.module}.{a.name}")
                   and (_attribute_of(node.module, a.name) or imports_cleanly(f"{node.module}.{a.name}"))
                   for a in node.names)
    return isinstance(node, ast.Import) and all(
        t.importable(a.name, cfg.allowed_imports) and imports_cleanly(a.name) for a in node.names)


def _settled_apart(fallbacks: list[tuple[ast.Try, str]], cfg: StaticConfig) -> list[Finding]:
    """An import fallback settled to its handler where a body import fails here but the GPU
    image's libraries have what it imports (evaluator.gpu_names: `from triton.language import
    advance`, Triton 3.6's and not 3.9's): the GPU's own checks settle it to the body, so the
    flags it binds, and every module-level `if` on them, take the other arm there, which this
    check neither judged nor ran (red team rt69: `if BLOCK_POINTERS:` a forward of torch ops,
    `else:` the Triton kernel, ok on the CPU). As `hasattr(tl, name)` on such a name
    (static_expressions: unknown_api), refused: the CPU check cannot predict the GPU's arm."""
    found = []
    for node, arm in fallbacks:
        if arm != "handler":
            continue
        for s in node.body:
            if isinstance(s, (ast.Import, ast.ImportFrom)) and not _importable(s, cfg) and _image_imports(s, cfg):
                found.append(Finding("compile_error", "unknown_api", "this import fails on this machine's "
                                     f"libraries but not on the GPU image's ({gpu_names.versions()}): the "
                                     "fallback would run its handler here and its body there",
                                     s.lineno))
    return found


def _image_imports(node: ast.stmt, cfg: StaticConfig) -> bool:
    """Whether the GPU image has every name an allowed import statement imports (as recorded)."""
    t = tables()
    if isinstance(node, ast.ImportFrom):
        return not node.level and bool(node.module) and t.importable(node.module, cfg.allowed_imports) and (
            all(a.name != "*" and gpu_names.has(f"{node.module}.{a.name}") for a in node.names)) and any(
            _absent_here(node.module, a.name) for a in node.names)
    return isinstance(node, ast.Import) and all(
        t.importable(a.name, cfg.allowed_imports) and gpu_names.has(a.name) for a in node.names) and any(
        not imports_cleanly(a.name) for a in node.names)


def _absent_here(module: str, name: str) -> bool:
    """Whether this machine's library lacks `module.name` outright (no attribute, no submodule):
    a name it has but the allowlist leaves out is left out on the GPU too."""
    import importlib.util
    import sys

    if not imports_cleanly(module):
        return True
    if _attribute_of(module, name):
        return False
    try:
        return importlib.util.find_spec(f"{module}.{name}") is None if hasattr(sys.modules[module], "__path__") else True
    except (ImportError, ValueError):  # deliberate: no such package here
        return True


def _attribute_of(module: str, name: str) -> bool:
    """Whether the (cleanly imported) module has the attribute: `from module import name`
    reads it before it looks for a submodule."""
    import inspect
    import sys

    return inspect.getattr_static(sys.modules.get(module), name, None) is not None  # read, never run


def _structure(tree: ast.Module, kernels: list[str]) -> list[Finding]:
    """ModelNew with a forward (format errors) and at least one Triton kernel."""
    top = {n.name: n for n in tree.body if isinstance(n, ast.ClassDef)}
    cls = top.get("ModelNew")
    for node in tree.body:  # `ModelNew = SomeClass`
        if (cls is None and isinstance(node, ast.Assign) and isinstance(node.value, ast.Name)
                and any(isinstance(t, ast.Name) and t.id == "ModelNew" for t in node.targets)):
            cls = top.get(node.value.id)
    cls = cls or top.get("Model")  # some public solution sets name their own class Model
    if cls is None:
        return [Finding("format_error", "no_modelnew", "the file must define class ModelNew "
                        "(an nn.Module whose forward launches your Triton kernels)")]
    if "forward" not in _method_names(cls, top, set()):
        return [Finding("format_error", "no_forward", "ModelNew must define forward",
                        cls.lineno)]
    if not kernels:
        return [Finding("hack", "no_triton_kernel", "the file defines no @triton.jit kernel; "
                        "write the computation as Triton kernels that forward launches")]
    return []


def _method_names(cls: ast.ClassDef, top: dict, seen: set) -> set[str]:
    """Methods of a class and of its bases defined in the same file."""
    seen.add(cls.name)
    names = {n.name for n in cls.body if isinstance(n, ast.FunctionDef)}
    for base in cls.bases:
        if isinstance(base, ast.Name) and base.id in top and base.id not in seen:
            names |= _method_names(top[base.id], top, seen)
    return names
