"""Config base: pydantic sections, YAML loading, dotted command-line overrides.

Every section subclasses `Section`: unknown keys are errors, and each field's
docstring (the string literal under it) becomes its description, which is the
help text `krl config explain` prints. Durations end in `_s`, sizes in `_bytes`.

`load(path, overrides, model)` reads YAML, applies `a.b.c=value` overrides (the
value parsed as YAML, so `1e-6`, `true`, `[1, 2]` mean what they look like) and
validates. A bad value raises `ConfigError` naming the file, the dotted field and
what was expected; that message is what a user sees. Keys a model lists as moved
(`MOVED_KEYS`, common/config/moved.py) are carried to their new place first, the file's
before the overrides are applied, so an override under either name wins over the file.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any, TypeVar

import yaml
from pydantic import BaseModel, ConfigDict, ValidationError

from common.config.moved import carry_moved, moved_key

T = TypeVar("T", bound=BaseModel)


class Section(BaseModel):
    """Base of every config section: strict keys, docstrings as descriptions."""

    model_config = ConfigDict(
        extra="forbid",
        use_attribute_docstrings=True,
        validate_assignment=True,
        validate_default=True,
    )


class ConfigError(ValueError):
    """A config file or override is unreadable or invalid; the message says where and why."""


def _set_dotted(tree: dict, dotted: str, value: Any, source: str) -> None:
    keys = dotted.split(".")
    if not all(keys):
        raise ConfigError(f"{source}: override key {dotted!r} has an empty part")
    node = tree
    for key in keys[:-1]:
        child = node.setdefault(key, {})
        if not isinstance(child, dict):
            raise ConfigError(f"{source}: cannot set {dotted!r}: {key!r} is not a section")
        node = child
    node[keys[-1]] = value


def parse_overrides(overrides: list[str]) -> list[tuple[str, Any]]:
    """Turn ["learner.lr=1e-6", ...] into [("learner.lr", 1e-6), ...]."""
    parsed = []
    for item in overrides:
        key, sep, raw = item.partition("=")
        if not sep or not key.strip():
            raise ConfigError(f"override {item!r}: expected KEY=VALUE, e.g. learner.lr=1e-6")
        try:
            value = yaml.safe_load(raw) if raw.strip() else ""
        except yaml.YAMLError as exc:
            raise ConfigError(f"override {item!r}: value is not valid YAML: {exc}") from None
        parsed.append((key.strip(), value))
    return parsed


def _format_validation_error(exc: ValidationError, source: str, model: type[BaseModel]) -> str:
    lines = [f"{source}: invalid {model.__name__} ({exc.error_count()} problem(s))"]
    for err in exc.errors(include_url=False):
        field = ".".join(str(p) for p in err["loc"]) or "<root>"
        given = err.get("input")
        given_s = "" if isinstance(given, dict) else f" (got {given!r:.80})"
        if not err["loc"] and err["type"] == "value_error":  # a model's own check names its fields
            lines.append(f"  {err['msg'].removeprefix('Value error, ')}")
        elif err["type"] == "extra_forbidden":
            lines.append(
                f"  {field}: unknown field; check the spelling against `krl config explain`"
            )
        else:
            lines.append(f"  {field}: {err['msg']}{given_s}")
    return "\n".join(lines)


def read_yaml(path: str | os.PathLike) -> dict:
    """Read a YAML mapping; an empty file is an empty mapping."""
    p = Path(path)
    try:
        text = p.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise ConfigError(f"{p}: config file not found") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise ConfigError(f"{p}: cannot read config file: {exc}") from None
    try:
        data = yaml.safe_load(text)
    except yaml.YAMLError as exc:
        raise ConfigError(f"{p}: not valid YAML: {exc}") from None
    if data is None:
        return {}
    if not isinstance(data, dict):
        raise ConfigError(f"{p}: expected a mapping at the top level, got {type(data).__name__}")
    return data


def load(path: str | os.PathLike | None, overrides: list[str] | None, model: type[T]) -> T:
    """Load `model` from a YAML file (or defaults when path is None) plus overrides."""
    tree = read_yaml(path) if path is not None else {}
    source = str(path) if path is not None else "<defaults>"
    moved = getattr(model, "MOVED_KEYS", {})
    pairs = parse_overrides(overrides or [])
    try:
        tree = carry_moved(tree, moved, source)
    except ValueError as exc:
        raise ConfigError(f"{source}: {exc}") from None
    for key, value in pairs:
        _set_dotted(tree, moved_key(key, moved), value, source)
    if pairs:
        source += " + overrides"
    try:
        return model.model_validate(tree, context={"source": source})
    except ValidationError as exc:
        raise ConfigError(_format_validation_error(exc, source, model)) from None


def dump(cfg: BaseModel) -> str:
    """The resolved config as YAML, as written into a run directory."""
    return yaml.safe_dump(cfg.model_dump(mode="json"), sort_keys=False)


def explain(model: type[BaseModel], prefix: str = "") -> list[str]:
    """One line per leaf field: dotted name, type, default, description."""
    lines = []
    for name, field in model.model_fields.items():
        dotted = f"{prefix}{name}"
        ann = field.annotation
        if isinstance(ann, type) and issubclass(ann, BaseModel):
            lines.extend(explain(ann, dotted + "."))
            continue
        type_s = getattr(ann, "__name__", None) or str(ann).replace("typing.", "")
        default = field.get_default(call_default_factory=True)
        lines.append(f"{dotted} ({type_s}, default {default!r}): {field.description or ''}")
    return lines
