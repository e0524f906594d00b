"""Several learner ranks on one node (a GPU pod, a SLURM node) each serve /metrics: with a
fixed port they must not collide, and local rank 0 keeps the configured port (the one the
scrape annotations and probes name)."""

from common.config import MetricsConfig
from common.metrics import Metrics
from common.ports import free_port
from learner.main import _rank_metrics


def test_ranks_of_a_node_serve_on_consecutive_ports():
    port = free_port(3)  # local rank 0's port, and its two neighbours free
    servers = [Metrics("learner", _rank_metrics(MetricsConfig(port=port), r)) for r in range(3)]
    try:
        assert [m.start() for m in servers] == [port, port + 1, port + 2]
    finally:
        for m in servers:
            m.stop()


def test_a_free_port_request_stays_free():
    assert _rank_metrics(MetricsConfig(port=0), 5).port == 0
