"""What an interpreted kernel body may name (CPU candidate children only): the globals the GPU
compiler would allow (`device_scope`), run in a copy of its module's globals (`own_globals`),
with the GPU's builtins and a refused global named in the error (`refused_global`).
Installed by evaluator.interpreter_guard.install."""
from __future__ import annotations

import ast
import functools
import inspect
import types
from collections.abc import Callable

from evaluator import interpreter_loops


def own_globals(interpreter) -> None:
    """The interpreter runs a rewritten kernel in its module's globals after copying every
    global of its own that the module lacks into them (`FunctionRewriter._compile_and_exec`):
    `inspect`, `np`, `time` appeared in the candidate's module at its first launch, where a
    name the file binds only in dead code (`if False: inspect = None`) then handed out exec
    (red team, session 13). Here the kernel runs in a copy of the module's globals plus only
    the names the rewrite added; the module itself is left as the file made it."""
    rewriter = interpreter.FunctionRewriter
    if getattr(rewriter, "_krl_own_globals", False):
        return
    names = vars(interpreter)

    def _compile_and_exec(self, transformed_ast):
        # the names the rewrite itself put in (`_InterpreterComparison` for a chained
        # comparison, `interpreter_semantic` on every assignment) are the interpreter's, never
        # the module's: a module-level def of that name (reached by nothing the checker could
        # see, so not checked as test-only code) once ran exec from inside a kernel
        added = _names(transformed_ast) - _names(ast.parse(self._prepare_source(
            inspect.getsourcelines(self.fn)[0])))
        scope = {**self.kwargs}
        # and nothing else of the interpreter's: a name the module does not bind at run time
        # (bound only in dead code, or only annotated: `inspect: object`) fell back to the
        # interpreter's own `inspect`, `np`, `time` (red team, session 14)
        own = {k: names[k] for k in added if k in names}
        transformed_ast = ast.fix_missing_locations(_DeviceLogic().visit(transformed_ast))
        code = compile(transformed_ast, filename=self.filename, mode="exec")
        own.update(_LOGIC_NAMES)
        exec(code, {**self.fn.__globals__, **own}, scope)
        fn = scope[self.fn.__name__]
        if _library(self.fn):
            return fn
        # the def's defaults saw the module (`BLOCK: tl.constexpr = BLOCK_DEFAULT`, which the GPU
        # compiler allows: honest round, session 18), so they must be plain constants; the body
        # then runs in the device scope
        from evaluator import launch_hook

        # and they are the ones the def took when the file ran, which the GPU compiler (and
        # evaluator.device_compile's check) sees: this second run of the def evaluated them
        # again, in the module as it is at the first launch and with the @triton.jit keywords
        # as local names (`MODE: tl.constexpr = noinline` was 0 for the check and 1 here, and
        # the branch the compiler never saw ran: red team rt21b, ok under strict)
        fn.__defaults__, fn.__kwdefaults__ = self.fn.__defaults__, self.fn.__kwdefaults__
        fn.__annotations__ = dict(self.fn.__annotations__)
        defaults = (*(fn.__defaults__ or ()), *(fn.__kwdefaults__ or {}).values())
        bad = next((v for v in defaults if not launch_hook.plain_constant(v)), None)
        if bad is not None:
            raise KernelGlobalError(f"a default argument of @triton.jit function {fn.__name__!r} is a "
                                    f"{type(bad).__name__}: a kernel's defaults are numbers, strings, dtypes, "
                                    "None or constexprs")
        return _rebound(fn, device_scope(self.fn.__globals__, own))

    rewrite_ast = rewriter.rewrite_ast

    def scoped_rewrite_ast(self):
        # without its source the interpreter runs the original function, in the module's own
        # globals: run that one in the device scope too
        fn = rewrite_ast(self)
        if fn is self.fn and not _library(fn):
            fn = _rebound(fn, device_scope(fn.__globals__, {}))
        return fn

    rewriter._compile_and_exec = _compile_and_exec
    rewriter.rewrite_ast = scoped_rewrite_ast
    _scoped_combine(interpreter)
    rewriter._krl_own_globals = True


def _rebound(fn, scope: dict):
    """`fn` running in `scope`, with its defaults and annotations (the interpreter reads a
    kernel's tl.constexpr parameters off them)."""
    out = types.FunctionType(fn.__code__, scope, fn.__name__, fn.__defaults__, fn.__closure__)
    out.__kwdefaults__ = fn.__kwdefaults__
    out.__annotations__ = dict(fn.__annotations__)
    out.__qualname__, out.__module__, out.__doc__ = fn.__qualname__, fn.__module__, fn.__doc__
    return out


def _library(fn) -> bool:
    """Triton's own code (tl.argmax, the standard combine functions), not the candidate's."""
    return str(getattr(fn, "__module__", "")).startswith("triton.")


def _scoped_combine(interpreter) -> None:
    """The interpreter's reduce and scan call their combine kernel's original function
    (`combine_fn.fn`), in the module's own globals: a combine kernel appended the loaded
    values' text to a module-level list and returned the host's GEMM from another (red team
    E, session 18: ok under strict). A candidate's combine kernel runs rewritten, in the
    device scope, like any kernel body; Triton's own stay as they are (the interpreter knows
    them by identity)."""
    base = interpreter.ReduceScanOpInterface
    init = base.__dict__["__init__"]

    class _Scoped:
        def __init__(self, combine) -> None:
            interpreter._patch_lang(combine.fn)
            self.fn = combine.rewrite()
            self.source = combine.fn  # what evaluator.interpreter_reduce reads for its shape

    def __init__(self, axis, combine_fn):
        if isinstance(combine_fn, interpreter.InterpretedFunction) and not _library(combine_fn.fn):
            combine_fn = _Scoped(combine_fn)
        init(self, axis, combine_fn)

    base.__init__ = __init__


def _device_minmax(name: str):
    """`min`/`max` in a kernel body as the GPU compiler binds them (`builtin_min`/`builtin_max`:
    elementwise over Triton values, Python's on constants). Python's, under the interpreter,
    took `bool(block)` (True) and returned the other argument: an honest `max(x, 0.0)` relu
    was `constant_output`, and `max(range(n), key=...)` an argmax in Python (red team A,
    session 20)."""
    import builtins

    def device(*args, **kwargs):
        import triton.language as tl

        values = [a.value if isinstance(a, tl.constexpr) else a for a in args]
        if any(isinstance(v, interpreter_loops.LoopIndex) for v in values):  # scalar tensors on the GPU
            values = [v.tensor() if isinstance(v, interpreter_loops.LoopIndex) else v for v in values]
        if kwargs or not any(isinstance(v, tl.tensor) for v in values):
            if any(not isinstance(v, (int, float, bool)) for v in values) or kwargs:
                raise TypeError(f"{name}() in a kernel takes Triton values and numbers, as Triton's "
                                f"compiler does (no key=, no iterables)")
            return getattr(builtins, name)(*values)
        pick = tl.minimum if name == "min" else tl.maximum
        out = values[0]
        for v in values[1:]:
            out = pick(out, v)
        return out

    device.__name__ = name
    return device


def _device_cast(kind: type):
    """`int(x)`/`float(x)` in a kernel body: a cast of constants only, as the GPU compiler allows;
    of a loaded value the interpreter handed Python the value itself (red team A, session 20)."""

    def device(value=0, *rest):
        import triton.language as tl

        if isinstance(value, tl.tensor):
            raise TypeError(f"{kind.__name__}() of a Triton value in a kernel: Triton's compiler refuses "
                            f"it on the GPU (use x.to(tl.{'int32' if kind is int else 'float32'}))")
        return kind(value.value if isinstance(value, tl.constexpr) else value, *rest)

    device.__name__ = kind.__name__
    return device


def _device_value(value):
    """What the GPU compiler's compile-time builtins (isinstance, hasattr, getattr) see of a
    kernel body's value: a loop variable is a tl.tensor there, and a tuple a tl.tuple (its code
    generator builds every tuple display and tuple argument as one). Red team s36 round 7
    (`isinstance(k, tl.tensor)`) and s37 round 8 (`hasattr(k, "real")`, `isinstance((1, 2),
    tl.tuple)`) each took an arm on the CPU that the GPU compiled away."""
    import triton.language as tl

    if isinstance(value, interpreter_loops.LoopIndex):
        return value.tensor()
    if isinstance(value, tuple) and not isinstance(value, tl.tuple):
        return tl.tuple([_device_value(v) for v in value])
    return value


def _device_isinstance(value, kinds) -> bool:
    return isinstance(_device_value(value), kinds)


def _device_hasattr(value, name) -> bool:
    try:
        _device_getattr(value, name)
    except AttributeError:
        return False
    return True


def _device_getattr(value, name, *default):
    """getattr as the GPU's: on its values, and without the attributes the CPU child adds to
    Triton's classes for the interpreter (`dtype.value`, interpreter_guard: a real GPU process has
    none, and `hasattr(tl.float32, "value")` chose an arm on the CPU only: red team s37 round 8)."""
    import triton.language as tl

    value = _device_value(value)
    if isinstance(value, tl.dtype) and name == "value":
        if default:
            return default[0]
        raise AttributeError(f"'dtype' object has no attribute {name!r}")
    return getattr(value, name, *default)


_DEVICE_BUILTINS = {"min": _device_minmax("min"), "max": _device_minmax("max"),
                    "int": _device_cast(int), "float": _device_cast(float),
                    "isinstance": _device_isinstance, "hasattr": _device_hasattr,
                    "getattr": _device_getattr}


def _device_logic(op: str, *operands: Callable):
    """`a and b`, `a or b` in a kernel body as the GPU compiler reads them
    (`CodeGenerator.visit_BoolOp`): operands in order, a constant one short-circuits as in
    Python (`X is not None and X.dtype ...` never reads the second), Triton values combine
    elementwise by logical_and / logical_or. Python's `and` under the interpreter took
    `bool(block)` (always True) and returned the other operand: FlagGems' masks
    `(rows < M) and (cols < N)` were the column mask alone, an out-of-bounds load on the CPU
    only (honest round, session 35). `operands` are thunks, evaluated only as far as Python's
    `and` would for constants."""
    import triton.language as tl

    dynamic, value = [], None
    for operand in operands:
        value = operand()
        if isinstance(value, interpreter_loops.LoopIndex):  # a scalar tensor on the GPU
            value = value.tensor()
        if isinstance(value, tl.tensor):
            dynamic.append(value)
        elif bool(value) is (op == "or"):  # a constant that decides: it is the answer
            return value
    if not dynamic:
        return value
    while len(dynamic) > 1:
        rhs, lhs = dynamic.pop(), dynamic.pop()
        dynamic.append(lhs.logical_and(rhs) if op == "and" else lhs.logical_or(rhs))
    return dynamic[0]


def _device_not(value):
    """`not x` in a kernel body: a Triton value's logical not, as on the GPU (Python's was
    `not bool(block)`, always False)."""
    import triton.language as tl

    if isinstance(value, interpreter_loops.LoopIndex):  # a scalar tensor on the GPU
        value = value.tensor()
    return value.__not__() if isinstance(value, tl.tensor) else not value


def _device_ifexp(test, then: Callable, orelse: Callable):
    """`a if c else b` in a kernel body as the GPU compiler reads it (`visit_IfExp`): on a Triton
    value `c` it is an scf.if whose taken arm runs and whose result is a tensor (a `1` there
    divides as an i32: red team s36 floored `(1 if pid >= 0 else 3) - 2) // 2` on the CPU);
    on a constant, Python's."""
    import numpy as np
    import triton.language as tl
    from triton.runtime.interpreter import interpreter_semantic

    if isinstance(test, interpreter_loops.LoopIndex):
        test = test.tensor()
    if not isinstance(test, tl.tensor):
        return then() if (test.value if isinstance(test, tl.constexpr) else test) else orelse()
    value = then() if bool(np.asarray(test.handle.data).reshape(-1)[0]) else orelse()
    return interpreter_semantic.to_tensor(value, False)


def _device_bound(value):
    """The value a binding holds on the GPU, whatever the form (`visit_Assign`'s
    `_sanitize_target_value`, which visit_AugAssign and visit_NamedExpr reach too): a Triton
    value. Triton's interpreter rewrites only a plain `x = v`; `x += 1`, `(x := 1)` kept Python's
    int, which floors where the GPU's i32 truncates (red team s37 round 8)."""
    from triton.runtime.interpreter import interpreter_semantic

    return interpreter_semantic.to_tensor(value, False)


def _device_annotated(annotation, value):
    """`x: T = v`: a constexpr when T is tl.constexpr (visit_AnnAssign), else an assignment."""
    import triton.language as tl

    return tl.constexpr(value) if annotation is tl.constexpr else _device_bound(value)


_VALUE_TYPES = (int, float, complex, str, bytes, tuple, frozenset)


def _device_is(lhs, rhs) -> bool:
    """`lhs is rhs` as the GPU's code generator decides it: constexprs by their values
    (`CAST: tl.constexpr = None` then `if CAST is not None:`, Inductor's mm template: the
    branch is dead on the GPU; honest round s43 found it taken on the CPU). Two numbers,
    strings or tuples are refused: the GPU decides their identity once, on the objects of the
    launch it first compiles, and reuses that binary for every launch with equal values,
    where the interpreter decides each launch afresh (red team s43: `P is Q` on two equal
    ints was a copy on the GPU and a ReLU here)."""
    import triton.language as tl

    a = lhs.value if isinstance(lhs, tl.constexpr) else lhs
    b = rhs.value if isinstance(rhs, tl.constexpr) else rhs
    if isinstance(a, _VALUE_TYPES) and isinstance(b, _VALUE_TYPES) and type(a) is not bool and type(b) is not bool:
        raise KernelGlobalError(
            f"`is` between two values ({type(a).__name__} and {type(b).__name__}) in a kernel: the GPU's "
            "compiler decides it by object identity when it first compiles the kernel and keeps that "
            "answer for every launch with equal values; compare values with ==")
    return a is b


_LOGIC_NAMES = {"_krl_device_logic": _device_logic, "_krl_device_not": _device_not,
                "_krl_device_ifexp": _device_ifexp, "_krl_device_bound": _device_bound,
                "_krl_device_annotated": _device_annotated,
                "_krl_device_is": _device_is}


def _call(name: str, *args: ast.expr) -> ast.Call:
    return ast.Call(ast.Name(name, ast.Load()), list(args), [])


class _DeviceLogic(ast.NodeTransformer):
    """Rewrites `and`/`or` and `not` in a kernel body to `_device_logic`/`_device_not`. The
    operands become lambdas, which are scopes of their own: an assignment expression inside
    one would bind in the lambda, not the kernel (red team s35: `(y := x * 1.0) == x and ...`
    left `y` the ReLU on the CPU, where the GPU stored x), so a kernel with one there is
    refused, as is a kernel that binds a name of the rewrite's (`_krl_...`)."""

    def visit_Name(self, node: ast.Name) -> ast.AST:
        if node.id.startswith("_krl_") and not isinstance(node.ctx, ast.Load):
            raise KernelGlobalError(f"a kernel binds `{node.id}`, a name the CPU interpreter's rewrite "
                                    "of `and`/`or`/`not` uses: rename it")
        return node

    def visit_arg(self, node: ast.arg) -> ast.AST:
        if node.arg.startswith("_krl_"):
            raise KernelGlobalError(f"a kernel parameter is named `{node.arg}`, a name the CPU "
                                    "interpreter's rewrite of `and`/`or`/`not` uses: rename it")
        return node

    def visit_BoolOp(self, node: ast.BoolOp) -> ast.AST:
        if any(isinstance(n, ast.NamedExpr) for n in ast.walk(node)):
            raise KernelGlobalError("an assignment expression (:=) inside `and`/`or` in a kernel: "
                                    "Triton's compiler does not bind it as Python does (and "
                                    "Triton 3.6 refuses it); assign it in a statement of its own")
        self.generic_visit(node)
        thunks = [ast.Lambda(args=ast.arguments(posonlyargs=[], args=[], kwonlyargs=[], kw_defaults=[], defaults=[]),
                             body=value) for value in node.values]
        op = ast.Constant("and" if isinstance(node.op, ast.And) else "or")
        return ast.copy_location(ast.Call(ast.Name("_krl_device_logic", ast.Load()), [op, *thunks], []), node)

    def visit_IfExp(self, node: ast.IfExp) -> ast.AST:
        if any(isinstance(n, ast.NamedExpr) for n in ast.walk(node.body)) or any(
                isinstance(n, ast.NamedExpr) for n in ast.walk(node.orelse)):
            raise KernelGlobalError("an assignment expression (:=) inside a conditional expression in a "
                                    "kernel: assign it in a statement of its own")
        self.generic_visit(node)
        arms = [ast.Lambda(args=ast.arguments(posonlyargs=[], args=[], kwonlyargs=[], kw_defaults=[], defaults=[]),
                           body=arm) for arm in (node.body, node.orelse)]
        return ast.copy_location(ast.Call(ast.Name("_krl_device_ifexp", ast.Load()), [node.test, *arms], []), node)

    def visit_AugAssign(self, node: ast.AugAssign) -> ast.AST:
        self.generic_visit(node)
        if not isinstance(node.target, ast.Name):
            return node
        load = ast.Name(node.target.id, ast.Load())
        value = _call("_krl_device_bound", ast.BinOp(load, node.op, node.value))
        return ast.copy_location(ast.Assign(targets=[node.target], value=value), node)

    def visit_AnnAssign(self, node: ast.AnnAssign) -> ast.AST:
        self.generic_visit(node)
        if node.value is not None and isinstance(node.target, ast.Name):
            node.value = _call("_krl_device_annotated", node.annotation, node.value)
        return node

    def visit_Compare(self, node: ast.Compare) -> ast.AST:
        # Triton's own rewrite (run before this one) leaves each comparison single: a chain's
        # links are lambdas of one `lhs <op> rhs` each
        self.generic_visit(node)
        if len(node.ops) == 1 and isinstance(node.ops[0], (ast.Is, ast.IsNot)):
            same = _call("_krl_device_is", node.left, node.comparators[0])
            return ast.copy_location(same if isinstance(node.ops[0], ast.Is) else ast.UnaryOp(ast.Not(), same), node)
        return node

    def visit_NamedExpr(self, node: ast.NamedExpr) -> ast.AST:
        self.generic_visit(node)
        node.value = _call("_krl_device_bound", node.value)
        return node

    def visit_UnaryOp(self, node: ast.UnaryOp) -> ast.AST:
        self.generic_visit(node)
        if not isinstance(node.op, ast.Not):
            return node
        return ast.copy_location(ast.Call(ast.Name("_krl_device_not", ast.Load()), [node.operand], []), node)


class Specialized(int):
    """A plain int argument the GPU launcher made a constexpr (device_compile.check): the
    interpreter hands the kernel the Python int, as the GPU's code generator does."""

    __slots__ = ()


def specialized(kernel, args: tuple, kwargs: dict, paths: frozenset) -> tuple[tuple, dict]:
    """`args` and `kwargs` of a launch with the values at `paths` (parameter name, then indices
    into a tuple argument) marked Specialized; a default the launch left out is added (the
    GPU launcher binds defaults before it specialises)."""
    signature = inspect.signature(kernel.fn)
    params = list(signature.parameters)
    args, kwargs = list(args), dict(kwargs)
    for name, *inner in sorted(paths, key=len):
        if name not in signature.parameters:
            continue
        where = params.index(name)
        if where < len(args):
            args[where] = _marked(args[where], inner)
        elif name in kwargs:
            kwargs[name] = _marked(kwargs[name], inner)
        elif signature.parameters[name].default is not inspect.Parameter.empty:
            kwargs[name] = _marked(signature.parameters[name].default, inner)
    return tuple(args), kwargs


def _marked(value, inner: list):
    """`value` with its element at `inner` (indices into nested tuples) marked Specialized."""
    if not inner:
        return Specialized(value) if type(value) is int else value
    if not isinstance(value, tuple) or not 0 <= inner[0] < len(value):
        return value
    items = list(value)
    items[inner[0]] = _marked(items[inner[0]], inner[1:])
    return type(value)._make(items) if hasattr(type(value), "_make") else tuple(items)


def float_arguments(interpreter) -> None:
    """A float kernel argument as the GPU passes it: an fp32 scalar tensor (`mangle_type` of a
    float is fp32), so `eps.to(tl.float32)` works and `x_fp16 * eps` promotes as there. The
    interpreter handed the Python float on (Liger's LayerNorm forward raised AttributeError on
    the CPU only: honest round, session 35)."""
    convert = interpreter._implicit_cvt
    if getattr(convert, "_krl_floats", False):
        return
    import numpy as np
    import triton.language as tl

    def _implicit_cvt(arg):
        if type(arg) is Specialized:
            return int(arg)
        if type(arg) is float:  # the launcher's (float) cast: nearest, inf past float32's range
            with np.errstate(over="ignore"):
                return tl.tensor(interpreter.TensorHandle(np.array([arg], dtype=np.float32), tl.float32), tl.float32)
        return convert(arg)

    _implicit_cvt._krl_floats = True
    interpreter._implicit_cvt = _implicit_cvt


def helper_returns(interpreter) -> None:
    """A @triton.jit helper called from a kernel body returns what the GPU's compiled helper
    returns (`device_compile.returned`: its return statements unified to one type)."""
    call = interpreter.InterpretedFunction.__dict__["__call__"]
    if getattr(call, "_krl_returns", False):
        return
    from evaluator import device_compile

    def __call__(self, *args, **kwargs):
        return device_compile.returned(self.fn, call(self, *args, **kwargs))

    __call__._krl_returns = True
    interpreter.InterpretedFunction.__call__ = __call__


def _interpreted_builtin(member: Callable) -> Callable:
    """A Triton builtin bound at module level (`triton_cast = tl.cast`, unsloth's idiom) called as
    the interpreter calls its own patched `tl.cast`: with the interpreter's semantic. The
    alias held the function the GPU compiler hands its semantic to, which raised on the CPU
    only (honest round, session 35)."""
    from triton.runtime.interpreter import interpreter_semantic

    @functools.wraps(member)
    def call(*args, **kwargs):
        kwargs.pop("_semantic", None)
        return member(*args, **kwargs, _semantic=interpreter_semantic)

    return call


class KernelGlobalError(NameError):
    """An interpreted kernel named a module global the GPU compiler would refuse."""


_REFUSED: set[str] = set()  # module globals device_scope left out (for the error's wording)


def device_scope(module_globals: dict, added: dict) -> dict:
    """The globals an interpreted kernel body runs with: those Triton's compiler lets a kernel
    name on the GPU (`CodeGenerator.global_lookup`: modules, kernels, Triton builtins and
    aggregates, triton.language objects, dtypes, named tuples, tl.constexpr values) and, as
    builtins, only its `builtin_namespace` (len, range, min, ...), plus the names the rewrite
    added. Everything else of the module stays out of reach, as the GPU compiler keeps it:
    a kernel body that appended `str(block)` to a module-level list handed every input value
    to host Python, which computed a GEMM that another kernel stored from a second list
    (ok under strict, coverage 1.0: red team, session 18). A snapshot, as before: the
    rewritten kernel is cached per function."""
    import builtins
    import types

    import triton.language as tl
    from triton.compiler import code_generator as cg
    from triton.runtime import jit

    callables = tuple(c for c in (getattr(jit, "KernelInterface", None), getattr(jit, "JITCallable", None)) if c)

    from evaluator import launch_hook

    allowed = {n: getattr(builtins, n) for n in cg.CodeGenerator.builtin_namespace if hasattr(builtins, n)}
    allowed.update(_DEVICE_BUILTINS)
    allowed["range"] = interpreter_loops.device_range  # a scalar tensor's loop variable, as tl.range's
    from evaluator.python_image import IMAGE_NAME

    if hasattr(builtins, IMAGE_NAME):  # what the kernel's %-formatting is compiled to (python_image)
        allowed[IMAGE_NAME] = getattr(builtins, IMAGE_NAME)

    def accepted(name: str, v: object) -> bool:
        if name == "__builtins__":
            return False
        if isinstance(v, tl.constexpr):  # of a number, string, dtype: `tl.constexpr([])` would hold data
            return launch_hook.plain_constant(v)
        if cg.is_namedtuple(v):  # a class: only what namedtuple generates, scalar defaults
            return _bare_namedtuple(v, launch_hook.plain_constant)
        if isinstance(v, types.FunctionType) and v.__globals__ is module_globals:
            return False  # the file's own Python, whatever functools.wraps copied onto it (a
            # `__triton_builtin__`, a triton.language `__module__`: red team rt73)
        if type(v) is types.ModuleType:  # Triton's and math: torch inside a kernel body would run
            # on the loaded values here (on the GPU only at compile time, on constants)
            return v.__name__ == "math" or v.__name__ == "triton" or v.__name__.startswith("triton.")
        if isinstance(v, (*callables, tl.dtype)):
            return True
        # the rest of triton.language as functions and classes only: an instance (a tl.tuple
        # at module level) holds whatever the file put in it (red team D, session 18: its
        # `.values` list carried the inputs out and the host's GEMM back, ok under strict)
        if not (isinstance(v, type) or inspect.isroutine(v)):
            return False
        if inspect.isfunction(v):  # of Triton's plain functions, libdevice's (imported by name:
            # `from triton.language.extra.libdevice import tanh`, as Liger does; honest round,
            # session 20); the interpreter's numpy versions of them (interpreter_libdevice)
            from evaluator.interpreter_libdevice import MODULES
            return getattr(v, "__module__", "") in MODULES or bool(getattr(v, "__triton_builtin__", False))
        module = inspect.getattr_static(v, "__module__", "")
        return (
            bool(inspect.getattr_static(v, "__triton_builtin__", False))
            or bool(inspect.getattr_static(v, "__triton_aggregate__", False))
            or (isinstance(module, str) and module.startswith("triton.language")))

    scope = {k: _interpreted_builtin(v) if tl.core.is_builtin(v) else v
             for k, v in module_globals.items() if accepted(k, v)}
    _REFUSED.update(k for k in module_globals if k not in scope and not k.startswith("__"))
    return {**scope, **added, "__builtins__": allowed}


@functools.cache
def _generated_members() -> frozenset[str]:
    """What collections.namedtuple and typing.NamedTuple put in a class of their own."""
    import collections
    import typing

    made = (collections.namedtuple("_Probe", "a"), typing.NamedTuple("_Probe", [("a", int)]))
    return frozenset({"__orig_bases__", "__annotations__", "__qualname__"}.union(*(vars(c) for c in made)) - {"a"})


def _bare_namedtuple(cls: type, plain: Callable[[object], bool]) -> bool:
    """A named tuple class (and every named-tuple class it derives from) that holds only its
    fields and what namedtuple generates, with plain defaults: a static method of the
    candidate's on it kept the module's whole globals, the channel device_scope closes
    (red team C, session 18: `Box.take(v)` in a kernel body handed the inputs to host
    Python, ok under strict)."""
    generated = _generated_members()
    for klass in cls.__mro__:
        if klass in (tuple, object):
            continue
        own = set(vars(klass)) - generated - set(getattr(klass, "_fields", ()))
        if own:
            return False
    defaults = inspect.getattr_static(cls, "_field_defaults", {})
    return isinstance(defaults, dict) and all(plain(d) for d in defaults.values())


def refused_global(exc: BaseException) -> str | None:
    """The refused global a kernel's NameError names, along its causes (None: another error)."""
    seen = 0
    while exc is not None and seen < 8:
        if isinstance(exc, NameError) and getattr(exc, "name", None) in _REFUSED:
            return exc.name
        exc, seen = exc.__cause__ or exc.__context__, seen + 1
    return None


def _names(tree: ast.AST) -> set[str]:
    return {n.id for n in ast.walk(tree) if isinstance(n, ast.Name)}
