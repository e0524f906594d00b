"""Weights to many actors: delta sizes after real training steps, and time to N actors
with the relay on and off, against one raw ZeroMQ stream of the same bytes.

1. Deltas. A causal LM (a random-init Qwen2 of --hidden/--layers, or --model DIR, e.g.
   a 1B model on a GPU host with --device cuda) trains --steps AdamW steps on random
   tokens with fp32 master weights, at each --lrs learning rate. After every step its
   weights are cut into buckets as the hub cuts them (common/buckets.py), in bf16 (what
   a bf16 learner publishes: the cast of its fp32 master weights) and in fp32, and the
   delta against the step before is encoded with each codec (zstd, zlib) and decoded
   and checked bit-exact. Reported: delta bytes / full bytes, encode and decode GB/s.
   Target: delta <= 10% of the full size at lr 1e-6.
2. Relay. The real hub (learner/hub_server.py) publishes --relay-mib of bf16 weights to
   N = 1, 2, 4, 8 real actor processes (tests/integration/weight_actor.py: WeightSync and
   RelayServer, no engine), relay off (every actor pulls from the hub) and on (a chain,
   hub_link.relay_fanout 1). Time: publish start -> the last actor holds the verified
   version. Baseline: one raw pyzmq PUSH/PULL stream of the same bytes between two
   processes (benchmarks/transport.py). Target: N = 8 within 1.25x of N = 1 (relay on).

    .venv/bin/python benchmarks/weights.py [--steps 3] [--relay-mib 128] [--actors 1,2,4,8]
    .venv/bin/python benchmarks/weights.py --model /models/Llama-3.2-1B --device cuda \
        --relay-mib 2400 --bucket-mib 256     # on a GPU host: a 1.2B bf16 model's bytes

Writes benchmarks/reports/weights.md and .json. Every actor's weights are checked
against the learner's (a digest of every tensor) in every run.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import torch

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests" / "integration"))

from common.buckets import CODECS, apply_delta, bucketize, encode_delta  # noqa: E402

ACTOR = ROOT / "tests" / "integration" / "weight_actor.py"
WARM_VERSIONS = 3


# ----------------------------------------------------------------------------- deltas
def _model(args):
    from transformers import AutoModelForCausalLM, Qwen2Config

    if args.model:
        model = AutoModelForCausalLM.from_pretrained(args.model, dtype=torch.float32)
    else:
        torch.manual_seed(0)
        cfg = Qwen2Config(
            vocab_size=args.vocab,
            hidden_size=args.hidden,
            intermediate_size=4 * args.hidden,
            num_hidden_layers=args.layers,
            num_attention_heads=max(1, args.hidden // 64),
            num_key_value_heads=max(1, args.hidden // 64),
            tie_word_embeddings=False,
            initializer_range=0.02,
        )
        model = AutoModelForCausalLM.from_config(cfg, dtype=torch.float32)
    return model.to(args.device)


def _snapshot(model, dtype, bucket_bytes: int) -> list:
    return bucketize(
        [(n, p.detach().to(dtype).cpu()) for n, p in model.named_parameters()],
        bucket_bytes,
        threads=2,
    )


def delta_rows(args) -> list[dict]:
    rows = []
    for lr in args.lrs:
        model = _model(args)
        opt = torch.optim.AdamW(model.parameters(), lr=lr, weight_decay=0.0)
        g = torch.Generator(device="cpu").manual_seed(1)
        prev = {dt: _snapshot(model, dt, args.bucket_mib << 20) for dt in args.dtypes}
        for step in range(1, args.steps + 1):
            ids = torch.randint(0, model.config.vocab_size, (args.batch, args.seq), generator=g)
            ids = ids.to(args.device)
            loss = model(input_ids=ids, labels=ids).loss
            loss.backward()
            opt.step()
            opt.zero_grad(set_to_none=True)
            for dt in args.dtypes:
                cur = _snapshot(model, dt, args.bucket_mib << 20)
                full = sum(b.data.numel() for b in cur)
                changed = sum(
                    int(
                        (
                            a.data.view(torch.int16 if dt == torch.bfloat16 else torch.int32)
                            != b.data.view(torch.int16 if dt == torch.bfloat16 else torch.int32)
                        ).sum()
                    )
                    for a, b in zip(cur, prev[dt])
                )
                row = {
                    "lr": lr,
                    "step": step,
                    "dtype": str(dt).removeprefix("torch."),
                    "full_bytes": full,
                    "params": full // (2 if dt == torch.bfloat16 else 4),
                    "changed_words": changed / (full // (2 if dt == torch.bfloat16 else 4)),
                    "loss": float(loss.detach()),
                }
                for codec in CODECS:
                    t0 = time.perf_counter()
                    deltas = [encode_delta(b, a, codec) for a, b in zip(prev[dt], cur)]
                    t1 = time.perf_counter()
                    for a, b, (d, encoding) in zip(prev[dt], cur, deltas):
                        rebuilt = apply_delta(a, d, encoding, b.info(0))
                        assert torch.equal(rebuilt.data, b.data), "delta is not lossless"
                    t2 = time.perf_counter()
                    wire = sum(d.numel() for d, _ in deltas)
                    row[f"{codec}_ratio"] = wire / full
                    row[f"{codec}_encode_gb_s"] = full / (t1 - t0) / 1e9
                    row[f"{codec}_decode_gb_s"] = full / (t2 - t1) / 1e9
                rows.append(row)
                prev[dt] = cur
                print(
                    f"lr {lr:g} step {step} {row['dtype']:>8}: {row['changed_words']:6.1%} "
                    f"words changed; zstd {row['zstd_ratio']:6.1%} zlib {row['zlib_ratio']:6.1%}"
                    f" of {full / 1e6:.0f} MB",
                    flush=True,
                )
        del model, opt
    return rows


# ----------------------------------------------------------------------------- relay
def _start_actors(
    n: int, server, relay: bool, tmp: Path, timeout_s: float, fresh_pages: bool
) -> list:
    procs = []
    for i in range(n):
        status = tmp / f"a{i}-{time.monotonic_ns()}.jsonl"
        cmd = [
            sys.executable,
            str(ACTOR),
            server.endpoint,
            server.publish_endpoint,
            str(status),
            "--request-timeout",
            "30",
            "--relay-timeout",
            str(timeout_s),
            "--digest-after",
            "5",
        ]
        procs.append(
            (
                subprocess.Popen(
                    cmd
                    + (["--relay"] if relay else [])
                    + (["--fresh-pages"] if fresh_pages else [])
                ),
                status,
            )
        )
    deadline = time.monotonic() + 120
    while not all(st.exists() for _, st in procs):
        assert time.monotonic() < deadline, "actors did not start"
        time.sleep(0.1)
    time.sleep(1.0)  # subscriptions settle (ZeroMQ's slow joiner)
    return procs


def _wait_version(
    procs, version: int, timeout_s: float = 600, until_first_line: bool = False
) -> list[dict]:
    """Every actor's status line for `version` (with `until_first_line`: once every actor
    holds it, before the digests, which come --digest-after later)."""
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        lines = []
        for _, st in procs:
            got = [json.loads(x) for x in st.read_text().splitlines()]
            lines.append(next((x for x in got if x.get("version") == version), None))
        if all(lines):
            return lines
        if until_first_line and all(_holds(st, version) for _, st in procs):
            return []
        time.sleep(0.02)
    raise TimeoutError(f"version {version} did not reach every actor")


def _holds(status: Path, version: int) -> bool:
    return (
        status.with_suffix(".held").is_file()
        and int(status.with_suffix(".held").read_text() or -1) >= version
    )


def relay_time(
    n: int, relay: bool, weights: list, args, tmp: Path
) -> tuple[float, float, float, int]:
    """Seconds from publish start to the first and to the last of n actors holding the
    verified version, the CPU seconds all processes spent on it (hub and actors), and the
    actors' minor page faults (fresh memory their pulls touched)."""
    from weight_actor import digest

    from common.config import TransportConfig
    from common.config.hub import HubConfig
    from common.messages import ProblemPayload
    from common.metrics import Metrics
    from learner.group_store import GroupStore
    from learner.hub import Hub, PromptSource
    from learner.hub_server import HubServer

    cfg = HubConfig(
        endpoint="tcp://127.0.0.1:0",
        publish_endpoint="tcp://127.0.0.1:0",
        announce_interval_s=0.5,
        bucket_bytes=args.bucket_mib << 20,
        relay_fanout=args.fanout if relay else 0,
        relay_timeout_s=30,
        pack_threads=2,
        delta_codec="none" if args.warm else "zstd",
    )
    transport = TransportConfig(request_timeout_s=30, max_message_bytes=1 << 30)
    m = Metrics("learner")
    hub = Hub(
        cfg,
        1,
        1,
        1,
        1,
        PromptSource([ProblemPayload(name="p", source="x")], 0),
        GroupStore(tmp / f"g{time.monotonic_ns()}"),
        m,
    )
    server = HubServer(hub, cfg, transport, m)
    server.start()
    procs = _start_actors(n, server, relay, tmp, 30, args.fresh_pages)
    try:
        version = 1
        # --warm: the actors have pulled versions before, as in a long run (full buckets, no
        # deltas): as many as they keep (the relay's two and the loaded one), so the timed pull
        # can land in memory an older version freed
        for _ in range(WARM_VERSIONS if args.warm else 0):
            server.publish(version, weights)
            _wait_version(procs, version)
            version += 1
        t0, cpu0 = time.time(), time.process_time()
        server.publish(version, weights)
        lines = _wait_version(procs, version, until_first_line=True)
        hub_cpu = time.process_time() - cpu0  # the hub's threads; the wait itself sleeps
        lines = _wait_version(procs, version)
        assert {x["digest"] for x in lines} == {digest(weights)}, "an actor's weights differ"
        return (
            min(x["at"] for x in lines) - t0,
            max(x["at"] for x in lines) - t0,
            hub_cpu + sum(x["cpu_s"] for x in lines),
            sum(x.get("minor_faults", 0) for x in lines),
        )
    finally:
        for p, _ in procs:
            p.send_signal(signal.SIGTERM)
        for p, _ in procs:
            p.wait(30)
        server.stop()


def relay_rows(args) -> tuple[list[dict], float]:
    from transport import receive  # benchmarks/transport.py: one raw PUSH/PULL stream

    g = torch.Generator().manual_seed(0)
    n_layers = max(1, (args.relay_mib << 20) // (4 << 20))
    weights = [
        (f"layers.{i}.w", torch.randn(2048, 1024, generator=g).to(torch.bfloat16))
        for i in range(n_layers)
    ]
    nbytes = n_layers * (4 << 20)
    raw_gb_s = statistics.median(receive("raw", args.bucket_mib << 20) for _ in range(args.rounds))
    raw_s = nbytes / raw_gb_s / 1e9
    print(
        f"raw ZeroMQ stream: {raw_gb_s:.2f} GB/s -> {raw_s:.2f} s for {nbytes / 1e6:.0f} MB",
        flush=True,
    )
    rows = []
    with tempfile.TemporaryDirectory() as d:
        for n in args.actors:
            for relay in args.modes:
                runs = [relay_time(n, relay, weights, args, Path(d)) for _ in range(args.rounds)]
                t = statistics.median(r[1] for r in runs)
                first = statistics.median(r[0] for r in runs)
                cpu = statistics.median(r[2] for r in runs)
                faults = int(statistics.median(r[3] for r in runs))
                rows.append(
                    {
                        "actors": n,
                        "relay": relay,
                        "seconds": t,
                        "first_s": first,
                        "cpu_s": cpu,
                        "cpu_bound_s": cpu / os.cpu_count(),
                        "actor_minor_faults": faults,
                        "load_avg_1m": os.getloadavg()[0],
                        "rounds": [r[1] for r in runs],
                        "bytes": nbytes,
                        "vs_raw_stream": t / raw_s,
                    }
                )
                print(
                    f"N={n} relay {'on ' if relay else 'off'}: {t:.2f} s, first actor "
                    f"{first:.2f} s ({t / raw_s:.2f}x one raw stream; CPU {cpu:.1f} s; "
                    f"{faults} actor page faults; load {os.getloadavg()[0]:.1f})",
                    flush=True,
                )
    return rows, raw_s


# ----------------------------------------------------------------------------- report
def write_report(
    out: Path, deltas: list[dict], relays: list[dict], raw_s: float, args, commands: dict
) -> dict:
    out.mkdir(parents=True, exist_ok=True)
    import multiprocessing as mp

    meta = {
        "host": platform.node(),
        "cpus": mp.cpu_count(),
        "device": args.device,
        "model": args.model
        or f"random-init Qwen2 hidden {args.hidden} x {args.layers} layers, vocab {args.vocab}",
        "when": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
        "commands": commands,
    }  # per part: a skipped part keeps the run that made it
    targets = {}
    low = [r for r in deltas if r["lr"] == 1e-6 and r["dtype"] == "bfloat16"]
    if low:
        targets["delta_bf16_lr1e-6_max_zstd_ratio"] = max(r["zstd_ratio"] for r in low)
        targets["delta_target_met"] = targets["delta_bf16_lr1e-6_max_zstd_ratio"] <= 0.10
    by = {(r["actors"], r["relay"]): r["seconds"] for r in relays}
    if (1, True) in by and (8, True) in by:
        targets["relay_n8_over_n1"] = by[(8, True)] / by[(1, True)]
        targets["relay_target_met"] = targets["relay_n8_over_n1"] <= 1.25
    report = {
        "meta": meta,
        "deltas": deltas,
        "relay": relays,
        "raw_stream_s": raw_s,
        "targets": targets,
    }
    (out / "weights.json").write_text(json.dumps(report, indent=2))
    lines = [
        "# Weights to many actors: deltas and relay",
        "",
        f"{meta['when']}, {meta['cpus']} CPUs, device {meta['device']}. Commands: "
        + "; ".join(f"{part}: `{cmd}`" for part, cmd in commands.items())
        + ".",
        "",
    ]
    if deltas:
        lines += [
            f"## Delta size after real AdamW steps ({meta['model']}, fp32 master "
            "weights; bf16 = their cast, as a bf16 learner publishes)",
            "",
            "| lr | step | dtype | words changed | zstd / full | zlib / full | "
            "zstd enc/dec GB/s | zlib enc/dec GB/s |",
            "|---:|---:|---|---:|---:|---:|---:|---:|",
        ]
        for r in deltas:
            lines.append(
                f"| {r['lr']:g} | {r['step']} | {r['dtype']} | {r['changed_words']:.2%} | "
                f"{r['zstd_ratio']:.2%} | {r['zlib_ratio']:.2%} | "
                f"{r['zstd_encode_gb_s']:.2f} / {r['zstd_decode_gb_s']:.2f} | "
                f"{r['zlib_encode_gb_s']:.2f} / {r['zlib_decode_gb_s']:.2f} |"
            )
        lines.append("")
    if relays:
        lines += [
            f"## Time to N actor processes ({relays[0]['bytes'] / 1e6:.0f} MB bf16, "
            f"{args.bucket_mib} MiB buckets, relay = chain of fan-out {args.fanout})",
            "",
            f"One raw ZeroMQ PUSH/PULL stream of the same bytes: {raw_s:.2f} s.",
            "",
            "| N | relay | first actor s | last actor s (median) | x N=1 same mode "
            "| x raw stream | CPU s (hub + actors) | CPU s / cores | machine load (1 min) |",
            "|---:|---|---:|---:|---:|---:|---:|---:|---:|",
        ]
        for r in relays:
            one = by.get((1, r["relay"]))
            lines.append(
                f"| {r['actors']} | {'on' if r['relay'] else 'off'} | "
                f"{r.get('first_s', float('nan')):.2f} | {r['seconds']:.2f} "
                f"| {r['seconds'] / one:.2f} | {r['vs_raw_stream']:.2f} "
                f"| {r.get('cpu_s', float('nan')):.2f} "
                f"| {r.get('cpu_bound_s', float('nan')):.2f} "
                f"| {r.get('load_avg_1m', float('nan')):.1f} |"
            )
        lines.append("")
    if args.device == "cpu":
        lines += [
            "Notes: CPU only (no GPU here). Deltas were measured on the random-init model "
            "above, in bf16 (the cast of fp32 master weights, what a bf16 learner "
            "publishes) and in fp32; a 1B model's numbers need "
            "`--model DIR --device cuda` on a GPU host. The relay rows share the "
            "machine's cores with every actor's receive, checksum and forward (and with "
            "other work: see the load column), so the time grows with the CPU seconds, "
            "not with the bytes any one sender moves. Whether N = 8 comes within 1.25x "
            "of N = 1 where every actor has its own cores and link is not measured "
            "here.",
            "",
        ]
    lines.append(
        "Targets: "
        + ", ".join(
            f"{k} = {v:.3f}" if isinstance(v, float) else f"{k} = {v}" for k, v in targets.items()
        )
    )
    (out / "weights.md").write_text("\n".join(lines) + "\n")
    return targets


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--model", default="", help="Hugging Face model dir (default: random init)")
    ap.add_argument("--device", default="cpu")
    ap.add_argument("--hidden", type=int, default=512)
    ap.add_argument("--layers", type=int, default=8)
    ap.add_argument("--vocab", type=int, default=8192)
    ap.add_argument("--steps", type=int, default=3)
    ap.add_argument("--batch", type=int, default=4)
    ap.add_argument("--seq", type=int, default=128)
    ap.add_argument("--lrs", type=lambda s: [float(x) for x in s.split(",")], default=[1e-6, 1e-5])
    ap.add_argument(
        "--dtypes",
        default="bfloat16,float32",
        type=lambda s: [getattr(torch, x) for x in s.split(",")],
        help="snapshot dtypes whose deltas are measured (default: %(default)s)",
    )
    ap.add_argument("--relay-mib", type=int, default=128)
    ap.add_argument("--bucket-mib", type=int, default=16)
    ap.add_argument("--fanout", type=int, default=1)
    ap.add_argument("--actors", type=lambda s: [int(x) for x in s.split(",")], default=[1, 2, 4, 8])
    ap.add_argument("--rounds", type=int, default=2)
    ap.add_argument(
        "--fresh-pages",
        action="store_true",
        help="actors leave malloc as it is (actor.reuse_receive_memory false): "
        "every pull lands in fresh pages",
    )
    ap.add_argument(
        "--warm",
        action="store_true",
        help="time the actors' second version (they hold one already, as in a long run), "
        "not their first pull into a fresh process",
    )
    ap.add_argument(
        "--modes",
        default="off,on",
        type=lambda s: [{"off": False, "on": True}[x] for x in s.split(",")],
        help="relay modes to time: off (every actor pulls from the hub), on",
    )
    ap.add_argument(
        "--skip",
        choices=["deltas", "relay", "both"],
        default=None,
        help="keep that part's rows from the last report (both: rewrite the report)",
    )
    ap.add_argument("--out", type=Path, default=Path(__file__).parent / "reports")
    args = ap.parse_args()
    old = (
        json.loads((args.out / "weights.json").read_text())
        if args.skip and (args.out / "weights.json").is_file()
        else {}
    )  # a skipped part keeps its last rows
    command = " ".join(["benchmarks/weights.py"] + sys.argv[1:])
    commands = dict(old.get("meta", {}).get("commands", {}))
    deltas = old.get("deltas", []) if args.skip in ("deltas", "both") else delta_rows(args)
    relays, raw_s = (
        (old.get("relay", []), old.get("raw_stream_s", 0.0))
        if args.skip in ("relay", "both")
        else relay_rows(args)
    )
    for part in ("deltas", "relay"):
        if args.skip not in (part, "both"):
            commands[part] = command
    targets = write_report(args.out, deltas, relays, raw_s, args, commands)
    print(json.dumps(targets))
    return 0


if __name__ == "__main__":
    sys.exit(main())
