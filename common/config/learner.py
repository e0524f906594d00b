"""Learner config: hub, algorithm, trainer, checkpoints. The learner issue owns this file.
(Where a learner process sits among the ranks is learner/process_group.py's.)
"""

from __future__ import annotations

from typing import Literal, Optional

from pydantic import Field, model_validator

from common.config.base import Section
from common.config.hub import HubServiceConfig
from common.config.shared import LogConfig, MetricsConfig


class MRSConfig(Section):
    """Mismatch rejection sampling: drop data whose actor and learner logprobs disagree.

    Two pairs of bounds: a trajectory made entirely by the policy version being trained
    differs from the learner only by numerics (vLLM's kernels against the trainer's), and
    is held to `lower`/`upper`; a trajectory with tokens from an older version (actors
    run up to max_staleness versions behind) also carries the policy's drift since then,
    and is held to `stale_lower`/`stale_upper`."""

    enabled: bool = True
    """Apply the trajectory bounds and the token veto below."""
    lower: float = Field(0.999, ge=0)
    """Lowest accepted exp(mean token log-ratio learner/actor) of an on-policy trajectory
    (every token from the version being trained; paper: 0.999)."""
    upper: float = Field(1.001, gt=0)
    """Highest accepted exp(mean token log-ratio) of an on-policy trajectory (paper: 1.001)."""
    stale_lower: float = Field(0.5, ge=0)
    """Lowest accepted ratio of a trajectory with any token from an older version (async)."""
    stale_upper: float = Field(2.0, gt=0)
    """Highest accepted ratio of a trajectory with any token from an older version (async)."""
    veto: Optional[float] = Field(1e-4, gt=0)
    """A token whose learner/actor probability ratio is below this masks its whole turn;
    null: off."""

    @model_validator(mode="after")
    def _check(self) -> "MRSConfig":
        if self.upper < self.lower:
            raise ValueError("mrs.upper must be >= mrs.lower")
        if self.stale_upper < self.stale_lower:
            raise ValueError("mrs.stale_upper must be >= mrs.stale_lower")
        return self


class PRSConfig(Section):
    """Profiling-based rejection sampling: drop 'lazy' correct turns with low coverage."""

    enabled: bool = True
    """Keep a correct turn with probability clamp((coverage - threshold) / factor, 0, 1)."""
    threshold: float = 0.3
    """Coverage at or below which a correct turn is always dropped."""
    factor: float = Field(0.1, gt=0)
    """Coverage span above the threshold over which the keep probability rises to 1."""


class LossConfig(Section):
    """The policy-gradient loss: PPO clipping, importance weights, aggregation."""

    decoupled: bool = True
    """Decoupled PPO: clip the ratio against the learner's own (proximal) logprobs and correct
    for the actor (behaviour) policy with an importance weight; false: clip against the actor's."""
    is_cap: Optional[float] = Field(2.0, gt=0)
    """Truncate the behaviour->proximal importance weight at this value (decoupled only);
    null: untruncated weights."""
    clip_low: float = Field(0.2, ge=0, lt=1)
    """PPO clip below: the ratio is clipped at 1 - clip_low."""
    clip_high: float = Field(0.28, ge=0)
    """PPO clip above ('clip-higher', DAPO): the ratio is clipped at 1 + clip_high."""
    dual_clip: Optional[float] = Field(3.0, gt=1)
    """Dual clip c: for negative advantages the loss is capped at -c * A; null: off."""
    aggregation: Literal["token-mean", "seq-mean-token-sum", "seq-mean-token-mean"] = (
        "seq-mean-token-sum"
    )
    """How token losses become one number: mean over all tokens; sum per turn then mean over
    turns (the Dr. Kernel recipe); or mean per turn then mean over turns."""


class HierarchicalConfig(Section):
    """TritonRL-style split credit: plan tokens and code tokens of a turn get different
    advantages."""

    enabled: bool = False
    """Give tokens before a turn's code_start the plan advantage instead of the turn advantage."""
    plan_coef: float = Field(0.5, ge=0)
    """Weight of the plan advantage."""
    speedup_cap: float = Field(3.0, gt=0)
    """The plan signal is min(speedup, cap) for a correct turn and 0 otherwise. In a run it
    is the top-level `speedup_cap` (the reward's cap, copied here)."""


class AlgorithmConfig(Section):
    """Advantages, which turns are trained, and the loss (see learner/advantages.py, losses.py)."""

    estimator: Literal["trloo", "grpo", "rloo"] = "trloo"
    """trloo: per-turn leave-one-out baseline (the paper); grpo: self-inclusive per-turn group
    mean (ablation); rloo: leave-one-out on each trajectory's total return, all turns alike."""
    gamma: float = Field(1.0, ge=0, le=1)
    """Discount of later turns' rewards in the return-to-go."""
    grpo_normalize_std: bool = False
    """GRPO only: divide advantages by the per-turn group standard deviation."""
    mask_after_first_success: bool = False
    """Do not train on turns after a trajectory's first correct turn."""
    mask_failures_after_success: bool = False
    """Do not train on incorrect turns that follow a correct turn of the same trajectory."""
    drop_zero_advantage_groups: bool = True
    """Skip groups whose advantages are all zero (they carry no gradient but dilute the mean)."""
    mrs: MRSConfig = MRSConfig()
    """Mismatch rejection sampling."""
    prs: PRSConfig = PRSConfig()
    """Profiling-based rejection sampling."""
    loss: LossConfig = LossConfig()
    """Policy loss."""
    hierarchical: HierarchicalConfig = HierarchicalConfig()
    """Hierarchical (plan vs code) credit assignment."""


class TrainerConfig(Section):
    """The DeepSpeed trainer: model, precision, memory and batching."""

    model: str = ""
    """Path of the Hugging Face causal-LM directory to start from."""
    zero_stage: int = Field(2, ge=0, le=3)
    """DeepSpeed ZeRO stage: 0 plain data parallel, 1 optimizer, 2 +gradients, 3 +parameters."""
    offload_optimizer: bool = False
    """ZeRO-Offload: keep optimizer state on the CPU (stage >= 1)."""
    dtype: Literal["auto", "float32", "bfloat16"] = "auto"
    """Training precision; auto: bfloat16 on a GPU, float32 on the CPU."""
    optimizer: Literal["auto", "deepspeed", "torch"] = "auto"
    """AdamW implementation; auto: DeepSpeed's fused one on a GPU, torch's on the CPU
    (no op build)."""
    weight_decay: float = Field(0.0, ge=0)
    """AdamW weight decay."""
    betas: tuple[float, float] = (0.9, 0.999)
    """AdamW betas."""
    eps: float = Field(1e-8, gt=0)
    """AdamW epsilon."""
    warmup_steps: int = Field(0, ge=0)
    """Linear learning-rate warm-up: step k (from 0) uses lr x min(1, (k + 1) / warmup_steps)."""
    decay_steps: int = Field(0, ge=0)
    """Linear learning-rate decay: step k (from 0) also scales lr by max(0, 1 - k /
    decay_steps), reaching 0 at step decay_steps (an SFT run sets it to its max_steps); 0: off."""
    grad_clip: float = Field(1.0, ge=0)
    """Clip the global gradient norm to this value; 0: off."""
    micro_batch_tokens: int = Field(8192, ge=1)
    """Token budget (prompt + response) of one micro-batch; a longer turn gets one of its own."""
    packing: bool = True
    """Pack a micro-batch's turns into one row with per-turn position ids (block-diagonal
    attention); false: one padded row per turn."""
    gradient_checkpointing: bool = False
    """Recompute activations in the backward pass to save memory."""
    attn_implementation: Literal["auto", "sdpa", "eager", "flex_attention", "flash_attention_2"] = (
        "auto"
    )
    """Attention kernel of the Hugging Face model. In a packed row each turn attends only to
    itself: sdpa and eager compute all row x row scores under a mask, flex_attention and
    flash_attention_2 (needs the flash-attn package) skip the blocks between turns (2.8x
    faster steps for a 0.5B model on an H200). auto: flex_attention on a GPU when packing,
    else sdpa."""
    temperature: float = Field(1.0, gt=0)
    """Sampling temperature of the actors; logits are divided by it so logprobs match theirs.
    In a run it is the top-level `temperature` (copied here)."""


class LearnerConfig(Section):
    """The learner: hub (rank 0) plus DeepSpeed trainer."""

    hub: HubServiceConfig = HubServiceConfig()
    """The hub on rank 0: leases, trajectory inbox, weight publishing (its endpoints and
    relay: `hub_link`)."""
    dataset: str = "builtin"
    """Prompt set (README, "Problem sets"): `builtin`, a KernelBench-format file or directory,
    a KernelBench checkout or a JSONL/Parquet table, each optionally followed by `:` and
    comma-separated families or problem names (`builtin:activation/relu,norm`,
    `/data/KernelBench:level2`)."""
    max_steps: int = Field(100, ge=1)
    """Optimizer steps after which the learner stops (and the run with it)."""
    batch_timeout_s: float = Field(1.0, gt=0)
    """How long one wait for a full batch lasts before idle time is counted and logged."""
    publish_every: int = Field(1, ge=1)
    """Publish weights to the actors every this many steps."""
    checkpoint_every: int = Field(10, ge=1)
    """Write a checkpoint every this many steps (and at the end)."""
    checkpoint_keep: int = Field(3, ge=1)
    """Complete checkpoints kept; older ones are deleted."""
    stall_after_s: float = Field(3600.0, gt=0)
    """The learner's /health turns unhealthy when its loop (waiting for data, a step,
    publishing, a checkpoint) has not come round for this long: a rank stuck in a
    collective, not a busy one. Set it above the longest step + publish + checkpoint;
    `krl run` kills an unhealthy process after supervisor.hang_after_s more."""
    lock_wait_s: float = Field(600.0, ge=0)
    """How long a starting learner waits for a previous learner of the same run directory
    (still stopping, e.g. writing its last checkpoint) to release RUN_DIR/learner/learner.lock
    before it gives up and exits 1."""
    n_samples: int = Field(4, ge=1)
    """Samples per prompt (the group size for TRLOO); the hub puts it in every lease, and an
    actor generates what its lease asks for."""
    max_turns: int = Field(3, ge=1)
    """Turns per episode; the hub puts it in every lease (actor-side: the lease's value)."""
    groups_per_step: int = Field(4, ge=1)
    """Prompt groups consumed by one optimizer step."""
    max_staleness: int = Field(2, ge=0)
    """Most policy versions a group may lag behind the learner and still be trained on; 0:
    lockstep. At 1 the learner idles at least (R - T) / (R + T) of the time whenever a
    step's rollouts R take longer than the train step T; 2 keeps it busy up to R = 2T."""
    lr: float = Field(1e-6, ge=0)
    """Learning rate; 0 trains nothing (a control run: same sampling, same data, no update)."""
    kl_to_start: bool = False
    """Each step, also score the trained turns under the starting weights (a frozen copy of
    `trainer.model`: one more model in memory, one more forward per micro-batch) and report
    `kl_to_start`, KL(policy || start) per token (k3 estimate on the sampled tokens). Not
    under ZeRO-3."""
    algorithm: AlgorithmConfig = AlgorithmConfig()
    """Advantage estimator, rejection sampling and loss."""
    trainer: TrainerConfig = TrainerConfig()
    """DeepSpeed trainer."""
    metrics: MetricsConfig = MetricsConfig()
    """Metrics endpoint of the learner."""

    @model_validator(mode="after")
    def _check_kl(self) -> "LearnerConfig":
        if self.kl_to_start and self.trainer.zero_stage == 3:
            raise ValueError("kl_to_start keeps a full copy of the model: not under zero_stage 3")
        return self


class SFTConfig(Section):
    """Supervised fine-tuning (`krl sft`): chat conversations, loss on assistant tokens only."""

    data: str = ""
    """JSONL file of conversations, one `{"messages": [{"role", "content"}, ...]}` per line."""
    out_dir: str = "runs/sft"
    """Where checkpoints (`checkpoints/step_N`), `progress.json` and the final model (`hf/`) go."""
    epochs: float = Field(1.0, gt=0)
    """Passes over the data (each in a fresh seeded order); ignored when max_steps is set."""
    max_steps: int | None = Field(None, ge=1)
    """Optimizer steps to take; null: as many as `epochs` needs."""
    conversations_per_step: int = Field(8, ge=1)
    """Conversations in one optimizer step (every assistant turn of each is trained)."""
    lr: float = Field(1e-5, gt=0)
    """Learning rate."""
    max_tokens: int = Field(16384, ge=2)
    """Longest trained turn, context + answer, in tokens; longer turns are skipped (counted)."""
    checkpoint_every: int = Field(100, ge=1)
    """Write a checkpoint every this many steps (and at the end)."""
    checkpoint_keep: int = Field(2, ge=1)
    """Complete checkpoints kept; older ones are deleted."""
    seed: int = 0
    """Seed of the data order."""
    trainer: TrainerConfig = TrainerConfig()
    """DeepSpeed trainer (the same one RL uses); `trainer.model` is the model to start from."""
    log: LogConfig = LogConfig()
    """Logging of the SFT process."""
