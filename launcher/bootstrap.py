"""`krl run`'s bootstrap stages: what runs once, before the roles start, to give RL a
model worth training.

    tiny-model  `krl tiny-model RUN_DIR/bootstrap/tiny-model` (random weights, BPE
                tokenizer trained on the built-in problems, chat template)
    sft         `krl sft-data` on the learner's dataset (or the JSONL file that
                `bootstrap.sft.data` names), then `krl sft` from the model
                so far (the tiny one, else learner.trainer.model) into
                RUN_DIR/bootstrap/sft; its `hf/` directory is the result

Each stage is its own `python -m launcher.cli ...` process with its log in
RUN_DIR/logs/bootstrap-<stage>.log, like every role (the supervisor never imports a
role). A finished stage is recorded in RUN_DIR/bootstrap/done.json with the model it
produced, so a resumed run skips it; an interrupted SFT resumes from its own
checkpoints. The last stage's model replaces `actor.model` and `learner.trainer.model`
in the run directory's config.yaml, the file every role reads, so actors and learner
start from the same weights, and `krl run RUN_DIR` later finds the stages done.
"""

from __future__ import annotations

import logging
import subprocess
import sys
import time
from pathlib import Path

from common.config import RunConfig, dump
from common.config.learner import SFTConfig
from common.jsonfile import read_json_checked, write_json_atomic

log = logging.getLogger("krl.run")


class StageFailed(RuntimeError):
    """A bootstrap stage's process exited non-zero; the message names its log."""


def _run(args: list[str], log_path: Path) -> None:
    """Run `krl ARGS` to completion; Ctrl-C reaches it too (same process group)."""
    log.info("bootstrap: krl %s (log %s)", " ".join(args), log_path)
    with open(log_path, "ab") as out:
        code = subprocess.call(
            [sys.executable, "-m", "launcher.cli", *args],
            stdout=out,
            stderr=subprocess.STDOUT,
            stdin=subprocess.DEVNULL,
        )
    if code != 0:
        tail = log_path.read_text(errors="replace").splitlines()[-15:]
        raise StageFailed(
            f"bootstrap: `krl {args[0]}` exited with code {code}; see "
            f"{log_path}:\n" + "\n".join(tail)
        )


class Stages:
    """The bootstrap stages of one run directory and their done-records."""

    def __init__(self, cfg: RunConfig):
        self.cfg, self.bc = cfg, cfg.bootstrap
        self.root = Path(cfg.run_dir) / "bootstrap"
        self.logs = Path(cfg.run_dir) / "logs"
        self.done_path = self.root / "done.json"
        self.done, damaged = read_json_checked(self.done_path)
        if damaged:  # its stages run again (each is deterministic): said, not silent
            log.warning("%s; every bootstrap stage runs again", damaged)

    def _record(self, stage: str, model: Path, started: float) -> None:
        self.done[stage] = {"model": str(model), "seconds": round(time.monotonic() - started, 1)}
        write_json_atomic(self.done_path, self.done, indent=2)

    def _stage(self, stage: str, work) -> str:
        """Run `work()` (returns the stage's model dir) unless done.json has the stage."""
        if stage in self.done:
            log.info("bootstrap: %s already done (%s)", stage, self.done[stage]["model"])
            return self.done[stage]["model"]
        started = time.monotonic()
        model = work()
        self._record(stage, model, started)
        log.info("bootstrap: %s done in %.0fs: %s", stage, self.done[stage]["seconds"], model)
        return str(model)

    def tiny_model(self) -> Path:
        t, out = self.bc.tiny_model, self.root / "tiny-model"
        _run(
            [
                "tiny-model",
                str(out),
                "--arch",
                t.arch,
                "--hidden",
                str(t.hidden),
                "--layers",
                str(t.layers),
                "--heads",
                str(t.heads),
                "--vocab",
                str(t.vocab),
                "--seed",
                str(t.seed),
            ],
            self.logs / "bootstrap-tiny-model.log",
        )
        return out

    def sft(self, base: str) -> Path:
        s = self.bc.sft
        data, out = self.root / "sft.jsonl", self.root / "sft"
        log_path = self.logs / "bootstrap-sft.log"
        if s.data:  # conversations given (e.g. scripts/uncertain_sft.py's): train on those
            data = Path(s.data)
        else:
            _run(
                [
                    "sft-data",
                    str(data),
                    "--problems",
                    self.cfg.learner.dataset,
                    "--turns",
                    str(s.turns),
                ],
                log_path,
            )
        fields = s.model_dump(mode="json", exclude={"enabled", "turns"})
        fields.update(data=str(data), out_dir=str(out))
        fields["trainer"]["model"] = base
        config = self.root / "sft.yaml"
        config.write_text(dump(SFTConfig.model_validate(fields)))
        _run(["sft", "--config", str(config)], log_path)
        return out / "hf"

    def run(self) -> str | None:
        """Run what is enabled and not done; the model RL starts from (None: no stage)."""
        if not (self.bc.tiny_model.enabled or self.bc.sft.enabled):
            return None
        self.root.mkdir(parents=True, exist_ok=True)
        self.logs.mkdir(parents=True, exist_ok=True)
        model = self.cfg.learner.trainer.model
        if self.bc.tiny_model.enabled:
            model = self._stage("tiny-model", self.tiny_model)
        if self.bc.sft.enabled:
            if not model:
                raise StageFailed(
                    "bootstrap.sft needs a model: enable bootstrap.tiny_model or "
                    "set learner.trainer.model"
                )
            model = self._stage("sft", lambda: self.sft(model))
        return model


def bootstrap(cfg: RunConfig, config_path: Path) -> RunConfig:
    """Run the enabled stages; return the config RL runs with (rewritten to config_path)."""
    model = Stages(cfg).run()
    if model is None:
        return cfg
    cfg = cfg.model_copy(deep=True)
    cfg.actor.model = model
    cfg.learner.trainer.model = model
    config_path.write_text(dump(cfg))
    return cfg
