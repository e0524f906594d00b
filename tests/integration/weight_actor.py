"""A weight-only actor process for tests and benchmarks/weights.py: it follows the hub's
announcements with the real WeightSync (and, with --relay, the real RelayServer), and
after every version it holds writes the version to STATUS with suffix .held at once and
appends one JSON line to STATUS: the version, hub_id, a digest of every tensor it holds,
the bytes it received for that version, how long the pull took and its CPU seconds.
No engine: "loading" a version is recording it.

    python tests/integration/weight_actor.py HUB PUB STATUS [--relay] [--relay-timeout S]
        [--request-timeout S] [--digest-after S] [--max-message-bytes N]
"""

from __future__ import annotations

import argparse
import json
import resource
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

import blake3  # noqa: E402
import torch  # noqa: E402

from actor.receive_memory import keep_receive_memory  # noqa: E402
from actor.relay import RelayServer  # noqa: E402
from actor.weight_sync import WeightSync  # noqa: E402
from common.buckets import whole_tensors  # noqa: E402
from common.config import TransportConfig  # noqa: E402
from common.metrics import Metrics  # noqa: E402
from common.stop import StopFlag  # noqa: E402


def digest(named_tensors) -> str:
    """One hash of (name, dtype, shape, bytes) of every tensor, in name order."""
    h = blake3.blake3()
    for name, t in sorted(named_tensors, key=lambda nt: nt[0]):
        t = t.detach().contiguous().cpu()
        h.update(f"{name}|{t.dtype}|{list(t.shape)}|".encode())
        if t.numel():
            h.update(memoryview(t.view(torch.uint8).numpy()))
    return h.hexdigest()


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("hub")
    ap.add_argument("pub")
    ap.add_argument("status", type=Path)
    ap.add_argument("--relay", action="store_true")
    ap.add_argument("--relay-timeout", type=float, default=2.0)
    ap.add_argument("--request-timeout", type=float, default=2.0)
    ap.add_argument("--max-message-bytes", type=int, default=1 << 30)
    ap.add_argument(
        "--digest-after",
        type=float,
        default=0.0,
        help="wait this long before hashing a version for STATUS, so that the "
        "hash does not take CPU from actors still pulling (benchmarks)",
    )
    ap.add_argument(
        "--fresh-pages",
        action="store_true",
        help="leave malloc as it is (actor.reuse_receive_memory false)",
    )
    args = ap.parse_args()
    if not args.fresh_pages:  # what actor/main.py does with actor.reuse_receive_memory
        keep_receive_memory()
    stop = StopFlag()
    transport = TransportConfig(
        request_timeout_s=args.request_timeout,
        request_retries=3,
        max_message_bytes=args.max_message_bytes,
    )
    metrics = Metrics("actor")
    relay = (
        RelayServer(
            "tcp://127.0.0.1:0", "", transport, metrics, busy_after_s=args.relay_timeout / 3
        )
        if args.relay
        else None
    )
    sync = WeightSync(
        args.hub, args.pub, transport, metrics, relay=relay, relay_timeout_s=args.relay_timeout
    )
    with args.status.open("a") as f:
        f.write(json.dumps({"started": True, "endpoint": relay.endpoint if relay else ""}) + "\n")
    pulled = metrics.registry.get_sample_value
    try:
        while not stop():
            ann = sync.poll(0.2)
            if ann is None:
                continue
            before = pulled("krl_actor_weight_pulled_bytes_total") or 0.0
            t0, cpu0, faults0 = time.monotonic(), time.process_time(), _minor_faults()
            buckets = sync.pull(ann)
            if buckets is None:
                time.sleep(0.2)
                continue
            sync.loaded(ann.version, ann.hub_id)
            at, cpu_s = time.time(), time.process_time() - cpu0  # before the digest
            faults = _minor_faults() - faults0  # fresh pages this pull touched (every thread)
            args.status.with_suffix(".held").write_text(str(ann.version))
            time.sleep(args.digest_after)
            line = {
                "version": ann.version,
                "hub_id": ann.hub_id,
                "pull_s": time.monotonic() - t0,
                "wire_bytes": (pulled("krl_actor_weight_pulled_bytes_total") or 0) - before,
                "full_bytes": sum(b.data.numel() for b in buckets),
                "at": at,
                "cpu_s": cpu_s,
                "minor_faults": faults,
                "digest": digest(list(whole_tensors(buckets))),
            }
            with args.status.open("a") as f:
                f.write(json.dumps(line) + "\n")
    finally:
        sync.close()
    return 0


def _minor_faults() -> int:
    return resource.getrusage(resource.RUSAGE_SELF).ru_minflt


if __name__ == "__main__":
    sys.exit(main())
