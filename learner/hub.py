"""The hub's bookkeeping: the one owner of training progress (learner rank 0).

It decides which prompt goes to which actor and which groups get trained:
- A lease is granted only while admission control allows it, counting the lease:
      accepted + in_flight <= (max_staleness + v + 1) * groups_per_step
  (accepted counts every group ever stored, trained or not), and while the buffer of
  untrained groups has room. Groups are trained in the order they are accepted, so the
  next lease's group is trained after the (accepted + in_flight) before it, at version
  (accepted + in_flight) // groups_per_step; the bound keeps that within max_staleness
  of v. v is the hub's version, or the requesting actor's policy_version if older: an
  actor that has not loaded the newest weights yet gets no lease whose group would be
  stale when trained (stale at birth); it is told to retry, and asks again as soon as
  newer weights load. An actor holding the newest weights gets every lease the hub's
  bound allows. (policy_version < 0: the actor did not say; only the hub's bound.)
  With hub.synchronous, only actors holding the newest weights get leases at all.
- A lease not returned within lease_timeout_s expires; its prompt is handed out again.
- A group is accepted at most once per prompt: a resend (same group id), a late group
  from an expired lease, or a second group for a prompt already done is acked
  `duplicate` and dropped. Any other group for a prompt of this data set is accepted,
  even without a live lease (its lease may predate a hub restart); the cursor skips
  prompts already done. A group naming a prompt outside the data set, or whose
  problem does not match the prompt, is `rejected`.
- A group is acked `accepted` only after GroupStore has made it durable and the
  ledger (learner/ledger.py) has a line for it; training, dropping and re-buffering a
  group are ledger lines too, so `krl run` can reconcile every group's fate.
- A group whose oldest token is more than max_staleness versions behind is `stale`
  (dropped, counted, its prompt re-issued), both on arrival and when a batch is taken;
  so is a group the hub server marks `rolled_back` (made in part by weights a learner
  restart discarded: learner/hub_server.py).

State that must survive a learner crash (`state_dict`): the data cursor, version,
counters, outstanding leases, prompts waiting for re-issue, the prompts already done
and the ids of groups stored but not yet trained. Group payloads live in GroupStore;
on restore every stored group not marked trained goes back into the buffer, except one
with a token newer than the restored version: the weights that made it were discarded
with the rollback (their version numbers will name other weights), so it is dropped
(ledger reason `rolled_back`) and its prompt re-issued, as an arriving one would be.

Thread safety: the hub server thread (leases, groups) and the trainer thread
(take_batch, mark_trained) share one Hub; every public method takes the lock.
"""

from __future__ import annotations

import logging
import random
import threading
import time
from collections import OrderedDict, deque
from dataclasses import asdict, dataclass
from typing import Callable, Optional, Sequence

from common.config.hub import HubConfig
from common.log import RateLimitedLog
from common.messages import Lease, ProblemPayload, TrajectoryGroup, new_id
from common.metrics import Metrics
from learner.group_checks import group_error, group_id_error
from learner.group_store import GroupStore
from learner.ledger import read as read_ledger
from learner.ledger import trained_by_step

log = logging.getLogger(__name__)


class PromptSource:
    """Cycles through the prompt set, reshuffled each epoch with a seeded RNG."""

    def __init__(self, problems: Sequence[ProblemPayload], seed: int):
        if not problems:
            raise ValueError("the prompt set is empty")
        self.problems = list(problems)
        self.seed = seed
        self.epoch, self.index = 0, 0
        self._order = self._permutation(0)

    def _permutation(self, epoch: int) -> list[int]:
        order = list(range(len(self.problems)))
        random.Random(self.seed * 1_000_003 + epoch).shuffle(order)
        return order

    def next(self) -> tuple[str, ProblemPayload]:
        if self.index >= len(self._order):
            self.epoch, self.index = self.epoch + 1, 0
            self._order = self._permutation(self.epoch)
        prompt_id = f"e{self.epoch}-i{self.index}"
        problem = self.problems[self._order[self.index]]
        self.index += 1
        return prompt_id, problem

    def problem_for(self, prompt_id: str) -> Optional[ProblemPayload]:
        """The problem behind a prompt id, or None if the id is not one of ours."""
        try:
            e, i = prompt_id.split("-")
            epoch, index = int(e.removeprefix("e")), int(i.removeprefix("i"))
        except ValueError:
            return None
        if not (
            prompt_id == f"e{epoch}-i{index}"
            and 0 <= epoch < 1_000_000
            and 0 <= index < len(self.problems)
        ):
            return None  # only the spelling next() makes: "e00-i1" must not pass for "e0-i1"
        return self.problems[self._permutation(epoch)[index]]

    def state_dict(self) -> dict:
        return {"epoch": self.epoch, "index": self.index, "seed": self.seed}

    def load_state_dict(self, state: dict) -> None:
        self.seed, self.epoch, self.index = state["seed"], state["epoch"], state["index"]
        self._order = self._permutation(self.epoch)


@dataclass
class LeaseRecord:
    lease_id: str
    prompt_id: str
    actor_id: str
    expires_at: float  # wall clock, so that it means the same after a restart


class Hub:
    """Leases, inbox, buffer and progress counters. See the module docstring."""

    def __init__(
        self,
        cfg: HubConfig,
        groups_per_step: int,
        max_staleness: int,
        n_samples: int,
        max_turns: int,
        source: PromptSource,
        store: GroupStore,
        metrics: Metrics,
        clock: Callable[[], float] = time.time,
        vocab_size: Optional[int] = None,
    ):
        self.cfg, self.source, self.store, self.clock = cfg, source, store, clock
        self.vocab_size = vocab_size  # the model's: token ids at or above it are refused
        self.groups_per_step, self.max_staleness = groups_per_step, max_staleness
        self.n_samples, self.max_turns = n_samples, max_turns
        self.version = 0
        self.hub_id = ""  # this incarnation's id, set by the HubServer (learner/hub_server.py)
        # Earlier incarnations whose weights this one descends from: hub_id -> the newest of
        # their versions that survives (the version this lineage resumed from after them).
        self.lineage: dict[str, int] = {}
        self.accepted_total = 0
        self.trained_total = 0
        self.leases: dict[str, LeaseRecord] = {}
        self.requeue: deque[str] = deque()  # prompt ids to hand out again
        self.done_prompts: set[str] = set()  # prompts with an accepted group
        self.trained_prompts: set[str] = set()  # prompts whose group was trained
        self.buffer: "OrderedDict[str, TrajectoryGroup]" = OrderedDict()  # group_id -> group
        self.pending_removal: list[str] = []  # trained, file kept until a checkpoint
        self.regenerated: list[str] = []  # prompts re-issued by a checkpoint fallback
        self._lock = threading.Condition()
        self._m_leases = metrics.counter("leases_granted_total", "Work leases granted")
        self._m_expired = metrics.counter("leases_expired_total", "Leases that timed out")
        self._m_withheld = metrics.counter(
            "leases_withheld_total",
            "Leases the hub's bound allowed but an actor did not get: "
            "its weights would be more than max_staleness behind when the group is trained",
        )
        self._m_groups = metrics.counter(
            "groups_received_total", "Groups received by outcome", ["outcome"]
        )
        self._m_quarantined = metrics.counter(
            "groups_quarantined_total",
            "Stored groups moved aside because they could not be "
            "read or trained (their prompts are re-issued)",
        )
        self._warn = RateLimitedLog(log, interval_s=10.0)
        self._m_stale = metrics.histogram(
            "group_staleness_versions",
            "Versions between a group's oldest token and the learner",
            buckets=(0, 1, 2, 3, 4, 6, 8, 16),
        )
        self._m_buffer = metrics.gauge("buffer_groups", "Accepted groups waiting for training")
        self._m_inflight = metrics.gauge("leases_in_flight", "Leases outstanding")

    # ------------------------------------------------------------------ leases
    def _admissible(self, weights_version: int) -> int:
        """How many more leases keep every group they produce, generated with weights
        `weights_version`, within max_staleness when it is trained; and the buffer bound."""
        bound = (self.max_staleness + weights_version + 1) * self.groups_per_step
        by_staleness = bound - self.accepted_total - len(self.leases)
        by_buffer = self.cfg.max_buffered_groups - len(self.buffer) - len(self.leases)
        return max(0, min(by_staleness, by_buffer))

    def grant(
        self, actor_id: str, max_groups: int, policy_version: int = -1
    ) -> tuple[list[Lease], float]:
        """Leases for up to max_groups prompts, and how long to wait if none.
        policy_version: the version of the actor's loaded weights (-1: not stated)."""
        with self._lock:
            self._expire_locked()
            if self.cfg.synchronous and policy_version < self.version:
                return [], self.cfg.retry_after_s  # lockstep: load the newest weights first
            allowed = min(max_groups, self._admissible(self.version))
            n = allowed
            if policy_version >= 0:
                n = min(allowed, self._admissible(min(policy_version, self.version)))
                self._m_withheld.inc(allowed - n)
            leases = []
            for _ in range(n):
                prompt_id = self._next_prompt()
                rec = LeaseRecord(
                    new_id(), prompt_id, actor_id, self.clock() + self.cfg.lease_timeout_s
                )
                self.leases[rec.lease_id] = rec
                leases.append(
                    Lease(
                        lease_id=rec.lease_id,
                        prompt_id=prompt_id,
                        problem=self.source.problem_for(prompt_id),
                        n_samples=self.n_samples,
                        max_turns=self.max_turns,
                        expires_in_s=self.cfg.lease_timeout_s,
                    )
                )
            self._m_leases.inc(len(leases))
            self._gauges()
            return leases, (0.0 if leases else self.cfg.retry_after_s)

    def _next_prompt(self) -> str:
        while self.requeue:
            prompt_id = self.requeue.popleft()
            if prompt_id not in self.done_prompts:
                return prompt_id
        while True:  # after a restore the cursor may pass prompts done since the checkpoint
            prompt_id = self.source.next()[0]
            if prompt_id not in self.done_prompts:
                return prompt_id

    def _expire_locked(self) -> None:
        t = self.clock()
        for lid in [lid for lid, rec in self.leases.items() if rec.expires_at <= t]:
            rec = self.leases.pop(lid)
            if rec.prompt_id not in self.done_prompts:
                self.requeue.append(rec.prompt_id)
            self._m_expired.inc()
            log.warning(
                "lease %s for %s (actor %s) expired; prompt re-issued",
                lid[:8],
                rec.prompt_id,
                rec.actor_id,
            )

    # ------------------------------------------------------------------ groups
    def receive(self, group: TrajectoryGroup, frames: Sequence) -> tuple[str, str]:
        """Store or drop one group; returns (outcome, detail) for the Ack."""
        with self._lock:
            outcome, detail = self._classify(group)
            if outcome == "accepted":
                self.store.put(group.group_id, frames)  # durable before the ack
                self.store.ledger.append(
                    "accepted",
                    group_id=group.group_id,
                    prompt_id=group.prompt_id,
                    version=self.version,
                    evaluations=group.evaluations,
                )
                self.accepted_total += 1
                self.done_prompts.add(group.prompt_id)
                self.buffer[group.group_id] = group
                self._release_prompt(group.prompt_id)
                self._lock.notify_all()
            elif outcome == "stale":
                self._release_prompt(group.prompt_id)
                self.requeue.append(group.prompt_id)
            elif outcome == "rejected":
                self._warn.warning(
                    "rejected",
                    "rejected group %r from actor %r: %s",
                    group.group_id[:40],
                    group.actor_id[:40],
                    detail,
                )
            self._m_groups.labels(outcome).inc()
            self._gauges()
            return outcome, detail

    def _classify(self, group: TrajectoryGroup) -> tuple[str, str]:
        problem = group_id_error(group)
        if problem:  # before any lookup: the group id would name a file
            return "rejected", problem
        if group.group_id in self.buffer or group.prompt_id in self.done_prompts:
            return "duplicate", "this prompt already has an accepted group"
        problem = self.source.problem_for(group.prompt_id)
        if problem is None:
            return "rejected", f"prompt {group.prompt_id[:64]!r} is not in this hub's data set"
        if problem.name != group.problem_name:
            return "rejected", (
                f"prompt {group.prompt_id} is {problem.name!r}, "
                f"the group says {group.problem_name[:64]!r}"
            )
        if group.rolled_back:  # its behaviour policy died with a learner restart
            return "stale", "generated in part by weights a learner restart discarded"
        problem = group_error(group, self.vocab_size, self.version, self.n_samples, self.max_turns)
        if problem:
            return "rejected", problem
        lag = self.version - oldest_version(group)
        self._m_stale.observe(max(0, lag))
        if lag > self.max_staleness:
            return "stale", f"{lag} versions behind (max {self.max_staleness})"
        return "accepted", ""

    def _release_prompt(self, prompt_id: str) -> None:
        for lid in [lid for lid, r in self.leases.items() if r.prompt_id == prompt_id]:
            del self.leases[lid]
        try:
            self.requeue.remove(prompt_id)
        except ValueError:
            pass

    # ------------------------------------------------------------------ trainer side
    def take_batch(self, timeout_s: float) -> Optional[list[TrajectoryGroup]]:
        """The oldest groups_per_step fresh groups, or None if they did not arrive in time.
        Groups that went stale while buffered are dropped and their prompts re-issued."""
        deadline = time.monotonic() + timeout_s
        with self._lock:
            while True:
                self._drop_stale_locked()
                if len(self.buffer) >= self.groups_per_step:
                    ids = list(self.buffer)[: self.groups_per_step]
                    return [self.buffer[g] for g in ids]
                left = deadline - time.monotonic()
                if left <= 0:
                    return None
                self._lock.wait(min(left, 0.5))
                self._expire_locked()

    def quarantine(self, group_id: str, reason: str, prompt_id: Optional[str] = None) -> None:
        """A stored group cannot be read or trained: its file is moved aside
        (GroupStore.quarantine, a ledger line), it leaves the buffer and its prompt is
        handed out again, so the run goes on without it and nothing replays it."""
        with self._lock:
            group = self.buffer.pop(group_id, None)
            prompt_id = group.prompt_id if group is not None else prompt_id
            if group is not None:
                self.accepted_total -= 1
            if prompt_id is not None and self.source.problem_for(prompt_id) is None:
                prompt_id = None  # not one of ours: nothing to hand out again
            if prompt_id is not None and prompt_id not in self.trained_prompts:
                self.done_prompts.discard(prompt_id)
                self._release_prompt(prompt_id)
                self.requeue.append(prompt_id)
            self.store.quarantine(group_id, reason, prompt_id)
            self._m_quarantined.inc()
            self._gauges()
        log.error(
            "group %s quarantined (%s); %s",
            group_id,
            reason,
            f"its prompt {prompt_id} is handed out again"
            if prompt_id
            else "its prompt is unknown (no ledger line)",
        )

    def _drop_stale_locked(self) -> None:
        for gid, g in list(self.buffer.items()):
            if self.version - oldest_version(g) > self.max_staleness:
                del self.buffer[gid]
                self.done_prompts.discard(g.prompt_id)
                self.requeue.append(g.prompt_id)
                self.accepted_total -= 1
                self.store.remove([gid])
                self.store.ledger.append("dropped", group_id=gid, reason="stale")
                self._m_groups.labels("stale_in_buffer").inc()

    def mark_trained(self, group_ids: Sequence[str]) -> None:
        """The trainer finished a step on these groups: the policy version advances."""
        with self._lock:
            for gid in group_ids:
                self.trained_prompts.add(self.buffer.pop(gid).prompt_id)
            self.pending_removal.extend(group_ids)
            self.trained_total += len(group_ids)
            self.version += 1
            self.store.ledger.append("trained", step=self.version, group_ids=list(group_ids))
            self._gauges()
            self._lock.notify_all()

    def checkpoint_done(self) -> None:
        """A checkpoint covering every trained group is complete: drop their files."""
        with self._lock:
            removal, self.pending_removal = self.pending_removal, []
        self.store.remove(removal)

    def _gauges(self) -> None:
        self._m_buffer.set(len(self.buffer))
        self._m_inflight.set(len(self.leases))

    # ------------------------------------------------------------------ persistence
    def state_dict(self) -> dict:
        with self._lock:
            return {
                "version": self.version,
                "accepted_total": self.accepted_total,
                "hub_id": self.hub_id,
                "lineage": dict(self.lineage),
                "trained_total": self.trained_total,
                "source": self.source.state_dict(),
                "leases": [asdict(r) for r in self.leases.values()],
                "requeue": list(self.requeue),
                "trained_prompts": sorted(self.trained_prompts),
            }

    def load_state_dict(self, state: dict) -> None:
        """Restore from a checkpoint, then re-buffer every stored group it did not train."""
        with self._lock:
            self.version, self.trained_total = state["version"], state["trained_total"]
            self.lineage = dict(state.get("lineage", {}))
            if state.get("hub_id") and state["hub_id"] != self.hub_id:
                self.lineage[state["hub_id"]] = state["version"]  # it wrote this checkpoint
            self.accepted_total = state["trained_total"]
            self.source.load_state_dict(state["source"])
            self.leases = {r["lease_id"]: LeaseRecord(**r) for r in state["leases"]}
            self.requeue = deque(state["requeue"])
            self.trained_prompts = set(state["trained_prompts"])
            self.done_prompts = set(self.trained_prompts)
            self.buffer.clear()
            self.pending_removal = []
            trained_ids, rolled_back, quarantined = [], [], []
            # A learner killed between a group's file and its ledger line left a durable
            # group the ledger never heard of (and never acked): the file is the truth.
            prompts = {
                e["group_id"]: e.get("prompt_id")
                for e in read_ledger(self.store.ledger.path)
                if e["event"] == "accepted"
            }
            for gid, group in self.store.load_all():
                problem = group if isinstance(group, str) else group_error(group, self.vocab_size)
                if problem:  # damaged on disk or poison: set aside, never replayed
                    self.quarantine(
                        gid, problem, prompts.get(gid) or getattr(group, "prompt_id", None)
                    )
                    quarantined.append(gid)
                    continue
                if gid not in prompts:
                    self.store.ledger.append(
                        "accepted",
                        group_id=gid,
                        prompt_id=group.prompt_id,
                        version=None,
                        evaluations=group.evaluations,
                        recovered=True,
                    )
                if group.prompt_id in self.trained_prompts:  # trained before the checkpoint
                    trained_ids.append(gid)
                    continue
                if newest_version(group) > self.version:  # made by weights this discards
                    rolled_back.append(gid)
                    self._release_prompt(group.prompt_id)
                    self.requeue.append(group.prompt_id)
                    self.store.ledger.append("dropped", group_id=gid, reason="rolled_back")
                    self._m_groups.labels("rolled_back_in_store").inc()
                    continue
                self.buffer[gid] = group
                self.done_prompts.add(group.prompt_id)
                self._release_prompt(group.prompt_id)
                self.accepted_total += 1
            self.regenerated = self._forget_unstored_locked(
                prompts, {*self.buffer, *trained_ids, *rolled_back, *quarantined}
            )
            # Voids the ledger's steps after this version: they are trained again from these.
            self.store.ledger.append("restored", version=self.version, group_ids=list(self.buffer))
            self._gauges()
        self.store.remove(trained_ids + rolled_back)
        log.info(
            "hub restored at version %d: %d groups re-buffered, %d dropped (made by "
            "weights newer than the checkpoint), %d leases outstanding",
            self.version,
            len(self.buffer),
            len(rolled_back),
            len(self.leases),
        )

    def _forget_unstored_locked(self, prompts: dict, stored: set) -> list[str]:
        """Groups trained after the restored version whose files are gone: a checkpoint
        newer than this one completed (and deleted them) but could not be loaded, so the
        restore fell back past it. Their training is lost with that checkpoint; they are
        recorded as dropped (ledger reason `checkpoint_rollback`) and their prompts handed
        out again, so they are generated anew. Returns their prompt ids."""
        regenerated = []
        for step, gids in trained_by_step(self.store.ledger.path).items():
            for gid in gids if step > self.version else []:
                if gid in stored:
                    continue
                self.store.ledger.append("dropped", group_id=gid, reason="checkpoint_rollback")
                prompt_id = prompts.get(gid)
                if prompt_id is not None and prompt_id not in self.done_prompts:
                    self._release_prompt(prompt_id)
                    self.requeue.append(prompt_id)
                    regenerated.append(prompt_id)
        if regenerated:
            log.warning(
                "%d groups trained after version %d are gone with a checkpoint that "
                "could not be loaded; their prompts are generated again: %s",
                len(regenerated),
                self.version,
                regenerated,
            )
        return regenerated

    def counts(self) -> dict:
        with self._lock:
            return {
                "version": self.version,
                "accepted_total": self.accepted_total,
                "trained_total": self.trained_total,
                "buffered": len(self.buffer),
                "leases": len(self.leases),
                "requeued": len(self.requeue),
            }


def made_by_discarded_weights(
    weights: dict[str, int], hub_id: str, base_version: Optional[int], lineage: dict[str, int]
) -> bool:
    """Whether a group whose tokens came from `weights` (hub_id -> newest version it loaded
    from that incarnation, TrajectoryGroup.weights) used weights a learner restart threw
    away, as judged by incarnation `hub_id`, which resumed at `base_version` from the
    incarnations in `lineage` (hub_id -> newest surviving version).

    A version of this incarnation is its own; of an ancestor, it survives up to where the
    lineage left that ancestor; of an incarnation the lineage does not know (one that
    died before a checkpoint of it was resumed), only up to base_version, where this one
    took over. Without a base (nothing published yet) nothing is judged discarded."""
    if base_version is None:
        return False
    return any(
        version > lineage.get(source, base_version)
        for source, version in weights.items()
        if source != hub_id
    )


def newest_version(group: TrajectoryGroup) -> int:
    """The policy version of the newest token in the group (-1 when it has none)."""
    versions = [
        int(t.versions.max()) for tr in group.trajectories for t in tr.turns if t.versions.numel()
    ]
    return max(versions) if versions else -1


def oldest_version(group: TrajectoryGroup) -> int:
    """The policy version of the oldest token in the group (0 when it has none)."""
    versions = [
        int(t.versions.min()) for tr in group.trajectories for t in tr.turns if t.versions.numel()
    ]
    return min(versions) if versions else 0
