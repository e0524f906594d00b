"""What a kernel as Triton compiles it for sm_90 orders among its lanes, which its Python body
under the interpreter does not show.

The interpreter runs a program's lanes in Python's order; the GPU runs them in parallel and
meets them only at barriers, and its compiler moves loads. Three facts are read off the module
the TTGIR passes leave for each launch's specialization (`record`, called by
evaluator.device_lowering before the lowering):
- which scalar atomics keep a use of their old value, handed to the other threads behind a
  barrier (`scalar_atomic_used`);
- which reductions and scans spread their axis over more than one warp, and so meet the
  program's threads at a barrier (`reduction_barrier`);
- which global loads the pipeliner or LICM issues elsewhere than the source does
  (`moved_load`);
- the layout of each reduction's and scan's operand along its axis (`reduction_layout`), in
  whose order evaluator.interpreter_order combines its floats;
- the element order of each tt.cat and tt.reshape, from its operand and result layouts
  (`view_order`, evaluator.register_order), in which evaluator.interpreter_layout puts a
  cat's or reorderable reshape's result;
- which float adds and subtracts take a product of their block, which LLVM contracts into one
  fma.rn (evaluator.interpreter_fusion).
Each is recorded by the (file, line[, column]) chain of the op's location, as the interpreter's
frames give it (`location_chain`, `kernel_site`), and fails closed: where a walk or a location
cannot be read, no barrier is credited and every load may have moved.
"""
from __future__ import annotations

import os
import re

from evaluator import interpreter_fusion

# (file, line) of a scalar atomic in a compiled kernel -> whether its old value has a use in
# every specialization compiled (`scalar_atomic_used`)
_SCALAR_ATOMICS: dict[tuple, bool] = {}
# set once a compiled scalar atomic could not be keyed (a location that is not one chain) or a
# kernel's walk failed: from then on no scalar atomic is a barrier in this process (an
# atomic left out of the record must not leave another's True standing, red team s36)
_UNRECORDED: list[bool] = []
# (specialization key, (file, line, column)s) of a tl.reduce / tl.associative_scan (tl.max,
# tl.sum, tl.cumsum, ...) in a compiled kernel -> the loops around it where it spreads its
# reduced axis's data over more than one warp, else False (`reduction_barrier`);
# `_REDUCTIONS_UNRECORDED` as `_UNRECORDED`
_REDUCTIONS: dict[tuple, bool] = {}
_REDUCTIONS_UNRECORDED: list[bool] = []
# (specialization key, (file, line, column)s) of a global load -> the numbers of loops around
# its compiled ops (`moved_load`); keys whose loads could not all be placed
_LOADS: dict[tuple, set] = {}
_LOADS_BLIND: set = set()
_GLOBAL_READS = frozenset({"tt.load", "ttg.async_copy_global_to_local", "ttng.async_tma_copy_global_to_local",
                           "tt.descriptor_load", "tt.descriptor_gather"})


_STRING = re.compile(r'"((?:[^"\\]|\\.)*)"')
# after a file name: `:line:col`, optionally a range's end (`to :col`, `to line:col`)
_LINE_COL = re.compile(r':(\d+):(\d+)(?: to (?:\d+)?:\d+)?')


def location_chain(text: str, columns: bool = False) -> tuple | None:
    """The (file, line)s of a printed MLIR location, innermost first (`columns`: (file, line,
    column)s, the column 1-based as MLIR prints it): a file:line:col, a call
    site (callee, then caller), a name (`"x"(child)`: Triton 3.9 names a location after the
    variable assigned) read through to its child. None for anything that is not one chain (a
    fused location, an unknown one, a name without a child, text this grammar does not read).
    Read by structure, never by searching the text: a variable named `fused` once made a
    substring test skip its atomic (red team s36)."""
    if not (text.startswith("loc(") and text.endswith(")")):
        return None
    try:
        chain, end = _chain(text, 4)
    except (ValueError, IndexError, RecursionError):
        return None
    if chain is None or end != len(text) - 1:
        return None
    return chain if columns else tuple((file, line) for file, line, _ in chain)


def _chain(text: str, i: int) -> tuple[tuple | None, int]:
    if text.startswith("callsite(", i):
        callee, i = _chain(text, i + len("callsite("))
        if not text.startswith(" at ", i):
            raise ValueError(text)
        caller, i = _chain(text, i + len(" at "))
        if text[i] != ")":
            raise ValueError(text)
        return (callee + caller if callee and caller else None), i + 1
    string = _STRING.match(text, i)
    if string is None:
        raise ValueError(text)  # fused[...], unknown, or what this grammar does not know
    i = string.end()
    position = _LINE_COL.match(text, i)
    if position is not None:
        return ((string.group(1), int(position.group(1)), int(position.group(2))),), position.end()
    if text.startswith("(", i):  # a name with its child location
        child, i = _chain(text, i + 1)
        if text[i] != ")":
            raise ValueError(text)
        return child, i + 1
    return None, i  # a name alone

def record(module, key: tuple) -> None:
    """Which scalar atomics of this kernel keep a use of their old value once Triton's TTIR and
    TTGIR passes (inlining, canonicalisation, dead-code elimination, sccp) have run, and which
    reductions and scans spread their axis over several warps (`_record_reductions`). Triton
    lowers a scalar atomic to one thread's and hands the old value to the other threads through
    shared memory behind a barrier only where that value has a use (`atomicNeedsSharedMemory`):
    a statement, a name never read, `_seen = _t`, `atomic(...) and 0` all leave none, and no
    barrier (red team s35 read the use off the source and got past it four ways; on the
    H200 those scans were wrong). The module after the TTGIR passes, the one the lowering
    reads, is walked op by op: a result is used where some
    op has it as an operand (values by identity: a search of the printed text took a noinline
    helper's own %7 for a use of the kernel's, red team s35). Recorded by the atomic's source
    line and the lines of the calls that reached it, to the launched kernel's own (innermost
    first: one helper's atomic is used at one call and dropped at another, and a helper
    launched on its own is another chain); where the walk fails or a location is not one
    chain, no scalar atomic is credited as a barrier from then on."""
    try:
        # read after TTGIR: the lowering decides on the module its passes leave (sccp, licm, the
        # canonicaliser again): a store behind a mask only sccp proves false kept a use in TTIR
        # and none at the lowering (red team s35 round 4, 0 bar.sync on sm_90)
        atomics, operands, reductions, owners = [], set(), [], {}

        def visit(op) -> None:
            for i in range(op.get_num_operands()):
                operands.add(op.get_operand(i).id())
            for i in range(op.get_num_regions()):  # the walk is post-order: a loop after its body
                owners[op.get_region(i).id()] = op
            name = op.get_name()
            if name in ("tt.atomic_rmw", "tt.atomic_cas") and op.get_num_results() == 1:
                result = op.get_result(0)
                if not str(result.get_type()).startswith("tensor<"):
                    atomics.append((result.id(), str(result.get_loc())))
            elif name in ("tt.reduce", "tt.scan") and op.get_num_results() >= 1:
                reductions.append((op, str(op.get_operand(0).get_type()), op.get_int_attr("axis"),
                                   str(op.get_result(0).get_loc())))
            elif name in ("tt.cat", "tt.reshape") and op.get_num_results() == 1:
                views.append((op, name, tuple(str(op.get_operand(i).get_type()) for i in range(op.get_num_operands())),
                              str(op.get_result(0).get_type()), str(op.get_result(0).get_loc())))
            elif name in _GLOBAL_READS and op.get_num_results() >= 1:
                loads.append((op, str(op.get_result(0).get_loc())))
            elif name == "tt.call":  # a noinline helper's ops carry its own lines only
                _LOADS_BLIND.add(key)
            elif name in ("tt.dot", "ttng.warp_group_dot") and op.get_num_results() == 1:
                dots.append((name, op))
            elif name == "tt.clampf" and op.get_num_results() == 1:
                clamps.append(op)
            elif name in interpreter_fusion.PRODUCT_OPS and op.get_num_results() == 1:
                interpreter_fusion.product_like(op, name, products)
            elif name in interpreter_fusion._ADDS and op.get_num_results() == 1:
                adds.append((op, products))

        loads: list = []
        dots: list = []
        views: list = []
        clamps: list = []
        adds: list = []
        products: dict = {}
        module.walk(visit)
        plain = [_unheld(op, owners) for op, *_ in reductions]
        plain_views = [_unheld(op, owners) for op, *_ in views]
        reductions = [(_loops(op, owners), *rest) for op, *rest in reductions]
        loads = [(_loops(op, owners), loc) for op, loc in loads]
        views = [(_loops(op, owners), *rest) for op, *rest in views]
    except Exception:  # noqa: BLE001  (a walk that fails closes: no atomic orders lanes from now on)
        _UNRECORDED.append(True)
        _REDUCTIONS_UNRECORDED.append(True)
        _LOADS_BLIND.add(key)
        return
    _record_loads(key, loads)
    for value, loc in atomics:
        site = location_chain(loc)
        if site is None:
            _UNRECORDED.append(True)
        else:
            _SCALAR_ATOMICS[site] = _SCALAR_ATOMICS.get(site, True) and value in operands
    _record_reductions(key, reductions)
    _record_dots(key, dots)
    _record_views(key, views, plain_views)
    _record_unrolled(key, reductions, plain)
    from evaluator import interpreter_minmax

    interpreter_minmax.record(key, clamps, kernel_site, lambda: str(module))
    interpreter_fusion.record(key, adds, kernel_site)


def _record_dots(key: tuple, dots: list) -> None:
    """Which dots of a compiled kernel are wgmma (ttng.warp_group_dot, MMA v3) and with what
    maxNumImpreciseAcc, by call site (`kernel_site`) and operand A's shape: the interpreter
    accumulates the float8 ones that are as the H200 does (evaluator.interpreter_dot8)."""
    for name, op in dots:
        try:  # a dot not read is left to the shapes (interpreter_dot8.shape_rule)
            a_type, imprecise = str(op.get_operand(0).get_type()), op.get_int_attr("maxNumImpreciseAcc")
            site = kernel_site(str(op.get_result(0).get_loc()))
        except Exception:  # noqa: BLE001
            continue
        shape = re.search(r"<((?:\d+x)+)", a_type)  # an MMA v2 dot's float8 operands are widened to f16
        if shape is None or not site or imprecise is None:
            continue
        a_shape = tuple(int(d) for d in shape.group(1).rstrip("x").split("x"))
        _DOTS.setdefault((key, site), set()).add((a_shape, name == "ttng.warp_group_dot", imprecise))


# (specialization key, (file, line, column)s) of a tl.dot -> {(operand A's shape, whether
# it is a wgmma, its maxNumImpreciseAcc)} (`dot_form`)
_DOTS: dict[tuple, set] = {}


def dot_form(key: tuple | None, site: tuple, a_shape: tuple) -> tuple | None:
    """(wgmma?, maxNumImpreciseAcc) of the dot compiled at `site` of the launch `key` with
    operand A of `a_shape`; None where none was recorded there or the ops recorded disagree."""
    if key is None:
        return None
    forms = {entry[1:] for entry in _DOTS.get((key, site), ()) if entry[0] == tuple(a_shape)}
    return next(iter(forms)) if len(forms) == 1 else None


def kernel_site(loc: str) -> tuple | None:
    """A compiled op's (file, line, column) chain without its innermost frames in Triton's own
    library (tl.max's body, tl.sum's): what the interpreter's frames of the kernel give."""
    import triton

    library = os.path.dirname(os.path.abspath(triton.__file__)) + os.sep
    site = location_chain(loc, columns=True)
    while site and os.path.abspath(site[0][0]).startswith(library):
        site = site[1:]
    return site


def _record_loads(key: tuple, loads: list) -> None:
    """The loops around each global load of a compiled kernel, by call site (as
    `_record_reductions`'s). Triton's software pipeliner (a loop `tl.range(..., num_stages=3)`,
    or loads feeding tl.dot) issues a loop's loads iterations early: a copy in the loop's
    prologue, outside it, and in the loop one for a later iteration; LICM hoists a load out of
    a loop. Such a load reads memory before the stores the loop made in between, where the
    interpreter reads it in order (red team s42: a running carry kept in scratch and reloaded by
    the lane that stored it; on sm_90, cp.async of the carry before the previous iteration's
    store). `moved_load` tells the interpreter which loads the compiled code no longer makes
    where the source does."""
    for loops, loc in loads:
        site = kernel_site(loc)
        if not site:
            _LOADS_BLIND.add(key)
            continue
        _LOADS.setdefault((key, site), set()).add(loops)


def moved_load(key: tuple | None, site: tuple, loops: int) -> bool:
    """Whether the compiled launch `key` makes the load at `site` ((file, line, column)s) other
    than where the source does, in `loops` loops: in fewer (hoisted, a pipeliner's prologue) or
    in several places. A launch the front end never checked, a location that could not be
    read, or a kernel that still calls a helper (`noinline=True`: the helper's ops carry its
    own lines, not the chain the interpreter sees; red team s42 round 2 pipelined a reload
    there): every load may be."""
    if key is None or key in _LOADS_BLIND:
        return True
    depths = _LOADS.get((key, site))
    return depths is not None and depths != {loops}  # none: compiled away (unused, merged)


def _unheld(op, owners: dict) -> bool:
    """Whether no region op (a loop, an scf.if, ...) holds `op` below its function: its runs in
    a program are the straight-line order of the ops at its site."""
    block = op.get_block()
    owner = None if block is None else owners.get(block.get_parent().id())
    return owner is None or owner.get_name() == "tt.func"


def _loops(op, owners: dict) -> int:
    """How many loops (scf.for, scf.while) hold `op` in the compiled module."""
    depth = 0
    while True:
        block = op.get_block()
        owner = None if block is None else owners.get(block.get_parent().id())
        if owner is None:
            return depth
        depth += owner.get_name() in ("scf.for", "scf.while")
        op = owner


def _record_reductions(key: tuple, reductions: list) -> None:
    """Which reductions and scans of a compiled kernel are a barrier of its program's lanes.
    Triton reduces (and scans) an axis within each thread, then across the lanes of a warp by
    shuffles, and, where the axis's distinct data lies in more than one warp, through shared
    memory between two barriers (`ReduceOpHelper::isWarpSynchronous`, bar.sync on sm_90):
    every thread of the program reaches that point before any goes on, as at
    tl.debug_barrier(). Liger-Kernel's cross entropy loads its target's logit as a scalar,
    takes block-wide tl.max/tl.sum over the row, then stores the gradient over that logit in
    place (honest round s41: refused as a race of its lanes). Read off the operand's layout as
    the TTGIR passes leave it (`_crosses_warps`), per specialization (`key`: a reduction that
    only one specialization uses is compiled away in the others, and with it its barrier) and
    per call, by the (file, line, column)s of the call and of the helper calls that reached it
    (two calls on one line are two sites: the interpreter runs a reduction the compiler
    dropped), the innermost frames in Triton's own library (tl.max's body) left out, with the
    number of loops around it (`loops`): a reduction the compiler hoisted out of a loop (LICM:
    its operand does not change in the loop) meets once before the loop, not each time round
    it, and the interpreter's count of the loops around the call must agree
    (`interpreter_spin.reduction_barrier`). A site where any of these is not a cross-warp
    reduction is none."""
    for loops, type_text, axis, loc in reductions:
        site = kernel_site(loc)
        if not site:
            _REDUCTIONS_UNRECORDED.append(True)
            continue
        entry = (key, site)
        before = _REDUCTIONS.get(entry, loops)  # one call site, one op, unless a pass copied it
        meets = type(before) is int and before == loops and _crosses_warps(type_text, axis)
        _REDUCTIONS[entry] = loops if meets else False
        _ORDERS.setdefault(entry, set()).add((loops, _shape(type_text), axis, _axis_order(type_text, axis)))


def _axis_order(type_text: str, axis: int | None) -> tuple | None:
    """`axis_layout` for a blocked operand or a slice of one, else the bits along the axis of a
    layout evaluator.register_order reads (an MMA result: `register_order.axis_bits`)."""
    found = axis_layout(type_text, axis)
    if found is not None:
        return found
    from evaluator import register_order

    try:
        return register_order.axis_bits(type_text, axis)
    except Exception:  # noqa: BLE001  (not read: the interpreter draws one)
        return None


# (specialization key, (file, line, column)s) of a tt.reduce / tt.scan -> the (loops around it,
# operand shape, axis, `axis_layout` of its operand) of each op compiled there (`reduction_layout`)
_ORDERS: dict[tuple, set] = {}


def axis_layout(type_text: str, axis: int | None) -> tuple | None:
    """(n, s, t, w) of a reduction's or scan's operand along its axis, as its printed type gives
    it: the axis's length n and the layout's elements per thread s (sizePerThread), lanes t
    (threadsPerWarp) and warps w (warpsPerCTA) along it, for a blocked layout or a slice of
    one (read through to the parent's axis). None for any other encoding (an MMA result, a
    linear layout: `_axis_order` reads those through evaluator.register_order) or a type this
    grammar does not read."""
    match = _TENSOR.match(type_text)
    if match is None or axis is None:
        return None
    shape = [int(d) for d in match.group(1).rstrip("x").split("x")]
    layout = match.group(2)
    dim = None
    if layout.startswith("#ttg.slice<"):
        sliced = re.match(r"#ttg\.slice<\{dim = (\d+), parent = (#ttg\.blocked<\{[^{}]*\}>)\}>$", layout)
        if sliced is None:
            return None
        dim, layout = int(sliced.group(1)), sliced.group(2)
    elif re.match(r"#ttg\.blocked<\{[^{}]*\}>$", layout) is None:
        return None
    fields = {name: [int(v) for v in values.split(",")] for name, values in _FIELD.findall(layout)}
    if len(fields) != 3 or not 0 <= axis < len(shape):
        return None
    if any(len(v) != len(shape) + (dim is not None) for v in fields.values()):
        return None
    along = axis if dim is None or axis < dim else axis + 1  # the parent's axis of a slice
    return (shape[axis], fields["sizePerThread"][along], fields["threadsPerWarp"][along],
            fields["warpsPerCTA"][along])


def reduction_layout(key: tuple | None, site: tuple, loops: int, shape: tuple | None = None,
                     axis: int | None = None) -> tuple | None:
    """(n, s, t, w) along the reduced axis of the tt.reduce / tt.scan compiled at `site`
    ((file, line, column)s, innermost first) of the launch `key`, in `loops` loops
    (`axis_layout`), or (n, register, lane, warp axis coordinates) for an operand of another
    layout register_order reads (`_axis_order`: an MMA result). Where several ops were compiled at the site (a `tl.static_range` body
    unrolled, a pass that copied one) and their layouts differ, the one whose operand has the
    running call's `shape` and `axis`, if exactly one has. None where nothing was compiled
    there, where no one op matches, or where the encoding is not read: the interpreter then
    draws a layout keyed by the site, shape and axis (`interpreter_order.layout`)."""
    if key is None:
        return None
    found = {entry for entry in _ORDERS.get((key, site), ()) if entry[0] == loops}
    layouts = {entry[3] for entry in found}
    if len(layouts) != 1 and shape is not None:
        layouts = {entry[3] for entry in found if entry[1] == tuple(shape) and entry[2] == axis}
    if len(layouts) != 1:
        return None
    (layout,) = layouts
    return layout


# (specialization key, call site) -> each op compiled there, in the module's order (a
# `tl.static_range` body's copies in iteration order): a reduction's (shape, axis, layout), a
# view's (op, shapes, order); None for one that a loop or branch holds (`unrolled`)
_UNROLLED: dict[tuple, list] = {}


def _record_unrolled(key: tuple, reductions: list, plain: list) -> None:
    for (_, type_text, axis, loc), alone in zip(reductions, plain):
        site = kernel_site(loc)
        if site:
            _UNROLLED.setdefault((key, site), []).append(
                (_shape(type_text), axis, _axis_order(type_text, axis)) if alone else None)


def unrolled(key: tuple | None, site: tuple, loops: int, what: tuple) -> list | None:
    """The ops compiled at `site` that match `what` (a reduction's (shape, axis), a view's
    (op, operand shapes)), in the module's order, where no loop or branch holds the site (in
    the source: `loops` 0; in the module: none of them held) and there are several: the
    interpreter's k-th run of the site in a program is the k-th (`tl.static_range` unrolls its
    body in iteration order). Red team rt60: one layout drawn for such a site made a sum of a
    blocked tile in step 0 and of a tl.dot result of the same bytes in step 1 agree on the CPU
    only (and rt49's reshapes likewise). None otherwise."""
    entries = _UNROLLED.get((key, site), ()) if key is not None and loops == 0 else ()
    if any(e is None for e in entries):
        return None
    ops = [e for e in entries if e[:len(what)] == what]
    return ops if len(ops) > 1 else None


def _shape(type_text: str) -> tuple | None:
    """A ranked tensor type's shape (any encoding), None for another type."""
    match = re.match(r"tensor<((?:\d+x)+)", type_text)
    return None if match is None else tuple(int(d) for d in match.group(1).rstrip("x").split("x"))


_TENSOR = re.compile(r"tensor<((?:\d+x)+)[^,<>]+, (#ttg\.(?:blocked|slice)<.*>)>$")
_FIELD = re.compile(r"(sizePerThread|threadsPerWarp|warpsPerCTA) = \[([\d, ]+)\]")


def _crosses_warps(type_text: str, axis: int | None) -> bool:
    """Whether a reduction of a tensor of this printed type along `axis` has distinct data in
    more than one warp: its layout is blocked (or a slice of a blocked one) and the warps along
    the axis, less those that only hold copies of another's elements (a block smaller than the
    warps' tile), number more than one. Any other layout (an MMA result, a linear layout), or a
    type this grammar does not read: no (fails closed: no barrier credited)."""
    layout = axis_layout(type_text, axis)
    if layout is None:
        return False
    n, per_thread, lanes, warps = layout
    return min(warps, -(-n // (per_thread * lanes))) > 1


def scalar_atomic_used(site: tuple) -> bool:
    """Whether the scalar atomic at `site` ((file, line)s, innermost first: the atomic's, then
    the helper calls' that reached it), as compiled for every launch the front end checked,
    keeps a use of its old value (False where none was compiled there, and everywhere once
    an atomic could not be recorded)."""
    return not _UNRECORDED and _SCALAR_ATOMICS.get(site, False)


def reduction_barrier(key: tuple | None, site: tuple, loops: int) -> bool:
    """Whether the reduction or scan at `site` ((file, line, column)s, innermost first) of the
    launch whose specialization is `key` (`checked`) spreads its axis over more than one warp,
    where `loops` loops hold it, as compiled (False where nothing was compiled there, and
    everywhere once a reduction could not be recorded)."""
    if key is None or _REDUCTIONS_UNRECORDED:
        return False
    found = _REDUCTIONS.get((key, site), False)
    return type(found) is int and found == loops



# (specialization key, (file, line, column)s) of a tt.cat / tt.reshape -> the (loops around it,
# op, operand shapes, result shape, the element order its layouts give or None) of each op
# compiled there (`view_order`)
_VIEWS: dict[tuple, set] = {}
# (specialization key, op, operand and result shapes) -> the orders of every such op compiled
_VIEW_SHAPES: dict[tuple, set] = {}


def _record_views(key: tuple, views: list, plain: list) -> None:
    """The element order of each tt.cat and tt.reshape of a compiled kernel, from its operand and
    result layouts (evaluator.register_order), by call site as `_record_reductions`'. Every
    reshape is kept: the op's `allow_reorder` is a unit attribute the bindings do not read, and
    a reshape the compiler must keep in order has layouts whose order is the identity (the
    interpreter asks only for the reorderable ones it runs)."""
    from evaluator import register_order

    for (loops, name, operands, result, loc), alone in zip(views, plain):
        site = kernel_site(loc)
        if not site:
            continue
        try:
            if name == "tt.cat" and len(operands) == 2:
                order = register_order.cat_order(operands[0], operands[1], result)
            elif name == "tt.reshape" and len(operands) == 1:
                order = register_order.reshape_order(operands[0], result)
            else:
                continue
        except Exception:  # noqa: BLE001  (not read: the interpreter draws one)
            order = None
        shapes = tuple(_shape(t) for t in (*operands, result))
        order = None if order is None else order.astype("int64").tobytes()
        _VIEWS.setdefault((key, site), set()).add((loops, name, shapes, order))
        _VIEW_SHAPES.setdefault((key, name, shapes), set()).add(order)
        _UNROLLED.setdefault((key, site), []).append((name, shapes, order) if alone else None)


def view_order(key: tuple | None, site: tuple, loops: int, name: str, shapes: tuple, anywhere: bool = False):
    """The element order (numpy int64, result.flat[e] == operands' flat[order[e]]) of the op
    `name` ('tt.cat', 'tt.reshape') compiled at `site` of the launch `key` in `loops` loops,
    with operand and result `shapes`. `anywhere`: of every such op of the launch, if they
    agree (the interpreter asks where none carries the site: the canonicaliser rebuilds a
    reorderable reshape to take a convert_layout's result layout, `convert(reshape) ->
    reshape`, and the new op carries the convert's location, the consumer's line: a [16, 16]
    tile reshaped to [256] and stored read as the store's site). None where the ops disagree,
    where none was compiled, or where the layouts were not read."""
    import numpy as np

    if key is None:
        return None
    shapes = tuple(tuple(s) for s in shapes)
    if anywhere:
        found = _VIEW_SHAPES.get((key, name, shapes), set())
    else:
        found = {entry[3] for entry in _VIEWS.get((key, site), ())
                 if entry[0] == loops and entry[1] == name and entry[2] == shapes}
    if len(found) != 1 or None in found:
        return None
    (order,) = found
    return np.frombuffer(order, dtype=np.int64)
