"""A real krl server process for transport tests: answers LeaseRequest with LeaseGrant.

Usage: python echo_server.py ENDPOINT [--keys DIR] [--max-bytes N]
Prints `READY <endpoint> <metrics_port>` once bound; exits on SIGTERM.
"""

import argparse
import sys

from common.config import MetricsConfig, TransportConfig
from common.endpoint import Loop, Server
from common.messages import LeaseGrant, LeaseRequest, now
from common.metrics import Metrics
from common.stop import StopFlag
from common.transport import context

if __name__ == "__main__":
    p = argparse.ArgumentParser()
    p.add_argument("endpoint")
    p.add_argument("--keys", default=None)
    p.add_argument("--max-bytes", type=int, default=1 << 20)
    a = p.parse_args()
    stop = StopFlag()
    cfg = TransportConfig(curve_keys_dir=a.keys, max_message_bytes=a.max_bytes)
    metrics = Metrics("echo", MetricsConfig(port=0))
    port = metrics.start()
    served = metrics.counter("served_total", "valid requests answered")

    def lease(got):
        server.reply(
            got.peer,
            LeaseGrant(
                request_id=got.msg.request_id, policy_version=got.msg.max_groups, sent_at=now()
            ),
        )
        served.inc()

    server = Server(
        context(), cfg, metrics, a.endpoint, {LeaseRequest: lease}, who="the echo server"
    )
    print(f"READY {server.endpoint} {port}", flush=True)
    Loop(0.1, [server]).run(stop)
    server.close()
    metrics.stop()
    sys.exit(0)
