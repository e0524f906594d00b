"""The storages a candidate's own objects hold: what its model, its module's globals and what
they reach keep alive. `kept_work.Kept` charges PyTorch work a checked forward leaves
alive to every profiled forward (a table built in the first forward and cached: red team rt65);
alive means kept by the candidate, not by the harness, whose launch records and provenance watch
still hold the forward's handed tensors when the forward returns (a scratch buffer and a
relu's output were charged to every later forward, and honest coverage fell 0.85 -> 0.64: the
session-54 suite).

The walk follows `gc.get_referents` from the roots, and does not enter what is not the
candidate's: another module (torch, triton), a class that module holds by its qualified name,
the globals of a function of another module (they are that module's), or an object or function
of the evaluator's own (the launch hooks wrap the candidate's kernels and reach the recorder). A
tensor is a leaf: its storage is collected, and its Python attributes walked (red team rt73: a
table set as an attribute of a held tensor was unseen).

A class made at run time is entered whatever module its `__module__` string names
(`collections.namedtuple(..., module="torch")` hid a table in a field's default: red team rt73).
A function of another module is entered all but its globals: what it holds in its closure,
defaults and __dict__ the candidate gave it. A library decorator's wrapper is such a function
(`@torch.no_grad()` answers torch.utils._contextlib's `decorate_context`, whose closure and
`__wrapped__` hold the candidate's function): a table cached in the decorated function's
default dict, or in a cell of its closure, was held by nothing the walk entered, and a
sigmoid table built by torch in the first forward was ok under strict at coverage 1.0 (red
team rt72)."""
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


def _evaluators(fn: types.FunctionType) -> bool:
    """A function of the evaluator's own modules (its globals are one of them)."""
    name = fn.__globals__.get("__name__") or ""
    return name == "evaluator" or name.startswith("evaluator.")


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
            if not _evaluators(obj):  # its closure, defaults, __wrapped__: what it was given
                skip = (id(obj.__globals__), id(obj.__builtins__))
                stack.extend(r for r in gc.get_referents(obj) if id(r) not in skip)
            continue
        if isinstance(obj, (str, bytes, int, float, complex, bool)) or obj is None:
            continue
        stack.extend(gc.get_referents(obj))
    return keys
