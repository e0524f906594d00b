"""Step statistics: running sums per name, summed across learner ranks, flattened to floats.

`add(name, x)` contributes to a mean; `add_many(name, tensor)` also keeps std, min and max
(advantages); `total(name, x)` contributes to a sum (tokens, loss); `set(name, x)` records a
value that is the same on every rank (lr, seconds).
`reduce()` combines ranks with all-reduce; key names travel as JSON bytes in a tensor,
since ranks can see different keys (e.g. only one rank had a third turn).
`learning_by_turn(stats)` regroups a step's per-turn stats for progress.json's history.
"""

from __future__ import annotations

import json
import math
from collections import defaultdict

import torch
import torch.distributed as dist

_SUM, _SQ, _N, _MIN, _MAX = range(5)
_EMPTY = (0.0, 0.0, 0.0, math.inf, -math.inf)
_CPU = torch.device("cpu")


class Stats:
    """Accumulates one step's statistics."""

    def __init__(self) -> None:
        self._acc: dict[str, list[float]] = defaultdict(lambda: list(_EMPTY))
        self._detailed: set[str] = set()
        self._totals: set[str] = set()
        self._fixed: dict[str, float] = {}

    def add(self, name: str, value: float, weight: float = 1.0) -> None:
        a = self._acc[name]
        a[_SUM] += value * weight
        a[_SQ] += value * value * weight
        a[_N] += weight
        a[_MIN] = min(a[_MIN], value)
        a[_MAX] = max(a[_MAX], value)

    def add_many(self, name: str, values: torch.Tensor) -> None:
        self._detailed.add(name)
        if values.numel() == 0:
            return
        v = values.double()
        a = self._acc[name]
        a[_SUM] += float(v.sum())
        a[_SQ] += float((v * v).sum())
        a[_N] += v.numel()
        a[_MIN] = min(a[_MIN], float(v.min()))
        a[_MAX] = max(a[_MAX], float(v.max()))

    def total(self, name: str, value: float) -> None:
        self._totals.add(name)
        self.add(name, value)

    def set(self, name: str, value: float) -> None:
        self._fixed[name] = float(value)

    def reduce(self, device: torch.device = _CPU) -> None:
        """Sum over learner ranks (no-op for one process); device: where the backend reduces."""
        if not (dist.is_available() and dist.is_initialized()) or dist.get_world_size() == 1:
            return
        kinds = _union_of_names(
            {
                "all": sorted(self._acc),
                "totals": sorted(self._totals),
                "detailed": sorted(self._detailed),
            },
            device,
        )
        names = kinds["all"]
        self._totals.update(kinds["totals"])
        self._detailed.update(kinds["detailed"])
        rows = torch.tensor(
            [self._acc.get(n, _EMPTY) for n in names], dtype=torch.float64, device=device
        ).reshape(-1, 5)
        sums, mins, maxs = (
            rows[:, :3].contiguous(),
            rows[:, 3].contiguous(),
            rows[:, 4].contiguous(),
        )
        dist.all_reduce(sums)
        dist.all_reduce(mins, op=dist.ReduceOp.MIN)
        dist.all_reduce(maxs, op=dist.ReduceOp.MAX)
        for i, n in enumerate(names):
            self._acc[n] = sums[i].tolist() + [float(mins[i].item()), float(maxs[i].item())]

    def to_dict(self) -> dict[str, float]:
        out = dict(self._fixed)
        for name, a in sorted(self._acc.items()):
            if a[_N] == 0:
                continue
            mean = a[_SUM] / a[_N]
            if name in self._totals:
                out[name] = a[_SUM]
            elif name not in self._detailed:
                out[name] = mean
            else:
                out[f"{name}_mean"] = mean
                out[f"{name}_std"] = math.sqrt(max(a[_SQ] / a[_N] - mean * mean, 0.0))
                out[f"{name}_min"] = a[_MIN]
                out[f"{name}_max"] = a[_MAX]
        return out


def _union_of_names(local: dict[str, list[str]], device: torch.device) -> dict[str, list[str]]:
    """Union over ranks of each list of names."""
    payload = torch.tensor(list(json.dumps(local).encode()), dtype=torch.uint8, device=device)
    size = torch.tensor([payload.numel()], dtype=torch.long, device=device)
    sizes = [torch.zeros_like(size) for _ in range(dist.get_world_size())]
    dist.all_gather(sizes, size)
    width = int(max(s.item() for s in sizes))
    padded = torch.zeros(width, dtype=torch.uint8, device=device)
    padded[: payload.numel()] = payload
    bufs = [torch.zeros_like(padded) for _ in sizes]
    dist.all_gather(bufs, padded)
    merged: dict[str, set[str]] = {key: set() for key in local}
    for buf, s in zip(bufs, sizes):
        for key, names in json.loads(bytes(buf[: int(s.item())].cpu().tolist()).decode()).items():
            merged[key].update(names)
    return {key: sorted(names) for key, names in merged.items()}


# What a user watches per turn to see learning (progress.json's history, step by step).
_BY_TURN = ("reward", "correct", "fast@1", "entropy", "kl_to_start")


def learning_by_turn(stats: dict) -> list[dict]:
    """[{reward, correct, fast@1, entropy, kl_to_start, status: {status: share}}] per turn
    (turn 1 first) from a step's stats (keys `<name>_turn<t>`, t from 0)."""
    turns: dict[int, dict] = {}
    for key, value in stats.items():
        base, _, t = key.rpartition("_turn")
        if not (base and t.isdigit()):
            continue
        row = turns.setdefault(int(t), {"status": {}})
        if base.startswith("status_"):
            if value:
                row["status"][base[len("status_") :]] = round(value, 4)
        elif base in _BY_TURN:
            row[base] = value
    return [turns[t] for t in sorted(turns)]
