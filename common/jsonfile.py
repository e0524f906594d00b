"""Small JSON state files that other processes read while they change (progress.json,
summary.json, supervisor.json, bootstrap/done.json): written whole or not at all, and
read as {} while missing or unreadable."""
from __future__ import annotations

import json
import os
from pathlib import Path


def write_json_atomic(path: Path, data: dict, indent: int | None = None) -> None:
    """Write `data` to a temporary file beside `path` and rename it over `path`, so a
    reader sees the old content or the new, never half of it."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(path.name + ".tmp")
    tmp.write_text(json.dumps(data, indent=indent))
    os.replace(tmp, path)


def read_json(path: Path) -> dict:
    """The JSON object in `path`, or {} while it is missing or not valid JSON."""
    try:
        return json.loads(Path(path).read_text())
    except (OSError, ValueError):
        return {}
