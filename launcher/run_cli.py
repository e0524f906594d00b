"""`krl run CONFIG|RUN_DIR [key=value ...]`: run the bootstrap stages (launcher/bootstrap.py:
tiny model, SFT cold start; each once per run directory), then start and supervise every
role locally (launcher/supervisor.py) and print what the run achieved, step by step."""

from __future__ import annotations

import argparse
import logging
import sys
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # imported where used: `krl run --help` loads nothing of them
    from common.config import RunConfig
    from common.runlock import RunLock

log = logging.getLogger("krl.run")


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("config", help="run config YAML, or an existing run directory to resume")
    parser.add_argument("overrides", nargs="*", help="dotted overrides, e.g. learner.max_steps=20")


def _fmt(x: object) -> str:
    return f"{x:.3f}" if isinstance(x, (int, float)) else "-"


def report(run_dir: Path) -> str:
    """A short table of summary.json: per learner step the mean reward, correct share, loss."""
    from common.jsonfile import StateFileError
    from common.run_records import read_summary

    try:
        summary = read_summary(run_dir)
    except StateFileError as exc:
        return str(exc)
    if summary is None:
        return f"no summary in {run_dir}"
    head = (
        f"run {run_dir}: {summary.status}, {summary.learner_steps} learner "
        f"steps, {summary.groups_trained} groups trained, "
        f"{summary.evaluations} evaluations, {summary.wall_seconds} s"
    )
    lines = [head, f"{'step':>5} {'version':>7} {'reward':>7} {'correct':>7} {'loss':>8}"]
    for h in summary.history:
        lines.append(
            f"{h.step:>5} {'-' if h.version is None else h.version:>7} "
            f"{_fmt(h.reward):>7} {_fmt(h.correct):>7} {_fmt(h.loss):>8}"
        )
    restarts = {k: v for k, v in summary.restarts.items() if v}
    if restarts:
        lines.append(f"restarted processes: {restarts}")
    lines.append(f"details: {run_dir / 'summary.json'}, logs in {run_dir / 'logs'}")
    return "\n".join(lines)


def _last_word(run_dir: object, reason: str, overrides: list[str] = ()) -> None:
    """summary.json saying the run failed and why, when it failed before supervising
    anything; rewritten in place if the disk has no room for a new file."""
    from common.config import RunConfig, load
    from common.jsonfile import write_json_in_place
    from common.run_records import Summary, summary_data, summary_path

    path = Path(str(run_dir))
    try:
        if path.is_file():  # a config file: its run directory
            path = Path(load(path, list(overrides), RunConfig).run_dir)
        write_json_in_place(
            summary_path(path), summary_data(Summary(status="failed", reason=reason))
        )
    except Exception:  # noqa: BLE001 (the last word is best effort; the console has it)
        pass


RUN_LOCK = "krl-run.lock"


def prepare(config: str, overrides: list[str]) -> tuple[RunConfig, Path, RunLock]:
    """Resolve the config; a run directory (or a config whose run_dir has one) resumes.
    Takes the run directory's lock (held until this process exits) before writing into
    it: LockHeld when another `krl run` has it."""
    from common.config import ConfigError, RunConfig, dump, load
    from common.config.run import training_disagreements
    from common.jsonfile import disk_error
    from common.runlock import RunLock

    src = Path(config)
    if src.is_dir():
        resolved = src / "config.yaml"
        if not resolved.exists():
            raise FileNotFoundError(f"{src} is not a krl run directory (no config.yaml)")
        cfg = load(resolved, overrides, RunConfig)
    else:
        cfg = load(src, overrides, RunConfig)
    if problems := training_disagreements(cfg):
        raise ConfigError("the roles disagree: " + "; ".join(problems))
    run_dir = Path(cfg.run_dir)
    run_dir.mkdir(parents=True, exist_ok=True)
    lock = RunLock(run_dir / RUN_LOCK, "krl run")
    try:
        lock.acquire()
    except OSError as exc:
        raise disk_error(exc, lock.path) from exc
    path = run_dir / "config.yaml"
    if path.exists() and not src.is_dir():
        log.info("run directory %s exists: resuming it with the given config", run_dir)
    try:
        path.write_text(dump(cfg))
    except OSError as exc:
        raise disk_error(exc, path) from exc
    return cfg, path, lock


def main(args: argparse.Namespace) -> int:
    from common.config import ConfigError, LogConfig
    from common.log import setup
    from common.runlock import LockHeld
    from launcher.bootstrap import StageFailed, bootstrap
    from launcher.supervisor import run

    try:
        cfg, path, _lock = prepare(args.config, args.overrides)  # held until we exit
    except (ConfigError, FileNotFoundError) as exc:
        print(f"krl run: {exc}", file=sys.stderr)
        return 2
    except LockHeld as exc:
        print(
            f"krl run: the run directory is in use: {exc}; stop that run first (SIGTERM "
            "lets its learner checkpoint), then run this again to resume",
            file=sys.stderr,
        )
        return 2
    except OSError as exc:  # e.g. a full disk under the run directory: no traceback
        print(f"krl run: {exc}", file=sys.stderr)
        _last_word(args.config, f"krl run could not start: {exc}", args.overrides)
        return 1
    setup(
        "run",
        0,
        LogConfig(
            level=cfg.log.level, format=cfg.log.format, file=Path(cfg.run_dir) / "logs" / "run.log"
        ),
    )
    try:
        cfg = bootstrap(cfg, path)
    except (StageFailed, OSError) as exc:
        print(f"krl run: {exc}", file=sys.stderr)
        _last_word(cfg.run_dir, f"bootstrap failed: {exc}")
        return 1
    except KeyboardInterrupt:
        print("krl run: interrupted during bootstrap; run it again to resume", file=sys.stderr)
        return 130
    code = run(cfg, path)
    print(report(Path(cfg.run_dir)), flush=True)
    return code
