"""Call sites of a kernel's atomics, read from its source (CPU interpreter only): which
tl.atomic_cas (or test-and-set exchange) is a spin lock's (the call sits in a `while` loop,
or its result is bound to a name a `while` test reads: `interpreter_races` takes a lock only
at such a site), and whether the kernel uses an atomic's old value (a scalar atomic whose
result nothing uses has no barrier on a GPU). A frame walk from the atomic to the kernel's
source, read with ast, cached per site."""
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
    frames = _kernel_frames()  # a @triton.jit helper's CAS is retried by the loop that calls
    if not frames:  # the helper (red team s32b: `while try_lock(l)`)
        return None
    key = (test_only, *((f.f_code.co_filename, f.f_code.co_firstlineno, f.f_lineno) for f in frames))
    if key not in _SITES:
        _SITES[key] = any(_in_a_spin(f.f_code.co_filename, f.f_code.co_name, f.f_lineno, level > 0, test_only)
                          for level, f in enumerate(frames))
    return key if _SITES[key] else None


def _kernel_frames() -> list:
    """The kernel's frames (its own code and its @triton.jit helpers'), innermost first, up to
    four: the frames between here and the launch that are not the harness's, Triton's or numpy's."""
    import triton

    skip = (*_HERE, os.path.dirname(os.path.abspath(triton.__file__)))
    frames = []
    frame = sys._getframe(2)
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
    return frames


_USED: dict = {}
_ATOMICS = ("atomic_add", "atomic_max", "atomic_min", "atomic_and", "atomic_or", "atomic_xor",
            "atomic_xchg", "atomic_cas")


def result_used() -> bool:
    """Whether the kernel uses the old value the running atomic returns. Triton lowers a scalar
    atomic to one thread's, and hands its old value to the others through shared memory
    behind a barrier only where the value has a use (an atomic whose result nothing uses gets
    no barrier: `atomicNeedsSharedMemory`, use_empty); discarded (`tl.atomic_add(p, 1)` as a
    statement) or bound to a name the function never reads, it orders no lanes. A value a
    @triton.jit helper returns is judged at the helper's call. Unknown (no source): used."""
    frames = _kernel_frames()
    if not frames:
        return True
    key = tuple((f.f_code.co_filename, f.f_code.co_firstlineno, f.f_lineno) for f in frames)
    used = _USED.get(key)
    if used is None:
        used = _USED[key] = _used(frames)
    return used


def _used(frames: list) -> bool:
    for level, frame in enumerate(frames):
        how = _use_at(frame.f_code.co_filename, frame.f_code.co_name, frame.f_lineno, level > 0)
        if how != "returned":
            return how == "used"
    return True


def _function(filename: str, function: str, line: int) -> ast.FunctionDef | None:
    try:
        tree = ast.parse("".join(linecache.getlines(filename)))
    except (SyntaxError, ValueError):
        return None
    fns = [n for n in ast.walk(tree) if isinstance(n, ast.FunctionDef) and n.name == function
           and n.lineno <= line <= (n.end_lineno or n.lineno)]
    return fns[-1] if fns else None


def _use_at(filename: str, function: str, line: int, any_call: bool) -> str:
    """How the atomic call (with `any_call`: the helper call) at `line` is used: "unused" (a
    statement, or bound only to names the function never reads), "returned", or "used"
    (anything else, or not found)."""
    fn = _function(filename, function, line)
    if fn is None:
        return "used"
    parents = {id(c): p for p in ast.walk(fn) for c in ast.iter_child_nodes(p)}
    read = {n.id for n in ast.walk(fn) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load)}
    hows = set()
    for call in ast.walk(fn):
        if not (isinstance(call, ast.Call) and call.lineno <= line <= (call.end_lineno or call.lineno) and
                (any_call or (isinstance(call.func, ast.Attribute) and call.func.attr in _ATOMICS))):
            continue
        parent = parents.get(id(call))
        if isinstance(parent, ast.Expr):
            hows.add("unused")
        elif isinstance(parent, ast.Return):
            hows.add("returned")
        elif isinstance(parent, (ast.Assign, ast.AnnAssign)) and parent.value is call:
            targets = parent.targets if isinstance(parent, ast.Assign) else [parent.target]
            names = [t.id for t in targets if isinstance(t, ast.Name)]
            hows.add("unused" if len(names) == len(targets) and not set(names) & read else "used")
        else:
            hows.add("used")
    return "used" if not hows or "used" in hows else "returned" if "returned" in hows else "unused"


def _in_a_spin(filename: str, function: str, line: int, any_call: bool = False, test_only: bool = False) -> bool:
    """The tl.atomic_cas (with `any_call`: the call, a helper's) at `line` of `function` is
    inside a `while` or bound to a name a `while` tests."""
    fn = _function(filename, function, line)
    if fn is None:
        return False
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
