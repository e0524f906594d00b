"""The actor's outbox keeps a group the hub answered `busy` (it could not store it, e.g.
its disk is full) and resends it; a group the hub refused outright is dropped."""

import asyncio

import torch

from actor.hub_link import Outbox
from common.messages import Ack, ErrorReply, Trajectory, TrajectoryGroup, Turn, new_id
from common.metrics import Metrics
from common.transport import RequestRejected
from common.verdict import Verdict


class _Link:
    def __init__(self, replies):
        self.replies, self.sent = list(replies), 0

    async def deliver(self, group):
        self.sent += 1
        reply = self.replies.pop(0)
        if isinstance(reply, ErrorReply):
            raise RequestRejected(reply)
        return reply


def _group() -> TrajectoryGroup:
    turn = Turn(
        prompt_ids=torch.arange(3, dtype=torch.int32),
        response_ids=torch.arange(2, dtype=torch.int32),
        logprobs=torch.zeros(2),
        versions=torch.zeros(2, dtype=torch.int32),
        verdict=Verdict("incorrect"),
    )
    return TrajectoryGroup(
        request_id=new_id(),
        group_id=new_id(),
        lease_id="l",
        prompt_id="e0-i0",
        problem_name="p",
        actor_id="a",
        trajectories=[Trajectory(sample_index=0, turns=[turn])],
    )


def test_busy_keeps_the_group_for_a_resend_and_a_refusal_drops_it():
    async def scenario():
        g, bad = _group(), _group()
        busy = ErrorReply(
            request_id=g.request_id,
            code="busy",
            retry_after_s=1.0,
            message="cannot write /run/hub/groups/x.grp: disk full",
        )
        link = _Link(
            [
                busy,
                Ack(request_id=g.request_id, group_id=g.group_id, outcome="accepted"),
                ErrorReply(code="invalid", message="malformed"),
            ]
        )
        outbox = Outbox(link, Metrics("actor"), 0.01, 0.02)
        outbox.put(g)
        assert not await outbox.deliver_one() and list(outbox.groups) == [g.group_id]
        assert await outbox.deliver_one() and outbox.outcomes[g.group_id] == "accepted"
        outbox.put(bad)
        assert await outbox.deliver_one() and outbox.outcomes[bad.group_id] == "refused"
        assert len(outbox) == 0 and link.sent == 3

    asyncio.run(scenario())
