"""A kernel's identity beside its name: its Python function's qualified name.

The knock-out round (evaluator.knockout_round) and the dry launch model (evaluator.dry_launch)
named kernels by `__name__`, so two namespace classes' `fix` (`Main.fix`, `Spare.fix`) were one
kernel to both: the round could not knock either out alone, counted the name a decoy unasked
(gates.shared_names), and the dry model stored nothing for it, so a capped in-place ReLU named
twice kept an ok (red team s65e, ok at 1.0008). A qualified name tells them apart wherever
they are defined in different classes or functions; it is what Python itself says of the
definition, not a name the call site chose. Two kernels one factory function made from one
`def` share it (one source, told apart only by what it closed over): those stay one group.
"""
from __future__ import annotations


def qualname(kernel: object) -> str:
    """The qualified name of the function under `kernel`'s wrappers (an Autotuner's or
    Heuristics' `fn` down to the JITFunction's own Python function)."""
    fn = kernel
    for _ in range(8):  # wrappers nest a few deep at most
        inner = getattr(fn, "fn", None)
        if inner is None or inner is fn:
            break
        fn = inner
    return str(getattr(fn, "__qualname__", None) or getattr(fn, "__name__", "?"))


def shared(seen: dict, module: str) -> dict[str, list[str]]:
    """{name: its qualified names} of `module`'s kernels launched under two or more of them
    (`seen`: the launch recorder's (module, name) -> qualified names)."""
    return {name: sorted(quals) for (m, name), quals in seen.items() if m == module and len(quals) > 1}


def asked(names: list[str], shared_names: list[str], identities: dict) -> dict[str, str]:
    """{knock-out entry: kernel name} of the round: a name, or for a name the file defines
    twice, each of its launched kernels' qualified names (`identities`, from the trials),
    else the name itself, knocked out as one group."""
    entries: dict[str, str] = {}
    for name in names:
        quals = identities.get(name) if name in shared_names else None
        if isinstance(quals, list) and len(quals) > 1:
            entries.update({str(q): name for q in quals if str(q) != name})
        else:
            entries[name] = name
    return entries
