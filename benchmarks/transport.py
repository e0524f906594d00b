"""Throughput of tensor messages through common/transport against raw pyzmq PUSH/PULL.

For each message size (64 KiB .. 256 MiB) a sender process pushes the same bytes
twice: once as raw single-frame pyzmq messages (send/recv with copy=False, the best a
hand-written pyzmq path does), once as krl `WeightBucket` messages through `Channel`
(header + msgpack body + zero-copy tensor frame, decoded and validated into a tensor
on receipt). Both use the same high-water marks. Rounds alternate raw/krl and the
median of the rounds is reported. Target: krl >= 0.9 x raw from 1 MiB up.

    .venv/bin/python benchmarks/transport.py [--rounds 3] [--max-mib 256]

Writes benchmarks/reports/transport.md and .json. Loopback TCP on this machine; the
ratio, not the absolute GB/s, is the result.
"""

from __future__ import annotations

import argparse
import json
import multiprocessing as mp
import platform
import statistics
import sys
import time
from pathlib import Path

import torch
import zmq

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from common.config import TransportConfig  # noqa: E402
from common.messages import WeightBucket  # noqa: E402
from common.metrics import Metrics  # noqa: E402
from common.transport import Channel  # noqa: E402

HWM = 4  # a few messages in flight; 256 MiB x 1000 would exhaust memory


def _cfg() -> TransportConfig:
    return TransportConfig(send_hwm=HWM, recv_hwm=HWM, max_message_bytes=1 << 30, linger_s=5)


def _count(size: int) -> int:
    return max(8, min(4096, (1 << 30) // size))


def sender(endpoint: str, mode: str, size: int, n: int) -> None:
    ctx = zmq.Context()
    payload = torch.randint(0, 255, (size,), dtype=torch.uint8)
    if mode == "raw":
        s = ctx.socket(zmq.PUSH)
        s.setsockopt(zmq.SNDHWM, HWM)
        s.connect(endpoint)
        buf = memoryview(payload.numpy())
        for _ in range(n):
            s.send(buf, copy=False)
        s.close(linger=-1)
    else:
        ch = Channel(ctx, zmq.PUSH, _cfg(), Metrics("bench"), connect=endpoint)
        for i in range(n):
            ch.send(WeightBucket(request_id="b", version=0, index=i, data=payload, checksum=""))
        ch.sock.close(linger=-1)
    ctx.term()


def receive(mode: str, size: int) -> float:
    """GB/s measured from the first to the last message of one run."""
    ctx = zmq.Context()
    n = _count(size)
    if mode == "raw":
        sock = ctx.socket(zmq.PULL)
        sock.setsockopt(zmq.RCVHWM, HWM)
        sock.setsockopt(zmq.MAXMSGSIZE, 1 << 30)
        port = sock.bind_to_random_port("tcp://127.0.0.1")
        recv = lambda: sock.recv(copy=False)  # noqa: E731
    else:
        ch = Channel(ctx, zmq.PULL, _cfg(), Metrics("bench"), bind="tcp://127.0.0.1:0")
        sock = ch.sock
        port = int(ch.endpoint.rsplit(":", 1)[1])

        def recv():
            got = ch.recv(60)
            assert got is not None and got.msg is not None and got.msg.data.numel() == size
            return got

    proc = mp.get_context("spawn").Process(
        target=sender, args=(f"tcp://127.0.0.1:{port}", mode, size, n)
    )
    proc.start()
    sock.poll(60_000)
    recv()
    t0 = time.perf_counter()
    for _ in range(n - 1):
        recv()
    elapsed = time.perf_counter() - t0
    proc.join()
    sock.close(linger=0)
    ctx.term()
    return (n - 1) * size / elapsed / 1e9


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--max-mib", type=int, default=256)
    ap.add_argument("--out", type=Path, default=Path(__file__).parent / "reports")
    args = ap.parse_args()
    sizes = [64 << 10, 256 << 10, 1 << 20, 4 << 20, 16 << 20, 64 << 20, 256 << 20]
    sizes = [s for s in sizes if s <= args.max_mib << 20]
    rows = []
    for size in sizes:
        raw, krl = [], []
        for _ in range(args.rounds):
            raw.append(receive("raw", size))
            krl.append(receive("krl", size))
        r, k = statistics.median(raw), statistics.median(krl)
        rows.append(
            {
                "size_bytes": size,
                "raw_gb_s": r,
                "krl_gb_s": k,
                "ratio": k / r,
                "target_met": size < (1 << 20) or k / r >= 0.9,
            }
        )
        print(
            f"{size >> 10:>8} KiB  raw {r:6.2f} GB/s  krl {k:6.2f} GB/s  ratio {k / r:5.2f}",
            flush=True,
        )
    ok = all(row["target_met"] for row in rows)
    _write_report(args.out, rows, ok, args.rounds)
    print("target (>= 0.9 x raw from 1 MiB up):", "MET" if ok else "NOT MET")
    return 0


def _write_report(out: Path, rows: list[dict], ok: bool, rounds: int) -> None:
    out.mkdir(parents=True, exist_ok=True)
    meta = {
        "host": platform.node(),
        "cpus": mp.cpu_count(),
        "python": platform.python_version(),
        "zmq": zmq.zmq_version(),
        "pyzmq": zmq.__version__,
        "rounds": rounds,
        "when": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
    }
    (out / "transport.json").write_text(
        json.dumps({"meta": meta, "rows": rows, "target_met": ok}, indent=2)
    )
    lines = [
        "# Transport throughput: krl Channel vs raw pyzmq PUSH/PULL",
        "",
        f"Loopback TCP, one stream, median of {rounds} interleaved rounds; {meta['cpus']} CPUs, "
        f"libzmq {meta['zmq']}, {meta['when']}.",
        "",
        "| message | raw GB/s | krl GB/s | krl / raw |",
        "|---:|---:|---:|---:|",
    ]
    for r in rows:
        lines.append(
            f"| {r['size_bytes'] >> 10} KiB | {r['raw_gb_s']:.2f} | {r['krl_gb_s']:.2f} "
            f"| {r['ratio']:.2f} |"
        )
    lines += ["", f"Target >= 0.9 from 1 MiB up: {'met' if ok else 'NOT met'}."]
    (out / "transport.md").write_text("\n".join(lines) + "\n")


if __name__ == "__main__":
    sys.exit(main())
