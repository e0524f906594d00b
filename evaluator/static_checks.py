"""Static checks on a candidate source, with `ast` (never regex), before anything runs.

Cheapest layer of the verdict pipeline. It answers three questions:
  1. Is it a kernel file at all? (decodes as UTF-8, fits the size bound, parses,
     defines ModelNew with a forward) -> format_error / compile_error.
  2. Does it try anything a kernel never needs? Imports outside the allowlist,
     reflection, monkey-patching, files, threads, dynamic code, try/except, the
     reference Model, streams (tables and hack codes in evaluator.static_rules).
     Names are resolved through import aliases and constant getattr, so
     `getattr(torch, "save")` is `torch.save`; a computed name is reflection.
  3. Does forward reach a @triton.jit kernel, and does it avoid the configured
     high-level torch compute? The forward closure is forward plus every function,
     method and class of the file it names, transitively; kernels are followed by
     name only (the runtime launch hook is the proof that one really launched).

The checks are deliberately strict about the rare idioms a fast, honest kernel file
never needs; the message of each finding says what to write instead.
"""
from __future__ import annotations

import ast
import builtins
from collections.abc import Iterator
from dataclasses import dataclass, field

from common.config.evaluator import StaticConfig
from evaluator import static_rules as R

_BUILTIN_NAMES = frozenset(dir(builtins))


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
            return None, Finding("format_error", "not_utf8", f"the file is not UTF-8 ({exc.reason} "
                                 f"at byte {exc.start})")
    if not raw.strip():
        return None, Finding("format_error", "empty_source", "the file is empty")
    return raw, None


def check_source(source: str, cfg: StaticConfig) -> StaticReport:
    """All findings for one candidate source (already decoded)."""
    report = StaticReport()
    try:
        tree = ast.parse(source, filename="candidate.py")
    except (SyntaxError, ValueError) as exc:
        line = getattr(exc, "lineno", None)
        report.findings.append(Finding("compile_error", "syntax_error", f"{type(exc).__name__}: "
                                       f"{getattr(exc, 'msg', exc)}", line))
        return report
    checker = _Checker(tree, cfg)
    structure, kernels = checker.structure()
    seen = set()
    for f in [*checker.safety(), *structure]:
        if (f.code, f.line) not in seen:
            seen.add((f.code, f.line))
            report.findings.append(f)
    report.kernels = kernels
    return report


class _Checker:
    def __init__(self, tree: ast.Module, cfg: StaticConfig):
        _mark_parents(tree)
        self.tree, self.cfg = tree, cfg
        self.aliases: dict[str, str] = {}
        self.local_names: set[str] = set()
        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                for a in node.names:
                    self.aliases[a.asname or a.name.split(".")[0]] = a.name if a.asname else a.name.split(".")[0]
            elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
                for a in node.names:
                    self.aliases[a.asname or a.name] = f"{node.module}.{a.name}"
            elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                self.local_names.add(node.name)
            elif isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
                self.local_names.add(node.id)
            elif isinstance(node, ast.arg):
                self.local_names.add(node.arg)

    # ------------------------------------------------------------------ names
    def qualify(self, node: ast.AST) -> str | None:
        """Dotted name of an expression rooted in an import alias or a builtin."""
        if isinstance(node, ast.Name):
            if node.id in self.aliases:
                return self.aliases[node.id]
            if node.id in _BUILTIN_NAMES and node.id not in self.local_names:
                return f"builtins.{node.id}"
            return None
        if isinstance(node, ast.Attribute):
            base = self.qualify(node.value)
            return f"{base}.{node.attr}" if base else None
        if _is_getattr(node) and _const_str(node.args[1]) is not None:
            base = self.qualify(node.args[0])
            return f"{base}.{_const_str(node.args[1])}" if base else None
        return None

    # ------------------------------------------------------------------ safety rules
    def safety(self) -> Iterator[Finding]:
        for node in ast.walk(self.tree):
            line = getattr(node, "lineno", None)
            if isinstance(node, (ast.Import, ast.ImportFrom)):
                yield from self._imports(node)
            elif isinstance(node, (ast.Try, getattr(ast, "TryStar", ast.Try))):
                yield Finding("hack", "try_except", "try/except is not allowed: a kernel must not "
                              "fall back to other code when it fails", line)
            elif isinstance(node, ast.Name):
                yield from self._name(node)
            elif isinstance(node, ast.Attribute):
                yield from self._attribute(node)
            elif isinstance(node, ast.Call):
                yield from self._call(node)
            elif isinstance(node, (ast.Assign, ast.AugAssign, ast.AnnAssign, ast.Delete)):
                yield from self._mutation(node)
            elif isinstance(node, ast.ClassDef):
                yield from self._class(node)
            elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                if _is_dunder(node.name) and node.name not in R.ALLOWED_DUNDER_METHODS:
                    yield Finding("hack", "monkey_patch", f"defining {node.name} is not allowed", line)
            if isinstance(node, (ast.Name, ast.Attribute)) or _is_getattr(node):
                q = self.qualify(node)
                if q is not None and not q.startswith("builtins."):
                    key = R.prefix_match(q, R.FORBIDDEN_API)
                    if key is not None and _outermost_use(node):
                        yield Finding("hack", R.FORBIDDEN_API[key], f"{q} is not allowed", line)
                    elif _private_component(q) and _outermost_use(node):
                        yield Finding("hack", "reflection", f"private API {q} is not allowed", line)

    def _imports(self, node: ast.Import | ast.ImportFrom) -> Iterator[Finding]:
        line = node.lineno
        if isinstance(node, ast.ImportFrom):
            if node.level or not node.module:
                yield Finding("compile_error", "relative_import", "relative imports are not allowed", line)
                return
            if any(a.name == "*" for a in node.names):
                yield Finding("compile_error", "star_import", f"`from {node.module} import *` is not "
                              "allowed; import the names you use", line)
            modules = [node.module]
            names = [node.module] + [f"{node.module}.{a.name}" for a in node.names if a.name != "*"]
        else:
            modules = names = [a.name for a in node.names]
        for name in modules:
            top = name.split(".")[0]
            if top in R.CONCURRENCY_MODULES:
                yield Finding("hack", "concurrency", f"importing {name} is not allowed: no threads "
                              "or processes", line)
            elif top in R.DANGEROUS_MODULES:
                yield Finding("hack", "forbidden_import", f"importing {name} is not allowed", line)
            elif not R.prefix_match(name, self.cfg.allowed_imports):
                yield Finding("compile_error", "unavailable_module", f"module {name} is not available "
                              f"in the sandbox (allowed: {', '.join(self.cfg.allowed_imports)})", line)
        for name in names:
            key = R.prefix_match(name, R.FORBIDDEN_API)
            if key is not None:
                yield Finding("hack", R.FORBIDDEN_API[key], f"importing {name} is not allowed", line)
            elif _private_component(name):
                yield Finding("hack", "reflection", f"importing private {name} is not allowed", line)

    def _name(self, node: ast.Name) -> Iterator[Finding]:
        line = node.lineno
        if node.id in R.FORBIDDEN_BUILTINS and node.id not in self.local_names:
            yield Finding("hack", R.FORBIDDEN_BUILTINS[node.id], f"{node.id} is not allowed", line)
        elif _is_dunder(node.id) and node.id not in R.ALLOWED_DUNDER_NAMES:
            yield Finding("hack", "reflection", f"{node.id} is not allowed", line)
        elif node.id == "Model" and isinstance(node.ctx, ast.Load):
            yield Finding("hack", "reference_model", "using the reference Model is not allowed; "
                          "ModelNew must compute with its own kernels", line)

    def _attribute(self, node: ast.Attribute) -> Iterator[Finding]:
        line, attr = node.lineno, node.attr
        if _is_dunder(attr) and attr not in R.ALLOWED_DUNDER_ATTRIBUTES:
            yield Finding("hack", "reflection", f"attribute {attr} is not allowed", line)
        elif attr.startswith("_") and not _is_dunder(attr) and not _is_self(node.value):
            yield Finding("hack", "reflection", f"private attribute {attr} is only allowed on self", line)
        elif attr in R.FORBIDDEN_ATTRIBUTES:
            yield Finding("hack", R.FORBIDDEN_ATTRIBUTES[attr], f"attribute {attr} is not allowed", line)

    def _call(self, node: ast.Call) -> Iterator[Finding]:
        line, func = node.lineno, node.func
        name = func.id if isinstance(func, ast.Name) and func.id not in self.local_names else None
        if name in ("getattr", "hasattr"):
            if len(node.args) < 2 or _const_str(node.args[1]) is None:
                yield Finding("hack", "reflection", f"{name} with a computed attribute name is not "
                              "allowed", line)
            else:
                fake = ast.Attribute(value=node.args[0], attr=_const_str(node.args[1]), ctx=ast.Load())
                yield from self._attribute(ast.copy_location(fake, node))
        elif name in ("setattr", "delattr"):
            if not node.args or not _is_self(node.args[0]):
                yield Finding("hack", "monkey_patch", f"{name} is only allowed on self", line)
        elif name == "type" and len(node.args) == 3:
            yield Finding("hack", "reflection", "creating classes with type() is not allowed", line)

    def _mutation(self, node: ast.AST) -> Iterator[Finding]:
        targets = node.targets if isinstance(node, (ast.Assign, ast.Delete)) else [node.target]
        for target in targets:
            for t in _flatten_targets(target):
                if isinstance(t, (ast.Attribute, ast.Subscript)) and self._rooted_in_module(t.value):
                    yield Finding("hack", "monkey_patch", "assigning to or deleting attributes of "
                                  "modules is not allowed", node.lineno)

    def _rooted_in_module(self, node: ast.AST) -> bool:
        while isinstance(node, (ast.Attribute, ast.Subscript)):
            node = node.value
        return self.qualify(node) is not None

    def _class(self, node: ast.ClassDef) -> Iterator[Finding]:
        for base in node.bases:
            q = self.qualify(base)
            if q is not None and R.prefix_match(q, R.FORBIDDEN_BASES):
                yield Finding("hack", "monkey_patch", f"subclassing {q} is not allowed", node.lineno)
        if node.keywords:
            yield Finding("hack", "reflection", "class keywords (metaclass=...) are not allowed",
                          node.lineno)

    # ------------------------------------------------------------------ structure
    def structure(self) -> tuple[list[Finding], list[str]]:
        top = {n.name: n for n in self.tree.body
               if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef))}
        kernels = [n.name for n in ast.walk(self.tree)
                   if isinstance(n, ast.FunctionDef) and any(self._is_kernel_decorator(d)
                                                              for d in n.decorator_list)]
        cls = self._model_new(top)
        if cls is None:
            return [Finding("format_error", "no_modelnew", "the file must define class ModelNew "
                            "(an nn.Module whose forward launches your Triton kernels)")], kernels
        methods = _methods(cls, top)
        if "forward" not in methods:
            return [Finding("format_error", "no_forward", "ModelNew must define forward")], kernels
        if not kernels:
            return [Finding("hack", "no_triton_kernel", "the file defines no @triton.jit kernel; "
                            "ModelNew must compute with Triton")], kernels
        closure = _closure(methods["forward"], top, methods, _self_classes(cls, top))
        findings = []
        if not any(isinstance(n, ast.Name) and n.id in kernels for f in closure for n in ast.walk(f)):
            findings.append(Finding("hack", "kernel_not_launched", "forward never launches any of "
                                    f"the file's kernels ({', '.join(kernels)})", cls.lineno))
        findings.extend(self._torch_compute(cls, closure, set(kernels)))
        return findings, kernels

    def _is_kernel_decorator(self, node: ast.AST) -> bool:
        target = node.func if isinstance(node, ast.Call) else node
        return self.qualify(target) in R.KERNEL_DECORATORS

    def _model_new(self, top: dict) -> ast.ClassDef | None:
        if isinstance(top.get("ModelNew"), ast.ClassDef):
            return top["ModelNew"]
        for node in self.tree.body:  # `ModelNew = SomeClass`
            if (isinstance(node, ast.Assign) and any(isinstance(t, ast.Name) and t.id == "ModelNew"
                                                     for t in node.targets)
                    and isinstance(node.value, ast.Name) and isinstance(top.get(node.value.id), ast.ClassDef)):
                return top[node.value.id]
        return None

    def _torch_compute(self, cls: ast.ClassDef, closure: list, kernels: set) -> Iterator[Finding]:
        forbidden = self.cfg.forbidden_compute
        methods = {n.rsplit(".", 1)[1] for n in forbidden if n.count(".") == 1 and n[6:7].islower()}
        module_attrs = {}
        for node in ast.walk(cls):  # self.x = nn.Linear(...)
            if isinstance(node, ast.Assign) and isinstance(node.value, ast.Call):
                q = self.qualify(node.value.func)
                if q and R.prefix_match(q, forbidden):
                    for t in node.targets:
                        if isinstance(t, ast.Attribute) and _is_self(t.value):
                            module_attrs[t.attr] = q
        for fn in closure:
            if fn.name in kernels:
                continue
            for node in ast.walk(fn):
                line = getattr(node, "lineno", None)
                if isinstance(node, ast.BinOp) and isinstance(node.op, ast.MatMult):
                    yield Finding("hack", "torch_compute", "the @ operator (torch matmul) is not allowed "
                                  "in forward; write the matmul as a Triton kernel", line)
                if not isinstance(node, ast.Call):
                    continue
                q = self.qualify(node.func)
                if q and R.prefix_match(q, forbidden):
                    yield Finding("hack", "torch_compute", f"{q} is not allowed in forward; compute "
                                  "it in a Triton kernel", line)
                elif isinstance(node.func, ast.Attribute) and q is None:
                    attr = node.func.attr
                    if _is_self(node.func.value) and attr in module_attrs:
                        yield Finding("hack", "torch_compute", f"calling self.{attr} "
                                      f"({module_attrs[attr]}) is not allowed in forward", line)
                    elif attr in methods:
                        yield Finding("hack", "torch_compute", f".{attr}() is not allowed in forward; "
                                      "compute it in a Triton kernel", line)


# ---------------------------------------------------------------------- helpers
def _is_dunder(name: str) -> bool:
    return len(name) > 4 and name.startswith("__") and name.endswith("__")


def _is_self(node: ast.AST) -> bool:
    return isinstance(node, ast.Name) and node.id == "self"


def _const_str(node: ast.AST) -> str | None:
    return node.value if isinstance(node, ast.Constant) and isinstance(node.value, str) else None


def _is_getattr(node: ast.AST) -> bool:
    return (isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
            and node.func.id == "getattr" and len(node.args) >= 2)


def _private_component(dotted: str) -> bool:
    return any(p.startswith("_") and not p.startswith("__future__") for p in dotted.split(".")[1:])


def _outermost_use(node: ast.AST) -> bool:
    """Report a dotted chain once, at its longest qualified node (set by _mark_parents)."""
    parent = getattr(node, "_krl_parent", None)
    return not (isinstance(parent, ast.Attribute) and parent.value is node)


def _flatten_targets(node: ast.AST) -> Iterator[ast.AST]:
    if isinstance(node, (ast.Tuple, ast.List)):
        for elt in node.elts:
            yield from _flatten_targets(elt)
    elif isinstance(node, ast.Starred):
        yield from _flatten_targets(node.value)
    else:
        yield node


def _methods(cls: ast.ClassDef, top: dict) -> dict[str, ast.FunctionDef]:
    """Methods of a class and of its bases defined in the same file (nearest wins)."""
    found: dict[str, ast.FunctionDef] = {}
    for base in cls.bases:
        if isinstance(base, ast.Name) and isinstance(top.get(base.id), ast.ClassDef) and base.id != cls.name:
            found.update(_methods(top[base.id], top))
    found.update({n.name: n for n in cls.body if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef))})
    return found


def _self_classes(cls: ast.ClassDef, top: dict) -> dict[str, ast.ClassDef]:
    """self.<attr> -> file class it was built from in any method (`self.blk = Block(...)`)."""
    out = {}
    for node in ast.walk(cls):
        if (isinstance(node, ast.Assign) and isinstance(node.value, ast.Call)
                and isinstance(node.value.func, ast.Name)
                and isinstance(top.get(node.value.func.id), ast.ClassDef)):
            for t in node.targets:
                if isinstance(t, ast.Attribute) and _is_self(t.value):
                    out[t.attr] = top[node.value.func.id]
    return out


def _closure(start: ast.AST, top: dict, methods: dict, self_classes: dict) -> list:
    """Functions reachable from `start` by naming file-level functions/classes or self members."""
    seen, todo, out = set(), [start], []
    while todo:
        fn = todo.pop()
        if id(fn) in seen:
            continue
        seen.add(id(fn))
        out.append(fn)
        for node in ast.walk(fn):
            targets = []
            if isinstance(node, ast.Name) and node.id in top:
                targets.append(top[node.id])
            elif isinstance(node, ast.Attribute) and _is_self(node.value):
                targets.extend(t for t in (methods.get(node.attr), self_classes.get(node.attr)) if t)
            for t in targets:
                if isinstance(t, ast.ClassDef):
                    todo.extend(_methods(t, top).values())
                else:
                    todo.append(t)
    return out


def _mark_parents(tree: ast.AST) -> None:
    for node in ast.walk(tree):
        for child in ast.iter_child_nodes(node):
            child._krl_parent = node  # type: ignore[attr-defined]

