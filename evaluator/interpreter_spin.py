"""Which tl.atomic_cas (or test-and-set exchange) of a kernel is a spin lock's: the call sits
in a `while` loop, or its result is bound to a name a `while` test reads (CPU interpreter
only; `interpreter_races` takes a lock only at such a site). A frame walk from the atomic to
the kernel's source, read with ast, cached per site."""
from __future__ import annotations

import ast
import linecache
import os
import sys

import numpy as np

_HERE = (os.path.dirname(os.path.abspath(__file__)), os.path.dirname(os.path.abspath(np.__file__)))  # harness, numpy
_SITES: dict = {}
_HARNESS_FILES: dict = {}  # code filename -> whether it is the harness's, Triton's or numpy's
LAUNCH_CODE: list = []  # the interpreter's GridExecutor.__call__ code (interpreter_guard.install)


def spin_lock_site(test_only: bool = False) -> tuple | None:
    """The kernel's tl.atomic_cas being run, where it is a spin lock's (else None): the call sits inside a
    `while` loop (its test or body), or its result is bound to a name a `while` test of the
    same function reads. Run one program at a time, every CAS succeeds, so one with no loop
    to retry it would count as a lock the program holds, where on a GPU a second program's
    CAS fails and it goes on unlocked (red team s31d: a one-shot CAS "lock" around a
    load + add + store of a shared accumulator was ok on the CPU)."""
    import triton

    skip = (*_HERE, os.path.dirname(os.path.abspath(triton.__file__)))
    frames = []  # the kernel's frames, innermost first: a @triton.jit helper's CAS is retried by
    frame = sys._getframe(1)  # the loop that calls the helper (red team s32b: `while try_lock(l)`)
    while frame is not None and len(frames) < 4:
        code = frame.f_code
        if code in LAUNCH_CODE:
            break  # the launch: what called it is host code
        harness = _HARNESS_FILES.get(code.co_filename)
        if harness is None:
            harness = _HARNESS_FILES[code.co_filename] = os.path.abspath(code.co_filename).startswith(skip)
        if not harness:
            frames.append(frame)
        frame = frame.f_back
    if not frames:
        return None
    key = (test_only, *((f.f_code.co_filename, f.f_code.co_firstlineno, f.f_lineno) for f in frames))
    if key not in _SITES:
        _SITES[key] = any(_in_a_spin(f.f_code.co_filename, f.f_code.co_name, f.f_lineno, level > 0, test_only)
                          for level, f in enumerate(frames))
    return key if _SITES[key] else None


def _in_a_spin(filename: str, function: str, line: int, any_call: bool = False, test_only: bool = False) -> bool:
    """The tl.atomic_cas (with `any_call`: the call, a helper's) at `line` of `function` is
    inside a `while` or bound to a name a `while` tests."""
    try:
        tree = ast.parse("".join(linecache.getlines(filename)))
    except (SyntaxError, ValueError):
        return False
    fns = [n for n in ast.walk(tree) if isinstance(n, ast.FunctionDef) and n.name == function
           and n.lineno <= line <= (n.end_lineno or n.lineno)]
    if not fns:
        return False
    fn = fns[-1]
    parents = {id(c): p for p in ast.walk(fn) for c in ast.iter_child_nodes(p)}
    tested = {n.id for w in ast.walk(fn) if isinstance(w, ast.While) for n in ast.walk(w.test)
              if isinstance(n, ast.Name)}
    for call in ast.walk(fn):
        if not (isinstance(call, ast.Call) and (any_call or (isinstance(call.func, ast.Attribute)
                and call.func.attr in ("atomic_cas", "atomic_xchg"))) and call.lineno <= line <= (call.end_lineno or call.lineno)):
            continue
        node = call
        while node is not None and node is not fn:
            parent = parents.get(id(node))
            if isinstance(parent, ast.While) and (not test_only or node is parent.test):
                return True
            if isinstance(parent, (ast.Assign, ast.AnnAssign)) and any(
                    isinstance(t, ast.Name) and t.id in tested
                    for t in (parent.targets if isinstance(parent, ast.Assign) else [parent.target])):
                return True
            node = parent
    return False
