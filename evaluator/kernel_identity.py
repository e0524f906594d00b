"""A kernel's identity beside its name: its Python function's qualified name and what it runs.

The knock-out round (evaluator.knockout_round) and the dry launch model (evaluator.dry_launch)
named kernels by `__name__`, so two namespace classes' `fix` (`Main.fix`, `Spare.fix`) were one
kernel to both: the round could not knock either out alone, counted the name a decoy unasked
(gates.shared_names), and the dry model stored nothing for it, so a capped in-place ReLU named
twice kept an ok (red team s65e, ok at 1.0008). Session 66 told them apart by qualified name;
but one `def` launched under two sets of tl.constexpr values is two kernels of one qualified
name (a capped max(y, 0) and a chunked full-grid doubling pass, FLOOR and SCALE constexprs: ok
at 1.0002 on main; a capped ReLU grid and a filler copying x past the cap, MODE: ok at 1.0044;
red team s67f), as a factory function's two would be (a nested `def` is refused statically). So
a kernel is its qualified name and a digest of what decides what it runs (`identity`): its
code, its closure cells' values, its defaults and the launch's constexprs. It is what the
function is, not a name its caller chose, the same in every child of the candidate (no
address, no candidate code run to make it: a value of the candidate's own class counts by its
class alone). A `def` built per dtype or op (Liger's, unsloth's, flaggems' builders) is a
kernel per variant, as two `def`s are.
"""
from __future__ import annotations

import hashlib
import types

_DEPTH = 4  # nested kernels and containers read this deep into a cell at most
_ITEMS = 64  # a container's items read at most (the rest counted)


def function(kernel: object) -> object:
    """The Python function under `kernel`'s wrappers (an Autotuner's or Heuristics' `fn` down
    to the JITFunction's own Python function)."""
    fn = kernel
    for _ in range(8):  # wrappers nest a few deep at most
        inner = getattr(fn, "fn", None)
        if inner is None or inner is fn:
            break
        fn = inner
    return fn


def qualname(kernel: object) -> str:
    """The qualified name of the function under `kernel`'s wrappers."""
    return _named(function(kernel))


def _named(fn: object) -> str:
    return str(getattr(fn, "__qualname__", None) or getattr(fn, "__name__", "?"))


def identity(kernel: object, variant: tuple = ()) -> str:
    """`qualname~digest`: the qualified name and a digest of the function's code, closure
    values and defaults (`_facts`) and of the launch's tl.constexpr values (`variant`:
    launch_hook `_variant`'s (index, name, value)), so one `def` launched as a capped max(y, 0)
    and as a full-grid doubling pass (FLOOR, SCALE constexprs) is two kernels, as a
    factory's two would be."""
    fn = function(kernel)
    made = _MADE.get(id(fn))
    if made is None or made[0] is not fn:  # the function's part once a process (kernels live as long)
        facts = hashlib.sha256("\0".join(_facts(fn, 0)).encode("utf-8", "replace")).hexdigest()
        made = _MADE[id(fn)] = (fn, facts)
    given = ",".join(f"{name}={_value(value, 1)}" for _, name, value in variant)  # every launch: short
    digest = hashlib.sha256(f"{made[1]}\0{given}".encode("utf-8", "replace"))
    return f"{_named(fn)}~{digest.hexdigest()[:10]}"


_MADE: dict[int, tuple] = {}  # id(function) -> (the function, its facts' digest)


def _facts(fn: object, depth: int) -> list[str]:
    """What decides what `fn` runs beside the module's globals (which one factory's kernels
    share): its code, its defaults, each closure cell's value."""
    code = _own(fn, "__code__")
    if not isinstance(code, types.CodeType):
        return [_type(fn)]
    facts = [_code(code), _value(_own(fn, "__defaults__"), depth), _value(_own(fn, "__kwdefaults__"), depth)]
    for name, cell in zip(code.co_freevars, _own(fn, "__closure__") or ()):
        try:
            facts.append(f"{name}={_value(cell.cell_contents, depth)}")
        except ValueError:  # a cell not filled yet
            facts.append(f"{name}=<empty>")
    return facts


def _code(code: types.CodeType) -> str:
    """A code object's bytes, names and constants (nested code too), not its file or lines:
    the same source in two children is the same text."""
    consts = [_code(c) if isinstance(c, types.CodeType) else repr(c) for c in code.co_consts]
    return "|".join([code.co_code.hex(), ",".join(code.co_names), ",".join(code.co_varnames), *consts])


def _value(value: object, depth: int) -> str:
    """A cell's value as text stable across processes, without running the candidate's code:
    plain constants by repr, containers item by item, functions and kernels by their qualified
    name and facts (`_DEPTH` deep), tl.constexpr by its value, anything else by its type."""
    kind = type(value)
    if value is None or kind in (bool, int, float, complex, str, bytes):
        return repr(value)
    if depth >= _DEPTH:
        return _type(value)
    if kind in (tuple, list, set, frozenset):
        items = sorted(_value(v, depth + 1) for v in value) if kind in (set, frozenset) \
            else [_value(v, depth + 1) for v in list(value)[:_ITEMS]]
        return f"{kind.__name__}({len(value)}:{','.join(items[:_ITEMS])})"
    if kind is dict:
        items = sorted(f"{_value(k, depth + 1)}:{_value(v, depth + 1)}" for k, v in list(value.items())[:_ITEMS])
        return f"dict({len(value)}:{','.join(items)})"
    if kind is types.FunctionType or _kernel_type(kind):
        fn = function(value) if _kernel_type(kind) else value
        name = getattr(fn, "__qualname__", "?") if type(fn) is types.FunctionType else _type(fn)
        return f"{name}<{';'.join(_facts(fn, depth + 1))}>"
    if issubclass(kind, type):
        return f"class {getattr(value, '__module__', '?')}.{getattr(value, '__qualname__', '?')}"
    if kind is types.ModuleType:
        return f"module {value.__name__}"
    return _triton_value(value, depth)


def _triton_value(value: object, depth: int) -> str:
    """tl.constexpr by its value, a Triton or torch dtype by its name; else the type alone."""
    import torch
    import triton.language as tl

    kind = type(value)
    if kind is tl.constexpr:
        return f"constexpr({_value(_own(value, 'value'), depth + 1)})"
    if kind is torch.dtype or issubclass(kind, tl.dtype) and kind.__module__.startswith("triton."):
        return f"dtype {str(value)}"
    return _type(value)


def _kernel_type(kind: type) -> bool:
    """A Triton kernel or wrapper (JITFunction, an Autotuner, Heuristics) of Triton's own."""
    from triton.runtime.jit import KernelInterface

    return issubclass(kind, KernelInterface) and kind.__module__.startswith("triton.")


def _own(value: object, name: str) -> object:
    """An attribute read as the object holds it (no __getattr__ of the candidate's runs)."""
    try:
        return object.__getattribute__(value, name)
    except AttributeError:
        return None


def _type(value: object) -> str:
    kind = type(value)
    return f"{kind.__module__}.{kind.__qualname__}"


def shared(seen: dict, module: str) -> dict[str, list[str]]:
    """{name: its identities} of `module`'s kernels launched under two or more of them
    (`seen`: the launch recorder's (module, name) -> identities)."""
    return {name: sorted(ids) for (m, name), ids in seen.items() if m == module and len(ids) > 1}


MAX_ASKED = 4
"""A name's identities the round knocks out each alone at most (`asked`); past it, the name as
one group, as before session 67: each costs the round REPEATS forwards, and an honest kernel
launched per layer under several constexprs would multiply them."""


def asked(names: list[str], identities: dict) -> dict[str, str]:
    """{knock-out entry: kernel name} of the round: a name, or for a name the trials launched
    as two to MAX_ASKED kernels (`identities`: two classes' `fix`, one `def` launched under two
    sets of constexprs), each of them alone by its identity, and the name as one group too: what
    counts a decoy for coverage is a name (a padding kernel launched under two sets of
    constexprs, or autotuned over two configs, was two identities each unneeded and no decoy:
    rt23b_autotuned_decoy, s68A)."""
    entries: dict[str, str] = {}
    for name in names:
        ids = identities.get(name)
        if isinstance(ids, list) and 1 < len(ids) <= MAX_ASKED:
            entries.update({str(i): name for i in ids if str(i) != name})
        entries[name] = name
    return entries


def keys(launches: list) -> list[str | tuple[str, str]]:
    """Each launch's kernel as the dry model's per-kernel rules key it (dry_phase
    `_updated_short`, `_overwritten_short`): its qualified name; and where one forward launches
    two or more identities of one qualified name (a `def` launched with two sets of constexprs,
    a factory's two kernels), also `qualname~k`, k counting them in the order of their first
    launch. The qualified name keeps what one `def` does in all (a main grid and a tail launch
    of another BLOCK are whole together); `~k` judges each alone (a capped max(y, 0) diluted by
    a full-grid pass of the same `def`: red team s67f). The order, not the digest, pairs them
    between the CPU's sizes and the declared ones: a constexpr picked from the shape (a BLOCK)
    changes the digest, not the kernel."""
    seen: dict[str, list[str]] = {}
    made = [(launch.qualname, launch.identity) for launch in launches]
    for qual, ident in made:
        if ident not in seen.setdefault(qual, []):
            seen[qual].append(ident)
    return [qual if len(seen[qual]) < 2 else (qual, f"{qual}~{seen[qual].index(ident)}") for qual, ident in made]
