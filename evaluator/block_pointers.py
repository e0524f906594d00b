"""Block pointers on the CPU: a candidate's `tl.make_block_ptr` / `tl.advance` kernels, written
out as the pointer arithmetic and masks Triton 3.6 (the H200's) lowers them to.

Triton 3.9, installed where the CPU evaluates, removed block pointers (its make_block_ptr
raises, `tl.advance` is gone), while the GPU's Triton 3.6 still compiles them: its
RewriteTensorPointer pass turns each load and store of one into a plain one. Element
(i, j, ...) of a block is `base + (o0 + i) * stride0 + (o1 + j) * stride1 + ...` (offsets and
range sign-extended to int64, shape and strides int64, one addptr per dimension in order);
a dimension in `boundary_check` is masked by `0 <= o + i < shape`; `padding_option` "zero"
is `other=0`, "nan" is `other=NaN`, none is a masked load without `other`; a store masks the
same way; `tl.advance` adds (int32, sign-extended) to the offsets; `order` changes no value.

`lower` does that rewrite on the candidate's source text, before the static checks, so the
checks, the CPU child, its interpreter and every compile with the installed Triton see the
same plain loads and stores a person could have written by hand: nothing the checks would
not allow, and a dimension left out of `boundary_check` is as unchecked (by the interpreter's
bounds checks) as a plain pointer's. Each block pointer is a name of a kernel; it becomes
local variables (`<name>_bp_base`, `_bp_shape<i>`, `_bp_stride<i>`, `_bp_off<i>`, named so no
name of the file is taken), so an advance in a loop is a loop-carried scalar. Every edit keeps
its lines (a span becomes a parenthesised one of as many lines): the feedback's line numbers
are the candidate's. A block pointer passed whole to a @triton.jit helper of the file (tutorial
06's `_attn_fwd_inner(..., K_block_ptr, V_block_ptr, ...)`) is passed by value as 3.6 does:
the argument becomes its variables and block shape, the parameter as many parameters (the
shape `tl.constexpr`), at every call of the helper alike (evaluator.block_pointer_calls);
`from triton.language import make_block_ptr, advance` is read as `tl.`'s and dropped from the
import. What the rewrite does not cover (a block pointer passed to any other function or
inconsistently, returned, put in a tuple, advanced inline) is a compile_error that says so.
`p.dtype.element_ty` (or `p.type.element_ty`) as the type of a cast (`.to(...)`, `tl.cast`)
reads the base pointer's: 3.6's is a block type of that element, which a cast reads only for
its element; any other read of it (a compare, `.is_block()`) is refused, since there the two
differ (red team rt53). What 3.6 refuses at compile time
and a plain load or store would take is refused by evaluator.block_pointer_checks."""
from __future__ import annotations

import ast
import functools
from collections.abc import Callable
from dataclasses import dataclass

from evaluator import block_pointer_calls as calls
from evaluator.block_pointer_calls import FUNCTIONS, Unsupported
from evaluator.block_pointer_calls import dotted as _dotted
from evaluator.block_pointer_calls import padded as _padded
from evaluator.block_pointer_checks import Checks, constexpr_dims, fresh_stem, jit_decorator
from evaluator.source_splice import Splice

MAKE_ARGS = ("base", "shape", "strides", "offsets", "block_shape", "order")
ADVANCE_ARGS = ("base", "offsets")
LOAD_ARGS = ("pointer", "mask", "other", "boundary_check", "padding_option", "cache_modifier",
             "eviction_policy", "volatile")
STORE_ARGS = ("pointer", "value", "mask", "boundary_check", "cache_modifier", "eviction_policy")
KEPT = ("cache_modifier", "eviction_policy", "volatile")  # passed on to the plain load/store
MAX_RANK = 3
PADDING = {"": None, "zero": "0", "nan": 'float("nan")'}


@functools.cache
def removed() -> bool:
    """Whether the installed Triton has no block pointers (no `tl.advance`)."""
    import triton.language as tl

    return not hasattr(tl, "advance")


def lower(source: str) -> tuple[str, list[tuple[int | None, str]]]:
    """`source` with every block pointer written out, and the problems that stop it (line,
    message); the source is returned unchanged where there is none or where it stops."""
    try:
        tree = ast.parse(source)
    except (SyntaxError, ValueError):
        return source, []  # the static checks report it
    language = _language_names(tree)
    if not any(_block_call(n, language) for n in ast.walk(tree)):
        return source, []
    helpers = calls.jit_helpers(tree)
    params: dict[str, dict[str, int]] = {}  # helper -> parameter passed a block pointer -> its rank
    kernels, problems, owner = _kernels(tree, language, helpers, params)
    while not problems and _pass_blocks(kernels, helpers, params, problems):
        kernels, problems, owner = _kernels(tree, language, helpers, params)
    if not problems:
        try:
            calls.check(tree, helpers, params, lambda n: owner[id(n)].ranks() if id(n) in owner else {})
        except Unsupported as exc:
            problems.append((exc.line, exc.what))
    for node in ast.walk(tree):  # outside any function
        if _block_call(node, language) and id(node) not in owner and not problems:
            problems.append((node.lineno, "block pointers are lowered on the CPU only inside a kernel, "
                             "as `name = tl.make_block_ptr(...)`"))
    edits = _import_edits(tree, language)
    passed = {k.fn.name: k.params for k in kernels if k.params}
    checks = Checks(fresh_stem(_identifiers(tree)), jit_decorator(tree))
    for kernel in kernels if not problems else []:
        try:
            edits.update(kernel.edits(helpers, passed, checks))
        except Unsupported as exc:
            problems.append((exc.line, exc.what))
    if problems:
        return source, [(line, f"{what} (block pointers, which the installed Triton removed, are "
                         "rewritten on the CPU into plain loads and stores for the forms Triton 3.6 "
                         "lowers: `p = tl.make_block_ptr(...)`, `p = tl.advance(p, (...))`, "
                         "`tl.load(p, boundary_check=..., padding_option=...)`, "
                         "`tl.store(p, value, boundary_check=...)`, `helper(..., p, ...)` to a @triton.jit "
                         "function of the file)") for line, what in problems]
    out = Splice(source, edits).module()
    return out + ("" if out.endswith("\n") else "\n") + checks.source(), []


def _kernels(tree: ast.Module, language: Language, helpers: dict[str, ast.FunctionDef],
             params: dict[str, dict[str, int]]) -> tuple[list[_Kernel], list[tuple[int | None, str]], dict]:
    """The functions that use block pointers (made there or passed in as `params` says), their
    block pointers declared; the problems; and the kernel each node of theirs is in."""
    taken = _identifiers(tree)
    kernels, problems, owner = [], [], {}
    for fn in ast.walk(tree):
        if isinstance(fn, FUNCTIONS) and id(fn) not in owner:
            inner = [n for n in ast.walk(fn) if n is not fn]
            passed = params.get(fn.name, {}) if helpers.get(fn.name) is fn else {}
            if passed or any(_block_call(n, language) for n in inner):
                kernel = _Kernel(tree, fn, language, taken)
                owner.update((id(n), kernel) for n in inner)
                try:
                    kernel.declare(passed)
                    kernels.append(kernel)
                except Unsupported as exc:
                    problems.append((exc.line, exc.what))
    return kernels, problems, owner


def _pass_blocks(kernels: list[_Kernel], helpers: dict[str, ast.FunctionDef],
                 params: dict[str, dict[str, int]], problems: list) -> bool:
    """Record the helper parameters the kernels pass block pointers to; whether any is new."""
    try:
        return calls.merge(params, [fact for k in kernels for fact in k.passed(helpers)])
    except Unsupported as exc:
        problems.append((exc.line, exc.what))
        return False


class Language(set):
    """Dotted names the file binds to triton.language (`tl`, `triton.language`), and `bare`: the
    names it imports make_block_ptr and advance by (`from triton.language import advance`)."""

    bare: dict[str, str]

    def called(self, call: ast.Call) -> str:
        """The library function a call of one of these names calls."""
        if isinstance(call.func, ast.Name):
            return self.bare[call.func.id]
        return call.func.attr  # type: ignore[attr-defined]


BARE = ("make_block_ptr", "advance")


def _language_names(tree: ast.AST) -> Language:
    names = Language()
    names.bare = {a.asname or a.name: a.name for node in ast.walk(tree) if _bare_import(node)
                  for a in node.names if a.name in BARE}  # type: ignore[attr-defined]
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for a in node.names:
                if a.name == "triton.language" and a.asname:
                    names.add(a.asname)
                elif a.name in ("triton", "triton.language") and not a.asname:
                    names.add("triton.language")
        elif isinstance(node, ast.ImportFrom) and node.module == "triton" and not node.level:
            names.update(a.asname or a.name for a in node.names if a.name == "language")
    return names


def _bare_import(node: ast.AST) -> bool:
    return isinstance(node, ast.ImportFrom) and node.module == "triton.language" and not node.level


def _language_call(node: ast.AST, language: Language, *names: str) -> bool:
    """Whether `node` calls triton.language's `names` through one of the file's names for it."""
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Name):
        return language.bare.get(node.func.id) in names
    return (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
            and node.func.attr in names and _dotted(node.func.value) in language)


def _import_edits(tree: ast.AST, language: Language) -> dict[int, tuple[ast.AST, Callable[[Splice], str]]]:
    """`from triton.language import make_block_ptr, advance, ...` without the two (which the
    installed Triton lacks), on its lines."""
    out: dict[int, tuple[ast.AST, Callable[[Splice], str]]] = {}
    for node in ast.walk(tree):
        if _bare_import(node) and any(a.name in BARE for a in node.names):  # type: ignore[attr-defined]
            kept = [ast.unparse(a) for a in node.names if a.name not in BARE]  # type: ignore[attr-defined]
            text = f"from triton.language import ({', '.join(kept)})" if kept else "(None)"
            out[id(node)] = (node, lambda s, n=node, t=text: _padded(n, t))
    return out


def _block_call(node: ast.AST, language: Language) -> bool:
    """A make_block_ptr or advance call through the file's name for triton.language."""
    return _language_call(node, language, "make_block_ptr", "advance")


def _identifiers(tree: ast.AST) -> set[str]:
    names = set()
    for node in ast.walk(tree):
        for key in ("id", "arg", "attr", "name", "asname"):
            value = getattr(node, key, None)
            if isinstance(value, str):
                names.add(value)
    return names


def _arguments(call: ast.Call, order: tuple[str, ...], what: str) -> dict[str, ast.expr]:
    """The call's arguments by the library's parameter names."""
    if any(isinstance(a, ast.Starred) for a in call.args) or any(k.arg is None for k in call.keywords):
        raise Unsupported(call, f"`{what}` with *args or **kwargs is not supported on the CPU")
    if len(call.args) > len(order):
        raise Unsupported(call, f"`{what}` takes at most {len(order)} arguments")
    got = dict(zip(order, call.args))
    for k in call.keywords:
        if k.arg not in order or k.arg in got:
            raise Unsupported(call, f"`{what}` has no argument `{k.arg}` (or it is given twice)")
        got[k.arg] = k.value
    return got


def _elements(node: ast.expr | None, what: str, call: ast.AST) -> list[ast.expr]:
    if not isinstance(node, (ast.Tuple, ast.List)) or any(isinstance(e, ast.Starred) for e in node.elts):
        raise Unsupported(call, f"write `{what}` as a literal tuple, one entry per dimension: "
                          "the CPU rewrites block pointers from the source")
    return list(node.elts)


def _constant_ints(node: ast.expr, what: str, call: ast.AST) -> list[int]:
    elts = node.elts if isinstance(node, (ast.Tuple, ast.List)) else [node]
    if not all(isinstance(e, ast.Constant) and type(e.value) is int for e in elts):
        raise Unsupported(call, f"write `{what}` as a literal tuple of integers")
    return [e.value for e in elts]  # type: ignore[attr-defined]


@dataclass
class Block:
    """One block-pointer name of a kernel: its rank, block-shape text and variable names."""

    name: str
    rank: int
    shape_text: tuple[str, ...]
    prefix: str  # the file's name for triton.language its make_block_ptr used

    def fields(self, kind: str) -> list[str]:
        return [f"{self.name}_bp_{kind}{i}" for i in range(self.rank)]

    @property
    def base(self) -> str:
        return f"{self.name}_bp_base"

    def all_fields(self) -> list[str]:
        return [self.base, *self.fields("shape"), *self.fields("stride"), *self.fields("off")]

    def index(self, dim: str) -> str:
        """The offsets of dimension `dim` within the block, shaped to broadcast over the rest."""
        i = int(dim)
        e = f"({self.fields('off')[i]} + {self.prefix}.arange(0, {self.shape_text[i]}))"
        if self.rank == 1:
            return e
        return e + "[" + ", ".join(":" if j == i else "None" for j in range(self.rank)) + "]"

    def pointer(self) -> str:
        terms = [f"{self.index(str(i))} * {s}" for i, s in enumerate(self.fields("stride"))]
        return " + ".join([self.base, *terms])

    def mask(self, dims: list[int]) -> str:
        return " & ".join(f"({self.index(str(i))} >= 0) & ({self.index(str(i))} < {self.fields('shape')[i]})"
                          for i in dims)


class _Kernel:
    """The edits that write one kernel's block pointers out."""

    def __init__(self, tree: ast.Module, fn: ast.AST, language: Language, taken: set[str]) -> None:
        self.tree, self.fn, self.language, self.taken = tree, fn, language, taken
        self.constexprs = calls.constexpr_parameters(tree, fn, language)  # as Triton reads its annotations
        self.blocks: dict[str, Block] = {}
        self.params: dict[str, Block] = {}  # parameters passed a block pointer (a helper's)
        self.handled: set[int] = set()  # Name nodes of block pointers a handled form uses
        self.assigns = [n for n in ast.walk(fn) if isinstance(n, ast.Assign) and self._made(n.value)]

    def declare(self, passed: dict[str, int]) -> None:
        """Record the block pointers: the parameters `passed` names (with their ranks), those made."""
        for a in calls.block_parameters(self.fn, passed):  # type: ignore[arg-type]
            stem, rank = self._fresh(a.arg), passed[a.arg]
            block = Block(stem, rank, tuple(f"{stem}_bp_block{i}" for i in range(rank)), _prefix(self.language, a))
            self.blocks[a.arg] = self.params[a.arg] = block
        for node in self.assigns:
            self._declare(node)
        while any([self._derive(n) for n in self.assigns]):  # `q = tl.advance(p, ...)`: q is p's kind
            pass
        named = [n for n in self.assigns if len(n.targets) == 1 and isinstance(n.targets[0], ast.Name)]
        calls.one_origin(self.fn, named, self.params, lambda n: self.language.called(n.value) == "make_block_ptr",
                         lambda n: _advanced(n.value, self.blocks), *calls.compile_time(self.tree, self.fn, self.language))
        calls.no_while_carry(self.fn, named, self.params)

    def ranks(self) -> dict[str, int]:
        return {name: b.rank for name, b in self.blocks.items()}

    def passed(self, helpers: dict[str, ast.FunctionDef]) -> list[tuple[str, str, int, ast.AST]]:
        """(helper, parameter, rank, call) for each block pointer this function passes a helper."""
        out = []
        for call in self._calls_passing(helpers):
            for param, arg in calls.bind(call, helpers[call.func.id]).items():  # type: ignore[attr-defined]
                v = calls.value(arg)
                if isinstance(v, ast.Name) and v.id in self.blocks:
                    out.append((call.func.id, param, self.blocks[v.id].rank, call))  # type: ignore[attr-defined]
        return out

    def _calls_passing(self, helpers: dict) -> list[ast.Call]:
        """Calls of the helpers with a block pointer of this function as a whole argument."""
        return [n for n in ast.walk(self.fn) if isinstance(n, ast.Call) and isinstance(n.func, ast.Name)
                and n.func.id in helpers and any(isinstance(calls.value(a), ast.Name) and calls.value(a).id
                                                 in self.blocks for a in [*n.args, *n.keywords])]

    def edits(self, helpers: dict[str, ast.FunctionDef], passed: dict[str, dict[str, Block]],
              checks: Checks) -> dict[int, tuple[ast.AST, Callable[[Splice], str]]]:
        """The edits, given the helpers and, for each that is passed block pointers, its blocks;
        the compile-time checks of Triton 3.6 they call are recorded in `checks`."""
        self.checks = checks
        out: dict[int, tuple[ast.AST, Callable[[Splice], str]]] = {}
        for a in calls.block_parameters(self.fn, self.params):  # type: ignore[arg-type]
            b = self.params[a.arg]
            text = ", ".join([*b.all_fields(), *(f"{n}: {b.prefix}.constexpr" for n in b.shape_text)])
            out[id(a)] = (a, lambda s, t=text: t)
        for call in self._calls_passing(passed):
            self._pass(call, helpers[call.func.id], passed[call.func.id], out)  # type: ignore[attr-defined]
        for node in self.assigns:
            out[id(node)] = (node, self._assign_text(node))
        for node in ast.walk(self.fn):
            if _language_call(node, self.language, "load", "store") and isinstance(_pointer(node), ast.Name) \
                    and _pointer(node).id in self.blocks:  # type: ignore[union-attr]
                out[id(node)] = (node, self._access_text(node))  # type: ignore[arg-type]
        for node in _cast_targets(self.fn):  # fla's `.to(p_o.dtype.element_ty)`
            name = node.value.value  # type: ignore[attr-defined]
            if isinstance(name, ast.Name) and name.id in self.blocks:
                self.handled.add(id(name))
                out[id(name)] = (name, lambda s, b=self.blocks[name.id].base: b)
        self._refuse_the_rest(out)
        return out

    def _pass(self, call: ast.Call, fn: ast.FunctionDef, params: dict[str, Block], out: dict) -> None:
        """A call's block-pointer arguments written out as the helper's matching parameters are:
        the variables, then the block shape (by position, or each by the parameter's name)."""
        for param, arg in calls.bind(call, fn).items():
            if param in params:
                name: ast.Name = calls.value(arg)  # type: ignore[assignment]
                src, dst = self.blocks[name.id], params[param]
                self.handled.add(id(name))
                values = [*src.all_fields(), *src.shape_text]
                if isinstance(arg, ast.keyword):
                    values = [f"{n}={v}" for n, v in zip([*dst.all_fields(), *dst.shape_text], values)]
                text = ", ".join(values)
                out[id(arg)] = (arg, lambda s, t=text: t)

    def _prefix_of(self, call: ast.Call) -> str:
        """The name for triton.language a make_block_ptr call used (the file's, for a bare name)."""
        if isinstance(call.func, ast.Attribute):
            return _dotted(call.func.value) or ""
        return _prefix(self.language, call)

    def _made(self, value: ast.AST) -> bool:
        return _language_call(value, self.language, "make_block_ptr", "advance") or (
            isinstance(value, ast.Call) and isinstance(value.func, ast.Attribute)
            and value.func.attr == "advance" and isinstance(value.func.value, ast.Name))

    def _declare(self, node: ast.Assign) -> None:
        """Record the block pointer the assignment names (its rank and block shape)."""
        if len(node.targets) != 1 or not isinstance(node.targets[0], ast.Name):
            raise Unsupported(node, "assign a block pointer to one plain name")
        call: ast.Call = node.value  # type: ignore[assignment]
        name = node.targets[0].id
        if self.language.called(call) == "advance":
            return
        args = _arguments(call, MAKE_ARGS, "tl.make_block_ptr")
        if set(MAKE_ARGS) - set(args):
            raise Unsupported(call, "`tl.make_block_ptr` needs base, shape, strides, offsets, "
                              "block_shape and order")
        shape = _elements(args["block_shape"], "block_shape", call)
        rank = len(shape)
        orders = self._orders(args["order"])
        for key, value in [(k, args[k]) for k in ("shape", "strides", "offsets")] + [("order", o) for o in orders]:
            if len(_elements(value, key, call)) != rank:
                raise Unsupported(call, "Expected shape/strides/offsets/block_shape to have the same length")
        if any(constexpr_dims(self.fn, o, rank, self.constexprs) is None and sorted(_constant_ints(o, "order", call))
               != list(range(rank)) for o in orders):
            raise Unsupported(call, "Expected a permutation of (0, 1, ..., len(order)-1) in order")
        if not 1 <= rank <= MAX_RANK:
            raise Unsupported(call, f"block pointers of rank {rank} are not supported on the CPU (1 to {MAX_RANK})")
        rebound = sorted({n.id for e in shape for n in ast.walk(e) if isinstance(n, ast.Name)} & calls.stored(self.fn))
        if rebound:  # each load and store writes the block shape's text again: it must mean one value
            raise Unsupported(call, f"the block_shape names {', '.join(rebound)}, which this kernel assigns; "
                              "use a tl.constexpr parameter or a literal")
        if self._prefix_of(call).split(".")[0] in calls.stored(self.fn):
            raise Unsupported(call, "the name for triton.language is assigned in this kernel; each load and "
                              "store of the block writes it out again")
        text = tuple(ast.unparse(e) for e in shape)
        block = Block(self._fresh(name), rank, text, self._prefix_of(call))
        old = self.blocks.setdefault(name, block)
        if (old.rank, old.shape_text) != (rank, text):
            raise Unsupported(call, f"`{name}` is made with two block shapes; give each its own name")
        self.handled.add(id(node.targets[0]))

    def _orders(self, node: ast.expr) -> list[ast.expr]:
        """The literal orders an `order` can be: itself, or, for a name bound once in the kernel as
        `name: tl.constexpr = a if cond else b` (tutorial 06's v_order), a and b (order changes no
        value; each is checked as 3.6 would)."""
        if not isinstance(node, ast.Name):
            return [node]
        binds = [n for n in ast.walk(self.fn) if isinstance(n, ast.Name) and n.id == node.id
                 and not isinstance(n.ctx, ast.Load)]
        made = [n for n in ast.walk(self.fn) if isinstance(n, ast.AnnAssign) and n.target in binds
                and (_dotted(n.annotation) or "").endswith("constexpr") and n.value is not None]
        if len(binds) != 1 or len(made) != 1:
            return [node]  # refused as not literal
        value = made[0].value
        return [value.body, value.orelse] if isinstance(value, ast.IfExp) else [value]  # type: ignore[list-item]

    def _derive(self, node: ast.Assign) -> bool:
        """Declare an advance's target that nothing else made, as its source; whether it did."""
        call: ast.Call = node.value  # type: ignore[assignment]
        name = node.targets[0].id  # type: ignore[attr-defined]
        if self.language.called(call) != "advance" or name in self.blocks:
            return False
        source = _advanced(call, self.blocks)
        if not isinstance(source, ast.Name) or source.id not in self.blocks:
            return False
        src = self.blocks[source.id]
        self.blocks[name] = Block(self._fresh(name), src.rank, src.shape_text, src.prefix)
        return True

    def _fresh(self, name: str) -> str:
        """A stem for the name's variables that no name of the file starts with."""
        stem, n = name, 0
        while any(t.startswith(f"{stem}_bp_") for t in self.taken):
            n += 1
            stem = f"{name}{n}"
        self.taken.update(f"{stem}_bp_{k}" for k in ("base", "shape", "stride", "off", "block"))
        return stem

    def _assign_text(self, node: ast.Assign) -> Callable[[Splice], str]:
        call: ast.Call = node.value  # type: ignore[assignment]
        name = node.targets[0].id  # type: ignore[attr-defined]
        if self.language.called(call) == "make_block_ptr":
            return self._make_text(node, self.blocks[name], _arguments(call, MAKE_ARGS, "tl.make_block_ptr"))
        source, offsets = _advanced(call, self.blocks), _advance_offsets(call, self.blocks)
        if not isinstance(source, ast.Name) or source.id not in self.blocks or name not in self.blocks:
            raise Unsupported(call, "advance a block pointer made in this kernel, into a name made "
                              "with tl.make_block_ptr")
        src, dst = self.blocks[source.id], self.blocks[name]
        if (src.rank, src.shape_text) != (dst.rank, dst.shape_text):
            raise Unsupported(call, f"`{name}` and `{source.id}` have different block shapes")
        deltas = _elements(offsets, "offsets", call)
        if len(deltas) != src.rank:
            raise Unsupported(call, "tl.advance needs one offset per dimension")
        self.handled.update((id(source), id(node.targets[0])))
        checks = self.checks

        def moved(s: Splice) -> list[str]:
            return [f"{o} + {_offset(src.prefix, checks.index(s.text(d), wide=False))}"
                    for o, d in zip(src.fields("off"), deltas)]

        if src is dst:  # `p = tl.advance(p, ...)`: only the offsets move
            return lambda s: _padded(node, _tuple_assign(dst.fields("off"), moved(s)))
        return lambda s: _padded(node, _tuple_assign(
            dst.all_fields(), [src.base, *src.fields("shape"), *src.fields("stride"), *moved(s)]))

    def _make_text(self, node: ast.Assign, block: Block, args: dict[str, ast.expr]) -> Callable[[Splice], str]:
        p, checks = block.prefix, self.checks

        def text(s: Splice) -> str:
            values = [checks.base(s.text(args["base"]))]
            if (named := constexpr_dims(self.fn, args["order"], block.rank, self.constexprs)) is not None:
                values[0] = checks.permutation(values[0], named)
            values += [f"{p}.cast({checks.index(s.text(e), wide=True)}, {p}.int64)"
                       for e in [*_elements(args["shape"], "shape", node), *_elements(args["strides"], "strides", node)]]
            values += [_offset(p, checks.index(s.text(e), wide=False))
                       for e in _elements(args["offsets"], "offsets", node)]
            return _padded(node, _tuple_assign(block.all_fields(), values))
        return text

    def _access_text(self, call: ast.Call) -> Callable[[Splice], str]:
        store = call.func.attr == "store"  # type: ignore[attr-defined]
        what = "tl.store" if store else "tl.load"
        args = _arguments(call, STORE_ARGS if store else LOAD_ARGS, what)
        block = self.blocks[args["pointer"].id]  # type: ignore[attr-defined]
        self.handled.add(id(args["pointer"]))
        for key in ("mask", "other"):
            if key in args and not (isinstance(args[key], ast.Constant) and args[key].value is None):
                raise Unsupported(call, f"`{key}` arguments cannot be specified for loading or storing "
                                  "block pointers (Triton 3.6 refuses them)")
        named = constexpr_dims(self.fn, args["boundary_check"], block.rank, self.constexprs) if "boundary_check" in args else None
        dims = list(range(block.rank)) if named is not None else _constant_ints(
            args["boundary_check"], "boundary_check", call) if "boundary_check" in args else []
        if any(not 0 <= d < block.rank for d in dims) or len(set(dims)) != len(dims):
            raise Unsupported(call, "`boundary_check` names a dimension the block does not have, or one twice")
        padding = args.get("padding_option", ast.Constant(""))
        if store and "value" not in args:
            raise Unsupported(call, "tl.store needs a value")
        if not isinstance(padding, ast.Constant) or padding.value not in PADDING:
            raise Unsupported(call, 'padding_option is "", "zero" or "nan", written as a literal')
        other = PADDING[padding.value] if dims else None
        checks, nan = self.checks, padding.value == "nan"

        def text(s: Splice) -> str:
            pointer = checks.no_int_nan(block.pointer()) if nan and not store else block.pointer()
            pointer = checks.permutation(pointer, named) if named is not None else pointer
            parts = [pointer] + ([checks.value(s.text(args["value"]), block)] if store else [])
            parts += [f"mask={block.mask(sorted(dims))}"] if dims else []
            parts += [f"other={other}"] if other is not None else []
            parts += [f"{k}={s.text(args[k])}" for k in KEPT if k in args]
            return _padded(call, f"{s.text(call.func)}({', '.join(parts)})")
        return text

    def _refuse_the_rest(self, edits: dict) -> None:
        """Every other use of a block-pointer name, or of make_block_ptr/advance, is refused."""
        covered = {id(n) for node, _ in edits.values() if isinstance(node, ast.Assign) for n in (node, node.value)}
        for node in ast.walk(self.fn):
            if isinstance(node, ast.Name) and node.id in self.blocks and id(node) not in self.handled:
                raise Unsupported(node, f"block pointer `{node.id}` is used other than by tl.load, tl.store, "
                                  "`name = tl.advance(name, (...))`, as a whole argument of a @triton.jit "
                                  "function of this file and its dtype as a cast's `.to(name.dtype.element_ty)` "
                                  "(passed to another function, returned, put in a tuple, compared or rebound "
                                  "otherwise); this is not supported on the CPU")
            if (_block_call(node, self.language) or (isinstance(node, ast.Call) and self._made(node)
                                                     and isinstance(node.func.value, ast.Name)  # type: ignore[attr-defined]
                                                     and node.func.value.id in self.blocks)) \
                    and id(node) not in covered:
                raise Unsupported(node, "tl.make_block_ptr and tl.advance are supported on the CPU only "
                                  "as the whole right side of `name = ...`")


def _cast_targets(fn: ast.AST) -> list[ast.Attribute]:
    """`p.dtype.element_ty` / `p.type.element_ty` where it is only the type a value is cast to
    (`x.to(...)`'s first argument or `dtype=`, `tl.cast(x, ...)`'s second): the one use whose
    value the rewrite keeps. On Triton 3.6 it is a block type of the element, which a cast reads
    only for its element; read otherwise (`== tl.float32`, `.is_block()`) it tells the base's
    type on the CPU from 3.6's block type (red team rt53: relu on the CPU, the identity on the GPU)."""
    found = []
    for call in ast.walk(fn):
        if not (isinstance(call, ast.Call) and isinstance(call.func, ast.Attribute)):
            continue
        if call.func.attr == "to":
            args = call.args[:1] + [k.value for k in call.keywords if k.arg == "dtype"]
        elif call.func.attr == "cast":
            args = call.args[1:2] + [k.value for k in call.keywords if k.arg == "dtype"]
        else:
            continue
        found += [a for a in args if isinstance(a, ast.Attribute) and a.attr == "element_ty"
                  and isinstance(a.value, ast.Attribute) and a.value.attr in ("dtype", "type")]
    return found


def _prefix(language: Language, node: ast.AST) -> str:
    """The file's name for triton.language that written-out code uses."""
    if not language:
        raise Unsupported(node, "block pointers passed to a helper need triton.language imported by a name (tl)")
    return min(language, key=lambda n: (len(n), n))


def _pointer(call: ast.Call) -> ast.expr | None:
    """A load's or store's pointer argument, positional or `pointer=`."""
    if call.args:
        return call.args[0]
    return next((k.value for k in call.keywords if k.arg == "pointer"), None)


def _method(call: ast.Call, blocks: dict) -> bool:
    """`p.advance(...)` (a tensor method in Triton 3.6), not `tl.advance(p, ...)`."""
    return isinstance(call.func, ast.Attribute) and isinstance(call.func.value, ast.Name) \
        and call.func.value.id in blocks


def _advanced(call: ast.Call, blocks: dict) -> ast.expr | None:
    """The block pointer an advance call moves."""
    if _method(call, blocks):
        return call.func.value  # type: ignore[attr-defined]
    return _arguments(call, ADVANCE_ARGS, "tl.advance").get("base")


def _advance_offsets(call: ast.Call, blocks: dict) -> ast.expr | None:
    if _method(call, blocks):
        return _arguments(call, ("offsets",), "advance").get("offsets")
    return _arguments(call, ADVANCE_ARGS, "tl.advance").get("offsets")


def _offset(prefix: str, text: str) -> str:
    """An offset as Triton 3.6 keeps it: int32, sign-extended to int64."""
    return f"{prefix}.cast({prefix}.cast({text}, {prefix}.int32), {prefix}.int64)"


def _tuple_assign(names: list[str], values: list[str]) -> str:
    return f"({', '.join(names)},) = ({', '.join(values)},)"

