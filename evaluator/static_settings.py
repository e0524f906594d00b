"""Process-wide settings honest kernel files make, accepted by their exact shape (honest
round, session 23). Any other shape of the same call or store is judged by the plain rules
(torch.backends is never written, torch.set_* and triton.set_allocator are tamper).

  precision switch   a module-level statement `torch.backends.cuda.matmul.allow_tf32 = True`
                     (or cudnn's allow_tf32, benchmark, deterministic, or the matmul's
                     allow_fp16/bf16_reduced_precision_reduction; True or False) or
                     `torch.set_float32_matmul_precision("highest" | "high" | "medium")`,
                     the line many KernelBench solutions start with. It runs once, at import,
                     in the candidate's own process: the reference runs in another one with
                     TF32 off, and the harness computes no matmul or convolution here, so the
                     switch changes only how the candidate's own library calls compute, which
                     the precision contract judges (a "medium" bf16 GEMM fails it) and the CPU
                     meter charges at the TF32 peak. The candidate child takes the switches
                     as the import left them for its integrity baseline (evaluator.integrity):
                     one changed later, which could tell runs apart, is still tampering. Never
                     in a function (a forward could flip it between runs), never a computed
                     value.
  Triton allocator   `triton.set_allocator(alloc)` as a statement, `alloc` a module-level def
                     or one nested in the function that sets it, bound once (or a lambda
                     written in the call), whose whole body is `return
                     torch.empty(...)` (Triton tutorial 09; device-side tensor descriptors need
                     it, and Triton 3.9 has no block pointers left). Triton calls it inside a
                     launch that needs global scratch, so a knock-out run, which skips
                     launches, calls it less: an allocator with state of its own (a counter, a
                     cache, a call of the file's functions) could tell that run apart; one
                     whose only act is to return fresh memory cannot. Its arguments are held
                     to the same rule: no call but of a library function, no name of the
                     file's but module-level constants bound once and its own parameters.
  warning filter     a module-level statement `warnings.filterwarnings(...)` or
                     `warnings.simplefilter(...)` whose action is a literal other than
                     "error" and whose other arguments are literals or a builtin warning
                     class (files silence a library's UserWarning). It changes only which
                     warnings reach the child's stderr; "error" would turn the harness's own
                     warnings into exceptions in the middle of a measurement.
  seed               a module-level statement `torch.manual_seed(<int literal>)` (or
                     torch.cuda.manual_seed / manual_seed_all), the "reproducibility" line
                     notebook pastes start with (honest round s41). It runs at import; the
                     harness then seeds the build itself (evaluator.model_build) and draws
                     every input, trial seed and shuffle from generators of its own or from
                     `secrets`, so the call decides nothing the harness reads. Never in a
                     function (a forward reseeding could replay draws between runs).
  logging setup      a module-level `logging.basicConfig(...)` whose arguments are only a
                     literal `level` (or logging.DEBUG ... CRITICAL) and literal `format`,
                     `datefmt` and `style`: where the process's log lines go is stderr either
                     way; a file, a stream, handlers or `force` (which drops the handlers
                     already installed) stay refused.
"""
from __future__ import annotations

import ast
from collections.abc import Callable

from evaluator.static_scopes import Scopes

SWITCHES = frozenset({"torch.backends.cuda.matmul.allow_tf32", "torch.backends.cudnn.allow_tf32",
                      "torch.backends.cudnn.benchmark", "torch.backends.cudnn.deterministic",
                      # cuBLAS's half GEMMs reducing in half (honest round s31b: files turn it off)
                      "torch.backends.cuda.matmul.allow_fp16_reduced_precision_reduction",
                      "torch.backends.cuda.matmul.allow_bf16_reduced_precision_reduction"})
MATMUL_PRECISION = "torch.set_float32_matmul_precision"
PRECISIONS = frozenset({"highest", "high", "medium"})
SET_ALLOCATOR = "triton.set_allocator"
_ALLOCATION = frozenset({"torch.empty"})
# device queries an allocator may make for its device argument: no state, no draw
QUERIES = frozenset({"torch.cuda.is_available", "torch.cuda.current_device", "torch.device",
                     "triton.runtime.driver.active.get_active_torch_device"})
_PLAIN = (ast.Constant, ast.keyword, ast.IfExp, ast.BoolOp, ast.UnaryOp, ast.BinOp, ast.Compare,
          ast.Tuple, ast.Load, ast.expr_context, ast.boolop, ast.unaryop, ast.operator, ast.cmpop)


def precision_switch(stmt: ast.stmt, at_module: bool, qualify: Callable[[ast.AST], str | None]) -> bool:
    """A module-level switch of SWITCHES set to a literal bool, or the float32 matmul
    precision set to a literal of PRECISIONS."""
    if not at_module:
        return False
    if isinstance(stmt, ast.Assign):
        return len(stmt.targets) == 1 and qualify(stmt.targets[0]) in SWITCHES and (
            isinstance(stmt.value, ast.Constant) and isinstance(stmt.value.value, bool))
    call = stmt.value if isinstance(stmt, ast.Expr) else None
    return isinstance(call, ast.Call) and qualify(call.func) == MATMUL_PRECISION and (
        not call.keywords and len(call.args) == 1 and isinstance(call.args[0], ast.Constant)
        and call.args[0].value in PRECISIONS)


SEEDS = frozenset({"torch.manual_seed", "torch.cuda.manual_seed", "torch.cuda.manual_seed_all"})
BASIC_CONFIG = "logging.basicConfig"
LOG_LEVELS = frozenset({"NOTSET", "DEBUG", "INFO", "WARNING", "WARN", "ERROR", "CRITICAL", "FATAL"})
_LOG_TEXTS = frozenset({"format", "datefmt", "style"})


def seed_setting(stmt: ast.stmt, at_module: bool, qualify: Callable[[ast.AST], str | None]) -> bool:
    """A module-level `torch.manual_seed(<int literal>)` (or a cuda seed of SEEDS) as a
    statement."""
    call = stmt.value if isinstance(stmt, ast.Expr) else None
    return at_module and isinstance(call, ast.Call) and qualify(call.func) in SEEDS and (
        not call.keywords and len(call.args) == 1 and isinstance(call.args[0], ast.Constant)
        and type(call.args[0].value) is int)


def logging_setup(stmt: ast.stmt, at_module: bool, qualify: Callable[[ast.AST], str | None]) -> bool:
    """A module-level `logging.basicConfig(level=..., format=...)` as a statement: keywords
    only, `level` a literal int or level name or `logging.<LEVEL>`, the others literal text."""
    call = stmt.value if isinstance(stmt, ast.Expr) else None
    if not (at_module and isinstance(call, ast.Call) and qualify(call.func) == BASIC_CONFIG
            and not call.args):
        return False
    for k in call.keywords:
        v = k.value
        literal = isinstance(v, ast.Constant)
        if k.arg == "level":
            named = isinstance(v, ast.Attribute) and qualify(v) in {f"logging.{n}" for n in LOG_LEVELS}
            if not (named or literal and (type(v.value) is int or v.value in LOG_LEVELS)):
                return False
        elif k.arg not in _LOG_TEXTS or not (literal and isinstance(v.value, str)):
            return False
    return True


WARNING_FILTERS = frozenset({"warnings.filterwarnings", "warnings.simplefilter"})
FILTER_ACTIONS = frozenset({"ignore", "default", "once", "module", "always"})
WARNING_CLASSES = frozenset({"Warning", "UserWarning", "DeprecationWarning", "FutureWarning",
                             "RuntimeWarning", "PendingDeprecationWarning", "SyntaxWarning",
                             "ImportWarning", "ResourceWarning", "BytesWarning", "UnicodeWarning"})


def warning_filter(stmt: ast.stmt, at_module: bool, scopes: Scopes,
                   qualify: Callable[[ast.AST], str | None]) -> bool:
    """A module-level `warnings.filterwarnings(action, ...)` / `warnings.simplefilter(...)`
    with a literal action of FILTER_ACTIONS, the rest literals or a builtin warning class."""
    call = stmt.value if isinstance(stmt, ast.Expr) else None
    if not (at_module and isinstance(call, ast.Call) and qualify(call.func) in WARNING_FILTERS):
        return False
    args = [*call.args, *(k.value for k in call.keywords)]
    action = call.args[0] if call.args else next(
        (k.value for k in call.keywords if k.arg == "action"), None)
    if any(k.arg is None for k in call.keywords) or not (
            isinstance(action, ast.Constant) and action.value in FILTER_ACTIONS):
        return False
    return all(isinstance(a, ast.Constant) and isinstance(a.value, (str, int, bool)) or (
        isinstance(a, ast.Name) and a.id in WARNING_CLASSES and not scopes.lookup(a)[1]) for a in args)


def allocator_setting(stmt: ast.stmt, scopes: Scopes, qualify: Callable[[ast.AST], str | None]) -> bool:
    """`triton.set_allocator(alloc)` as a statement, `alloc` a stateless allocator (below)."""
    call = stmt.value if isinstance(stmt, ast.Expr) else None
    if not (isinstance(call, ast.Call) and qualify(call.func) == SET_ALLOCATOR
            and not call.keywords and len(call.args) == 1):
        return False
    arg = call.args[0]
    if isinstance(arg, ast.Lambda):
        return _stateless(arg, arg.body, scopes, qualify)
    binding = scopes.single(arg) if isinstance(arg, ast.Name) else None
    fn = binding.node if binding is not None and binding.kind == "def" else None
    # at module level, or nested in the function that sets it (Triton tutorial 09's host
    # wrapper defines its allocator beside the launch): a def's body is all that is judged
    if not (isinstance(fn, ast.FunctionDef) and not fn.decorator_list and (
            scopes.parent.get(id(fn)) is scopes.module.node
            or isinstance(scopes.parent.get(id(fn)), ast.FunctionDef))):
        return False
    body = fn.body[1:] if _docstring(fn.body[0]) else fn.body
    return len(body) == 1 and isinstance(body[0], ast.Return) and body[0].value is not None and (
        _stateless(fn, body[0].value, scopes, qualify))


def _stateless(fn: ast.FunctionDef | ast.Lambda, value: ast.expr, scopes: Scopes,
               qualify: Callable[[ast.AST], str | None]) -> bool:
    """`torch.empty(...)` whose arguments are built only of fn's parameters, constants,
    module-level names bound once by a plain assignment, library attributes (torch.int8)
    and the QUERIES, with arithmetic, comparisons and conditionals: nothing that iterates,
    indexes, calls the file's code or a builtin (`next(_it)` counts), or draws (torch.randn
    advances the generator the forward reads)."""
    if not (isinstance(value, ast.Call) and qualify(value.func) in _ALLOCATION):
        return False
    params = {a.arg for a in (*fn.args.posonlyargs, *fn.args.args, *fn.args.kwonlyargs)}
    if fn.args.vararg or fn.args.kwarg or fn.args.defaults or any(fn.args.kw_defaults):
        return False
    if any(k.arg is None for k in value.keywords):
        return False
    for node in (n for part in (*value.args, *value.keywords) for n in ast.walk(part)):
        if isinstance(node, ast.Call):
            if qualify(node.func) not in QUERIES:
                return False
        elif isinstance(node, ast.Attribute):
            if qualify(node) is None:
                return False
        elif isinstance(node, ast.Name):
            if node.id not in params and not _constant_name(node, scopes):
                return False
        elif not isinstance(node, _PLAIN):
            return False
    return True


def _constant_name(node: ast.Name, scopes: Scopes) -> bool:
    """An import, or a module-level name bound once by a plain assignment."""
    binding = scopes.single(node)
    if binding is None:
        return False
    return binding.kind == "import" or (
        binding.kind not in ("def", "class", "param") and node.id in scopes.module.names
        and scopes.module.names[node.id] == [binding]
        and isinstance(scopes.parent.get(id(binding.node)), ast.Assign))


def _docstring(node: ast.stmt) -> bool:
    return isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant) and (
        isinstance(node.value.value, str))
