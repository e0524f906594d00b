"""The run config: every role's section in one file, as `krl run` and each role read it.

Each role reads its own section plus the shared ones at the top (transport, log,
hub_link); no role reads another role's section. A value two roles must agree on is set
once here: as a field of a shared section (hub_link), or as a top-level value RunConfig
copies into the roles' sections, since each role's code takes its section whole
(temperature: the actor samples with actor.sampling, the learner scores with
learner.trainer; speedup_cap: the evaluator's reward, the learner's plan signal). Old keys
still load, or are refused naming both keys (common/config/moved.py). Settings of
different roles that must stand in a relation, not be equal, are `training_disagreements`,
checked when `krl run` starts."""

from __future__ import annotations

from pathlib import Path
from typing import Any, ClassVar, Literal, Optional

from pydantic import Field, ValidationInfo, model_validator

from common.config.actor import ActorConfig
from common.config.base import Section
from common.config.evaluator import BrokerConfig, EvaluatorConfig
from common.config.hub import HubLinkConfig
from common.config.learner import LearnerConfig, SFTConfig
from common.config.moved import RUN_MOVED, RUN_SHARED, carry_moved, settle_shared
from common.config.shared import LogConfig, TransportConfig


class SupervisorConfig(Section):
    """`krl run`: which processes to start on this machine and how to keep them up."""

    actors: int = Field(1, ge=0)
    """Actor processes (one vLLM engine each)."""
    evaluators: int = Field(1, ge=0)
    """Evaluator worker processes (one per GPU, or per CPU slot in interpreter mode)."""
    actor_gpus: Optional[list[str]] = None
    """CUDA_VISIBLE_DEVICES value per actor (e.g. ["0", "1"]); None leaves it unset."""
    evaluator_gpus: Optional[list[str]] = None
    """CUDA_VISIBLE_DEVICES value per evaluator worker; None leaves it unset."""
    learner_ranks: int = Field(1, ge=1)
    """Learner processes: the DeepSpeed ranks of one process group on this machine (rank 0
    also runs the hub), started, stopped and restarted together. Rank i trains on the i-th
    device of learner_gpus."""
    learner_gpus: Optional[str] = None
    """CUDA_VISIBLE_DEVICES for every learner rank (e.g. "0,1,2,3": one device per rank);
    None leaves it unset."""
    restart_backoff_min_s: float = Field(1.0, gt=0)
    """First delay before restarting a crashed process; doubles per consecutive crash."""
    restart_backoff_max_s: float = Field(30.0, gt=0)
    """Cap on the restart delay."""
    max_restarts: int = Field(20, ge=0)
    """Restarts allowed per process over the run; beyond this the run fails."""
    stable_after_s: float = Field(60.0, gt=0)
    """A process that ran this long resets its consecutive-crash backoff."""
    progress_interval_s: float = Field(10.0, gt=0)
    """How often the progress line is printed."""
    stop_timeout_s: float = Field(30.0, gt=0)
    """After SIGTERM, how long a process may take to exit before it is killed."""
    hang_after_s: float = Field(180.0, ge=0)
    """A process whose /health has been unhealthy or silent this long is hung: it is killed
    and restarted like a crash (0: never judged hung). Only processes serving metrics
    (`<role>.metrics.enabled`) are watched."""
    startup_grace_s: float = Field(900.0, ge=0)
    """Until its first healthy answer, a process is judged hung only this long after its
    start (model loading, vLLM start-up, resuming a checkpoint), or hang_after_s if longer."""
    health_interval_s: float = Field(5.0, gt=0)
    """How often each watched process's /health is read."""

    @model_validator(mode="after")
    def _check(self) -> "SupervisorConfig":
        if self.learner_gpus is not None:
            devices = [d for d in self.learner_gpus.split(",") if d.strip()]
            if len(devices) < self.learner_ranks:
                raise ValueError(
                    f"learner_gpus {self.learner_gpus!r} lists {len(devices)} "
                    f"device(s) for {self.learner_ranks} learner_ranks"
                )
        if 0 < self.hang_after_s < 2 * self.health_interval_s:  # one late answer is no hang
            raise ValueError(
                f"hang_after_s ({self.hang_after_s}) must be 0 (off) or at least "
                f"twice health_interval_s ({self.health_interval_s})"
            )
        return self


class TinyModelStage(Section):
    """Bootstrap stage: a random-weight model with a tokenizer trained on the built-in
    problems (`krl tiny-model`), for runs on a machine with no real model at hand."""

    enabled: bool = False
    """Make the model (in RUN_DIR/bootstrap/tiny-model) and start from it."""
    arch: Literal["qwen2", "llama"] = "qwen2"
    """Model architecture."""
    hidden: int = Field(64, ge=32)
    """Hidden size; hidden / heads must be at least 32 (vLLM's CPU attention)."""
    layers: int = Field(2, ge=1)
    """Decoder layers."""
    heads: int = Field(2, ge=1)
    """Attention heads."""
    vocab: int = Field(2048, ge=256)
    """Vocabulary and BPE target size."""
    seed: int = 0
    """Weight seed."""


class SFTStage(SFTConfig):
    """Bootstrap stage: supervised cold start (`krl sft`) on the reference solutions of
    the learner's dataset (`krl sft-data`), in the actor's prompt wording, or on the
    conversations of `data` when it names a JSONL file. `out_dir` and `trainer.model` are
    set by the stage (RUN_DIR/bootstrap/sft*)."""

    enabled: bool = False
    """Fine-tune the starting model before RL and start RL from the result."""
    turns: int = Field(1, ge=1)
    """Assistant turns per conversation (2: answer, feedback, answer again)."""


class BootstrapConfig(Section):
    """Stages `krl run` runs before it starts the roles: once per run directory (a
    finished stage is recorded in RUN_DIR/bootstrap/done.json and skipped on resume). The
    model the last stage writes replaces `actor.model` and `learner.trainer.model`."""

    tiny_model: TinyModelStage = TinyModelStage()
    """Make a tiny random-weight model to start from."""
    sft: SFTStage = SFTStage()
    """Fine-tune the starting model (the tiny one, else learner.trainer.model) first."""


class RunConfig(Section):
    """A whole krl run. Each process takes its own section plus transport and log."""

    run_dir: Path = Path("runs/default")
    """Directory for resolved configs, logs, checkpoints and summary.json."""
    seed: int = 0
    """Base random seed; each process derives its own from it."""
    temperature: float = Field(1.0, gt=0)
    """Sampling temperature of the policy: the actors sample at it and the learner divides
    its logits by it, so their logprobs match (RunConfig copies it into
    actor.sampling.temperature and learner.trainer.temperature)."""
    speedup_cap: float = Field(3.0, gt=0)
    """Speedups above this count as this, in the evaluator's reward and in the learner's
    plan signal (copied into evaluator.reward.speedup_cap and
    learner.algorithm.hierarchical.speedup_cap)."""
    transport: TransportConfig = TransportConfig()
    """ZeroMQ settings shared by every role."""
    log: LogConfig = LogConfig()
    """Logging settings shared by every role."""
    hub_link: HubLinkConfig = HubLinkConfig()
    """Where the hub (learner rank 0) serves and how weights reach actors: the learner binds,
    every actor connects, both read it here."""
    evaluator: EvaluatorConfig = EvaluatorConfig()
    """Evaluator workers."""
    broker: BrokerConfig = BrokerConfig()
    """Evaluator broker."""
    actor: ActorConfig = ActorConfig()
    """Actors."""
    learner: LearnerConfig = LearnerConfig()
    """Learner and hub."""
    supervisor: SupervisorConfig = SupervisorConfig()
    """Local supervision by `krl run`."""
    bootstrap: BootstrapConfig = BootstrapConfig()
    """Stages before RL (make a tiny model, SFT cold start); all off by default."""

    MOVED_KEYS: ClassVar[dict[str, str]] = RUN_MOVED
    """Old keys -> new ones; `load` carries them (the file's before the overrides)."""

    @model_validator(mode="before")
    @classmethod
    def _carry_moved(cls, data: Any, info: ValidationInfo) -> Any:
        """Old keys of a mapping given to model_validate directly (`load` carries them
        first); copies of a shared value must agree with it."""
        if not isinstance(data, dict):
            return data
        source = (info.context or {}).get("source", "<config>")
        return settle_shared(carry_moved(data, RUN_MOVED, source), RUN_SHARED, source)

    @model_validator(mode="after")
    def _copy_shared(self) -> "RunConfig":
        """Each role reads a shared value in its own section: copy it there."""
        for key, (copies, _why) in RUN_SHARED.items():
            for dotted in copies:
                *path, field = dotted.split(".")
                node = self
                for name in path:
                    node = getattr(node, name)
                if getattr(node, field) != getattr(self, key):
                    setattr(node, field, getattr(self, key))
        return self


def _depth_worst_s(cfg: RunConfig) -> float:
    """The longest a CPU evaluator's depth trials add to the evaluation of a file that stalls
    (evaluator/depth_phase.py): each variant's first trial to its limit, then one variant's
    retries to theirs (a stall is refused at the first variant it stalls in)."""
    depth = cfg.evaluator.correctness.depth
    if cfg.evaluator.device != "cpu" or not depth.enabled:  # "auto" is a GPU's on a cluster
        return 0.0
    retry = max(depth.retry_max_s, depth.retry_time * depth.timeout_s)
    return depth.max_variants * depth.timeout_s + depth.retries * retry


def training_disagreements(cfg: RunConfig) -> list[str]:
    """Settings of different roles that a training run needs in a relation (not equal:
    those are set once, above), each a sentence saying what goes wrong; checked when
    `krl run` starts (a benchmark of the actor alone may sample as it likes)."""
    out = []
    sampling = cfg.actor.sampling  # its temperature is RunConfig.temperature's (moved.py)
    if sampling.top_k or sampling.top_p < 1:
        out.append(
            f"actor.sampling top_k={sampling.top_k}, top_p={sampling.top_p}: the actor "
            "samples from a cut vocabulary, the learner scores the whole one, so their "
            "logprobs never match; keep top_k 0 and top_p 1 for training"
        )
    deadline = cfg.actor.eval.deadline_s or cfg.broker.client.request_deadline_s
    limit = min(cfg.actor.eval.timeout_s, cfg.evaluator.timeout_s)  # evaluator/pipeline.py's
    depth = _depth_worst_s(cfg)
    if deadline < 2 * limit + depth:
        out.append(
            f"the actor's verdict deadline ({deadline:g} s) is under twice an evaluation's "
            f"limit in its sandbox ({limit:g} s, the smaller of actor.eval.timeout_s and "
            "evaluator.timeout_s)"
            + (f" plus the CPU's depth trials at their longest ({depth:g} s)" if depth else "")
            + ": a candidate slow enough "
            "to outlast the deadline is dropped as unevaluated instead of judged "
            "`timeout`, so the policy is never told that slow is wrong; raise "
            "actor.eval.deadline_s"
        )
    return out
