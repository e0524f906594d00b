"""Config sections every role uses: transport, metrics, logging."""

from __future__ import annotations

from pathlib import Path
from typing import Literal, Optional

from pydantic import Field, model_validator

from common.config.base import Section


class TransportConfig(Section):
    """ZeroMQ socket limits, timeouts, heartbeats and CurveZMQ keys."""

    max_message_bytes: int = Field(1 << 30, gt=0)
    """Largest single message part a socket accepts; a peer sending more is disconnected."""
    send_hwm: int = Field(1000, ge=1)
    """Send high-water mark: messages queued per peer before send blocks or drops."""
    recv_hwm: int = Field(1000, ge=1)
    """Receive high-water mark: messages queued from a peer before it is throttled."""
    linger_s: float = Field(1.0, ge=0)
    """How long a closing socket may keep trying to deliver queued messages."""
    request_timeout_s: float = Field(30.0, gt=0)
    """How long a request waits for its reply before it is resent."""
    request_retries: int = Field(3, ge=0)
    """How many times a request is resent before the peer is declared unavailable."""
    heartbeat_interval_s: float = Field(1.0, gt=0)
    """How often long-lived links send a heartbeat."""
    heartbeat_misses: int = Field(3, ge=1)
    """Heartbeats a peer may miss before it is considered dead."""
    reconnect_min_s: float = Field(0.1, gt=0)
    """First reconnect delay; doubles on each failure."""
    reconnect_max_s: float = Field(5.0, gt=0)
    """Cap on the reconnect delay."""
    bind_wait_s: float = Field(30.0, ge=0)
    """How long binding a port that is still in use is retried before it fails: a process
    restarted at once may find its predecessor's port not yet released."""
    curve_keys_dir: Optional[Path] = None
    """Directory made by `krl keys`; when set, every socket uses CurveZMQ auth + encryption."""

    @model_validator(mode="after")
    def _check(self) -> "TransportConfig":
        if self.reconnect_max_s < self.reconnect_min_s:
            raise ValueError("reconnect_max_s must be >= reconnect_min_s")
        return self


class MetricsConfig(Section):
    """Where this process serves /metrics and /health."""

    host: str = "127.0.0.1"
    """Address the metrics HTTP server binds to (0.0.0.0 in containers)."""
    port: int = Field(0, ge=0, le=65535)
    """Port for /metrics and /health; 0 picks a free port (logged at start-up)."""
    enabled: bool = True
    """Serve metrics over HTTP; when false the registry still counts but nothing listens."""


class LogConfig(Section):
    """Process logging."""

    level: Literal["DEBUG", "INFO", "WARNING", "ERROR"] = "INFO"
    """Log level."""
    format: Literal["text", "json"] = "text"
    """`text` for humans, `json` (one object per line) for log shippers."""
    file: Optional[Path] = None
    """Also append logs to this file."""
