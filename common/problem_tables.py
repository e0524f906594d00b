"""Readers for problem tables: JSONL and Parquet rows, and code cells turned into sources.

Public problem tables put the reference program in different places: a plain code
column (`python_code` in KernelBook, `original_python_code` in the Dr. Kernel
cold-start set), a nested field (`reward_model.ground_truth` in the Dr. Kernel RL
and validation sets, whose `extra_info` struct holds the row's id), or a chat prompt
with the program in a fenced block. Columns here are named with dots for nested fields. This
module only reads; `common.problemset` decides which candidate text is a valid problem and
turns failures into `ProblemError`.

pyarrow is imported only when a Parquet file is read, so JSONL works without it;
a missing pyarrow surfaces as ImportError.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

_FENCE = re.compile(r"```[ \t]*(?:python|py|python3)?[^\n]*\n(.*?)```", re.DOTALL | re.IGNORECASE)
_SAMPLE_ROWS = 1000  # JSONL rows scanned to learn the column names
_PARQUET_BATCH = 256

Row = dict[str, Any] | str  # a row's requested columns, or why the row could not be read


def _flat_keys(obj: dict) -> list[str]:
    keys = []
    for key, value in obj.items():
        keys.append(str(key))
        if isinstance(value, dict):
            keys.extend(f"{key}.{sub}" for sub in value)
    return keys


def lookup(row: dict, column: str) -> Any:
    """`row[column]`, where "a.b" reaches into a nested object; None when absent."""
    if column in row:
        return row[column]
    node: Any = row
    for part in column.split("."):
        if not isinstance(node, dict) or part not in node:
            return None
        node = node[part]
    return node


def table_columns(path: Path) -> list[str]:
    """Column names of a .jsonl or .parquet table, nested fields as "parent.child"."""
    if path.suffix == ".parquet":
        import pyarrow as pa
        import pyarrow.parquet as pq

        names = []
        for fld in pq.read_schema(path):
            names.append(fld.name)
            if pa.types.is_struct(fld.type):
                names.extend(
                    f"{fld.name}.{fld.type.field(i).name}" for i in range(fld.type.num_fields)
                )
        return names
    seen: dict[str, None] = {}
    for _, row in _iter_jsonl(path, limit=_SAMPLE_ROWS):
        if isinstance(row, dict):
            seen.update(dict.fromkeys(_flat_keys(row)))
    return list(seen)


def _iter_jsonl(path: Path, limit: int | None = None) -> Iterator[tuple[int, dict | str]]:
    index = 0
    with path.open("rb") as handle:
        for raw in handle:
            if not raw.strip():
                continue
            if limit is not None and index >= limit:
                return
            try:
                obj = json.loads(raw.decode("utf-8"))
            except UnicodeDecodeError:
                obj = "line is not UTF-8"
            except json.JSONDecodeError as exc:
                obj = f"invalid JSON: {exc.msg} at column {exc.colno}"
            if not isinstance(obj, (dict, str)):
                obj = f"a JSON {type(obj).__name__}, not an object"
            yield index, obj
            index += 1


def iter_table_rows(path: Path, columns: list[str]) -> Iterator[tuple[int, Row]]:
    """(row index, {column: value}) for every row, or (row index, reason) for unreadable rows."""
    if path.suffix == ".parquet":
        import pyarrow.parquet as pq

        top = sorted({c.split(".")[0] for c in columns})
        index = 0
        for batch in pq.ParquetFile(path).iter_batches(batch_size=_PARQUET_BATCH, columns=top):
            for row in batch.to_pylist():
                yield index, {c: lookup(row, c) for c in columns}
                index += 1
        return
    for index, row in _iter_jsonl(path):
        yield index, row if isinstance(row, str) else {c: lookup(row, c) for c in columns}


def _cell_text(value: Any) -> str:
    if isinstance(value, str):
        return value
    if isinstance(value, bytes):
        try:
            return value.decode("utf-8")
        except UnicodeDecodeError:
            raise ValueError("the code cell is not UTF-8 text") from None
    if isinstance(value, dict) and "content" in value:
        return _cell_text(value["content"])
    if isinstance(value, (list, tuple)):  # chat messages: the user's turns hold the program
        users = [m for m in value if isinstance(m, dict) and m.get("role") == "user"]
        return "\n\n".join(_cell_text(m) for m in (users or value))
    if value is None:
        raise ValueError("the code cell is empty")
    raise ValueError(f"the code cell holds a {type(value).__name__}, not text")


def candidate_sources(value: Any) -> list[str]:
    """Texts that may be the problem program: the whole cell, then each fenced code block."""
    text = _cell_text(value)
    if not text.strip():
        raise ValueError("the code cell is empty")
    return [text] + [block for block in _FENCE.findall(text) if block.strip()]


_ADAPTER = """

# --- added by krl: this table names `{entry}` as the model; bind its init arguments ---
_krl_init = get_init_inputs()
if (isinstance(_krl_init, (list, tuple)) and len(_krl_init) == 2
        and isinstance(_krl_init[0], (list, tuple)) and isinstance(_krl_init[1], dict)):
    _krl_args, _krl_kwargs = list(_krl_init[0]), dict(_krl_init[1])
else:
    _krl_args, _krl_kwargs = list(_krl_init), {{}}


class Model({entry}):
    def __init__(self):
        super().__init__(*_krl_args, **_krl_kwargs)


def get_init_inputs():
    return []
"""


def adapt_entry_point(source: str, entry_point: Any) -> str | None:
    """KernelBook-style source whose model class is `entry_point`, not `Model`: add a `Model`.

    KernelBook's `get_init_inputs()` returns `[args, kwargs]`; the added `Model` binds
    them so the program follows KernelBench's convention. None when not applicable.
    """
    if not isinstance(entry_point, str) or not entry_point.isidentifier() or entry_point == "Model":
        return None
    if not re.search(rf"^class {re.escape(entry_point)}\b", source, re.MULTILINE):
        return None
    return source.rstrip() + _ADAPTER.format(entry=entry_point)
