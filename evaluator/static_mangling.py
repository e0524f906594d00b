"""Names Python's private mangling makes, spelled out by hand (a check of the static walk).

Inside a class C, Python rewrites every identifier `__x` (not ending in `__`) to `_C__x`:
attribute names, names read and bound, defs and parameters, import aliases, keywords. The
checks compare names as the file writes them, so a name written as its mangled form elsewhere
is the same name to Python and another one to the checks. Red team rt61: a class-body kernel
alias `__kern = k` (accepted where nothing names `__kern` again) and a member kernel `def
__relu` were read back as `self._Launcher__kern` (a private attribute of self) and handed out
the kernel object, whose attributes the checks refuse; a module-level `def _ModelNew__keep`
took the place of the identity decorator `@__keep` written in ModelNew's body, which the
checks resolved to the module's `def __keep`. So no identifier, attribute or string of the
file may spell `_C__x` for a class C of the file: inside C the file writes `__x`, which the
checks read as Python does within the class; outside it nothing reaches the name.
"""
from __future__ import annotations

import ast
from collections.abc import Iterator

from evaluator.static_scopes import is_main_guard

CODE = "reflection"
INSTEAD = "write `__name` inside the class (Python mangles it there), or give the name no leading `__`"


def mangled_findings(tree: ast.Module) -> Iterator[tuple[ast.AST, str]]:
    """(node, message) for each identifier or str constant of the file (outside its test
    block) that spells the mangled form `_C__x` of a class C of the file."""
    prefixes = {"_" + n.name.lstrip("_"): n.name for n in ast.walk(tree)
                if isinstance(n, ast.ClassDef) and n.name.strip("_")}
    if not prefixes:
        return
    for top in tree.body:
        if is_main_guard(top):
            continue
        for node in ast.walk(top):
            for text in _identifiers(node):
                cls = _mangled_by(text, prefixes)
                if cls is not None:
                    yield node, (f"`{text}` spells by hand the name Python's private mangling gives "
                                 f"`{text[len(cls.lstrip('_')) + 1:]}` in class {cls}: the checks read "
                                 "names as written, Python as mangled")


def _identifiers(node: ast.AST) -> list[str]:
    """The identifiers a node writes (and a str constant's text)."""
    if isinstance(node, ast.Name):
        return [node.id]
    if isinstance(node, ast.Attribute):
        return [node.attr]
    if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
        return [node.name]
    if isinstance(node, ast.arg):
        return [node.arg]
    if isinstance(node, ast.alias):
        return [p for p in (*node.name.split("."), node.asname) if p]
    if isinstance(node, ast.keyword):
        return [node.arg] if node.arg else []
    if isinstance(node, (ast.Global, ast.Nonlocal)):
        return list(node.names)
    if isinstance(node, (ast.ExceptHandler, ast.MatchAs, ast.MatchStar)):
        return [node.name] if node.name else []
    if isinstance(node, ast.MatchMapping):
        return [node.rest] if node.rest else []
    if isinstance(node, ast.MatchClass):
        return list(node.kwd_attrs)
    if isinstance(node, ast.ImportFrom):
        return [p for p in (node.module or "").split(".") if p]
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return [node.value]
    return []


def _mangled_by(text: str, prefixes: dict[str, str]) -> str | None:
    """The class of the file whose mangling makes `text`, else None."""
    if not text.startswith("_") or "__" not in text[1:]:
        return None
    for prefix, cls in prefixes.items():
        rest = text[len(prefix) + 2:]
        if text.startswith(prefix + "__") and rest and not rest.endswith("__"):
            return cls
    return None
