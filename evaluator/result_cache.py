"""Content keys of evaluation requests and the LRU of results the broker and workers keep.

Two requests ask for the same evaluation when problem, candidate and settings are the
same, whatever their request ids: `request_key` hashes exactly those (the problem by
`Problem.content_hash()`: name, source, sizes, tolerance). The broker merges waiting
duplicates under one key and sends workers the key as the request id; a worker that
already holds a key's result (it evaluated it before a broker restart, say) answers
from its cache instead of evaluating again.

The evaluator configuration (seed, trial distributions, tolerances) is not in the key:
one run's workers share one config. Neither is the worker's device when settings ask
for "auto": one run's workers share one kind of device.
"""
from __future__ import annotations

import hashlib
from collections import OrderedDict

import msgspec

from common.messages import EvalRequest, EvalResult
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


class ResultCache:
    """Least-recently-used results by content key, bounded by entry count.

    Not thread-safe: the broker's loop and the worker's socket thread each own one.
    """

    def __init__(self, max_entries: int):
        self.max_entries = max_entries
        self._items: OrderedDict[str, EvalResult] = OrderedDict()

    def __len__(self) -> int:
        return len(self._items)

    def get(self, key: str) -> EvalResult | None:
        item = self._items.get(key)
        if item is not None:
            self._items.move_to_end(key)
        return item

    def put(self, key: str, result: EvalResult) -> None:
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
