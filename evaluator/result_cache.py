"""Content keys of evaluation requests and the LRU of results the broker and workers keep.

Two requests ask for the same evaluation when problem, candidate and settings are the
same, whatever their request ids: `request_key` hashes exactly those (the problem by
`Problem.content_hash()`: name, source, sizes, tolerance). The broker merges waiting
duplicates under one key and sends workers a job id made of the key (`job_id`); a worker
that already holds a job's result (it evaluated it before a broker restart, say) answers
from its cache instead of evaluating again.

The evaluator configuration (seed, trial distributions, tolerances) is not in the key:
one run's workers share one config. Neither is the worker's device when settings ask
for "auto": one run's workers share one kind of device.

A verdict is one draw: trial seeds, the knock-out's position, the knock-out round's order,
the spike's share, the timing and its reveals are drawn anew per evaluation, and the
evaluator's probabilistic checks hold per draw (a forward guessing the knock-out round
survives 1 in 35). So one evaluation answers only the requests that waited on it (joined
while it was queued or running) and their resends, never a later request of the same
content: the result is cached with those request ids (`Answered`), and a job is sent to
workers under an id of its own (`job_id`), so a worker's cache answers only that job's
resends. Red team s60e: the cache answered every later request of the same content with the
first verdict, so a candidate that passed once by luck was paid again every time its text
was sent again: in the next turns of its own episode (no stop on success, returns summed)
and whenever the policy, trained on that reward, emitted it again (a lucky draw locked in
and reinforced). A result nobody waited for (it reached a restarted broker before the
client's resend) answers one request of its content (`spare`), the resend it was made for.
"""
from __future__ import annotations

import hashlib
from collections import OrderedDict
from dataclasses import dataclass, field
from typing import Generic, TypeVar

import msgspec

from common.messages import EvalRequest, EvalResult, new_id
from common.problemset import Problem
from common.verdict import SERVICE_FAILURES


def request_key(req: EvalRequest) -> str:
    """sha256 over problem content hash, candidate source and settings."""
    p = req.problem
    problem = Problem(name=p.name, source=p.source, sizes=p.sizes, tolerance=p.tolerance)
    h = hashlib.sha256()
    for part in (problem.content_hash().encode(), req.candidate.encode("utf-8", "surrogatepass"),
                 msgspec.json.encode(req.settings)):
        h.update(len(part).to_bytes(8, "little"))
        h.update(part)
    return h.hexdigest()


def job_id(key: str) -> str:
    """The id one evaluation of content `key` is sent to workers under: the key and a nonce
    (a later evaluation of the same content is another job, which no worker's cache holds)."""
    return f"{key}.{new_id()}"


def key_of(job: str) -> str:
    """The content key of a job id (a content key is hex and holds no dot)."""
    return job.split(".", 1)[0]


@dataclass
class Answered:
    """A cached result and whom it may answer: the request ids that waited on its
    evaluation (`rids`), the jobs it came from, and `spare` further requests of its content
    (1 for a result nobody waited for: the resend of the request it was made for)."""

    result: EvalResult
    rids: set[str] = field(default_factory=set)
    jobs: set[str] = field(default_factory=set)
    spare: int = 0

    def answers(self, rid: str) -> bool:
        """Whether this result answers request `rid` (a spare is taken by the asking)."""
        if rid in self.rids:
            return True
        if self.spare > 0:
            self.spare -= 1
            self.rids.add(rid)
            return True
        return False


T = TypeVar("T")


class ResultCache(Generic[T]):
    """Least-recently-used results by key, bounded by entry count.

    Not thread-safe: the broker's loop and the worker's socket thread each own one.
    """

    def __init__(self, max_entries: int):
        self.max_entries = max_entries
        self._items: OrderedDict[str, T] = OrderedDict()

    def __len__(self) -> int:
        return len(self._items)

    def get(self, key: str) -> T | None:
        item = self._items.get(key)
        if item is not None:
            self._items.move_to_end(key)
        return item

    def put(self, key: str, result: T) -> None:
        if self.max_entries <= 0:
            return
        self._items[key] = result
        self._items.move_to_end(key)
        while len(self._items) > self.max_entries:
            self._items.popitem(last=False)


def cacheable(result: EvalResult) -> bool:
    """Whether a result describes the candidate rather than a failure of the service
    (those are not cached, so a resend gets a fresh evaluation)."""
    return result.verdict.error_source not in SERVICE_FAILURES
