"""What the body of a module-level try may compute: values that answer alike on the CPU check
and on the GPU (evaluator.static_walk `_module_try`).

A try at module level runs once, at import, and its handler runs where its body raised. What
raises on one machine and not on the other is a switch the handler reads: a CUDA-only call
raised on the CPU check only (red team s46: `pin_memory`, an unanswered device query), and the
path the GPU then took was never checked. So the body may compute only what cannot answer
otherwise on the two machines ("settled" here):

  constants      literals, and displays, operators, subscripts, f-strings (no format spec)
                 and one-generator comprehensions of settled values
  recorded       torch's and triton's `__version__`, `torch.version.*`, torch's dtypes, the
                 math constants: the CPU child answers each as the GPU image does
                 (evaluator.candidate_env, evaluator/h200.json)
  queries        the device queries of torch.cuda, torch.backends and torch.accelerator
                 (answered from the recorded image; tests/unit/evaluator/test_gpu_image.py)
                 and Triton's driver queries without arguments (the CPU's stand-in driver,
                 evaluator.child, answers the H200's target and device 0)
  environment    os.getenv / os.environ.get / os.cpu_count: every candidate child reads one
                 constant environment and answers 16 CPUs (candidate_env.ENVIRONMENT)
  pure calls     PURE_CALLS (builtins that compute on their arguments, torch.finfo/iinfo,
                 torch.device, packaging's Version/parse, triton.cdiv, math) and
                 PURE_METHODS of a settled receiver (str's splitting and tests), each on
                 settled arguments

The answer of each must not depend on the interpreter's version either (the CPU check runs
Python 3.11, the GPU image 3.12): sum() adds as 3.12's in a candidate child, and no str a body
can make holds a character whose properties the two Unicode databases read apart (str tests,
int() of digits: evaluator.python_image, "Unicode", which refuses one made anywhere in the
file, and evaluator.static_unicode). slice is not a pure call: 3.12 hashes it and 3.11 raises,
so `{slice(0, 1): 0}` raised on the CPU check only (red team rt25); no other value a body can
make hashes otherwise on the two.
  names          a comprehension's own variables, and a module-level name every binding of
                 which, anywhere in the file, is an assignment of a settled value that
                 holds no mutable container (whose items other lines could swap for a tensor)

Anything else (a tensor op or an operator on what may be a tensor, a kernel launch, a call of
the file's own code, a library call outside the recorded image, a driver query with a device
argument the CPU's stand-in does not check) is refused: `unsettled` names the first such node.
"""
from __future__ import annotations

import ast
import inspect
from typing import Any

from evaluator import static_allowlist as A

_EXCEPTIONS = frozenset(n for n in A.BUILTINS if n.endswith(("Error", "Exception", "Iteration", "Warning")))
PURE_CALLS = frozenset({
    # builtins computing on their arguments alone (no pow/format/bytes: a size the file states
    # is allocated, hash: drawn per process; print writes)
    # (not slice: hashable on 3.12, the GPU image's, and not on the CPU check's 3.11, so a dict
    # or set holding one raised on one only; red team rt25, session 47)
    "abs", "all", "any", "bool", "chr", "complex", "dict", "divmod", "enumerate", "filter",
    "float", "frozenset", "int", "isinstance", "len", "list", "map", "max", "min", "ord",
    "range", "repr", "reversed", "round", "set", "sorted", "str", "sum", "tuple",
    "zip", "bin", "hex", "oct", *_EXCEPTIONS,
    "os.getenv", "os.environ.get", "os.cpu_count",
    "torch.finfo", "torch.iinfo", "torch.device", "torch.get_default_dtype",
    "packaging.version.Version", "packaging.version.parse",
    "triton.cdiv", "triton.next_power_of_2",
    *(f"math.{f}" for f in ("ceil", "floor", "trunc", "log", "log2", "log10", "sqrt", "isqrt",
                            "exp", "gcd", "fabs", "isclose", "isfinite", "isinf", "isnan",
                            "copysign")),
})
# methods of a settled receiver (a str, a dict display): splitting, stripping and tests
PURE_METHODS = frozenset({
    "split", "rsplit", "strip", "lstrip", "rstrip", "startswith", "endswith", "lower", "upper",
    "casefold", "partition", "rpartition", "isdigit", "isnumeric", "isdecimal", "isalpha",
    "isalnum", "isidentifier", "find", "rfind", "index", "rindex", "count", "removeprefix",
    "removesuffix", "get", "keys", "values", "items",
})
QUERY_MODULES = ("torch.cuda.", "torch.backends.", "torch.accelerator.")
# Triton's driver queries the CPU's stand-in answers as the H200 does, when given nothing
# (a device index is not checked there: `utils.get_device_properties(5)` raised on the GPU only)
DRIVER_QUERIES = frozenset(f"triton.runtime.driver.active.{q}" for q in (
    "get_active_torch_device", "get_current_target", "get_current_device"))
RECORDED = frozenset({*A.VERSION_ATTRIBUTES, "math.pi", "math.e", "math.inf", "math.nan", "math.tau",
                      "os.environ"})
_COMPOSITES = (ast.BinOp, ast.UnaryOp, ast.BoolOp, ast.Compare, ast.IfExp, ast.Subscript,
               ast.Slice, ast.Tuple, ast.List, ast.Set, ast.Dict, ast.JoinedStr, ast.Starred)
_MUTABLE = (ast.List, ast.Set, ast.Dict, ast.ListComp, ast.SetComp, ast.DictComp)
_MUTABLE_CALLS = frozenset({"list", "dict", "set", "sorted"})


def device_query(name: str | None) -> bool:
    """A device query of torch.cuda, torch.backends or torch.accelerator (the allowlist decides
    which names of these modules are allowed at all)."""
    return name is not None and name.startswith(QUERY_MODULES)


def _torch_dtype(name: str) -> bool:
    parts = name.split(".")
    if len(parts) != 2 or parts[0] != "torch":
        return False
    import torch

    return isinstance(inspect.getattr_static(torch, parts[1], None), torch.dtype)


class Settled:
    """Settledness of a checker's expressions (the checker's resolve/qualify/scopes/parent)."""

    def __init__(self, checker: Any):
        self.c = checker
        self.names: dict[str, bool] = {}  # module-level name -> settled (False while in progress)

    # ------------------------------------------------------------------ statements
    def statement(self, s: ast.stmt) -> ast.AST | None:
        """The first node of a try-body statement that can answer otherwise, or None."""
        if isinstance(s, (ast.Import, ast.ImportFrom, ast.Pass)):
            return None
        if isinstance(s, ast.Assign):
            return self.unsettled(s.value) or next(filter(None, map(self._target, s.targets)), None)
        if isinstance(s, ast.AnnAssign):
            return (s.value and self.unsettled(s.value)) or self._target(s.target) or self._annotation(s.annotation)
        if isinstance(s, ast.Expr):
            return self.unsettled(s.value)
        if isinstance(s, ast.Assert):
            return self.unsettled(s.test) or (s.msg and self.unsettled(s.msg))
        if isinstance(s, ast.Raise):
            return (s.exc and self.unsettled(s.exc)) or (s.cause and self.unsettled(s.cause))
        if isinstance(s, ast.If):
            return self.unsettled(s.test) or next(filter(None, map(self.statement, [*s.body, *s.orelse])), None)
        return s

    def _target(self, t: ast.expr) -> ast.AST | None:
        if isinstance(t, ast.Name):
            return None
        if isinstance(t, (ast.Tuple, ast.List)):
            return next(filter(None, map(self._target, t.elts)), None)
        if isinstance(t, ast.Starred):
            return self._target(t.value)
        if isinstance(t, ast.Subscript):  # `_TABLE[key] = value`: __setitem__ of what it names
            return self.unsettled(t.value) or self.unsettled(t.slice)
        return t

    def _annotation(self, e: ast.expr) -> ast.AST | None:
        """An annotation at module level is evaluated: a name or a subscript of names."""
        for sub in ast.walk(e):
            if not isinstance(sub, (ast.Name, ast.Attribute, ast.Subscript, ast.Tuple, ast.Constant,
                                    ast.expr_context, ast.BinOp, ast.BitOr)):
                return sub
        return None

    # ------------------------------------------------------------------ expressions
    def unsettled(self, e: ast.AST, local: frozenset[str] = frozenset()) -> ast.AST | None:
        """The first node of `e` whose value can differ between the CPU check and the GPU, or
        whose evaluation can raise on one and not the other; None when `e` is settled."""
        if isinstance(e, ast.Constant):
            return None
        if isinstance(e, ast.Name):
            return None if e.id in local or self._settled_name(e) else e
        if isinstance(e, ast.Attribute):
            name = self.c.qualify(e)
            if name is not None:
                return None if self._recorded(name) else e
            return e if e.attr.startswith("_") else self.unsettled(e.value, local)
        if isinstance(e, ast.Call):
            return self._call(e, local)
        if isinstance(e, ast.FormattedValue):
            return e.format_spec or self.unsettled(e.value, local)  # a width is allocated
        if isinstance(e, _COMPOSITES):
            if isinstance(e, ast.BinOp) and isinstance(e.op, (ast.Pow, ast.LShift, ast.MatMult)):
                return e  # a size or a matrix product
            for child in ast.iter_child_nodes(e):
                if isinstance(child, ast.expr):
                    bad = self.unsettled(child, local)
                    if bad is not None:
                        return bad
            return None
        if isinstance(e, (ast.ListComp, ast.SetComp, ast.GeneratorExp, ast.DictComp)):
            return self._comprehension(e, local)
        return e

    def _comprehension(self, e: ast.AST, local: frozenset[str]) -> ast.AST | None:
        if len(e.generators) != 1 or e.generators[0].is_async:  # type: ignore[attr-defined]
            return e
        gen = e.generators[0]  # type: ignore[attr-defined]
        bad = self.unsettled(gen.iter, local)
        if bad is not None:
            return bad
        if self._target(gen.target) is not None or not all(
                isinstance(n, ast.Name) for n in ast.walk(gen.target) if not isinstance(
                    n, (ast.Tuple, ast.List, ast.expr_context))):
            return gen.target
        inner = local | {n.id for n in ast.walk(gen.target) if isinstance(n, ast.Name)}
        parts = [*gen.ifs, *((e.key, e.value) if isinstance(e, ast.DictComp) else (e.elt,))]  # type: ignore[attr-defined]
        return next(filter(None, (self.unsettled(p, inner) for p in parts)), None)

    def _call(self, e: ast.Call, local: frozenset[str]) -> ast.AST | None:
        name = self.c.qualify(e.func)
        args = [*e.args, *(k.value for k in e.keywords)]
        if name in DRIVER_QUERIES:
            return e if args else None
        if name not in PURE_CALLS and not device_query(name) and not (
                isinstance(e.func, ast.Attribute) and e.func.attr in PURE_METHODS
                and self.unsettled(e.func.value, local) is None):
            return e  # `triton.__version__.split(".")`: a method of a recorded string
        return next(filter(None, (self.unsettled(a, local) for a in args)), None)

    def _recorded(self, name: str) -> bool:
        """A library name whose value both machines hold alike."""
        return (name in RECORDED or name.startswith("torch.version.") or name in PURE_CALLS
                or device_query(name) or _torch_dtype(name))

    def _settled_name(self, e: ast.Name) -> bool:
        kind, value = self.c.resolve(e)
        if kind in ("import", "builtin"):
            name = self.c.qualify(e)
            return name is not None and self._recorded(name)
        scope, bindings = self.c.scopes.lookup(e)
        if scope is not self.c.scopes.module or not bindings:
            return False
        known = self.names.get(e.id)
        if known is not None:
            return known
        self.names[e.id] = False  # a binding reading itself is not settled
        ok = all(self._settled_binding(b) for b in bindings)
        self.names[e.id] = ok
        return ok

    def _settled_binding(self, b: Any) -> bool:
        if b.kind != "local" or not isinstance(b.node, ast.Name):
            return False
        node: ast.AST = b.node
        parent = self.c.parent.get(id(node))
        while isinstance(parent, (ast.Tuple, ast.List, ast.Starred)):
            node, parent = parent, self.c.parent.get(id(parent))
        if isinstance(parent, ast.Assign) and any(t is node for t in parent.targets):
            value = parent.value
        elif isinstance(parent, ast.AnnAssign) and parent.target is node and parent.value is not None:
            value = parent.value
        else:
            return False
        for sub in ast.walk(value):  # items other lines may swap for anything
            if isinstance(sub, _MUTABLE) or (isinstance(sub, ast.Call) and self.c.qualify(sub.func) in _MUTABLE_CALLS):
                return False
        return self.unsettled(value) is None
