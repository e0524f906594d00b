"""`krl export CHECKPOINT OUT_DIR [--model BASE]`: a Hugging Face model directory from a checkpoint.

CHECKPOINT is a run directory (or `krl sft` output directory), its `checkpoints/`
directory (the newest complete checkpoint is used), or one `step_N` directory. The
weights come from the DeepSpeed state under `step_N/model/`: the module weights for
ZeRO 0-2 (rank 0 saves them whole), or the fp32 partitions reassembled by DeepSpeed's
`zero_to_fp32` for ZeRO-3, cast to the training dtype. OUT_DIR gets what any
`from_pretrained` reads: `config.json` and `model.safetensors` written by transformers,
plus every other file of the base model (tokenizer, chat template, generation config)
copied as is. The base model is the one the run trained from (the trainer records its
path beside the weights) unless `--model` names another with the same architecture.

`write_hf_model` is also how `krl sft` writes its final model from live weights. The
directory is written beside OUT_DIR and renamed into place, so a crash leaves no half
model under the real name.
"""

from __future__ import annotations

import argparse
import json
import shutil
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Iterable, Optional

if TYPE_CHECKING:  # torch loads only when a command runs, so `--help` is instant
    import torch

BASE_MODEL_FILE = "krl_base_model.json"  # written by learner.trainer.Trainer.save
_WEIGHT_SUFFIXES = (".safetensors", ".bin", ".pt", ".pth", ".index.json", ".msgpack", ".h5")
_DTYPES = ("auto", "float32", "bfloat16", "float16")


class ExportError(ValueError):
    """The checkpoint or base model is missing or does not fit; the message says which."""


def find_checkpoint(path: str | Path) -> Path:
    """The `step_N` directory meant by `path` (see the module docstring)."""
    from learner.checkpoint import Checkpoints

    p = Path(path)
    if (p / "COMPLETE").is_file() and (p / "model").is_dir():
        problem = Checkpoints.verify(p)
        if problem:
            raise ExportError(f"{p} is damaged: {problem}")
        return p
    for root in (p / "checkpoints", p):
        if root.is_dir() and any(root.glob("step_*")):
            latest = Checkpoints(root, keep=1 << 30).newest_verified()
            if latest is not None:
                return latest
    raise ExportError(
        f"{p}: no complete krl checkpoint (expected a step_N directory with "
        "COMPLETE, or a directory holding checkpoints/step_N)"
    )


def checkpoint_weights(step_dir: Path) -> tuple[dict[str, "torch.Tensor"], Optional[str]]:
    """(Hugging Face name -> CPU tensor in the training dtype, recorded base model path)."""
    import torch

    ds_dir = step_dir / "model"
    tag = (ds_dir / "latest").read_text().strip() if (ds_dir / "latest").is_file() else "model"
    meta = ds_dir / BASE_MODEL_FILE
    base = json.loads(meta.read_text())["base_model"] if meta.is_file() else None
    full = ds_dir / tag / "mp_rank_00_model_states.pt"
    if full.is_file():  # ZeRO 0-2: the module's own weights, as the actors got them
        state = torch.load(full, map_location="cpu", weights_only=True)
        return dict(state["module"]), base
    shards = sorted((ds_dir / tag).glob("zero_pp_rank_*_model_states.pt"))
    if not shards:
        raise ExportError(f"{ds_dir / tag}: no DeepSpeed model states in this checkpoint")
    from deepspeed.utils.zero_to_fp32 import get_fp32_state_dict_from_zero_checkpoint

    header = torch.load(shards[0], map_location="cpu", weights_only=False)  # our own file
    bf16 = header.get("ds_config", {}).get("bf16", {}).get("enabled", False)
    state = get_fp32_state_dict_from_zero_checkpoint(str(ds_dir), tag=tag)
    dtype = torch.bfloat16 if bf16 else torch.float32
    return {k: v.to(dtype) for k, v in state.items()}, base


def write_hf_model(
    named_tensors: Iterable[tuple[str, "torch.Tensor"]],
    base_model: str | Path,
    out_dir: str | Path,
    dtype: Optional["torch.dtype"] = None,
    overwrite: bool = True,
) -> Path:
    """Write weights named as in the base model's class as a Hugging Face directory.

    dtype: the floating-point dtype to store (None: the weights' own). Tied weights
    (an LM head sharing the embedding) may be given once or twice.
    """
    import torch
    from transformers import AutoConfig, AutoModelForCausalLM

    base, out = Path(base_model), Path(out_dir)
    if not (base / "config.json").is_file():
        raise ExportError(
            f"{base}: not a Hugging Face model directory (no config.json); "
            "give the base model with --model"
        )
    if out.exists() and any(out.iterdir()) and not overwrite:
        raise ExportError(f"{out} exists and is not empty (use --force to replace it)")
    state = {name: t.detach().cpu() for name, t in named_tensors}
    if dtype is None:
        dtype = next((t.dtype for t in state.values() if t.is_floating_point()), torch.float32)
    state = {k: v.to(dtype) if v.is_floating_point() else v for k, v in state.items()}
    config = AutoConfig.from_pretrained(base, trust_remote_code=False)
    with torch.device("meta"):  # no memory and no random init for the skeleton
        model = AutoModelForCausalLM.from_config(config, dtype=dtype, trust_remote_code=False)
    _, unexpected = model.load_state_dict(state, strict=False, assign=True)
    model.tie_weights()
    missing = [n for n, p in model.named_parameters() if p.is_meta]
    if unexpected or missing:
        raise ExportError(
            f"weights do not fit {type(model).__name__} of {base}: "
            f"missing {missing[:5]}, unexpected {unexpected[:5]}"
        )
    tmp = out.with_name(f".{out.name}.tmp")
    if tmp.exists():
        shutil.rmtree(tmp)
    model.save_pretrained(tmp, safe_serialization=True)
    for f in sorted(base.iterdir()):
        if f.is_file() and f.name != "config.json" and not f.name.endswith(_WEIGHT_SUFFIXES):
            shutil.copy2(f, tmp / f.name)
    if out.exists():
        shutil.rmtree(out)
    tmp.rename(out)
    return out


def export(
    checkpoint: str | Path,
    out_dir: str | Path,
    base_model: Optional[str] = None,
    dtype: str = "auto",
    overwrite: bool = False,
) -> Path:
    """Export a checkpoint (see find_checkpoint) as a Hugging Face directory; returns OUT_DIR."""
    import torch

    step_dir = find_checkpoint(checkpoint)
    state, recorded = checkpoint_weights(step_dir)
    base = base_model or recorded
    if not base:
        raise ExportError(f"{step_dir} does not record its base model: give it with --model")
    return write_hf_model(
        state.items(), base, out_dir, None if dtype == "auto" else getattr(torch, dtype), overwrite
    )


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "checkpoint",
        help="run directory, its checkpoints/ directory, or a "
        "step_N checkpoint (newest complete one is used)",
    )
    parser.add_argument("out", help="Hugging Face model directory to write")
    parser.add_argument(
        "--model",
        default=None,
        help="base model directory for config and tokenizer (default: the one "
        "the run trained from)",
    )
    parser.add_argument(
        "--dtype",
        choices=_DTYPES,
        default="auto",
        help="stored dtype (default: the training dtype)",
    )
    parser.add_argument("--force", action="store_true", help="replace OUT if it exists")


def main(args: argparse.Namespace) -> int:
    try:
        out = export(args.checkpoint, args.out, args.model, args.dtype, args.force)
    except (ExportError, OSError) as exc:
        print(f"krl export: {exc}", file=sys.stderr)
        return 2
    print(f"wrote Hugging Face model to {out}")
    return 0
