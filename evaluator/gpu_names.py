"""The names the GPU image's libraries have, as the static checks hold a CPU check to them.

The CPU check runs torch, Triton and Python of its own machine (torch 2.13, Triton 3.9, Python
3.11 here); the GPU the evaluator times on runs the image's (torch 2.11, Triton 3.6, Python
3.12: evaluator/h200.json's versions). A name one has and the other lacks was a switch: a
forward asking `hasattr(tl, "name")` or `getattr(x, "method", None)` took one arm where the CPU
checked it and the other where the GPU ran it (open since session 46: "software differences").
scripts/record_gpu_image.py records, on the GPU, every name of each namespace the allowlist
walks (`namespaces`) and every attribute of each library class it lists (`classes`) in
evaluator/h200_names.json. The static checks then:

  namespaces  list only names both libraries have: a name the image lacks is a compile error
              there, so it is one here too (`lacks`), whatever this machine has;
  probes      refuse `hasattr(x, "name")` and `getattr(x, "name", default)` on a name whose
              presence differs on some listed class between this process's libraries and the
              image (`probe_differs`): the static checks cannot tell which class x is, and the
              answer would differ on one of them.

Without the recording (a checkout that has not got it) nothing is narrowed.
"""
from __future__ import annotations

import enum
import functools
import importlib
import inspect
import json
from pathlib import Path

PATH = Path(__file__).with_name("h200_names.json")


@functools.cache
def recorded() -> dict | None:
    """The recording, or None where this checkout has none."""
    try:
        return json.loads(PATH.read_text())
    except FileNotFoundError:  # deliberate: no recording, nothing narrowed
        return None


def namespace(name: str) -> frozenset[str] | None:
    """Every attribute name the image's `name` (a module or an attribute chain) has, or None
    where the image did not record it."""
    image = recorded()
    names = None if image is None else image["namespaces"].get(name)
    return None if names is None else frozenset(names)


def lacks(name: str) -> bool:
    """Whether the image lacks the dotted name: some recorded prefix of it does not have the
    next part."""
    parts = name.split(".")
    for i in range(len(parts) - 1, 0, -1):
        names = namespace(".".join(parts[:i]))
        if names is not None:
            # a private name is the allowlist's to refuse, and a submodule the image never
            # imported is in no dir() of it (torch._inductor): neither is judged by the list
            if parts[i] in names or parts[i].startswith("_") or _submodule(".".join(parts[:i + 1])):
                return False
            return True
    return False


def has(name: str) -> bool:
    """Whether the image has the dotted name, as recorded: a namespace of its own, or listed in
    its parent's (an attribute, or a submodule the image had imported). False where nothing
    was recorded for the parent (the image's answer is then unknown, not a difference)."""
    image = recorded()
    if image is None:
        return False
    if name in image["namespaces"]:
        return True
    parent, _, last = name.rpartition(".")
    names = namespace(parent) if parent else None
    return names is not None and last in names


@functools.lru_cache(maxsize=1024)
def _submodule(name: str) -> bool:
    import importlib.util

    try:
        return importlib.util.find_spec(name) is not None
    except (ImportError, ValueError):  # deliberate: no package there, so no submodule
        return False


def versions() -> str:
    """The image's library versions, for a message."""
    image = recorded() or {}
    v = image.get("versions", {})
    return f"torch {v.get('torch', '?')}, Triton {v.get('triton', '?')}, Python {v.get('python', '?')}"


def class_dirs(image: dict) -> dict[str, frozenset[str]]:
    """The recording's classes, each as the full set of its attribute names (a class is stored
    as its base's set plus and minus a few)."""
    entries = image.get("classes", {})
    done: dict[str, frozenset[str]] = {}

    def full(name: str) -> frozenset[str]:
        if name not in done:
            entry = entries[name]
            if "dir" in entry:
                done[name] = frozenset(entry["dir"])
            else:
                done[name] = (full(entry["base"]) | set(entry["plus"])) - set(entry["minus"])
        return done[name]

    for name in entries:
        full(name)
    return done


def compress(dirs: dict[str, tuple[type, set[str]]]) -> dict[str, dict]:
    """`class_dirs`'s inverse, for the recorder: each class as the nearest recorded class in
    its MRO plus and minus, or whole where it has none."""
    by_class = {cls: name for name, (cls, _) in dirs.items()}
    out: dict[str, dict] = {}
    for name, (cls, names) in sorted(dirs.items()):
        base = next((by_class[b] for b in cls.__mro__[1:] if b in by_class), None)
        if base is None:
            out[name] = {"dir": sorted(names)}
        else:
            have = dirs[base][1]
            out[name] = {"base": base, "plus": sorted(names - have), "minus": sorted(have - names)}
    return out


def library_class(name: str) -> type | None:
    """The class a dotted name gives in this process (read statically: no property runs)."""
    obj = library_object(name, load=True)
    return obj if inspect.isclass(obj) else None


def library_object(name: str, load: bool = False) -> object:
    """What a dotted name gives in this process, read statically (no property runs) from its
    longest prefix that is a module this process has imported (or, with `load`, can import);
    None where it names nothing."""
    import sys

    parts = name.split(".")
    for i in range(len(parts), 0, -1):
        module = ".".join(parts[:i])
        obj = sys.modules.get(module)
        if obj is None and load:
            try:
                obj = importlib.import_module(module)
            except ImportError:
                continue
        if obj is None:
            continue
        for part in parts[i:]:
            obj = inspect.getattr_static(obj, part, None)
        return obj
    return None


def attributes(cls: type) -> set[str]:
    """What `hasattr` finds on the class's values, as far as its class tells: its attribute
    names and, for an enum, a member's (`name`, `value`, which a pybind11 enum lists on the
    class and Python's Enum on its members only)."""
    names = {a for a in dir(cls) if not a.startswith("__")}
    if isinstance(cls, enum.EnumMeta):
        member = next(iter(cls), None)  # type: ignore[call-overload]
        if member is not None:
            names |= {a for a in dir(member) if not a.startswith("__")}
    return names


@functools.cache
def probe_differs() -> frozenset[str]:
    """Attribute names that some listed class has in this process and lacks in the image, or
    the other way round."""
    image = recorded()
    if image is None:
        return frozenset()
    found: set[str] = set()
    for name, gpu in class_dirs(image).items():
        cls = library_class(name)
        if cls is not None:
            found |= gpu ^ attributes(cls)
    return frozenset(found)
