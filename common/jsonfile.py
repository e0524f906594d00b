"""Small JSON state files that other processes read while they change (progress.json,
summary.json, supervisor.json, bootstrap/done.json): written whole or not at all, and
read as {} while missing or unreadable. `load_json_state` is for state a process cannot
run without (a checkpoint's hub.json): an unreadable one raises an error naming the file.
`disk_error` is how every writer reports an OSError: which path, and "disk full"."""

from __future__ import annotations

import errno
import json
import os
from pathlib import Path


def write_json_atomic(path: Path, data: dict, indent: int | None = None) -> None:
    """Write `data` to a temporary file beside `path` and rename it over `path`, so a
    reader sees the old content or the new, never half of it."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(path.name + ".tmp")
    try:
        tmp.write_text(json.dumps(data, indent=indent))
        os.replace(tmp, path)
    except OSError as exc:
        tmp.unlink(missing_ok=True)
        raise disk_error(exc, path) from exc


def write_json_in_place(path: Path, data: dict) -> None:
    """Overwrite `path` in place, reusing its blocks: on a full disk a file that already
    holds at least as many bytes can still be rewritten (no temporary file, so a reader
    may see it half-written; for a last word only)."""
    blob = json.dumps(data, indent=2).encode()
    fd = os.open(path, os.O_WRONLY | os.O_CREAT, 0o644)
    try:
        os.pwrite(fd, blob, 0)
        os.ftruncate(fd, len(blob))
    finally:
        os.close(fd)


class StateFileError(ValueError):
    """A state file the process needs cannot be read; the message names it."""


def load_json_state(path: Path) -> dict:
    """The JSON object in `path`; StateFileError naming the file and what is wrong."""
    try:
        data = json.loads(Path(path).read_text())
    except OSError as exc:
        raise StateFileError(f"{path}: cannot be read: {exc.strerror or exc}") from exc
    except ValueError as exc:
        raise StateFileError(f"{path}: damaged (not valid JSON: {exc})") from exc
    if not isinstance(data, dict):
        raise StateFileError(f"{path}: damaged (a JSON {type(data).__name__}, not an object)")
    return data


def read_json_checked(path: Path) -> tuple[dict, str | None]:
    """(the JSON object in `path`, None); ({}, None) while it is missing; ({}, why, naming
    the file) when it is there but cannot be read or is damaged: for a record whose loss
    must be said (learner/recovery.json, bootstrap/done.json), not read as empty."""
    if not Path(path).exists():
        return {}, None
    try:
        return load_json_state(path), None
    except StateFileError as exc:
        return {}, str(exc)


def disk_error(exc: OSError, path: Path) -> OSError:
    """The same OSError, saying which path it was and, for ENOSPC/EDQUOT, that the disk is
    full (a bare "basic_ios::clear" or errno helps nobody find the full disk)."""
    if exc.errno in (errno.ENOSPC, errno.EDQUOT):
        what = "disk full (no space left on device)"
    else:
        what = exc.strerror or str(exc)
    return OSError(exc.errno, f"cannot write {path}: {what}")


def read_json(path: Path) -> dict:
    """The JSON object in `path`, or {} while it is missing or not valid JSON."""
    try:
        return json.loads(Path(path).read_text())
    except (OSError, ValueError):
        return {}
