"""Problems: KernelBench-format reference programs and where they come from.

A problem is the Python source of a PyTorch program in KernelBench format
(`class Model(nn.Module)`, `get_inputs()`, `get_init_inputs()`), plus the size
constants to use per device, an optional reference Triton solution and optional
tolerance overrides. The evaluator executes `source` in its sandbox, overrides
the module globals in `sizes[device]` (KernelBench functions read globals such as
`batch_size` when called, so one file serves a small CPU size and a realistic GPU
size), and only then calls `get_init_inputs()` / `get_inputs()`.

`load_problems(path)` reads any of:
- one `.py` file (name: the file stem; in a `levelN/` folder `levelN/<stem>`, sized by
  the manifest beside `levelN/` as below) with `NAME.solution.py` beside it as its solution;
- a directory of them, recursively and sorted (name: the path relative to the
  directory without `.py`, e.g. `ops/relu`); a `manifest.json` there gives
  family, sizes, tolerance and tags per name (the built-in set is such a directory);
- a KernelBench checkout, its `KernelBench/` folder (the one holding `level1/`,
  `level2/`, ...) or one `levelN/` folder: only `levelN/*.py`, in problem-number order,
  named `level1/19_ReLU`, family `level1`; sizes are the file's own (KernelBench's real,
  GPU sizes) unless a `manifest.json` beside `level1/` gives others (e.g. for the CPU);
- a `.jsonl` or `.parquet` table with a code column (name: `<table stem>/<row id>`),
  including the Dr. Kernel RL layout (`reward_model.ground_truth`, `extra_info`);
- `builtin` (the problems shipped with krl).
Any source may be followed by `:` and a comma-separated selection of groups (the part
of a name before its first `/`) and problem names: `builtin:norm,activation/relu`,
`/data/KernelBench:level1,level2`, `/data/KernelBench:level2/1_Conv2D_ReLU_BiasAdd`.
A malformed file in a directory or row in a table is skipped with a warning, never
fatal: `load_problems` returns a `ProblemSet` (a list) whose `skipped` attribute
lists `(origin, reason)` for each one. A single malformed file, or a source with no
valid problem at all, raises `ProblemError` naming the file and what is wrong.
"""

from __future__ import annotations

import difflib
import functools
import hashlib
import json
import logging
import re
import types
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from common.problem_sizes import apply_sizes, declared_sizes  # noqa: F401  (re-exported)
from common.problem_source import (  # noqa: F401  (re-exported)
    MAX_SOURCE_BYTES,
    ProblemError,
    UnknownProblemError,
    read_source_file,
    validate_problem_source,
)
from common.problem_tables import (
    adapt_entry_point,
    candidate_sources,
    iter_table_rows,
    table_columns,
)

if TYPE_CHECKING:  # the wire types; imported where used, to keep this module light
    from common.messages import ProblemPayload

log = logging.getLogger(__name__)

# The built-in set is data shipped beside the evaluator package (and installed with it).
BUILTIN_DIR = Path(__file__).resolve().parents[1] / "evaluator" / "problems" / "builtin"
SOLUTION_SUFFIX = ".solution.py"
_WARN_LIMIT = 5  # skipped rows logged one by one before only the total is reported


def _frozen(value: Any) -> Any:
    if isinstance(value, Mapping):
        return types.MappingProxyType({str(k): _frozen(v) for k, v in value.items()})
    if isinstance(value, list):
        return tuple(_frozen(v) for v in value)
    return value


def _plain(value: Any) -> Any:
    if isinstance(value, Mapping):
        return {k: _plain(v) for k, v in value.items()}
    if isinstance(value, tuple):
        return [_plain(v) for v in value]
    return value


@dataclass(frozen=True)
class Problem:
    """One KernelBench-format problem, immutable; `content_hash()` keys result caches."""

    name: str
    source: str
    family: str = "unknown"
    sizes: Mapping[str, Mapping[str, Any]] = field(default_factory=dict)
    """"cpu" / "cuda" -> module globals to override after exec'ing `source`."""
    solution: str | None = None
    """A reference Triton `ModelNew` source known to be correct, when there is one."""
    tolerance: Mapping[str, float] = field(default_factory=dict)
    """Per-problem overrides of the comparison tolerance: "atol" and/or "rtol"."""
    tags: tuple[str, ...] = ()
    """Free-form labels, e.g. "tiny_output" (true output near zero) or "integer_output"."""
    distributions: tuple[str, ...] | None = None
    """Extra correctness trials for this problem, replacing the evaluator's
    `correctness.distributions`; None keeps those. For problems where a transform makes
    the true answer ill-conditioned (attention with inputs x1e3: logits x1e6, so fp32
    rounding alone decides a near-argmax softmax) and no tolerance would be meaningful."""

    def __post_init__(self) -> None:
        object.__setattr__(self, "sizes", _frozen(self.sizes))
        object.__setattr__(self, "tolerance", _frozen(self.tolerance))
        object.__setattr__(self, "tags", tuple(self.tags))
        if self.distributions is not None:
            object.__setattr__(self, "distributions", tuple(self.distributions))

    def content_hash(self) -> str:
        """sha256 over name, source, sizes, tolerance and distributions (canonical JSON):
        a cache key."""
        blob = json.dumps(
            {
                "name": self.name,
                "source": self.source,
                "sizes": _plain(self.sizes),
                "tolerance": _plain(self.tolerance),
                **(
                    {"distributions": list(self.distributions)}
                    if self.distributions is not None
                    else {}
                ),
            },
            sort_keys=True,
            separators=(",", ":"),
            ensure_ascii=False,
            default=repr,
        )
        return hashlib.sha256(blob.encode("utf-8")).hexdigest()

    def __hash__(self) -> int:
        return hash(self.content_hash())

    def sizes_for(self, device: str) -> dict[str, Any]:
        """The global overrides for `device` ("cpu" or "cuda"); empty means the file's own."""
        return _plain(self.sizes.get(device, {}))


class ProblemSet(list):
    """A list of problems plus `skipped`: (origin, reason) for every malformed entry."""

    def __init__(self, problems: Iterable[Problem] = (), skipped: Iterable[tuple[str, str]] = ()):
        super().__init__(problems)
        self.skipped: list[tuple[str, str]] = list(skipped)


def exec_problem_source(problem: Problem, device: str) -> types.ModuleType:
    """Execute `problem.source` as a fresh module and apply its `device` sizes.

    Runs the reference code in this process: call it inside the sandbox only.
    """
    module = types.ModuleType(f"krl_problem_{problem.content_hash()[:12]}")
    module.__file__ = f"<problem {problem.name}>"
    exec(compile(problem.source, module.__file__, "exec"), module.__dict__)  # noqa: S102
    apply_sizes(module.__dict__, problem.source, problem.sizes_for(device))
    return module


# ----------------------------------------------------------------------------- files


def _load_manifest(directory: Path) -> dict[str, dict]:
    path = directory / "manifest.json"
    if not path.exists():
        return {}
    try:
        manifest = json.loads(read_source_file(path))
    except json.JSONDecodeError as exc:
        raise ProblemError(f"{path}: invalid JSON: {exc}") from None
    if not isinstance(manifest, dict) or not all(isinstance(v, dict) for v in manifest.values()):
        raise ProblemError(f"{path}: expected an object mapping problem name -> settings")
    return manifest


def _problem_from_file(path: Path, name: str, meta: Mapping[str, Any]) -> Problem:
    source = read_source_file(path)
    validate_problem_source(source, str(path))
    solution_path = path.with_name(path.stem + SOLUTION_SUFFIX)
    solution = read_source_file(solution_path) if solution_path.exists() else None
    tolerance = {k: float(meta[k]) for k in ("atol", "rtol") if k in meta}
    distributions = meta.get("distributions")
    if distributions is not None and not (
        isinstance(distributions, list) and all(isinstance(d, str) for d in distributions)
    ):
        raise ProblemError(
            f"{path}: manifest 'distributions' must be a list of strings, got {distributions!r}"
        )
    return Problem(
        name=name,
        source=source,
        family=str(meta.get("family", "unknown")),
        sizes=meta.get("sizes", {}),
        solution=solution,
        tolerance=tolerance,
        tags=tuple(meta.get("tags", ())),
        distributions=distributions,
    )


def _is_problem_file(path: Path) -> bool:
    return path.name != "__init__.py" and not path.name.endswith(SOLUTION_SUFFIX)


def _load_files(
    files: Iterable[tuple[Path, str, str]],
    manifest: Mapping[str, dict],
    limit: int | None,
    strict: bool = False,
) -> ProblemSet:
    """Problems from (path, name, default family) triples; a bad file is skipped unless strict."""
    result = ProblemSet()
    for path, name, family in files:
        if limit is not None and len(result) >= limit:
            break
        try:
            meta = {"family": family, **manifest.get(name, {})}
            result.append(_problem_from_file(path, name, meta))
        except ProblemError as exc:
            if strict:
                raise
            _skip(result, str(path), str(exc))
    return result


def _load_directory(directory: Path, limit: int | None, strict: bool = False) -> ProblemSet:
    layout = _kernelbench_layout(directory)
    if layout is not None:
        return _load_kernelbench(*layout, limit)
    files = (
        (path, path.relative_to(directory).with_suffix("").as_posix(), "unknown")
        for path in sorted(directory.rglob("*.py"))
        if _is_problem_file(path)
    )
    return _load_files(files, _load_manifest(directory), limit, strict)


# KernelBench (github.com/ScalingIntelligence/KernelBench) keeps its problems as
# KernelBench/level<N>/<id>_<Name>.py in its repository.
_LEVEL_DIR = re.compile(r"level(\d+)")
_PROBLEM_NUMBER = re.compile(r"(\d+)")


def _level_dirs(directory: Path) -> list[Path]:
    if not directory.is_dir():
        return []
    levels = [p for p in directory.iterdir() if p.is_dir() and _LEVEL_DIR.fullmatch(p.name)]
    return sorted(levels, key=lambda p: int(_LEVEL_DIR.fullmatch(p.name).group(1)))


def _kernelbench_layout(directory: Path) -> tuple[Path, list[Path]] | None:
    """(root, its levelN folders) when `directory` is a KernelBench checkout, its
    `KernelBench/` folder or one `levelN/` folder; None for any other directory."""
    if _level_dirs(directory / "KernelBench"):
        directory = directory / "KernelBench"
    levels = _level_dirs(directory)
    if levels:
        return directory, levels
    if _LEVEL_DIR.fullmatch(directory.name):
        return directory.parent, [directory]
    return None


def _single_file(path: Path) -> Problem:
    """One problem file. A file in a KernelBench `levelN/` folder is named and sized as its
    checkout would load it (`level2/76_Gemm_Add_ReLU`, the manifest beside `levelN/`), so
    the CPU sizes a user gave the checkout hold when one of its files is checked alone."""
    if _LEVEL_DIR.fullmatch(path.parent.name):
        name = f"{path.parent.name}/{path.stem}"
        meta = {"family": path.parent.name, **_load_manifest(path.parent.parent).get(name, {})}
        return _problem_from_file(path, name, meta)
    return _problem_from_file(path, path.stem, {})


def _problem_number(path: Path) -> tuple[int, str]:
    match = _PROBLEM_NUMBER.match(path.name)
    return (int(match.group(1)) if match else 1 << 30, path.name)


def _load_kernelbench(root: Path, levels: list[Path], limit: int | None) -> ProblemSet:
    """Every levelN/*.py in level and problem-number order, named `levelN/<stem>`."""
    files = (
        (path, f"{level.name}/{path.stem}", level.name)
        for level in levels
        for path in sorted(level.glob("*.py"), key=_problem_number)
        if _is_problem_file(path)
    )
    return _load_files(files, _load_manifest(root), limit)


def _skip(result: ProblemSet, origin: str, reason: str) -> None:
    result.skipped.append((origin, reason))
    if len(result.skipped) <= _WARN_LIMIT:
        log.warning("skipping %s: %s", origin, reason)


# ----------------------------------------------------------------------------- tables


def _load_table(
    path: Path, code_column: str | None, name_column: str | None, limit: int | None
) -> ProblemSet:
    try:
        columns = table_columns(path)
    except ImportError:
        raise ProblemError(f"{path}: install pyarrow to read parquet") from None
    except (ValueError, OSError) as exc:
        raise ProblemError(f"{path}: unreadable table: {exc}") from None
    if not columns:  # "cannot tell which column holds the code; columns are []" misleads
        raise ProblemError(
            f"{path}: holds no rows (the file is empty, or no line is a JSON object)"
        )
    code_col = _pick_column(path, columns, code_column, _CODE_COLUMNS, "code")
    name_col = _pick_column(path, columns, name_column, _NAME_COLUMNS, "name", required=False)
    number_col = _number_column(columns, name_col) if name_column is None else None
    entry_col = next((c for c in _ENTRY_COLUMNS if c in columns), None)
    wanted = [c for c in (code_col, name_col, number_col, entry_col) if c]
    result, seen = ProblemSet(), set()
    for index, row in iter_table_rows(path, wanted):
        if limit is not None and len(result) >= limit:
            break
        origin = f"{path}:row {index}"
        if isinstance(row, str):  # the reader could not decode this row
            _skip(result, origin, row)
            continue
        row_id = _row_id(row, index, name_col, number_col)
        name = f"{path.stem}/{row_id}"
        try:
            source = _row_source(row.get(code_col), row.get(entry_col), origin)
        except ProblemError as exc:
            _skip(result, origin, str(exc).removeprefix(origin + ": "))
            continue
        if name in seen:
            _skip(result, origin, f"duplicate id {row_id!r} in column {name_col!r}")
            continue
        seen.add(name)
        result.append(Problem(name=name, source=source))
    return result


def _row_source(value: Any, entry_point: Any, origin: str) -> str:
    """The first KernelBench program in a code cell (plain code, markdown or chat messages)."""
    try:
        candidates = candidate_sources(value)
    except ValueError as exc:
        raise ProblemError(f"{origin}: {exc}") from None
    first_error = None
    for text in candidates:
        for source in (text, adapt_entry_point(text, entry_point)):
            if source is None:
                continue
            try:
                validate_problem_source(source, origin)
                return source
            except ProblemError as exc:
                first_error = first_error or exc
    raise first_error or ProblemError(f"{origin}: the code cell is empty")


_CODE_COLUMNS = (
    "code",
    "pytorch_code",
    "python_code",
    "original_python_code",
    "original_code",
    "reference",
    "reference_code",
    "ref_code",
    "source",
    "reward_model.ground_truth",
    "ground_truth",
    "prompt",
    "question",
    "messages",
)
_NAME_COLUMNS = (
    "name",
    "id",
    "problem_id",
    "uuid",
    "sample_key",
    "extra_info.uuid",
    "extra_info.name",
    "extra_info.problem_id",
    "extra_info.index",
    "task_id",
    "index",
)


def _number_column(columns: list[str], name_col: str | None) -> str | None:
    """The `problem_id` beside a `name` column (KernelBench tables, the Dr. Kernel
    validation set's `extra_info`): names become `<problem_id>_<name>`, as the files are."""
    if name_col is None or name_col.rpartition(".")[2] != "name":
        return None
    sibling = name_col.removesuffix("name") + "problem_id"
    return sibling if sibling in columns else None


def _row_id(row: dict, index: int, name_col: str | None, number_col: str | None) -> Any:
    value = row.get(name_col) if name_col else None
    if value is None:
        return index
    text = str(value).removesuffix(".py")
    number = row.get(number_col) if number_col else None
    if number is not None and not text.startswith(f"{number}_"):
        text = f"{number}_{text}"
    return text


_ENTRY_COLUMNS = ("entry_point", "extra_info.entry_point")


def _pick_column(
    path: Path,
    columns: list[str],
    wanted: str | None,
    candidates: tuple[str, ...],
    what: str,
    required: bool = True,
) -> str | None:
    if wanted is not None:
        if wanted not in columns:
            raise ProblemError(f"{path}: no column {wanted!r}; columns are {columns}")
        return wanted
    found = next((c for c in candidates if c in columns), None)
    if found is None and required:
        raise ProblemError(
            f"{path}: cannot tell which column holds the {what}; columns are "
            f"{columns}; pass it explicitly (one of {list(candidates)} is "
            "found automatically)"
        )
    return found


# ----------------------------------------------------------------------------- entry points


def load_problems(
    path: str | Path,
    *,
    code_column: str | None = None,
    name_column: str | None = None,
    limit: int | None = None,
) -> ProblemSet:
    """Load problems from a file, directory, table or `builtin`, each optionally followed by
    `:selection`; see the module doc."""
    source, selection = _split_selection(str(path))
    if source == "builtin":
        return ProblemSet(select(builtin_problems(), selection, "builtin")[:limit])
    result = _load_source(Path(source), code_column, name_column, None if selection else limit)
    if selection:
        result = ProblemSet(select(result, selection, source)[:limit], result.skipped)
    return result


def _split_selection(spec: str) -> tuple[str, str]:
    """(source, selection) of `SOURCE[:SELECTION]`. A path that exists as written is never
    split, so a file name holding ':' still loads."""
    if spec == "builtin" or spec.startswith("builtin:"):
        return "builtin", spec.partition(":")[2]
    head, sep, tail = spec.rpartition(":")
    if sep and head and not Path(spec).exists() and Path(head).exists():
        return head, tail
    return spec, ""


def _load_source(
    path: Path, code_column: str | None, name_column: str | None, limit: int | None
) -> ProblemSet:
    if not path.exists():
        raise ProblemError(f"{path}: no such file or directory")
    if path.is_dir():
        result = _load_directory(path, limit)
    elif path.suffix in (".jsonl", ".parquet"):
        result = _load_table(path, code_column, name_column, limit)
    elif path.suffix == ".py":
        return ProblemSet([_single_file(path)])
    else:
        raise ProblemError(
            f"{path}: unknown problem source; expected a .py file, a directory, "
            "a .jsonl or .parquet table, or builtin[:family]"
        )
    if not result:
        reasons = "; ".join(f"{o}: {r}" for o, r in result.skipped[:3]) or "nothing found"
        raise ProblemError(f"{path}: no valid problems ({len(result.skipped)} skipped: {reasons})")
    if result.skipped:
        log.warning(
            "%s: loaded %d problems, skipped %d malformed", path, len(result), len(result.skipped)
        )
    return result


def select(problems: list[Problem], selection: str, source: str) -> list[Problem]:
    """The problems a selection names, in their order: comma-separated families (the part of
    a name before its first `/`: a built-in family, a KernelBench level) and problem names.
    Empty: all of them. UnknownProblemError lists the families or close names."""
    items = [part.strip() for part in selection.split(",") if part.strip()]
    if not items:
        if selection.strip():
            raise UnknownProblemError(f"{source}:{selection}: names no family or problem")
        return list(problems)
    by_name = {p.name: p for p in problems}
    families = sorted({p.name.partition("/")[0] for p in problems if "/" in p.name})
    chosen: set[str] = set()
    for item in items:
        if "/" in item:
            if item not in by_name:
                close = difflib.get_close_matches(item, list(by_name), n=5, cutoff=0.5)
                hint = f"; did you mean {', '.join(close)}?" if close else ""
                raise UnknownProblemError(f"no problem {item!r} in {source}{hint}")
            chosen.add(item)
        elif item in families:
            chosen.update(name for name in by_name if name.startswith(item + "/"))
        else:
            raise UnknownProblemError(f"no family {item!r} in {source}; families are {families}")
    return [p for p in problems if p.name in chosen]


@functools.lru_cache(maxsize=1)
def _builtin() -> tuple[Problem, ...]:
    manifest = _load_manifest(BUILTIN_DIR)
    problems = _load_directory(BUILTIN_DIR, None, strict=True)
    names = {p.name for p in problems}
    if names != set(manifest):
        raise ProblemError(
            f"{BUILTIN_DIR}: manifest and files disagree: only in files "
            f"{sorted(names - set(manifest))}, only in manifest "
            f"{sorted(set(manifest) - names)}"
        )
    return tuple(sorted(problems, key=lambda p: p.name))


def builtin_problems() -> list[Problem]:
    """All built-in problems, sorted by name."""
    return list(_builtin())


def builtin_problem(name: str) -> Problem:
    """One built-in problem by name, e.g. "activation/gelu"."""
    by_name = {p.name: p for p in _builtin()}
    if name not in by_name:
        close = difflib.get_close_matches(name, list(by_name), n=5, cutoff=0.5)
        hint = f"; did you mean {', '.join(close)}?" if close else ""
        raise UnknownProblemError(f"no built-in problem {name!r}{hint}")
    return by_name[name]


def to_payload(problem: Problem) -> "ProblemPayload":
    """The wire form of a problem (what leases and evaluation requests carry)."""
    from common.messages import ProblemPayload

    return ProblemPayload(
        name=problem.name,
        source=problem.source,
        family=problem.family,
        sizes=_plain(problem.sizes),
        tolerance=dict(problem.tolerance or {}),
        tags=list(problem.tags),
        distributions=None if problem.distributions is None else list(problem.distributions),
    )


def from_payload(payload: "ProblemPayload") -> Problem:
    """A problem received over the wire; its source is validated like a file's."""
    validate_problem_source(payload.source, f"problem {payload.name!r} from the wire")
    return Problem(
        name=payload.name,
        source=payload.source,
        family=payload.family,
        sizes=payload.sizes,
        tolerance=payload.tolerance,
        tags=tuple(payload.tags),
        distributions=payload.distributions,
    )
