"""Several learner ranks on one node (a GPU pod, a SLURM node) each serve /metrics: with a
fixed port they must not collide, and local rank 0 keeps the configured port (the one the
scrape annotations and probes name)."""
import socket

from common.config import MetricsConfig
from common.metrics import Metrics
from learner.main import _rank_metrics


def _three_free_ports() -> int:
    """A port p with p, p+1 and p+2 free now (an ephemeral port's neighbours may be taken by
    another process of the suite, which made this test fail now and then)."""
    for _ in range(50):
        probes = []
        try:
            for offset in range(3):
                s = socket.socket()
                probes.append(s)
                s.bind(("", probes[0].getsockname()[1] + offset if offset else 0))
            return probes[0].getsockname()[1]
        except OSError:
            continue
        finally:
            for s in probes:
                s.close()
    raise RuntimeError("no three consecutive free ports")


def test_ranks_of_a_node_serve_on_consecutive_ports():
    port = _three_free_ports()  # local rank 0's port, and its two neighbours free
    servers = [Metrics("learner", _rank_metrics(MetricsConfig(port=port), r)) for r in range(3)]
    try:
        assert [m.start() for m in servers] == [port, port + 1, port + 2]
    finally:
        for m in servers:
            m.stop()


def test_a_free_port_request_stays_free():
    assert _rank_metrics(MetricsConfig(port=0), 5).port == 0
