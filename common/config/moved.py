"""Config keys that moved, and how a config written before the move still loads.

A value one role owns lives in that role's section (`learner.n_samples`: the hub puts it in
every lease); a value two roles must agree on is set once at the top of RunConfig, so no
role reads another role's section: a shared section both read (`hub_link`: the learner
binds its endpoints, every actor connects to them), or a shared value RunConfig copies
into each role's section (`temperature`, RUN_SHARED), because each role's code takes its
own section whole. A config file, an override or an old run directory's config.yaml that
still uses an old key loads: the value is carried to its new key with a
ConfigDeprecationWarning naming both. A config that gives one fact two different values
is refused naming both keys, since nothing says which one the roles should follow.
"""

from __future__ import annotations

import copy
import warnings
from typing import Any

RUN_MOVED: dict[str, str] = {
    "actor.n_samples": "learner.n_samples",
    "actor.max_turns": "learner.max_turns",
    "learner.hub.endpoint": "hub_link.endpoint",
    "learner.hub.publish_endpoint": "hub_link.publish_endpoint",
    "learner.hub.relay_fanout": "hub_link.relay_fanout",
    "learner.hub.relay_timeout_s": "hub_link.relay_timeout_s",
}
"""RunConfig's old dotted keys -> their new ones (RunConfig.MOVED_KEYS)."""

RUN_SHARED: dict[str, tuple[tuple[str, ...], str]] = {
    "temperature": (
        ("actor.sampling.temperature", "learner.trainer.temperature"),
        "the learner divides the logits by its own, so at another temperature its "
        "logprobs are not the ones the actor sampled with and mismatch rejection "
        "sampling drops nearly every trajectory",
    ),
    "speedup_cap": (
        ("evaluator.reward.speedup_cap", "learner.algorithm.hierarchical.speedup_cap"),
        "the learner's plan signal and the evaluator's reward would cap speed differently",
    ),
}
"""A value two roles must agree on -> (its copies in the roles' sections, why they must
agree). RunConfig fills the copies from the value; a config may still set a copy (as
configs written before did, and as every resolved config.yaml does) if it agrees."""

_MISSING = object()


class ConfigDeprecationWarning(UserWarning):
    """A config used a key that moved; shown by default (unlike DeprecationWarning)."""


def _warn(old: str, new: str, source: str) -> None:
    warnings.warn_explicit(
        f"{old} is deprecated: it moved to {new}; the value is used from there (rename the key)",
        ConfigDeprecationWarning,
        filename=source,
        lineno=0,
    )


def _get(tree: dict, dotted: str) -> Any:
    node: Any = tree
    for key in dotted.split("."):
        if not isinstance(node, dict) or key not in node:
            return _MISSING
        node = node[key]
    return node


def _pop(tree: dict, dotted: str) -> Any:
    *parents, last = dotted.split(".")
    node = _get(tree, ".".join(parents)) if parents else tree
    if not isinstance(node, dict) or last not in node:
        return _MISSING
    return node.pop(last)


def _put(tree: dict, dotted: str, value: Any) -> None:
    *parents, last = dotted.split(".")
    node = tree
    for key in parents:
        child = node.get(key)
        if child is None:
            child = node[key] = {}
        if not isinstance(child, dict):  # not a section: validation says so
            return
        node = child
    node[last] = value


def carry_moved(tree: dict, moved: dict[str, str], source: str = "<config>") -> dict:
    """`tree` (a parsed config, left untouched) with every old key of `moved` at its new
    place. Raises ValueError when an old key and its new one hold different values."""
    if not any(_get(tree, old) is not _MISSING for old in moved):
        return tree
    tree = copy.deepcopy(tree)
    for old, new in moved.items():
        value = _pop(tree, old)
        if value is _MISSING:
            continue
        current = _get(tree, new)
        if current is not _MISSING and current != value:
            raise ValueError(
                f"{old} ({value!r}) and {new} ({current!r}) are both set: {old} "
                f"moved to {new}; remove {old}"
            )
        _warn(old, new, source)
        _put(tree, new, value)
    return tree


def moved_key(dotted: str, moved: dict[str, str], source: str = "<overrides>") -> str:
    """The current name of an override's key (an old one warns)."""
    new = moved.get(dotted)
    if new is None:
        return dotted
    _warn(dotted, new, source)
    return new


def settle_shared(
    tree: dict, shared: dict[str, tuple[tuple[str, ...], str]], source: str = "<config>"
) -> dict:
    """`tree` (left untouched) with each shared value set where copies of it were given and
    it was not (warned). Raises ValueError naming both keys when a given copy differs from
    the given value, or, the value not given, from another given copy."""
    out = tree
    for key, (copies, why) in shared.items():
        given = {c: v for c in copies if (v := _get(tree, c)) is not _MISSING}
        value = _get(tree, key)
        first = next(iter(given), None)
        ref_key, ref = (key, value) if value is not _MISSING else (first, given.get(first))
        for copy_key, v in given.items():
            if v != ref:
                raise ValueError(
                    f"{ref_key} ({ref!r}) differs from {copy_key} ({v!r}): {why}; "
                    f"set {key} once instead"
                )
        if value is _MISSING and given:
            for copy_key in given:
                warnings.warn_explicit(
                    f"{copy_key} is deprecated: `{key}` sets it for every "
                    "role; the value is used from there (rename the key)",
                    ConfigDeprecationWarning,
                    filename=source,
                    lineno=0,
                )
            out = copy.deepcopy(out) if out is tree else out
            _put(out, key, ref)
    return out
