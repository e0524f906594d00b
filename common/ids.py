"""What the ids naming the hub's records may hold: group, lease, prompt and actor ids.

One limit for the wire (common/messages.py bounds these fields with it), the hub's checks
(learner/hub.py), the group store (learner/group_store.py) and the config (actor.actor_id):
an id the wire carries is always one the hub can store. A group id names its file in the
store (`<group_id>.grp`, and a file name holds at most 255 bytes), so it is not empty and
holds only [A-Za-z0-9_-]; the others are keys and log fields, and an actor id may hold a
host name, so they may also hold `.`, `:` and `@`. Light on purpose: the config layer
imports it.
"""

from __future__ import annotations

MAX_ID_CHARS = 128
FILE_ID_CHARS = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_")
KEY_ID_CHARS = FILE_ID_CHARS | frozenset(".:@")
KEY_ID_PATTERN = r"^[A-Za-z0-9_.:@-]*$"  # KEY_ID_CHARS, for pydantic


def id_error(name: str, value: str, names_a_file: bool = False) -> str:
    """Why `value` cannot be the id `name` ("" if it can)."""
    if len(value) > MAX_ID_CHARS or (names_a_file and not value):
        return f"{name} has {len(value)} characters (1..{MAX_ID_CHARS} allowed)"
    allowed, shown = (
        (FILE_ID_CHARS, "[A-Za-z0-9_-]") if names_a_file else (KEY_ID_CHARS, "[A-Za-z0-9_.:@-]")
    )
    if not set(value) <= allowed:
        return f"{name} {value[:40]!r} has characters outside {shown}"
    return ""
