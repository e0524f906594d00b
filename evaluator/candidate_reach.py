"""The storages a candidate's own objects hold: what its model, its module's globals and what
they reach keep alive. `construction_watch.Kept` charges PyTorch work a checked forward leaves
alive to every profiled forward (a table built in the first forward and cached: red team rt65);
alive means kept by the candidate, not by the harness, whose launch records and provenance watch
still hold the forward's handed tensors when the forward returns (a scratch buffer and a
relu's output were charged to every later forward, and honest coverage fell 0.85 -> 0.64: the
session-54 suite).

The walk follows `gc.get_referents` from the roots, and does not enter what is not the
candidate's: another module (torch, triton), a class that module holds by its name, a function of
another module's globals (what it was made holding, its closure and defaults, is walked), or an
object of the evaluator's own types (the launch hooks wrap the candidate's kernels and reach the
recorder). A tensor is a leaf: its storage is collected, and its Python attributes walked."""
from __future__ import annotations

import gc
import sys
import types
from collections.abc import Iterable

import torch

from evaluator.aten_facts import storage_key

MAX_OBJECTS = 1 << 20  # objects visited at most (a model of a million parameters is far fewer)


def _harness(obj: object) -> bool:
    """An object of one of the evaluator's own classes: the class is what its module holds by
    that name (a candidate's class may say `__module__ = "evaluator.launch_hook"`, and is not)."""
    cls = type(obj)
    name = getattr(cls, "__module__", "") or ""
    if not (name == "evaluator" or name.startswith("evaluator.")):
        return False
    module = sys.modules.get(name)
    return module is not None and getattr(module, cls.__name__, None) is cls


def _library_class(cls: type, module: types.ModuleType | None) -> bool:
    """A class another module really holds by its qualified name. `__module__` alone is a string
    a factory takes from its caller (`collections.namedtuple(..., module="torch")`, red team
    rt73: a table in its field's default was unseen), so a class made at run time is entered
    whatever module it names."""
    name = getattr(cls, "__module__", None)
    if not isinstance(name, str) or name == getattr(module, "__name__", None):
        return False
    found: object = sys.modules.get(name)
    for part in str(getattr(cls, "__qualname__", "")).split("."):
        found = getattr(found, part, None) if found is not None else None
    return found is cls


def _carried(fn: types.FunctionType) -> list[object]:
    """What a function of another module was made holding: its closure's cells, defaults and
    attributes (a library wrapper made in a forward, `torch.no_grad()(get)`, holds the
    candidate's closure: red team rt73), never that module's globals."""
    cells = [c.cell_contents for c in (fn.__closure__ or ()) if _filled(c)]
    return [*cells, fn.__defaults__, fn.__kwdefaults__, getattr(fn, "__dict__", None)]


def _filled(cell: types.CellType) -> bool:
    try:
        cell.cell_contents  # noqa: B018 (an empty cell raises)
    except ValueError:
        return False
    return True


def held_storages(roots: Iterable[object], module: types.ModuleType | None) -> set[int] | None:
    """Storage keys of every tensor `roots` reach through objects of the candidate's (above);
    None where the walk met more than MAX_OBJECTS objects (a candidate that piles objects in
    front of a table would end it early): then every live storage counts as held."""
    own = getattr(module, "__dict__", None)
    seen: set[int] = set()
    keys: set[int] = set()
    stack = [r for r in roots if r is not None]
    while stack:
        if len(seen) >= MAX_OBJECTS:
            return None
        obj = stack.pop()
        if id(obj) in seen:
            continue
        seen.add(id(obj))
        if isinstance(obj, torch.Tensor):
            if not obj.is_meta and obj.layout == torch.strided:
                key = storage_key(obj)
                if key:
                    keys.add(key)
            grad = getattr(obj, "grad", None) if obj.is_leaf else None
            if grad is not None:
                stack.append(grad)
            own_attrs = getattr(obj, "__dict__", None)  # `self.held.bias = table` on a plain tensor
            if own_attrs:  # (red team rt73: a tensor's attributes were never walked)
                stack.append(own_attrs)
            continue
        if isinstance(obj, types.ModuleType) and obj is not module:
            continue
        if (isinstance(obj, type) and _library_class(obj, module)) or _harness(obj):
            continue  # (a class of the candidate's own is entered: what it holds is its)
        if isinstance(obj, types.FunctionType) and obj.__globals__ is not own:
            stack.extend(_carried(obj))  # what it was made holding, not its module's globals
            continue
        if isinstance(obj, (str, bytes, int, float, complex, bool)) or obj is None:
            continue
        stack.extend(gc.get_referents(obj))
    return keys
