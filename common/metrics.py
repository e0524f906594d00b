"""Prometheus metrics for one process: its own registry, served with /health over HTTP.

Names are `krl_<role>_<what>_<unit>`: `Metrics("actor").counter("groups_sent_total", ...)`
registers `krl_actor_groups_sent_total`. Counters end in `_total`; base units only
(seconds, bytes, ratios 0..1); labels stay low-cardinality (never ids or hashes).
A disabled endpoint still counts (a null-object sink): callers never branch on it.

Each registry also carries the process collector (`krl_<role>_process_start_time_seconds`,
CPU seconds, resident memory) so dashboards count restarts without the supervisor.

/health answers 200 with JSON while the process's health callback says it is
healthy, 503 otherwise; Kubernetes probes and `krl run` use it.
"""

from __future__ import annotations

import json
import logging
import re
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Callable, Optional, Sequence

from prometheus_client import (
    CollectorRegistry,
    Counter,
    Gauge,
    Histogram,
    ProcessCollector,
    generate_latest,
)
from prometheus_client.exposition import CONTENT_TYPE_LATEST

from common.config import MetricsConfig

log = logging.getLogger(__name__)

_NAME = re.compile(r"^[a-z][a-z0-9_]*$")
HealthFn = Callable[[], tuple[bool, dict]]


class Metrics:
    """A process's metric registry plus its HTTP endpoint."""

    def __init__(
        self, role: str, cfg: Optional[MetricsConfig] = None, health: Optional[HealthFn] = None
    ):
        if not _NAME.match(role):
            raise ValueError(f"role {role!r} must be snake_case")
        self.role = role
        self.cfg = cfg or MetricsConfig(enabled=False)
        self.registry = CollectorRegistry()
        # krl_<role>_process_start_time_seconds etc.: restarts show as changes of the start time.
        ProcessCollector(namespace=f"krl_{role}", registry=self.registry)
        self.health: HealthFn = health or (lambda: (True, {}))
        self._metrics: dict[str, object] = {}
        self._server: Optional[ThreadingHTTPServer] = None
        self._lock = threading.Lock()

    def _get(self, cls, name: str, doc: str, labels: Sequence[str], **kw):
        if not _NAME.match(name) or ":" in name:
            raise ValueError(f"metric name {name!r} must be snake_case without colons")
        if cls is Counter and not name.endswith("_total"):
            raise ValueError(f"counter {name!r} must end in _total")
        full = f"krl_{self.role}_{name}"
        with self._lock:
            existing = self._metrics.get(full)
            if existing is None:
                # prometheus_client appends _total itself; give it the bare name.
                reg_name = full[: -len("_total")] if cls is Counter else full
                existing = cls(reg_name, doc, list(labels), registry=self.registry, **kw)
                self._metrics[full] = existing
            return existing

    def counter(self, name: str, doc: str, labels: Sequence[str] = ()) -> Counter:
        return self._get(Counter, name, doc, labels)

    def gauge(self, name: str, doc: str, labels: Sequence[str] = ()) -> Gauge:
        return self._get(Gauge, name, doc, labels)

    def histogram(
        self,
        name: str,
        doc: str,
        labels: Sequence[str] = (),
        buckets: Optional[Sequence[float]] = None,
    ) -> Histogram:
        kw = {"buckets": buckets} if buckets is not None else {}
        return self._get(Histogram, name, doc, labels, **kw)

    def render(self) -> bytes:
        return generate_latest(self.registry)

    def start(self) -> Optional[int]:
        """Serve /metrics and /health; returns the port (None when disabled)."""
        if not self.cfg.enabled:
            return None
        handler = _make_handler(self)
        self._server = ThreadingHTTPServer((self.cfg.host, self.cfg.port), handler)
        self._server.daemon_threads = True
        threading.Thread(
            target=self._server.serve_forever, name="metrics-http", daemon=True
        ).start()
        port = self._server.server_address[1]
        log.info("metrics on http://%s:%d/metrics", self.cfg.host, port)
        return port

    @property
    def port(self) -> Optional[int]:
        return self._server.server_address[1] if self._server else None

    def stop(self) -> None:
        if self._server is not None:
            self._server.shutdown()
            self._server.server_close()
            self._server = None


def _make_handler(metrics: Metrics):
    class Handler(BaseHTTPRequestHandler):
        def do_GET(self) -> None:  # noqa: N802 (http.server's naming)
            path = self.path.split("?", 1)[0]
            if path == "/metrics":
                self._send(200, CONTENT_TYPE_LATEST, metrics.render())
            elif path == "/health":
                try:
                    ok, detail = metrics.health()
                except Exception as exc:  # a broken health callback reports unhealthy
                    ok, detail = False, {"error": repr(exc)}
                body = json.dumps(
                    {"status": "ok" if ok else "unhealthy", "role": metrics.role, **detail}
                ).encode()
                self._send(200 if ok else 503, "application/json", body)
            else:
                self._send(404, "text/plain", b"not found: try /metrics or /health\n")

        def _send(self, code: int, ctype: str, body: bytes) -> None:
            self.send_response(code)
            self.send_header("Content-Type", ctype)
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, *args) -> None:  # scrapes are not log events
            pass

    return Handler
