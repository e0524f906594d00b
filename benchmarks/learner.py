"""Learner benchmarks: RL step overhead and MFU, weight publishing GB/s, checkpoint seconds.

(a) `Trainer.train_step` on packed RL batches (synthetic two-turn groups of random
    tokens, the second turn's prompt holding the first turn and some feedback) against a
    bare DeepSpeed causal-LM step on the same micro-batches through the same engine: plain
    forward with labels on the response tokens, backward, `engine.step()`. Rounds
    alternate bare / trainer (MRS off) / trainer (MRS on) / bare no-grad forward; medians.
    Overhead beyond the model's own passes: trainer(MRS off) / bare - 1, and
    trainer(MRS on) / (bare + forward) - 1, since MRS's logprob recomputation is itself a
    forward pass. Target <= 15%. MFU counts 6 x parameters (without the input embedding)
    per token plus causal attention, per step, against --peak-tflops.
(b) `HubServer.publish` of the trained weights plus an actor process pulling and verifying
    every bucket (`actor.weight_sync.WeightSync`) over loopback TCP, against raw pyzmq
    PUSH/PULL of the same bucket bytes to a process, in the same run, alternating rounds.
    Both clocks start with the bytes in host memory (for krl: the tensors publish() is
    given) and stop when the receiver has the last byte (and, for krl, has verified every
    checksum); publishing streams, so krl's clock covers packing, hashing, transfer and
    verification, overlapped. Target krl / raw >= 0.8. With --parts publish alone no
    trainer is built: the tensors are the model's parameters copied to the host, as
    `Trainer.state_dict_for_publish` yields them under ZeRO 0-2.
(c) One checkpoint (DeepSpeed state into a temp dir, fsync, COMPLETE, rename) and
    `krl export` of it to a Hugging Face directory: seconds and bytes.

    python benchmarks/learner.py [--size 1b|300m|tiny] [--device cuda|cpu] [--rounds 3]
                                 [--parts step,publish,checkpoint] [--bucket-bytes N]

Memory: a CPU run of all parts at 1b needs well over 24 GB (fp32 DeepSpeed state plus
four copies of the weights in (b)); on a small machine run `--size 300m --parts publish`.
The 1b model is a randomly initialised Qwen2 (hidden 2048, 20 layers, GQA 16/4 heads,
vocab 32000: 1.03B parameters) trained in bf16 with ZeRO-2. Writes learner.md and
learner.json into --out (benchmarks/reports/) after each part, so a part that fails
leaves the earlier ones reported.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import random
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from benchmarks.learner_publish import bench_publish  # noqa: E402  (part (b))

SIZES = {
    "1b": dict(
        hidden_size=2048,
        intermediate_size=5632,
        num_hidden_layers=20,
        num_attention_heads=16,
        num_key_value_heads=4,
        head_dim=128,
        vocab_size=32000,
    ),
    "300m": dict(
        hidden_size=1024,
        intermediate_size=4096,
        num_hidden_layers=16,
        num_attention_heads=8,
        num_key_value_heads=2,
        head_dim=128,
        vocab_size=32000,
    ),
    "tiny": dict(
        hidden_size=64,
        intermediate_size=256,
        num_hidden_layers=2,
        num_attention_heads=2,
        num_key_value_heads=2,
        head_dim=32,
        vocab_size=512,
    ),
}
# groups x samples x 2 turns; token ranges of the first prompt and of each response.
BATCHES = {
    "1b": dict(
        groups=8,
        samples=4,
        prompt=(512, 1536),
        response=(256, 1536),
        feedback=128,
        micro_batch_tokens=16384,
    ),
    "300m": dict(
        groups=4,
        samples=2,
        prompt=(256, 512),
        response=(128, 512),
        feedback=64,
        micro_batch_tokens=4096,
    ),
    "tiny": dict(
        groups=2, samples=2, prompt=(16, 48), response=(8, 32), feedback=4, micro_batch_tokens=256
    ),
}
REPORT = {"parts": {}}


# ------------------------------------------------------------------------------ set-up


def build_model(path: Path, size: str, device: str) -> int:
    """A random Qwen2 saved to path; returns its parameter count."""
    import torch
    from transformers import Qwen2Config, Qwen2ForCausalLM

    cfg = Qwen2Config(
        **SIZES[size], max_position_embeddings=32768, tie_word_embeddings=False, use_cache=False
    )
    torch.manual_seed(0)
    with torch.device(device):
        model = Qwen2ForCausalLM(cfg).to(torch.bfloat16 if device == "cuda" else torch.float32)
    model.save_pretrained(path)
    n = sum(p.numel() for p in model.parameters())
    del model
    return n


def model_weights(path: Path, device: str) -> list:
    """(name, host copy) of every parameter of the saved model loaded on `device`: what
    `Trainer.state_dict_for_publish` yields under ZeRO 0-2, without building a trainer."""
    import torch
    from transformers import AutoModelForCausalLM

    dtype = torch.bfloat16 if device == "cuda" else torch.float32
    model = AutoModelForCausalLM.from_pretrained(path, torch_dtype=dtype).to(device)
    named = [(n, p.detach().to("cpu", copy=True)) for n, p in model.named_parameters()]
    del model
    return named


def make_groups(batch: dict, vocab: int, seed: int = 0):
    import torch

    from common.messages import Trajectory, TrajectoryGroup, Turn
    from common.verdict import Verdict

    rng = random.Random(seed)

    def ids(n: int) -> torch.Tensor:
        return torch.randint(
            0,
            vocab,
            (n,),
            dtype=torch.int32,
            generator=torch.Generator().manual_seed(rng.randrange(1 << 30)),
        )

    def turn(prompt: torch.Tensor, n: int) -> Turn:
        return Turn(
            prompt_ids=prompt,
            response_ids=ids(n),
            logprobs=torch.full((n,), -6.0),
            versions=torch.zeros(n, dtype=torch.int32),
            verdict=Verdict("ok", correct=True, speedup=1.0, reward=rng.random(), coverage=1.0),
        )

    groups = []
    for g in range(batch["groups"]):
        trajs = []
        for _ in range(batch["samples"]):
            first = turn(ids(rng.randint(*batch["prompt"])), rng.randint(*batch["response"]))
            context = torch.cat([first.prompt_ids, first.response_ids, ids(batch["feedback"])])
            trajs.append(
                Trajectory(
                    sample_index=len(trajs),
                    turns=[first, turn(context, rng.randint(*batch["response"]))],
                )
            )
        groups.append(
            TrajectoryGroup(
                request_id=f"r{g}",
                group_id=f"g{g}",
                lease_id=f"l{g}",
                prompt_id=f"p{g}",
                problem_name="bench",
                actor_id="bench",
                trajectories=trajs,
            )
        )
    return groups


# ------------------------------------------------------------------------------ (a)


def _sync(device: str) -> None:
    import torch

    if device == "cuda":
        torch.cuda.synchronize()


def bare_step(trainer, mbs, grad: bool = True) -> None:
    """Plain causal-LM passes on the micro-batches: labels on the response tokens."""
    import torch

    engine, dev = trainer.engine, trainer.device
    for mb in mbs:
        labels = torch.full_like(mb.input_ids, -100)
        labels[mb.rows, mb.cols + 1] = mb.targets
        mask = None if mb.attention_mask is None else mb.attention_mask.to(dev)
        with torch.set_grad_enabled(grad):
            out = engine(
                input_ids=mb.input_ids.to(dev),
                position_ids=mb.position_ids.to(dev),
                attention_mask=mask,
                labels=labels.to(dev),
                use_cache=False,
            )
        if grad:
            engine.backward(out.loss / len(mbs), scale_wrt_gas=False)
    if grad:
        engine.step()


def model_flops(samples, n_params: int, n_embed: int, cfg: dict) -> float:
    """6 x (parameters without the input embedding) per token + causal attention."""
    tokens = sum(s.input_ids.shape[0] for s in samples)
    attn = sum(
        6
        * s.input_ids.shape[0] ** 2
        * cfg["num_attention_heads"]
        * cfg["head_dim"]
        * cfg["num_hidden_layers"]
        for s in samples
    )
    return 6.0 * (n_params - n_embed) * tokens + attn


def bench_step(trainer, groups, args, n_params: int) -> dict:
    import torch

    from learner.batch import build_samples
    from learner.stats import Stats

    mrs = trainer.cfg.algorithm.mrs
    samples = build_samples(groups, trainer.cfg.algorithm, torch.Generator(), Stats())
    mbs = trainer._micro_batches(samples)
    tokens = sum(mb.n_tokens for mb in mbs)

    def timed(fn) -> float:
        _sync(args.device)
        t0 = time.perf_counter()
        fn()
        _sync(args.device)
        return time.perf_counter() - t0

    def trainer_step(mrs_on: bool):
        def run():
            mrs.enabled = mrs_on
            trainer.train_step(groups)

        return run

    kinds = {
        "bare": lambda: bare_step(trainer, mbs),
        "trainer": trainer_step(False),
        "trainer_mrs": trainer_step(True),
        "forward": lambda: bare_step(trainer, mbs, False),
    }
    for fn in kinds.values():  # warm-up: kernels compiled, memory pools filled
        timed(fn)
    times = {k: [] for k in kinds}
    for _ in range(args.rounds):
        for k, fn in kinds.items():
            times[k].append(timed(fn))
    med = {k: statistics.median(v) for k, v in times.items()}
    n_embed = SIZES[args.size]["vocab_size"] * SIZES[args.size]["hidden_size"]
    flops = model_flops(samples, n_params, n_embed, SIZES[args.size])
    peak = args.peak_tflops * 1e12
    rows = {
        k: {
            "seconds": med[k],
            "tokens_per_s": tokens / med[k],
            "mfu": flops / med[k] / peak if args.device == "cuda" else None,
            "all_seconds": times[k],
        }
        for k in kinds
    }
    rows["forward"]["mfu"] = None
    over = med["trainer"] / med["bare"] - 1
    over_mrs = med["trainer_mrs"] / (med["bare"] + med["forward"]) - 1
    return {
        "tokens_per_step": tokens,
        "micro_batches": len(mbs),
        "turns": len(samples),
        "model_tflops_per_step": flops / 1e12,
        "rows": rows,
        "overhead": over,
        "overhead_mrs": over_mrs,
        "target_met": max(over, over_mrs) <= 0.15,
    }


# ------------------------------------------------------------------------------ (c)


def bench_checkpoint(trainer, work: Path) -> dict:
    from learner.checkpoint import Checkpoints
    from learner.export import export

    ckpts = Checkpoints(work / "checkpoints")
    t0 = time.perf_counter()
    path = ckpts.save(trainer.step, lambda d: trainer.save(d / "model", "model"))
    save_s = time.perf_counter() - t0
    nbytes = sum(f.stat().st_size for f in path.rglob("*") if f.is_file())
    t0 = time.perf_counter()
    out = export(path, work / "hf")
    export_s = time.perf_counter() - t0
    hf_bytes = sum(f.stat().st_size for f in out.rglob("*") if f.is_file())
    return {
        "save_seconds": save_s,
        "checkpoint_bytes": nbytes,
        "save_gb_s": nbytes / save_s / 1e9,
        "export_seconds": export_s,
        "hf_bytes": hf_bytes,
    }


# ------------------------------------------------------------------------------ report


def write_report(out: Path, args) -> None:
    out.mkdir(parents=True, exist_ok=True)
    (out / "learner.json").write_text(json.dumps(REPORT, indent=2))
    meta, parts = REPORT["meta"], REPORT["parts"]
    lines = [
        "# Learner benchmarks",
        "",
        f"{meta['device_name']}, {meta['cpus']} CPUs, torch {meta['torch']}, DeepSpeed "
        f"{meta['deepspeed']}; model `{args.size}` ({meta['params'] / 1e9:.3f}B parameters, "
        f"{meta['dtype']}, ZeRO-{args.zero_stage}, optimizer {args.optimizer}); "
        f"median of {args.rounds} rounds; {meta['when']}.",
        "",
    ]
    if "step" in parts:
        s = parts["step"]
        lines += [
            "## (a) RL step vs bare DeepSpeed causal-LM step",
            "",
            f"{s['turns']} turns packed into {s['micro_batches']} micro-batches, "
            f"{s['tokens_per_step']} tokens per step, "
            f"{s['model_tflops_per_step']:.1f} model TFLOP per step.",
            "",
            "| step | seconds | tokens/s | MFU |",
            "|---|---:|---:|---:|",
        ]
        for k, r in s["rows"].items():
            mfu = f"{r['mfu']:.1%}" if r["mfu"] is not None else "-"
            lines.append(f"| {k} | {r['seconds']:.3f} | {r['tokens_per_s']:,.0f} | {mfu} |")
        lines += [
            "",
            f"Overhead beyond the model's own passes: trainer / bare - 1 = "
            f"{s['overhead']:+.1%}; trainer with MRS / (bare + forward) - 1 = "
            f"{s['overhead_mrs']:+.1%}. Target <= 15%: "
            f"{'met' if s['target_met'] else 'NOT met'}.",
            "",
        ]
    if "publish" in parts:
        p = parts["publish"]
        lines += [
            "## (b) Weight publishing vs raw ZeroMQ",
            "",
            f"{p['bytes'] / 1e9:.2f} GB in {p['buckets']} buckets of "
            f"{p['bucket_bytes'] >> 20} MiB, loopback TCP to another process.",
            "",
            "| path | GB/s |",
            "|---|---:|",
            f"| raw pyzmq PUSH/PULL | {p['raw_gb_s']:.2f} |",
            f"| HubServer.publish + WeightSync pull + verify | {p['krl_gb_s']:.2f} |",
            "",
            f"Ratio {p['ratio']:.2f}. Publishing streams: packing and checksumming "
            f"({p.get('checksum', 'sha256')}, publish returns) took "
            f"{statistics.median(p['publish_seconds']):.2f} s, overlapped with the "
            f"actor's pull + verify, {statistics.median(p['pull_seconds']):.2f} s from "
            f"the first announcement to verified weights. Target >= 0.8: "
            f"{'met' if p['target_met'] else 'NOT met'}.",
            "",
        ]
    if "checkpoint" in parts:
        c = parts["checkpoint"]
        lines += [
            "## (c) Checkpoint",
            "",
            f"Save (DeepSpeed state, fsync, rename): {c['save_seconds']:.1f} s for "
            f"{c['checkpoint_bytes'] / 1e9:.2f} GB ({c['save_gb_s']:.2f} GB/s). "
            f"`krl export` to a Hugging Face directory: {c['export_seconds']:.1f} s "
            f"({c['hf_bytes'] / 1e9:.2f} GB).",
            "",
        ]
    (out / "learner.md").write_text("\n".join(lines))


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--size", choices=sorted(SIZES), default="1b")
    ap.add_argument("--device", choices=["cuda", "cpu"], default="cuda")
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--zero-stage", type=int, default=2)
    ap.add_argument(
        "--optimizer",
        choices=["torch", "deepspeed"],
        default="torch",
        help="torch's AdamW needs no op build (DeepSpeed's fused one compiles first)",
    )
    ap.add_argument(
        "--peak-tflops",
        type=float,
        default=989.0,
        help="dense bf16 peak for MFU (H100/H200 SXM datasheet: 989)",
    )
    ap.add_argument("--parts", default="step,publish,checkpoint")
    ap.add_argument(
        "--bucket-bytes",
        type=int,
        default=0,
        help="publish: hub.bucket_bytes for both paths (default: the hub's default)",
    )
    ap.add_argument("--work", default=None, help="scratch directory (default: a temp dir)")
    ap.add_argument("--out", type=Path, default=Path(__file__).parent / "reports")
    args = ap.parse_args()
    if args.device == "cpu":
        os.environ["DS_ACCELERATOR"] = "cpu"  # read by DeepSpeed when it is imported
    import deepspeed
    import torch

    from common.config.learner import LearnerConfig
    from learner.trainer import Trainer

    work = Path(tempfile.mkdtemp(prefix="krl-bench-", dir=args.work))
    try:
        n_params = build_model(work / "model", args.size, args.device)
        batch = BATCHES[args.size]
        cfg = LearnerConfig.model_validate(
            {
                "lr": 1e-5,
                "trainer": {
                    "model": str(work / "model"),
                    "zero_stage": args.zero_stage,
                    "optimizer": args.optimizer,
                    "micro_batch_tokens": batch["micro_batch_tokens"],
                },
                "algorithm": {"mrs": {"lower": 0.0, "upper": 1e9, "veto": None}},
            }
        )
        parts = args.parts.split(",")
        trainer = Trainer(cfg) if {"step", "checkpoint"} & set(parts) else None
        dtype = (
            trainer.dtype
            if trainer
            else (torch.bfloat16 if args.device == "cuda" else torch.float32)
        )
        REPORT["meta"] = {
            "device_name": torch.cuda.get_device_name() if args.device == "cuda" else "CPU",
            "cpus": os.cpu_count(),
            "torch": torch.__version__,
            "deepspeed": deepspeed.__version__,
            "python": platform.python_version(),
            "params": n_params,
            "dtype": str(dtype),
            "when": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
            "args": vars(args) | {"out": str(args.out)},
        }
        groups = make_groups(batch, SIZES[args.size]["vocab_size"])
        if "step" in parts:
            REPORT["parts"]["step"] = bench_step(trainer, groups, args, n_params)
            write_report(args.out, args)
            print(
                "step:",
                json.dumps({k: v for k, v in REPORT["parts"]["step"].items() if k != "rows"}),
                flush=True,
            )
        if "publish" in parts:
            named = (
                list(trainer.state_dict_for_publish())
                if trainer
                else model_weights(work / "model", args.device)
            )
            REPORT["parts"]["publish"] = bench_publish(named, args.rounds, work, args.bucket_bytes)
            write_report(args.out, args)
            del named
        if "checkpoint" in parts:
            REPORT["parts"]["checkpoint"] = bench_checkpoint(trainer, work)
            write_report(args.out, args)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    print((args.out / "learner.md").read_text())
    return 0


if __name__ == "__main__":
    sys.exit(main())
