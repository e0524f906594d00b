"""One logging set-up per process, tagged with role and rank; rate-limited warnings.

Text lines read `2026-11-21T01:02:03.456Z INFO  actor[0] common.transport: message`;
JSON lines carry the same fields as keys. INFO for lifecycle, WARNING for retries and
drops (through RateLimitedLog), ERROR when something is lost or the process exits.
"""

from __future__ import annotations

import json
import logging
import sys
import time
from typing import Optional

from common.config import LogConfig


class _Formatter(logging.Formatter):
    def __init__(self, role: str, rank: int, as_json: bool):
        super().__init__()
        self.role, self.rank, self.as_json = role, rank, as_json

    def format(self, record: logging.LogRecord) -> str:
        ts = time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(record.created))
        ts += f".{int(record.msecs):03d}Z"
        msg = record.getMessage()
        if record.exc_info:
            msg += "\n" + self.formatException(record.exc_info)
        if self.as_json:
            return json.dumps(
                {
                    "ts": ts,
                    "level": record.levelname,
                    "role": self.role,
                    "rank": self.rank,
                    "logger": record.name,
                    "msg": msg,
                }
            )
        return f"{ts} {record.levelname:<5} {self.role}[{self.rank}] {record.name}: {msg}"


def setup(role: str, rank: int = 0, cfg: Optional[LogConfig] = None) -> logging.Logger:
    """Configure the root logger for this process; returns the role's logger."""
    cfg = cfg or LogConfig()
    root = logging.getLogger()
    for h in list(root.handlers):
        root.removeHandler(h)
    fmt = _Formatter(role, rank, cfg.format == "json")
    handlers: list[logging.Handler] = [logging.StreamHandler(sys.stderr)]
    if cfg.file is not None:
        cfg.file.parent.mkdir(parents=True, exist_ok=True)
        handlers.append(logging.FileHandler(cfg.file))
    for h in handlers:
        h.setFormatter(fmt)
        root.addHandler(h)
    root.setLevel(cfg.level)
    return logging.getLogger(f"krl.{role}")


class RateLimitedLog:
    """At most one message per key per interval; the rest are counted and summarised."""

    def __init__(self, logger: logging.Logger, interval_s: float = 10.0):
        self.logger, self.interval_s = logger, interval_s
        self._last: dict[str, float] = {}
        self._suppressed: dict[str, int] = {}

    def _emit(self, level: int, key: str, msg: str, *args) -> None:
        t = time.monotonic()
        if t - self._last.get(key, -1e18) < self.interval_s:
            self._suppressed[key] = self._suppressed.get(key, 0) + 1
            return
        self._last[key] = t
        n = self._suppressed.pop(key, 0)
        suffix = f" (+{n} similar suppressed)" if n else ""
        self.logger.log(level, msg + suffix, *args)

    def warning(self, key: str, msg: str, *args) -> None:
        self._emit(logging.WARNING, key, msg, *args)

    def error(self, key: str, msg: str, *args) -> None:
        self._emit(logging.ERROR, key, msg, *args)
