"""Supervised fine-tuning, the cold start before RL: `krl sft --model M --data FILE.jsonl`.

Data: one conversation per JSONL line, `{"messages": [{"role", "content"}, ...]}` with
roles system / user / assistant (an assistant message with `"train": false` is context only,
never trained; other keys are ignored; `krl sft-data` writes such a
file from the built-in problems). Every assistant message is one trained turn, built the
way the actor builds its prompts: the messages before it rendered with the tokenizer's
chat template and `add_generation_prompt`, then the rest of the full rendering up to and
including the assistant's end-of-turn marker. Only those answer tokens carry loss; the
context is scored for nothing. A turn is a `learner.batch.Sample` like an RL turn, so SFT
runs on the RL trainer unchanged: same DeepSpeed engine and ZeRO stage, token-budget
packing, passes per rank, checkpoints; only the loss is the token-mean negative
log-likelihood (`Trainer.sft_step`). Each assistant turn re-reads its whole context,
as RL training does; that costs the shared prefix once per turn.

The loop: step k trains `conversations_per_step` conversations taken in order from a
stream of per-epoch permutations (seeded), so a resumed run continues where the
checkpoint left it. Ranks split a step's conversations by token count. Checkpoints go
to `<out_dir>/checkpoints/step_N` (learner/checkpoint.py; resume is automatic), the
per-step history to `<out_dir>/progress.json`, and the final weights to `<out_dir>/hf`
(learner/export.py), ready for `krl learner` (`learner.trainer.model`) and the actors.
"""

from __future__ import annotations

import json
import logging
import math
import random
from pathlib import Path
from typing import Sequence

import torch

from common.config import dump
from common.config.learner import LearnerConfig, SFTConfig
from common.log import setup
from common.prompts import plain_messages
from common.run_records import SftProgress, SftStep, read_record, write_record
from learner.batch import Sample
from learner.checkpoint import Checkpoints
from learner.export import write_hf_model
from learner.process_group import process_group_env
from learner.trainer import Trainer

log = logging.getLogger("krl.sft")
ROLES = ("system", "user", "assistant")


def read_conversations(path: str | Path) -> list[list[dict]]:
    """The conversations of a JSONL file; a malformed line raises ValueError naming it."""
    convs = []
    with open(path, encoding="utf-8") as f:
        for lineno, line in enumerate(f, 1):
            if not line.strip():
                continue
            where = f"{path}:{lineno}"
            try:
                row = json.loads(line)
            except json.JSONDecodeError as exc:
                raise ValueError(f"{where}: not JSON: {exc}") from None
            msgs = row.get("messages") if isinstance(row, dict) else None
            if not isinstance(msgs, list) or not msgs:
                raise ValueError(f'{where}: expected {{"messages": [...]}} with messages')
            for m in msgs:
                if not (
                    isinstance(m, dict)
                    and m.get("role") in ROLES
                    and isinstance(m.get("content"), str)
                ):
                    raise ValueError(
                        f"{where}: each message needs a role in {ROLES} and a "
                        f"string content, got {str(m)[:80]!r}"
                    )
            if any(not isinstance(m.get("train", True), bool) for m in msgs):
                raise ValueError(f'{where}: a message\'s "train" must be true or false')
            if not any(m["role"] == "assistant" and m.get("train", True) for m in msgs):
                raise ValueError(f"{where}: no assistant message, nothing to train on")
            convs.append(
                [
                    {
                        "role": m["role"],
                        "content": m["content"],
                        **({"train": False} if m.get("train", True) is False else {}),
                    }
                    for m in msgs
                ]
            )
    return convs


def _ids(tokenizer, messages: list[dict], generation_prompt: bool) -> list[int]:
    text = tokenizer.apply_chat_template(
        plain_messages(tokenizer, messages), tokenize=False, add_generation_prompt=generation_prompt
    )
    return tokenizer(text, add_special_tokens=False)["input_ids"]


def turn_samples(tokenizer, messages: list[dict]) -> list[Sample]:
    """One Sample per assistant message: context (prompt) + answer (response) token ids. An
    assistant message with `"train": false` is context only: a later turn reads it, nothing
    learns to write it (a garbled first answer before a repair: the repair is the lesson)."""
    out = []
    for i, m in enumerate(messages):
        if m["role"] != "assistant" or m.get("train", True) is False:
            continue
        context = _ids(tokenizer, messages[:i], generation_prompt=True)
        full = _ids(tokenizer, messages[: i + 1], generation_prompt=False)
        if full[: len(context)] != context or len(full) == len(context) or not context:
            raise ValueError(
                "the chat template does not render a conversation as its prefix "
                "plus the new answer; cannot find the assistant tokens"
            )
        n = len(full) - len(context)
        out.append(
            Sample(
                input_ids=torch.tensor(full, dtype=torch.long),
                prompt_len=len(context),
                actor_lp=torch.zeros(n),
                advantages=torch.zeros(n),
                versions=torch.zeros(n, dtype=torch.int32),
                traj=len(out),
                turn=len(out),
            )
        )
    return out


def build_dataset(
    tokenizer, conversations: Sequence[list[dict]], max_tokens: int
) -> tuple[list[list[Sample]], int]:
    """Trained turns per conversation, without turns over max_tokens; (data, turns skipped)."""
    data, skipped = [], 0
    for messages in conversations:
        turns = turn_samples(tokenizer, messages)
        kept = [s for s in turns if s.input_ids.shape[0] <= max_tokens]
        skipped += len(turns) - len(kept)
        data.append(kept)
    return data, skipped


def step_conversations(usable: Sequence[int], per_step: int, step: int, seed: int) -> list[int]:
    """The conversation indices of optimizer step `step` (from 0): positions
    [step * per_step, (step + 1) * per_step) of the stream of per-epoch permutations."""
    n, out, orders = len(usable), [], {}
    for pos in range(step * per_step, (step + 1) * per_step):
        epoch, k = divmod(pos, n)
        if epoch not in orders:
            orders[epoch] = list(usable)
            random.Random(seed * 1_000_003 + epoch).shuffle(orders[epoch])
        out.append(orders[epoch][k])
    return out


def shard(indices: Sequence[int], data: Sequence[list[Sample]], world: int) -> list[list[int]]:
    """Split conversations over ranks, largest first to the least-loaded rank."""
    cost = {i: sum(s.input_ids.shape[0] for s in data[i]) for i in indices}
    shards, load = [[] for _ in range(world)], [0] * world
    for i in sorted(indices, key=lambda i: -cost[i]):
        r = load.index(min(load))
        shards[r].append(i)
        load[r] += cost[i]
    return shards


def total_steps(cfg: SFTConfig, n_usable: int) -> int:
    if cfg.max_steps is not None:
        return cfg.max_steps
    return max(1, math.ceil(cfg.epochs * n_usable / cfg.conversations_per_step))


class SFTRun:
    """One SFT run: data, trainer, checkpoints; `run()` is the loop."""

    def __init__(self, cfg: SFTConfig):
        from transformers import AutoTokenizer

        if not cfg.data or not cfg.trainer.model:
            raise ValueError("krl sft needs a model (--model) and data (--data)")
        self.cfg, self.out = cfg, Path(cfg.out_dir)
        tokenizer = AutoTokenizer.from_pretrained(cfg.trainer.model, trust_remote_code=False)
        if tokenizer.chat_template is None:
            raise ValueError(f"{cfg.trainer.model}: the tokenizer has no chat template")
        self.data, skipped = build_dataset(tokenizer, read_conversations(cfg.data), cfg.max_tokens)
        self.usable = [i for i, turns in enumerate(self.data) if turns]
        if not self.usable:
            raise ValueError(f"{cfg.data}: no assistant turn fits max_tokens={cfg.max_tokens}")
        if skipped:
            log.warning(
                "%d assistant turns are longer than max_tokens=%d and are skipped",
                skipped,
                cfg.max_tokens,
            )
        self.steps = total_steps(cfg, len(self.usable))
        self.trainer = Trainer(LearnerConfig(lr=cfg.lr, trainer=cfg.trainer), seed=cfg.seed)
        self.rank, self.world = self.trainer.env.rank, self.trainer.env.world_size
        self.checkpoints = Checkpoints(self.out / "checkpoints", keep=cfg.checkpoint_keep)
        self.history: list[SftStep] = []
        self.saved_step = -1
        log.info(
            "%d conversations (%d turns), %d steps",
            len(self.usable),
            sum(len(t) for t in self.data),
            self.steps,
        )

    def resume(self) -> None:
        latest = self.checkpoints.newest_verified()
        if latest is None:
            return
        self.trainer.load(latest / "model", tag="model")
        self.history = read_record(latest / "progress.json", SftProgress, required=True).history
        self.saved_step = self.trainer.step
        log.info("resumed from %s (step %d)", latest, self.trainer.step)

    def train_step(self) -> dict:
        step = self.trainer.step
        picked = step_conversations(
            self.usable, self.cfg.conversations_per_step, step, self.cfg.seed
        )
        mine = shard(picked, self.data, self.world)[self.rank]
        stats = self.trainer.sft_step([s for i in mine for s in self.data[i]])
        self.history.append(
            SftStep(
                step=self.trainer.step,
                loss=stats.get("loss"),
                tokens=stats.get("tokens"),
                seconds=stats.get("step_seconds"),
            )
        )
        if self.rank == 0:
            write_record(
                self.out / "progress.json", SftProgress(steps=self.steps, history=self.history)
            )
        return stats

    def save(self) -> None:
        step = self.trainer.step

        def write(d: Path) -> None:
            self.trainer.save(d / "model", tag="model")
            write_record(d / "progress.json", SftProgress(steps=self.steps, history=self.history))

        if self.rank == 0:
            self.checkpoints.save(step, write)
        else:  # DeepSpeed's save is a collective: other ranks write their shards too
            self.trainer.save(self.checkpoints.root / f".step_{step:08d}.tmp" / "model", "model")
        self.saved_step = step

    def export(self) -> Path:
        weights = self.trainer.state_dict_for_publish()  # a collective under ZeRO-3
        out = self.out / "hf"
        if self.rank == 0:
            write_hf_model(weights, self.cfg.trainer.model, out)
        else:
            for _ in weights:
                pass
        return out

    def run(self) -> Path:
        self.resume()
        while self.trainer.step < self.steps:
            stats = self.train_step()
            log.info(
                "step %d/%d: loss %.4f, %d tokens (%.1fs)",
                self.trainer.step,
                self.steps,
                stats.get("loss", float("nan")),
                stats.get("tokens", 0),
                stats.get("step_seconds", 0.0),
            )
            if self.trainer.step % self.cfg.checkpoint_every == 0:
                self.save()
        if self.saved_step != self.trainer.step:
            self.save()
        out = self.export()
        log.info("wrote the fine-tuned model to %s", out)
        return out


def run(cfg: SFTConfig) -> int:
    setup("sft", process_group_env().rank, cfg.log)
    log.info("resolved config:\n%s", dump(cfg))
    SFTRun(cfg).run()
    return 0
