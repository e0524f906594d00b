"""Shapes of public kernel code the static walk reads element by element, where the plain
rules of evaluator.static_allowlist would refuse the whole (honest round, session 36).

  annotation-only names  `from M import N` of public names of an allowed package, N named
                         only in annotations that are pure type expressions (kernl's
                         `ctx: FunctionCtx`, vllm's `Callable[...]`): an annotation runs when
                         its def runs, so one that calls or binds is code (red team s36
                         round 7 ran os.system from one), and holds no such name.
  `**NAME` settings      a decorator call's `**NAME`, NAME a module-level dict literal of
                         plain settings used only so (fla's `**autotune_cache_kwargs`).
  launch_metadata        `@triton.jit(launch_metadata=f)`, f a plain module-level def: Triton
                         calls it only under a launch-enter hook, which the evaluator never sets.
  type aliases           (session 37) `Tensor = torch.Tensor`, `Device = Optional[Union[torch.device,
                         str]]`, `Context: TypeAlias = Any` (attorch's types.py): a module-level
                         name bound once to a pure type expression and named only in pure
                         annotations; the value is checked as an annotation.
  test-only imports      (session 37) a module-level import of a test module (A.TEST_MODULES:
                         sys, argparse, torch.testing, triton.testing, numpy...) whose names
                         only the test block and the bodies of test-only functions name: the
                         import runs (importing these runs nothing of note), the names are
                         never read where the harness runs.
  autotune block sizes   (session 39) `K.best_config.kwargs["B"]` and `c.kwargs["B"] for c in
                         K.configs`: numbers of the file's own triton.Config literals, read.
  dropped fallback names (session 39) a name only a dropped import fallback binds, read in a
                         function: a NameError if that code runs.
"""
from __future__ import annotations

import ast

from evaluator import static_allowlist as A
from evaluator.static_scopes import is_main_guard

# what a pure type expression is made of (`annotation_nodes`)
TYPING_MODULES = frozenset({"typing", "collections.abc"})  # modules of type names only
_TYPE_NODES = (ast.Name, ast.Attribute, ast.Subscript, ast.Tuple, ast.List, ast.Constant, ast.Load,
               ast.BitOr)


class AcceptedShapes:
    """The readings above (a mixin of the checker: tree, scopes, parent, cfg, kernels)."""

    def annotation_only_import(self, node: ast.ImportFrom) -> bool:
        """A module-level `from M import N` of public names of an allowed package, each bound
        only there and named only in annotations that are pure type expressions (honest round
        s36: kernl's `FunctionCtx`/`JITFunction`, vllm's `collections.abc.Callable`): the name
        is read and held by the annotation, never called or bound elsewhere (or, of a typing
        module, never read)."""
        parts = node.module.split(".")
        if self.parent.get(id(node)) is not self.tree or parts[0] not in self.cfg.allowed_imports or any(
                p.startswith("_") for p in parts):
            return False
        names = [a.asname or a.name for a in node.names]
        if any(a.name.startswith("_") or a.name == "*" for a in node.names):
            return False
        annotations = self.annotation_nodes()
        for name in names:
            bound = self.scopes.module.names.get(name, [])
            if len(bound) != 1 or bound[0].node is not node:
                return False
            uses = self.name_uses().get(name, ())
            # a typing name never read is as held as one read in annotations only (honest round
            # s44: FlashInfer's header imports `Mapping` and never names it); of other modules
            # an import is judged as any, used or not
            if not uses and node.module not in TYPING_MODULES or any(
                    annotations.get(id(n)) is not True for n in uses):
                return False
        return True

    def type_alias(self, node: ast.Assign | ast.AnnAssign) -> bool:
        """`Alias = <pure type expression>` at module level, Alias bound only there and named
        only in annotations that are pure type expressions (so it is held, never called)."""
        target = node.targets[0] if isinstance(node, ast.Assign) and len(node.targets) == 1 else (
            node.target if isinstance(node, ast.AnnAssign) else None)
        if not isinstance(target, ast.Name) or node.value is None or self.parent.get(id(node)) is not self.tree:
            return False
        if not all(isinstance(n, _TYPE_NODES) or isinstance(n, ast.BinOp) and isinstance(n.op, ast.BitOr)
                   for n in ast.walk(node.value)) or isinstance(node.value, ast.Constant):
            return False
        bound = self.scopes.module.names.get(target.id, [])
        if len(bound) != 1 or bound[0].node is not target:
            return False
        annotations = self.annotation_nodes()
        # never a kernel's: Triton reads a kernel's annotations (tl.constexpr, dtypes) itself
        in_kernels = {id(n) for k in self.kernels.values() for n in ast.walk(k.args)}
        uses = [n for n in self.name_uses().get(target.id, ()) if n is not target]
        return bool(uses) and all(annotations.get(id(n)) is True and id(n) not in in_kernels for n in uses)

    def test_only_import(self, node: ast.Import | ast.ImportFrom) -> bool:
        """A module-level import of test modules, each name it binds bound only there and
        named only inside the test block or a test-only function's body (a self-test's
        `import sys`, `from triton.testing import do_bench`; honest round s37)."""
        modules = [a.name for a in node.names] if isinstance(node, ast.Import) else [node.module or ""]
        if self.parent.get(id(node)) is not self.tree or getattr(node, "level", 0) or not all(
                any(m == t or m.startswith(t + ".") for t in A.TEST_MODULES) for m in modules):
            return False
        if any(a.name == "*" for a in node.names):
            return False
        inside = self.test_nodes()
        for alias in node.names:
            name = alias.asname or alias.name.split(".")[0]
            bound = self.scopes.module.names.get(name, [])
            if len(bound) != 1 or bound[0].node is not node:
                return False
            uses = self.name_uses().get(name, ())
            if not uses or any(id(n) not in inside for n in uses):
                return False  # (an import nothing names is no self-test's)
        return True

    def test_nodes(self) -> set[int]:
        """ids of the nodes of the test block's body and of test-only functions' bodies."""
        found = self.__dict__.get("_test_nodes")
        if found is None:
            found = self.__dict__["_test_nodes"] = set()
            for stmt in self.tree.body:
                if is_main_guard(stmt) or (isinstance(stmt, ast.FunctionDef) and id(stmt) in self.test_only):
                    found.update(id(n) for s in stmt.body for n in ast.walk(s))
        return found

    def name_uses(self) -> dict[str, list[ast.Name]]:
        """Every Name node of the file by its name (once per file: each import asks)."""
        found = self.__dict__.get("_name_uses")
        if found is None:
            found = self.__dict__["_name_uses"] = {}
            for n in ast.walk(self.tree):
                if isinstance(n, ast.Name):
                    found.setdefault(n.id, []).append(n)
        return found

    def annotation_nodes(self) -> dict[int, bool]:
        """id of every node inside a type annotation of the file (parameters, returns,
        annotated assignments) -> whether that whole annotation is a pure type expression
        (names, attributes, subscripts, tuples, lists, constants and `|`). An annotation is
        code, run when its def runs: `x: system("...")` or `x: (ag := attrgetter)` ran and
        leaked a name the allowlist refuses (red team s36 round 7); such an annotation holds
        no annotation-only name."""
        found = self.__dict__.get("_annotation_nodes")
        if found is None:
            found = self.__dict__["_annotation_nodes"] = {}
            for node in ast.walk(self.tree):
                roots = []
                if isinstance(node, ast.arg) and node.annotation is not None:
                    roots.append(node.annotation)
                elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and node.returns is not None:
                    roots.append(node.returns)
                elif isinstance(node, ast.AnnAssign):
                    roots.append(node.annotation)
                for root in roots:
                    inside = list(ast.walk(root))
                    pure = all(isinstance(n, _TYPE_NODES) or isinstance(n, ast.BinOp) and isinstance(n.op, ast.BitOr)
                               for n in inside)
                    found.update((id(n), pure) for n in inside)
        return found

    def _host_function(self, node: ast.expr) -> bool:
        """`@triton.jit(launch_metadata=f)` (Triton's tutorials, vllm): f a module-level def of the
        file that is no kernel, bound once. Triton calls it only for a launch-enter hook (a
        profiler's), which nothing in the evaluator sets; its body is checked as any function's."""
        binding = self.scopes.single(node) if isinstance(node, ast.Name) else None
        return binding is not None and binding.kind == "def" and id(binding.node) not in self.kernels and (
            self.parent.get(id(binding.node)) is self.tree) and not binding.node.decorator_list

    def _splat_settings(self, node: ast.expr, splat: list[ast.keyword], allowed: frozenset) -> bool:
        """`**NAME` in a decorator call, fla's `**autotune_cache_kwargs`: NAME is bound once, at
        module level, to a dict literal (or a choice between two) of SPLAT_SETTINGS keys whose
        values are constants or names, and is used nowhere but in such `**` arguments (so
        nothing adds a key to it)."""
        if not isinstance(node, ast.Name) or len(splat) != 1:
            return False
        binding = self.scopes.single(node)
        assign = self.parent.get(id(binding.node)) if binding is not None else None
        if binding is None or binding.kind != "local" or not isinstance(assign, ast.Assign) or (
                assign.targets != [binding.node] or self.parent.get(id(assign)) is not self.tree):
            return False
        value = assign.value
        choices = [value.body, value.orelse] if isinstance(value, ast.IfExp) else [value]
        if not all(isinstance(d, ast.Dict) and all(
                isinstance(k, ast.Constant) and k.value in A.SPLAT_SETTINGS & allowed
                and isinstance(v, (ast.Constant, ast.Name)) for k, v in zip(d.keys, d.values))
                for d in choices):
            return False
        uses = [n for n in ast.walk(self.tree) if isinstance(n, ast.Name) and n.id == node.id
                and n is not binding.node]
        return all(isinstance(kw := self.parent.get(id(n)), ast.keyword) and kw.arg is None
                   and kw.value is n and self.scopes.single(n) is binding for n in uses)

    @staticmethod
    def _decorator_arguments_plain(dec: ast.Call, name: str) -> bool:
        """DECORATOR_POSITIONALS and DECORATOR_LITERAL_KEYWORDS hold for this call."""
        limit = A.DECORATOR_POSITIONALS.get(name)
        if limit == 0 and dec.args:
            return False
        if limit == "literal" and not all(isinstance(a, ast.Constant) for a in dec.args):
            return False
        literal = A.DECORATOR_LITERAL_KEYWORDS.get(name, frozenset())
        return all(isinstance(k.value, ast.Constant) for k in dec.keywords if k.arg in literal)

    def _unjudged_read(self, node: ast.Name) -> bool:
        """A read, inside a function, of a name that only the dropped arm of an import fallback
        binds (a branch on HAVE_APEX that calls apex's kernel): bound nowhere and no builtin,
        it raises NameError if that code ever runs, as it would in Python."""
        return node.id in self.unjudged and isinstance(node.ctx, ast.Load) and self._enclosing_def(node) is not None

    def _config_value(self, node: ast.Attribute) -> bool:
        """`<config>.kwargs["BLOCK"]`, read as a whole: one value of a triton.Config, never
        called, indexed or its attribute read (a list there could be appended to through it:
        red team s40)."""
        sub = self.parent.get(id(node))
        if not (node.attr == "kwargs" and isinstance(node.ctx, ast.Load) and isinstance(sub, ast.Subscript)
                and sub.value is node and isinstance(sub.ctx, ast.Load)
                and isinstance(sub.slice, ast.Constant) and isinstance(sub.slice.value, str)):
            return False
        use = self.parent.get(id(sub))
        return not (isinstance(use, ast.Call) and use.func is sub
                    or isinstance(use, (ast.Attribute, ast.Subscript)) and use.value is sub)

    def _autotune_choice(self, chain: list[ast.Attribute]) -> bool:
        """What mamba_ssm's kernels read of an autotuned kernel: the chosen config's block
        size (`K.best_config.kwargs["BLOCK"]`, after a launch), and the configs' block sizes in
        a comprehension (`min(c.kwargs["BLOCK"] for c in K.configs)`, each `c` read only so).
        Values of the file's own triton.Config literals, read; nothing of the autotuner's
        state is reached, replaced or called (a config's pre_hook stays out of reach)."""
        if [a.attr for a in chain] == ["best_config", "kwargs"]:
            return isinstance(chain[0].ctx, ast.Load) and self._config_value(chain[1])
        if len(chain) != 1 or chain[0].attr != "configs" or not isinstance(chain[0].ctx, ast.Load):
            return False
        gen = self.parent.get(id(chain[0]))
        comp = self.parent.get(id(gen))
        if not (isinstance(gen, ast.comprehension) and gen.iter is chain[0] and isinstance(gen.target, ast.Name)
                and isinstance(comp, (ast.ListComp, ast.SetComp, ast.DictComp, ast.GeneratorExp))):
            return False
        name = gen.target.id
        uses = [n for n in ast.walk(comp) if isinstance(n, ast.Name) and n.id == name and n is not gen.target]
        return all(isinstance(n.ctx, ast.Load) and isinstance(self.parent.get(id(n)), ast.Attribute)
                   and self.parent[id(n)].value is n and self._config_value(self.parent[id(n)]) for n in uses)
