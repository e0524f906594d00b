"""Call sites of a kernel's atomics, read from its source (CPU interpreter only): which
tl.atomic_cas (or test-and-set exchange) is a spin lock's (the call sits in a `while` loop,
or its result is bound to a name a `while` test reads: `interpreter_races` takes a lock only
at such a site), read with ast and cached per site; and whether the compiled kernel uses a
scalar atomic's old value (one whose value it drops has no barrier on a GPU), looked up by
the atomic's source line. Both walk the frames from the atomic to the kernel's."""
from __future__ import annotations

import ast
import linecache
import os
import sys

import numpy as np

_HERE = (os.path.dirname(os.path.abspath(__file__)), os.path.dirname(os.path.abspath(np.__file__)))  # harness, numpy
_SKIP: list = []  # _HERE and Triton's directory, found once (`_skipped`)
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


def _skipped() -> tuple:
    """The harness's, numpy's and Triton's directories, found once (a file's first frame only:
    `_kernel_frames` runs on every fused add and atomic, element by element in a per-element
    scan combine, where finding Triton's path on each call was 4% of the combine's CPU time)."""
    if not _SKIP:
        import triton

        _SKIP.append((*_HERE, os.path.dirname(os.path.abspath(triton.__file__))))
    return _SKIP[0]


def _kernel_frames(limit: int = 4) -> list:
    """The kernel's frames (its own code and its @triton.jit helpers'), innermost first, up to
    `limit`: the frames between here and the launch that are not the harness's, Triton's or numpy's."""
    frames = []
    frame = sys._getframe(2)
    while frame is not None and len(frames) < limit:
        code = frame.f_code
        if code in LAUNCH_CODE:
            break  # the launch: what called it is host code
        harness = _HARNESS_FILES.get(code.co_filename)
        if harness is None:
            harness = _HARNESS_FILES[code.co_filename] = os.path.abspath(code.co_filename).startswith(_skipped())
        if not harness:
            frames.append(frame)
        frame = frame.f_back
    return frames


def result_used() -> bool:
    """Whether the running scalar atomic's old value has a use in the kernel as Triton compiles
    it (`device_ir.scalar_atomic_used`, from the TTIR of every launch the GPU front end
    checked, at the atomic's source line and the lines of the helper calls that reached it). Triton hands that
    value to the program's threads through shared memory behind a barrier only where it has
    a use; an atomic whose value the compiled kernel drops orders no lanes. Read off the
    source (session 35's first version), an alias of tl.atomic_add, `_seen = _t`,
    `atomic(...) + 0` and `atomic(...) and 0` all looked used (red team s35): the compiled
    code decides. No record (nothing compiled there): not used."""
    from evaluator import device_ir

    site = compiled_site()
    return site is not None and device_ir.scalar_atomic_used(site)


def reduction_barrier() -> bool:
    """Whether the running reduction or scan (tl.max, tl.sum, tl.reduce, tl.cumsum, ...) is a
    barrier of the program's lanes as Triton compiles the running launch's specialization
    (`device_ir.reduction_barrier`: its axis spread over several warps, at this call, the
    same number of loops around it there as in the source)."""
    from evaluator import device_ir, interpreter_races

    found = compiled_site(columns=True)
    if found is None:
        return False
    site, loops = found
    return device_ir.reduction_barrier(interpreter_races._Launch.compiled, site, loops)


def load_site() -> tuple | None:
    """The running load's ((file, line, column)s, loops around it, the innermost loop of the
    chain as (file, *`_walk_calls`' loop)), None where it cannot be told."""
    frames = _kernel_frames(_DEEPEST)
    found = compiled_site(columns=True, frames=frames, runtime=True)
    if found is None:
        return None
    site, loops = found
    for (file, line, column) in site:
        calls = _calls(file).get(_end_of(file, line, column))
        if calls and calls[0][3] is not None:
            return site, loops, (file, *calls[0][3])
    return site, loops, None


def loop_key() -> tuple | None:
    """(file, "for", line, column) of the range call a kernel frame is making (a loop starts)."""
    frames = _kernel_frames(1)
    if not frames:
        return None
    call = _call_start(frames[0], whole=True)
    return None if call is None else (frames[0].f_code.co_filename, "for", call[0], call[1])


def _end_of(file: str, line: int, column: int) -> tuple | None:
    """The end position of the call of `file` that starts at (line, column)."""
    starts = _STARTS.get(file)
    if starts is None:
        starts = _STARTS[file] = {(c[0], c[1]): end for end, calls in _calls(file).items() for c in calls}
    return starts.get((line, column))


_STARTS: dict = {}


def compiled_site(columns: bool = False, frames: list | None = None, runtime: bool = False):
    """The (file, line)s, innermost first, under which Triton's locations record the call being
    run: its own line and the lines of the helper calls that reached it, to the launched
    kernel's. Each frame gives the first line of the call it is making (`_call_start`), as
    Triton's locations do. None where the chain is cut short (another kernel's, red team s35)
    or a call cannot be told. With `columns`: ((file, line, column)s, the number of loops
    (for, while) around those calls in their functions' source, added up)."""
    frames = _kernel_frames(_DEEPEST) if frames is None else frames
    if not frames or len(frames) >= _DEEPEST:  # the whole chain, to the launched kernel's own
        return None  # line, or nothing: a chain cut short was another kernel's (red team s35)
    site: list = []
    loops = 0
    inside_lambda = False
    for frame in frames:
        if inside_lambda:  # the function a lambda of interpreter_scope's `and`/`or` rewrite
            inside_lambda = False  # runs in: its call there is the rewrite's, not a helper's
            continue
        call = _call_start(frame, whole=True)
        if call is None:
            return None
        line, column, around, _, kept = call
        around = kept if runtime else around
        site.append((frame.f_code.co_filename, line, column) if columns else (frame.f_code.co_filename, line))
        loops += around
        inside_lambda = frame.f_code.co_name == "<lambda>"
    return (tuple(site), loops) if columns else tuple(site)


def _call_start(frame, whole: bool = False):
    """The first line of the call a kernel frame is making, as Triton's locations give it (the
    call expression's start): the frame's line is where Python puts the CALL instruction,
    which for `(tl\n.atomic_add(...))` is the attribute's line, and another atomic there
    answered for this one (red team s35 round 4). Found by the call's end, which Python does
    not move; None where no one call of the file ends there. `whole`: (line, column (1-based,
    as MLIR's), the loops around the call in its function)."""
    code = frame.f_code
    positions = _POSITIONS.get(code)
    if positions is None:  # once per code object: a spin loop runs its atomic thousands of times
        positions = _POSITIONS[code] = list(code.co_positions())
    try:
        _, end_line, _, end_col = positions[frame.f_lasti // 2]
    except (IndexError, ValueError):
        return None
    starts = _calls(frame.f_code.co_filename).get((end_line, end_col))
    if not starts or len(set(starts)) != 1:
        return None
    return starts[0] if whole else starts[0][0]  # (line, column, loops, innermost loop)


_CALLS: dict = {}
_POSITIONS: dict = {}  # code object -> its instructions' source positions


def _calls(filename: str) -> dict:
    """(end line, end column) -> (start line, start column (1-based), loops around it in its
    function) of each call of a file that ends there."""
    found = _CALLS.get(filename)
    if found is None:
        found = {}
        try:
            tree = ast.parse("".join(linecache.getlines(filename)))
        except (SyntaxError, ValueError):
            tree = ast.Module(body=[], type_ignores=[])
        _walk_calls(tree, 0, found)
        _CALLS[filename] = found
    return found


def _walk_calls(node: ast.AST, loops: int, found: dict, loop: tuple | None = None, runtime: int = 0) -> None:
    """Each call under `node` with the loops (for, while) between it and its function, and the
    innermost of them (`loop`: ("for", line, column) of a for's range call, ("while", line), or
    None), and how many of them are no `static_range` (which the compiler unrolls: a copy of
    its body per step, in no loop)."""
    for child in ast.iter_child_nodes(node):
        inner, around, kept = loops, loop, runtime
        if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef)):
            inner, around, kept = 0, None, 0
        elif isinstance(node, (ast.For, ast.AsyncFor)) and child not in (node.iter, node.target):
            inner = loops + 1  # the body and else; the range runs once, outside it
            if not _static(node.iter):
                it = node.iter
                around = ("for", it.lineno, it.col_offset + 1) if isinstance(it, ast.Call) else ("loop", node.lineno)
                kept = runtime + 1
        elif isinstance(node, ast.While):  # its test runs each time round too (scf.while's first region)
            inner, around, kept = loops + 1, ("while", node.lineno), runtime + 1
        if isinstance(child, ast.Call):
            found.setdefault((child.end_lineno, child.end_col_offset), []).append(
                (child.lineno, child.col_offset + 1, inner, around, kept))
        _walk_calls(child, inner, found, around, kept)


def _static(it: ast.expr) -> bool:
    """`tl.static_range(...)` (by its name: a runtime loop mistaken for one is only checked
    more, `load_site`'s loads are judged as moved)."""
    func = it.func if isinstance(it, ast.Call) else None
    name = func.attr if isinstance(func, ast.Attribute) else func.id if isinstance(func, ast.Name) else None
    return name == "static_range"


_DEEPEST = 64  # kernel frames of a helper chain past which no atomic is credited a barrier


def _function(filename: str, function: str, line: int) -> ast.FunctionDef | None:
    try:
        tree = ast.parse("".join(linecache.getlines(filename)))
    except (SyntaxError, ValueError):
        return None
    fns = [n for n in ast.walk(tree) if isinstance(n, ast.FunctionDef) and n.name == function
           and n.lineno <= line <= (n.end_lineno or n.lineno)]
    return fns[-1] if fns else None


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
