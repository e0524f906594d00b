"""The DeepSpeed trainer: one `train_step(groups)` is one optimizer step on a batch of groups.

A step reads as the method describes it:
1. turn level (learner/batch.py, advantages.py): advantages per group, multi-turn rules,
   PRS, zero-advantage groups -> one Sample per trained turn;
2. recompute the learner's logprobs of every response token (no grad, the proximal
   policy) and apply mismatch rejection sampling (learner/losses.py);
3. per-token loss weights for the chosen aggregation, normalised by step-wide counts;
4. forward + backward per micro-batch (token-budgeted, packed), one optimizer step.
Micro-batch counts differ per rank, so every rank runs as many passes as the busiest one
(the extra passes are zero-weighted); ZeRO's collectives need that. DeepSpeed averages
gradients over ranks, so each rank's loss is scaled by the world size to keep the
step-wide mean exact. Gradient accumulation is ours (DeepSpeed's
`managed_gradient_accumulation: false`): any number of backward calls, then `step()`.
`sft_step(samples)` runs the same micro-batches, passes and step with a plain
negative log-likelihood instead of the policy loss (`krl sft`, learner/sft.py).

Rank setup for a single process needs no launcher (learner.process_group.process_group_env).
Under ZeRO-3 (with `accelerate` installed) a live Trainer makes every `from_pretrained` in
the process build partitioned weights: load other models (an in-process actor, a
reference) before it or after it is gone.
"""

from __future__ import annotations

import copy
import importlib.util
import json
import logging
import time
from pathlib import Path
from typing import Iterator, Optional, Sequence

import deepspeed
import torch
import torch.distributed as dist
from deepspeed.accelerator import get_accelerator

from common.config.learner import LearnerConfig
from common.messages import TrajectoryGroup
from learner import losses
from learner.batch import MicroBatch, Sample, build_samples, collate, plan_micro_batches
from learner.ds_ops import prepare_ops
from learner.export import BASE_MODEL_FILE
from learner.model import load_model, resolve_dtype, response_logprobs
from learner.process_group import process_group_env
from learner.stats import Stats

log = logging.getLogger(__name__)

_PUBLISH_BUCKET_BYTES = 256 << 20


class Trainer:
    """A DeepSpeed engine around a Hugging Face causal LM, trained with the krl RL loss."""

    def __init__(self, cfg: LearnerConfig, seed: int = 0) -> None:
        self.cfg = cfg
        self.env = process_group_env()
        accel = get_accelerator()
        prepare_ops(self.env.extensions_dir)  # no shm op build; no wait on a killed one
        deepspeed.init_distributed(dist_backend=accel.communication_backend_name())
        on_gpu = accel.device_name() == "cuda"
        self.device = torch.device(accel.device_name(self.env.local_rank) if on_gpu else "cpu")
        self.dtype = resolve_dtype(cfg.trainer.dtype, on_gpu)
        ds_config = self._ds_config(on_gpu)
        self._hf_ds = _zero3_loading(ds_config) if cfg.trainer.zero_stage == 3 else None
        model = load_model(cfg.trainer, self.dtype, on_gpu)
        # The starting policy, frozen, for the kl_to_start metric (the weights of
        # trainer.model, also after a resume).
        self.start_model = (
            copy.deepcopy(model).eval().requires_grad_(False).to(self.device)
            if cfg.kl_to_start
            else None
        )
        client_opt = None
        if "optimizer" not in ds_config:
            t = cfg.trainer
            client_opt = torch.optim.AdamW(
                model.parameters(), lr=cfg.lr, betas=t.betas, eps=t.eps, weight_decay=t.weight_decay
            )
        self.engine, _, _, _ = deepspeed.initialize(
            model=model,
            config=ds_config,
            optimizer=client_opt,
            model_parameters=None if client_opt else model.parameters(),
            lr_scheduler=self._schedule
            if cfg.trainer.warmup_steps or cfg.trainer.decay_steps
            else None,
        )
        # PRS draws; one stream per rank, restored from checkpoints.
        self.generator = torch.Generator().manual_seed(seed * 1009 + self.env.rank)

    def _ds_config(self, on_gpu: bool) -> dict:
        t = self.cfg.trainer
        zero: dict = {"stage": t.zero_stage}
        if t.offload_optimizer and t.zero_stage >= 1:
            zero["offload_optimizer"] = {"device": "cpu"}
        cfg: dict = {
            "train_micro_batch_size_per_gpu": 1,
            "gradient_accumulation_steps": 1,
            "managed_gradient_accumulation": False,
            "gradient_clipping": t.grad_clip,
            "zero_optimization": zero,
            "bf16": {"enabled": self.dtype == torch.bfloat16},
            "steps_per_print": 1 << 30,
            "wall_clock_breakdown": False,
        }
        # ZeRO-Offload needs DeepSpeed's CPU Adam (built once into TORCH_EXTENSIONS_DIR).
        use_ds_opt = t.optimizer == "deepspeed" or (
            t.optimizer == "auto" and (on_gpu or t.offload_optimizer)
        )
        if use_ds_opt:
            cfg["optimizer"] = {
                "type": "AdamW",
                "params": {
                    "lr": self.cfg.lr,
                    "betas": list(t.betas),
                    "eps": t.eps,
                    "weight_decay": t.weight_decay,
                },
            }
        return cfg

    def _schedule(self, optimizer: torch.optim.Optimizer) -> torch.optim.lr_scheduler.LRScheduler:
        """Step k (from 0) uses lr * min(1, (k + 1) / warmup_steps) (linear warm-up) times
        max(0, 1 - k / decay_steps) (linear decay) when each is set."""
        t = self.cfg.trainer
        n = max(t.warmup_steps, 1)

        def factor(k: int) -> float:
            decay = max(0.0, 1.0 - k / t.decay_steps) if t.decay_steps else 1.0
            return min(1.0, (k + 1) / n) * decay

        return torch.optim.lr_scheduler.LambdaLR(optimizer, factor)

    # -----------------------------------------------------------------------------------
    # Forward passes
    # -----------------------------------------------------------------------------------

    def _micro_batches(self, samples: Sequence[Sample]) -> list[MicroBatch]:
        t = self.cfg.trainer
        bins = plan_micro_batches(
            [s.input_ids.shape[0] for s in samples], t.micro_batch_tokens, t.packing
        )
        return [collate(samples, b, t.packing) for b in bins]

    def _pass_count(self, n_local: int) -> int:
        """The most micro-batches any rank has: every rank runs that many passes."""
        if self.env.world_size == 1:
            return n_local
        n = torch.tensor([n_local], dtype=torch.long, device=self.device)
        dist.all_reduce(n, op=dist.ReduceOp.MAX)
        return int(n.item())

    def _logprobs(self, mb: MicroBatch) -> torch.Tensor:
        return response_logprobs(self.engine, mb, self.cfg.trainer.temperature, self.device)

    @torch.no_grad()
    def _recompute(self, samples: Sequence[Sample], mbs: list[MicroBatch]) -> None:
        """Fill sample.learner_lp with the current weights' logprobs."""
        self.engine.eval()
        for i in range(self._pass_count(len(mbs))):
            mb = mbs[i] if i < len(mbs) else _idle_micro_batch()
            lp = self._logprobs(mb).float().cpu()
            if i < len(mbs):
                for j, part in zip(mb.samples, lp.split(mb.response_lens)):
                    samples[j].learner_lp = part
        self.engine.train()

    def compute_logprobs(
        self, pairs: Sequence[tuple[torch.Tensor, torch.Tensor]]
    ) -> list[torch.Tensor]:
        """Logprob of each response token under the current weights, for (prompt, response)
        pairs of 1-D token id tensors. Collective under ZeRO-3: every rank calls it."""
        samples = [_bare_sample(p, r) for p, r in pairs]
        self._recompute(samples, self._micro_batches(samples))
        return [s.learner_lp if s.learner_lp is not None else torch.zeros(0) for s in samples]

    # -----------------------------------------------------------------------------------
    # The step
    # -----------------------------------------------------------------------------------

    def train_step(
        self, groups: Sequence[TrajectoryGroup], version: Optional[int] = None
    ) -> dict[str, float]:
        """One optimizer step on this rank's groups; returns step-wide statistics.

        version: the policy version of the weights being trained (the learner's step
        count). MRS holds trajectories with a token from another version to its stale
        bounds; None holds every trajectory to the on-policy bounds."""
        algo = self.cfg.algorithm
        start = time.perf_counter()
        stats = Stats()
        samples = build_samples(groups, algo, self.generator, stats)
        if algo.mrs.enabled:
            self._recompute(samples, self._micro_batches(samples))
            samples = self._mismatch_rejection(samples, stats, version)
        stats.set("recompute_seconds", time.perf_counter() - start)
        if self.start_model is not None:
            self._kl_to_start(samples, stats)
        weights, denom = self._loss_weights(samples, algo.loss.aggregation)
        return self._optimize(samples, weights, denom, self._policy_loss, stats, start)

    def sft_step(self, samples: Sequence[Sample]) -> dict[str, float]:
        """One supervised optimizer step: mean negative log-likelihood of every response
        token of this rank's samples (token-mean over the step, all ranks together)."""
        start = time.perf_counter()
        weights, denom = self._loss_weights(list(samples), "token-mean")
        return self._optimize(list(samples), weights, denom, self._nll_loss, Stats(), start)

    def _optimize(
        self,
        samples: list[Sample],
        weights: list[torch.Tensor],
        denom: float,
        micro_loss,
        stats: Stats,
        start: float,
    ) -> dict[str, float]:
        """Forward + backward of every micro-batch, then one optimizer step; the statistics.

        micro_loss(mb, samples, weights, stats) -> the micro-batch's weighted loss sum.
        """
        tokens, grad_norm = 0, float("nan")
        if denom > 0:  # the same on every rank: nothing to learn anywhere means no step
            scale = self.env.world_size / denom
            mbs = self._micro_batches(samples)
            for i in range(self._pass_count(len(mbs))):
                if i >= len(mbs):  # an idle pass: same collectives, no gradient signal
                    logp = self._logprobs(_idle_micro_batch())
                    self.engine.backward(logp.sum() * 0.0, scale_wrt_gas=False)
                    continue
                tokens += mbs[i].n_tokens
                loss = micro_loss(mbs[i], samples, weights, stats)
                self.engine.backward(loss * scale, scale_wrt_gas=False)
                stats.total("loss", float(loss.detach()) * scale / self.env.world_size)
            grad_norm = self._grad_norm_before_step()
            stats.set("lr", self.engine.get_lr()[0])
            self.engine.step()
            engine_norm = self.engine.get_global_grad_norm()
            grad_norm = float(engine_norm) if engine_norm is not None else grad_norm
        stats.set("optimizer_step", float(denom > 0))
        stats.total("tokens", tokens)
        stats.total("response_tokens", sum(float(w.gt(0).sum()) for w in weights))
        stats.total("samples", len(samples))
        stats.reduce(self.device)
        seconds = time.perf_counter() - start
        out = stats.to_dict()
        out.update(
            grad_norm=grad_norm,
            step_seconds=seconds,
            tokens_per_s=out.get("tokens", 0.0) / seconds,
            step=self.engine.global_steps,
        )
        return out

    def _mismatch_rejection(
        self, samples: list[Sample], stats: Stats, version: Optional[int]
    ) -> list[Sample]:
        """MRS over this rank's samples (a group never spans ranks); keeps the survivors.
        A trajectory with any token not made by `version` gets the stale bounds."""
        if not samples:
            return samples
        mrs = self.cfg.algorithm.mrs
        lens = [s.response_len for s in samples]
        seq_id = torch.repeat_interleave(torch.arange(len(samples)), torch.tensor(lens))
        seq_traj = torch.tensor([s.traj for s in samples])
        n_traj = int(seq_traj.max()) + 1
        stale = torch.zeros(n_traj, dtype=torch.bool)
        if version is not None:
            for s in samples:
                if s.versions.numel() and not bool((s.versions == version).all()):
                    stale[s.traj] = True
        lower = torch.where(stale, mrs.stale_lower, mrs.lower).double()
        upper = torch.where(stale, mrs.stale_upper, mrs.upper).double()
        res = losses.mismatch_rejection(
            torch.cat([s.learner_lp for s in samples]),
            torch.cat([s.actor_lp for s in samples]),
            seq_id,
            seq_traj,
            n_traj,
            lower,
            upper,
            mrs.veto,
        )
        present = sorted(set(seq_traj.tolist()))
        stats.add("mrs_stale_traj_frac", float(stale[present].float().mean()), weight=len(present))
        stats.add("mrs_traj_rejected_frac", res.traj_rejected, weight=len(set(seq_traj.tolist())))
        stats.add("mrs_turn_vetoed_frac", res.seq_vetoed, weight=len(samples))
        stats.add("mrs_turn_rejected_frac", res.seq_rejected, weight=len(samples))
        stats.add("mismatch_kl", res.mismatch_kl, weight=seq_id.numel())
        stats.add("mismatch_log_ratio", res.log_ratio_mean, weight=seq_id.numel())
        return [s for s, keep in zip(samples, res.keep_seq.tolist()) if keep]

    @torch.no_grad()
    def _kl_to_start(self, samples: list[Sample], stats: Stats) -> None:
        """KL(policy || start) per response token, k3 estimate on the sampled tokens:
        r = logp_start - logp, kl = exp(r) - 1 - r (>= 0, unbiased). logp is the learner's
        recomputed logprob when MRS computed it, else the actor's."""
        mbs = self._micro_batches(samples)
        for mb in mbs:
            lp0 = (
                response_logprobs(self.start_model, mb, self.cfg.trainer.temperature, self.device)
                .double()
                .cpu()
            )
            for j, part in zip(mb.samples, lp0.split(mb.response_lens)):
                s = samples[j]
                lp = (s.learner_lp if s.learner_lp is not None else s.actor_lp).double()
                r = part - lp
                kl = r.exp() - 1 - r
                stats.add(f"kl_to_start_turn{s.turn}", float(kl.mean()), weight=kl.numel())
                stats.add("kl_to_start", float(kl.mean()), weight=kl.numel())

    def _loss_weights(self, samples: list[Sample], mode: str) -> tuple[list[torch.Tensor], float]:
        """Per-sample token weights and the step-wide denominator (summed over ranks)."""
        lens = [s.response_len for s in samples]
        seq_id = torch.repeat_interleave(
            torch.arange(len(samples)), torch.tensor(lens, dtype=torch.long)
        )
        mask = torch.ones(seq_id.shape[0], dtype=torch.bool)
        w, denom = losses.loss_token_weights(mask, seq_id, len(samples), mode)
        if self.env.world_size > 1:
            d = torch.tensor([denom], dtype=torch.float64, device=self.device)
            dist.all_reduce(d)
            denom = float(d.item())
        return list(w.split(lens)), denom

    def _policy_loss(
        self, mb: MicroBatch, samples: list[Sample], weights: list[torch.Tensor], stats: Stats
    ) -> torch.Tensor:
        """The RL loss of one micro-batch (PPO terms x token weights, summed)."""
        lc = self.cfg.algorithm.loss
        logp = self._logprobs(mb)  # [K]

        def cat(attr: str) -> torch.Tensor:
            return torch.cat([getattr(samples[j], attr) for j in mb.samples]).to(self.device)

        behaviour = cat("actor_lp")
        proximal = cat("learner_lp") if self.cfg.algorithm.mrs.enabled else logp.detach()
        adv, w = cat("advantages"), torch.cat([weights[j] for j in mb.samples]).to(self.device)
        terms, isw = losses.policy_loss(
            logp,
            behaviour,
            proximal,
            adv,
            lc.decoupled,
            lc.is_cap,
            lc.clip_low,
            lc.clip_high,
            lc.dual_clip,
        )
        n = float(w.gt(0).sum())
        stats.add("clip_frac", float(terms.clipped.float().mean()), weight=n)
        stats.add("dual_clip_frac", float(terms.dual_clipped.float().mean()), weight=n)
        stats.add("is_weight", float(isw.mean()), weight=n)
        stats.add("response_nll", float(-logp.detach().mean()), weight=n)
        return (terms.loss * w).sum()

    def _nll_loss(
        self, mb: MicroBatch, samples: list[Sample], weights: list[torch.Tensor], stats: Stats
    ) -> torch.Tensor:
        """The supervised loss of one micro-batch: weighted negative log-likelihood, summed."""
        logp = self._logprobs(mb)  # [K]
        w = torch.cat([weights[j] for j in mb.samples]).to(self.device)
        stats.add("response_nll", float(-logp.detach().mean()), weight=float(w.gt(0).sum()))
        return -(logp * w).sum()

    def _grad_norm_before_step(self) -> float:
        """Global gradient norm for ZeRO stage 0, where DeepSpeed does not report one."""
        if self.cfg.trainer.zero_stage != 0:
            return float("nan")
        sq = sum(
            float(p.grad.double().pow(2).sum())
            for p in self.engine.module.parameters()
            if p.grad is not None
        )
        return sq**0.5

    # -----------------------------------------------------------------------------------
    # Weights out, checkpoints
    # -----------------------------------------------------------------------------------

    def state_dict_for_publish(self) -> Iterator[tuple[str, torch.Tensor]]:
        """(name, full tensor on the CPU) for every parameter, Hugging Face names.

        Under ZeRO-3 parameters are gathered in buckets of ~256 MiB, a collective: every
        rank must iterate to the end. Tensors are copies, safe to send while training goes on.
        """
        params = list(self.engine.module.named_parameters())
        if self.cfg.trainer.zero_stage != 3:
            for name, p in params:
                yield name, p.detach().to("cpu", copy=True)
            return
        bucket: list[tuple[str, torch.nn.Parameter]] = []
        size = 0
        for i, (name, p) in enumerate(params):
            bucket.append((name, p))
            size += p.ds_numel * p.element_size()
            if size >= _PUBLISH_BUCKET_BYTES or i == len(params) - 1:
                with deepspeed.zero.GatheredParameters([q for _, q in bucket]):
                    gathered = [(n, q.detach().to("cpu", copy=True)) for n, q in bucket]
                yield from gathered
                bucket, size = [], 0

    def save(self, directory: str | Path, tag: str) -> None:
        """DeepSpeed checkpoint (weights, optimizer, scheduler, PRS stream) under directory/tag."""
        self.engine.save_checkpoint(
            str(directory), tag=tag, client_state={"prs_rng": self.generator.get_state()}
        )
        if self.env.rank == 0:  # what `krl export` needs besides the weights
            (Path(directory) / BASE_MODEL_FILE).write_text(
                json.dumps({"base_model": str(Path(self.cfg.trainer.model).resolve())})
            )

    def load(self, directory: str | Path, tag: str) -> None:
        """Restore what save() wrote."""
        _, client = self.engine.load_checkpoint(str(directory), tag=tag)
        if client and "prs_rng" in client:
            self.generator.set_state(client["prs_rng"])

    @property
    def vocab_size(self) -> int:
        """Rows of the input embedding: a token id at or above it cannot be trained."""
        return int(self.engine.module.config.vocab_size)

    def nonfinite(self) -> str:
        """The first parameter or optimizer state tensor (of this rank's partition) holding
        NaN or Inf, as "what: name", or "" when all are finite. One device sync per device
        when all are finite (a flag per tensor, reduced on the device)."""
        named = [
            (f"parameter {n}", getattr(p, "ds_tensor", p))  # ZeRO-3: the local part
            for n, p in self.engine.module.named_parameters()
        ]
        opt = getattr(self.engine.optimizer, "optimizer", self.engine.optimizer)
        for i, state in enumerate(getattr(opt, "state", {}).values()):
            named += [
                (f"optimizer state {k} of parameter #{i}", v)
                for k, v in state.items()
                if torch.is_tensor(v) and v.is_floating_point()
            ]
        named = [(what, t.detach()) for what, t in named if t.numel()]
        by_device: dict[torch.device, list[torch.Tensor]] = {}
        for _, t in named:
            by_device.setdefault(t.device, []).append(torch.isfinite(t).all())
        if all(bool(torch.stack(flags).all()) for flags in by_device.values()):
            return ""
        return next(what for what, t in named if not bool(torch.isfinite(t).all()))

    @property
    def step(self) -> int:
        """Optimizer steps taken (restored by load())."""
        return int(self.engine.global_steps)


def _zero3_loading(ds_config: dict) -> Optional[object]:
    """Make from_pretrained build ZeRO-3 partitioned weights (the returned object must stay
    alive). Transformers needs `accelerate` for that; without it every rank loads the full
    model into CPU memory first and deepspeed.initialize partitions it."""
    if importlib.util.find_spec("accelerate") is None:
        log.warning(
            "accelerate is not installed: ZeRO-3 loads the full model on every rank "
            "before partitioning it"
        )
        return None
    from transformers.integrations import HfDeepSpeedConfig

    return HfDeepSpeedConfig(ds_config)


def _bare_sample(prompt: torch.Tensor, response: torch.Tensor) -> Sample:
    n = response.shape[0]
    return Sample(
        input_ids=torch.cat([prompt, response]).long(),
        prompt_len=prompt.shape[0],
        actor_lp=torch.zeros(n),
        advantages=torch.zeros(n),
        versions=torch.zeros(n, dtype=torch.int32),
        traj=0,
        turn=0,
    )


def _idle_micro_batch() -> MicroBatch:
    """Two tokens, one scored: what a rank with no work left forwards to keep in step."""
    return collate(
        [_bare_sample(torch.zeros(1, dtype=torch.long), torch.zeros(1, dtype=torch.long))],
        [0],
        packing=True,
    )
