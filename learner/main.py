"""The learner process: hub on rank 0 plus the DeepSpeed trainer on every rank.

The loop, as named steps:
  resume   newest complete checkpoint, if any: trainer state + hub state; the groups
           stored since then go back into the buffer (learner/hub.py)
  publish  the current weights as the current version, so (re)starting actors sync
  repeat until max_steps or a stop signal:
    wait     for groups_per_step fresh groups (idle time counted)
    share    rank 0 sends every rank its slice of the batch
    train    one optimizer step (learner/trainer.py; none if the batch has no signal)
    advance  the hub marks the groups trained; the policy version is the step count
    publish  every publish_every steps
    record   metrics and progress.json
    save     a checkpoint every checkpoint_every steps; then trained group files go
  save     a final checkpoint

Progress lives in `<run_dir>/learner/progress.json` (rewritten atomically each step):
steps, version, group counts and the per-step history: reward, correctness, entropy, KL to
the starting policy, and per turn reward, correctness, Fast@1 and the share of each verdict.
A SIGTERM or SIGINT (to any rank) sets a flag; the ranks agree on it before each step,
finish the step, checkpoint and exit 0.
"""

from __future__ import annotations

import json
import logging
import os
import sys
import time
from pathlib import Path
from typing import Optional, Sequence

import msgspec
import torch
import torch.distributed as dist

from common.config import MetricsConfig, RunConfig, dump
from common.config.hub import HubConfig
from common.exits import NON_FINITE
from common.jsonfile import load_json_state, read_json, read_json_checked, write_json_atomic
from common.log import setup
from common.messages import TrajectoryGroup, decode, encode, pack_frames, unpack_frames
from common.metrics import Metrics
from common.run_records import (
    HubCounts,
    Progress,
    StepRecord,
    progress_path,
    read_progress,
    write_record,
)
from common.runlock import LockHeld, RunLock
from common.stop import StopFlag
from learner import batch as B
from learner.checkpoint import Checkpoints
from learner.group_checks import group_error
from learner.group_store import GroupStore
from learner.hub import Hub, PromptSource, oldest_version
from learner.hub_server import HubServer
from learner.start_checks import check_start
from learner.stats import learning_by_turn
from learner.trainer import Trainer

LEARNER_LOCK = "learner.lock"
MAX_BATCH_ATTEMPTS = 2  # processes that may die training one batch before it is quarantined
log = logging.getLogger("krl.learner")


def _share(
    groups: Optional[list[TrajectoryGroup]], rank: int, world: int, device: torch.device
) -> Optional[list[TrajectoryGroup]]:
    """Rank 0's batch on every rank; None everywhere when rank 0 has none (the stop
    signal). Sent as msgpack frames, not pickle, through `device` (NCCL carries only
    GPU tensors)."""
    if world == 1:
        return groups
    blob = pack_frames([pack_frames(encode(g)) for g in groups]) if rank == 0 and groups else b""
    size = torch.tensor([len(blob)], dtype=torch.int64, device=device)
    dist.broadcast(size, 0)
    if int(size) == 0:
        return None
    buf = (
        torch.frombuffer(bytearray(blob), dtype=torch.uint8).to(device)
        if rank == 0
        else torch.empty(int(size), dtype=torch.uint8, device=device)
    )
    dist.broadcast(buf, 0)
    return [
        decode(unpack_frames(part), expect=TrajectoryGroup)
        for part in unpack_frames(buf.cpu().numpy())
    ]


def _any_rank(flag: bool, world: int, device: torch.device) -> bool:
    """Whether any rank has `flag` set. A signal reaches ranks at different points of a
    step; deciding together keeps every rank in the same collectives (a rank leaving the
    loop alone would meet its peers' broadcast with its checkpoint save and hang)."""
    if world == 1:
        return flag
    t = torch.tensor([int(flag)], dtype=torch.int64, device=device)
    dist.all_reduce(t, op=dist.ReduceOp.MAX)
    return bool(t)


class Learner:
    """Wires the trainer, the hub and checkpoints together; `run()` is the loop."""

    def __init__(self, cfg: RunConfig, problems: Optional[list] = None):
        self.cfg, self.lc = cfg, cfg.learner
        self.run_dir = Path(cfg.run_dir)
        if problems is None:  # `krl learner` checked them before its imports (learner.cli)
            problems = check_start(self.lc)  # before the model loads: fail fast
        self.trainer = Trainer(self.lc, seed=cfg.seed)
        self.rank, self.world = self.trainer.env.rank, self.trainer.env.world_size
        self.metrics = Metrics(
            "learner",
            _rank_metrics(self.lc.metrics, self.trainer.env.local_rank),
            health=self._health,
        )
        self.checkpoints = Checkpoints(self.run_dir / "checkpoints", keep=self.lc.checkpoint_keep)
        self._attempts_path = self.run_dir / "learner" / "training.json"
        self._loop_at = time.monotonic()  # the loop's last sign of life (see _health)
        self._model_touched = False  # resume() started loading a checkpoint's weights
        self.history: list[StepRecord] = []
        # Batches trained: the learner's step and (on rank 0) the policy version. Not the
        # optimizer's count, which skips a batch without signal (every reward equal).
        self.step = 0
        self.hub: Optional[Hub] = None
        self.server: Optional[HubServer] = None
        if self.rank == 0:
            hub_cfg = HubConfig.of(self.lc.hub, cfg.hub_link)
            self.hub = Hub(
                hub_cfg,
                self.lc.groups_per_step,
                self.lc.max_staleness,
                self.lc.n_samples,
                self.lc.max_turns,
                PromptSource(problems, cfg.seed),
                GroupStore(self.run_dir / "hub" / "groups"),
                self.metrics,
                vocab_size=self.trainer.vocab_size,
            )
            self.server = HubServer(self.hub, hub_cfg, cfg.transport, self.metrics)
        self._m_steps = self.metrics.counter("steps_total", "Optimizer steps taken")
        self._m_tokens = self.metrics.counter("tokens_total", "Tokens trained on")
        self._m_idle = self.metrics.counter("idle_seconds_total", "Seconds spent waiting for data")
        self._m_busy = self.metrics.counter("busy_seconds_total", "Seconds spent training")
        self._m_version = self.metrics.gauge("policy_version", "Current policy version")
        self._m_ckpt = self.metrics.histogram("checkpoint_seconds", "Seconds to write a checkpoint")
        self._m_step = self.metrics.gauge(
            "step_stat", "Statistics of the last step", ["stat", "turn"]
        )

    def _health(self) -> tuple[bool, dict]:
        """Unhealthy when the hub thread is gone or rank 0's loop has stalled
        (stall_after_s). Other ranks wait in a broadcast while rank 0 waits for data, so
        only rank 0's loop says whether the learner moves."""
        since = time.monotonic() - self._loop_at
        stalled = self.rank == 0 and since >= self.lc.stall_after_s
        ok = (self.server is None or self.server.healthy) and not stalled
        return ok, {
            "version": self.hub.version if self.hub else None,
            "loop_seconds_ago": round(since, 1),
        }

    # ------------------------------------------------------------------ steps
    def resume(self) -> None:
        """Load the newest checkpoint that verifies; a damaged newer one is set aside and
        the fallback recorded in learner/recovery.json (krl run reports it)."""
        skipped = []
        for path in reversed(self.checkpoints.named()):
            problem = self.checkpoints.verify(path) if self.rank == 0 else ""
            if self.world > 1:  # every rank takes the same checkpoint
                problem = _broadcast_text(problem, self.trainer.device)
            if not problem:
                try:
                    self._load(path)
                except Exception as exc:  # noqa: BLE001 (whatever a damaged file raises)
                    problem = f"failed to load: {type(exc).__name__}: {exc}"[:500]
            if not problem:
                break
            log.error(
                "checkpoint %s is damaged (%s): set aside, falling back to an older one",
                path,
                problem,
            )
            skipped.append({"checkpoint": path.name, "reason": problem})
            if self.rank == 0:
                self.checkpoints.set_aside(path)
        else:
            path = None
            if self._model_touched:  # a rejected checkpoint's weights are in the engine
                if self.rank == 0:
                    self._record_fallback(skipped, None)
                raise RuntimeError(
                    "no checkpoint could be loaded and a damaged one was partly "
                    "loaded; exiting so that the restart starts from fresh "
                    f"weights (set aside: {[s['checkpoint'] for s in skipped]})"
                )
            self.history, self.step = [], 0
            log.info("no usable checkpoint in %s: starting fresh", self.checkpoints.root)
            if self.hub is not None:  # groups acked before a crash that preceded any checkpoint
                self.hub.load_state_dict(self.hub.state_dict())
        if path is not None:
            log.info("resumed from %s (step %d)", path, self.step)
        if skipped and self.rank == 0:
            self._record_fallback(skipped, path)
        if self.hub is not None:
            self._quarantine_crashing_batch()

    def _note_attempt(self, groups: Sequence[TrajectoryGroup]) -> None:
        """Record, before a step, which groups it trains and how many processes have
        started training exactly these (learner/training.json; cleared after the step)."""
        ids = [g.group_id for g in groups]
        prev = read_json(self._attempts_path)
        attempts = prev.get("attempts", 0) + 1 if prev.get("groups") == ids else 1
        write_json_atomic(
            self._attempts_path, {"groups": ids, "attempts": attempts, "step": self.step + 1}
        )

    def _quarantine_crashing_batch(self) -> None:
        """A batch whose step killed the learner MAX_BATCH_ATTEMPTS times (a crash no check
        foresaw: out of memory, a segfault) would kill every restart: its groups are
        quarantined and their prompts handed out again."""
        prev = read_json(self._attempts_path)
        if prev.get("attempts", 0) < MAX_BATCH_ATTEMPTS:
            return
        log.error(
            "the learner died %d times training the groups %s: quarantining them",
            prev["attempts"],
            prev["groups"],
        )
        for gid in prev["groups"]:
            if gid in self.hub.buffer:
                self.hub.quarantine(
                    gid,
                    f"the learner died {prev['attempts']} times training "
                    f"step {prev.get('step')}, which held it",
                )
        write_json_atomic(self._attempts_path, {})

    def _load(self, path: Path) -> None:
        progress = read_progress(path / "progress.json", required=True)
        hub_state = load_json_state(path / "hub.json") if self.hub is not None else None
        self._model_touched = True
        self.trainer.load(path / "model", tag="model")
        problem = self.trainer.nonfinite()
        if problem:
            raise ValueError(f"the loaded state is not finite: {problem}")
        self.history = progress.history
        self.step = progress.learner_steps
        if hub_state is not None:
            self.hub.load_state_dict(hub_state)

    def _record_fallback(self, skipped: list[dict], used: Optional[Path]) -> None:
        """Append the fallback to learner/recovery.json: krl run's console and summary say
        what was rolled back and which prompts are generated again."""
        path = self.run_dir / "learner" / "recovery.json"
        data, damaged = read_json_checked(path)
        if damaged:  # the fallbacks it held are unknown now: said, and kept in the record
            aside = path.with_name(path.name + ".damaged")
            os.replace(path, aside)
            log.error(
                "%s; moved to %s (the checkpoint fallbacks it recorded are unknown)", damaged, aside
            )
        events = data.get("events", [])
        lost = [*data.get("damaged_records", []), *([damaged] if damaged else [])]
        events.append(
            {
                "t": round(time.time(), 3),
                "skipped": skipped,
                "resumed_from": used.name if used else None,
                "step": self.step,
                "regenerated_prompts": list(self.hub.regenerated) if self.hub else [],
            }
        )
        write_json_atomic(
            path, {"events": events, **({"damaged_records": lost} if lost else {})}, indent=2
        )
        log.error(
            "CHECKPOINT FALLBACK: skipped %s; resumed from %s (step %d); %d prompts "
            "generated again",
            [s["checkpoint"] for s in skipped],
            used.name if used else "nothing",
            self.step,
            len(self.hub.regenerated) if self.hub else 0,
        )

    def publish(self) -> None:
        weights = self.trainer.state_dict_for_publish()  # a collective under ZeRO-3
        if self.server is not None:
            nbytes = self.server.publish(self.hub.version, weights)
            log.info("published version %d (%.1f MB)", self.hub.version, nbytes / 1e6)
        else:
            for _ in weights:
                pass

    def save(self) -> None:
        t0 = time.perf_counter()
        step = self.step
        problem = self.trainer.nonfinite()
        if problem:  # never write a checkpoint that would carry it into every resume
            raise NonFiniteState(f"not saving step {step}: {problem}")

        def write(d: Path) -> None:
            self.trainer.save(d / "model", tag="model")
            if self.hub is not None:
                (d / "hub.json").write_text(json.dumps(self.hub.state_dict()))
            write_record(d / "progress.json", self._progress())

        if self.rank == 0:
            self.checkpoints.save(step, write, meta={"version": self.hub.version})
            self.hub.checkpoint_done()
        else:  # DeepSpeed's save is a collective: other ranks write their shards too
            self.trainer.save(
                self.checkpoints.root / f".step_{step:08d}.tmp" / "model", tag="model"
            )
        self._m_ckpt.observe(time.perf_counter() - t0)

    def wait_for_batch(self, stop: StopFlag) -> Optional[list[TrajectoryGroup]]:
        """Rank 0: the next batch, or None when asked to stop. A group that cannot be
        trained (learner.group_checks.group_error, or one the batch code refuses) is quarantined
        and the batch taken again without it."""
        last_log = time.perf_counter()
        batch = None
        while not stop.set and batch is None:
            self._loop_at = time.monotonic()
            t0 = time.perf_counter()
            batch = self.hub.take_batch(self.lc.batch_timeout_s)
            if batch is not None and not self._trainable(batch):
                batch = None
                continue
            # Counted per wait, not per batch: a starved learner's idle time must keep rising.
            self._m_idle.inc(time.perf_counter() - t0)
            if batch is None and time.perf_counter() - last_log > 30:
                log.info("waiting for data: %s", self.hub.counts())
                last_log = time.perf_counter()
        return batch

    def _trainable(self, batch: Sequence[TrajectoryGroup]) -> bool:
        """Quarantine the groups of `batch` that cannot be trained; whether none was."""
        ok = True
        for g in batch:
            problem = group_error(g, self.hub.vocab_size)
            if problem:
                self.hub.quarantine(g.group_id, problem)
                ok = False
        return ok

    def train(self, groups: Sequence[TrajectoryGroup]) -> dict:
        """One step on the batch; every rank trains its token-balanced share of whole groups."""
        t0 = time.perf_counter()
        shard = B.shard_groups(list(groups), self.world)[self.rank]
        if self.rank == 0:
            self._note_attempt(groups)
        stats = self.trainer.train_step(shard, version=self.step)
        if self.rank == 0:
            write_json_atomic(self._attempts_path, {})
        problem = self.trainer.nonfinite()
        if problem:  # stop before the weights are published or checkpointed
            raise NonFiniteState(
                f"step {self.step + 1} (groups {[g.group_id for g in groups]}) "
                f"made the model state non-finite: {problem}"
            )
        self.step += 1
        if self.hub is not None:
            self.hub.mark_trained([g.group_id for g in groups])
        self._m_busy.inc(time.perf_counter() - t0)
        self._record(stats, groups)
        return stats

    def _record(self, stats: dict, groups: Sequence[TrajectoryGroup]) -> None:
        self._m_steps.inc()
        self._m_tokens.inc(stats.get("tokens", 0.0))
        for key, value in stats.items():
            base, _, turn = key.rpartition("_turn")
            if not (base and turn.isdigit()):
                base, turn = key, ""
            self._m_step.labels(base, turn).set(float(value))
        version = self.hub.version if self.hub else self.step
        self._m_version.set(version)
        # Versions behind at training time: the weights trained are version step - 1.
        lags = [self.step - 1 - oldest_version(g) for g in groups]
        self.history.append(
            StepRecord(
                step=self.step,
                version=version,
                t=round(time.time(), 3),
                groups=[g.group_id for g in groups],
                tokens=stats.get("tokens"),
                staleness_mean=sum(lags) / len(lags) if lags else None,
                staleness_max=max(lags, default=None),
                reward=stats.get("reward"),
                correct=stats.get("correct"),
                loss=stats.get("loss"),
                seconds=stats.get("step_seconds"),
                mismatch_kl=stats.get("mismatch_kl"),
                mrs_rejected=stats.get("mrs_traj_rejected_frac"),
                mrs_stale=stats.get("mrs_stale_traj_frac"),
                entropy=stats.get("entropy"),
                kl_to_start=stats.get("kl_to_start"),
                hacks_rewarded=stats.get("hacks_rewarded", 0.0),
                turns=learning_by_turn(stats),
            )
        )
        if self.rank == 0:
            write_record(progress_path(self.run_dir), self._progress())

    def _progress(self) -> Progress:
        if self.hub is None:
            return Progress(learner_steps=self.step, history=self.history)
        hub = msgspec.convert(self.hub.counts(), HubCounts)
        return Progress(
            learner_steps=self.step,
            policy_version=hub.version,
            groups_trained=hub.trained_total,
            hub=hub,
            history=self.history,
        )

    # ------------------------------------------------------------------ loop
    def run(self) -> int:
        stop = StopFlag()
        self.resume()
        if self.server is not None:
            self.server.start()
        self.metrics.start()
        self.publish()
        device = self.trainer.device
        while self.step < self.lc.max_steps and not _any_rank(stop.set, self.world, device):
            groups = self.wait_for_batch(stop) if self.rank == 0 else None
            groups = _share(groups, self.rank, self.world, device)
            if groups is None:
                break
            self._loop_at = time.monotonic()
            stats = self.train(groups)
            self._loop_at = time.monotonic()
            update = (
                f"loss {stats.get('loss', float('nan')):.4f}"
                if stats.get("optimizer_step")
                else "no update: every token's weight was 0 (equal rewards, or MRS)"
            )
            log.info(
                "step %d: reward %.3f correct %.2f %s (%.1fs)",
                self.step,
                stats.get("reward", float("nan")),
                stats.get("correct", float("nan")),
                update,
                stats.get("step_seconds", 0.0),
            )
            if self.step % self.lc.publish_every == 0:
                self.publish()
                self._loop_at = time.monotonic()
            if self.step % self.lc.checkpoint_every == 0:
                self.save()
        self.save()
        if self.server is not None:
            self.server.stop()
        self.metrics.stop()
        log.info("learner stopped at step %d", self.step)
        return 0


class NonFiniteState(RuntimeError):
    """A step left NaN or Inf in the weights or optimizer state: the learner stops (exit
    NON_FINITE) instead of publishing or checkpointing it."""


def _broadcast_text(text: str, device: torch.device) -> str:
    """Rank 0's string on every rank."""
    blob = text.encode()
    size = torch.tensor([len(blob)], dtype=torch.int64, device=device)
    dist.broadcast(size, 0)
    buf = torch.zeros(int(size), dtype=torch.uint8, device=device)
    if dist.get_rank() == 0 and blob:
        buf.copy_(torch.frombuffer(bytearray(blob), dtype=torch.uint8))
    if int(size):
        dist.broadcast(buf, 0)
    return bytes(buf.cpu().numpy()).decode()


def _rank_metrics(cfg: MetricsConfig, local_rank: int) -> MetricsConfig:
    """Ranks of one node serve on port + local_rank, so a fixed port does not collide."""
    if cfg.port == 0 or local_rank == 0:
        return cfg
    return cfg.model_copy(update={"port": cfg.port + local_rank})


def run(cfg: RunConfig, problems: Optional[list] = None) -> int:
    from learner.process_group import process_group_env

    rank = process_group_env().rank
    setup("learner", rank, cfg.log)
    log.info("resolved config:\n%s", dump(cfg))
    lock = RunLock(Path(cfg.run_dir) / "learner" / LEARNER_LOCK, "krl learner")
    if rank == 0:  # one learner per run directory: a previous one may still be checkpointing
        try:
            lock.acquire(
                cfg.learner.lock_wait_s,
                on_wait=lambda holder: log.warning(
                    "waiting for the previous learner of this run directory (%s) to stop", holder
                ),
            )
        except LockHeld as exc:
            log.error(
                "another learner still owns this run directory after %.0fs: %s",
                cfg.learner.lock_wait_s,
                exc,
            )
            return 1
    try:
        code = Learner(cfg, problems).run()
    except NonFiniteState as exc:
        log.error("%s", exc)
        print(f"krl learner: cannot continue: {exc}", file=sys.stderr, flush=True)
        code = NON_FINITE
    if dist.is_initialized():  # one rank too: its teardown can abort the same way
        leave_together(code)
    return code


def leave_together(code: int) -> None:
    """End a multi-rank process: meet every rank at a barrier (all collectives are done,
    checkpoints written), then exit at once without tearing the process group down.
    A rank still destroying its group (which talks to the store on rank 0) when a faster
    peer has already exited dies with "terminate called without an active exception"
    (SIGABRT) in C++ teardown; after the barrier there is nothing left to tear down that
    the exit itself does not release. A single rank's interpreter exit aborted the same way
    once (after a non-finite stop, under load): the supervisor read exit 65 as a crash (-6)
    and ran the bad step again, so every rank leaves through here."""
    dist.barrier()
    logging.shutdown()
    sys.stdout.flush()
    sys.stderr.flush()
    os._exit(code)
