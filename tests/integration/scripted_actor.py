"""A protocol-level stand-in for the actor in learner and supervisor tests: it speaks
the actor's side of the hub protocol with random tokens (the real actor has its own
tests) and keeps every group until it is acked, as the actor does."""

import random
import time

import torch

from common.config import TransportConfig
from common.endpoint import Client
from common.messages import Ack, LeaseGrant, LeaseRequest, Trajectory, TrajectoryGroup, Turn, new_id
from common.metrics import Metrics
from common.transport import PeerUnavailable, RequestRejected, context
from common.verdict import Verdict

# The wait after a grant with no lease, as the actor waits the grant's retry_after_s (cut short
# there when new weights load). Without one, the tests' `while ...: work_once()` loops asked
# for leases back to back while the learner trained, on the same 2 cores and through the
# hub's thread in the learner's own process (session 65).
IDLE_S = 0.05


class ScriptedActor:
    """Speaks the actor's side of the hub protocol with random tokens (the real actor
    has its own tests); keeps every group until it is acked, as the actor does."""

    def __init__(self, endpoint: str, vocab: int):
        self.client = Client(
            context(),
            TransportConfig(request_timeout_s=2, request_retries=0),
            Metrics("actor"),
            endpoint,
        )
        self.vocab, self.rng = vocab, random.Random(0)
        self.unacked: list[TrajectoryGroup] = []
        self.accepted: set[str] = set()
        self.sent: set[str] = set()  # groups sent at least once (an answer may have been lost)
        self.busy = 0  # "busy" answers (groups kept and resent, as the actor does)
        self.idle = 0  # grants with no lease (each waited IDLE_S)

    def _group(self, lease, version: int) -> TrajectoryGroup:
        def turn():
            n = self.rng.randint(2, 8)
            return Turn(
                prompt_ids=torch.randint(0, self.vocab, (6,), dtype=torch.int32),
                response_ids=torch.randint(0, self.vocab, (n,), dtype=torch.int32),
                logprobs=torch.full((n,), -5.0),
                versions=torch.full((n,), version, dtype=torch.int32),
                verdict=Verdict("ok", correct=True, reward=self.rng.random()),
            )

        return TrajectoryGroup(
            request_id=new_id(),
            group_id=new_id(),
            lease_id=lease.lease_id,
            prompt_id=lease.prompt_id,
            problem_name=lease.problem.name,
            actor_id="a0",
            trajectories=[
                Trajectory(sample_index=i, turns=[turn()]) for i in range(lease.n_samples)
            ],
        )

    def work_once(self) -> None:
        try:
            grant = self.client.request(
                LeaseRequest(request_id=new_id(), actor_id="a0", max_groups=2), expect=LeaseGrant
            )
            if not grant.leases and not self.unacked:
                self.idle += 1
                time.sleep(IDLE_S)
                return
            self.unacked += [self._group(l, grant.policy_version) for l in grant.leases]
            for g in list(self.unacked):
                resent = g.group_id in self.sent
                self.sent.add(g.group_id)
                ack = self.client.request(g, expect=Ack)
                self.unacked.remove(g)
                # "duplicate" for a resend: the hub stored the first send and its answer was lost
                # (a count without it fell short of what the hub held, and a test that fed one
                # step's data found two: seen under load)
                if ack.outcome == "accepted" or (ack.outcome == "duplicate" and resent):
                    self.accepted.add(g.group_id)
        except PeerUnavailable:
            self.client.reopen()
            time.sleep(0.5)
        except RequestRejected as exc:  # "busy" (the hub cannot store now): keep, resend
            if exc.reply.code != "busy":
                raise
            self.busy += 1
            time.sleep(0.5)
