"""PyTorch work a checked forward leaves alive, charged to every profiled forward as
construction's compute is (evaluator.construction_watch, `charged`).

A table built by PyTorch in the first forward (a trial, unprofiled) and cached on the model
was ok under strict at coverage 1.0: the profiled forwards found it made (red team rt65).
`Kept` watches a checked forward: it prices each storage by its making (its compute op's
price, `construction_watch.op_price`, plus what it read), passes a price on through a launch
that changed what it was handed (a keyed `fingerprint` before and after), and after the
forward keeps the storages still alive that the outputs and inputs do not fill whole
(`whole_storages`). `kept_charge` prices for every profiled forward the most any watched
forward left alive (`MOST`), held after those storages die (red team rt68)."""
from __future__ import annotations

import weakref
from collections.abc import Iterator
from contextlib import contextmanager, nullcontext

import torch
from torch.utils._python_dispatch import TorchDispatchMode, _disable_current_modes

from evaluator.aten_facts import GLUE_OPS, storage_bytes, storage_key, written
from evaluator.construction_watch import op_price, tensors_of
from evaluator.draw_range import random_op


class Kept(TorchDispatchMode):
    """A checked forward's PyTorch work that outlives it: the price of each storage's making
    (its compute op's, plus what it read), and after the forward the storages still alive
    that are neither its outputs nor its inputs (a table built in the first forward and
    cached on the model: red team rt65, ok under strict at coverage 1.0, since the first
    forward is a trial and the profiled ones found the table made). `Workspace.kept` holds
    them across forwards; `kept_charge` prices for every profiled forward the most any watched
    forward left alive, as construction's compute is (held after those storages die).

    A price follows the data, not the op that made it (red team rt68, both ok under strict at
    coverage 1.0 before): a launch handed priced memory passes its price on to every storage it
    handed that the launch changed (`launching`: a Triton copy of the table into a kept buffer
    was free, its PyTorch-made source dying with the price), and an output or input storage is
    left uncharged only where the returned tensors cover its every byte (`whole_storages`: the
    table in the head of one storage whose tail was the output view rode free)."""

    def __init__(self, kept: dict, recorder: object = None, held: object = None) -> None:
        super().__init__()
        self.kept = kept  # weakref(storage) -> (seconds, unfused seconds), across forwards
        self.price: dict[int, tuple[float, float, object]] = {}
        self.meter = None
        self.recorder, self.saved = recorder, None  # the launch hook, and its `around` before
        # () -> the storage keys the candidate's own objects hold (candidate_reach.held_storages):
        # alive means kept by the candidate, not by the harness's launch records; None: any
        self.held = held

    def __enter__(self):
        from evaluator import autotune_cpu

        if self.recorder is not None:
            self.saved = self.recorder.around
            self.recorder.around = self.launching
        autotune_cpu.WATCHES.append(self.benchmarking)
        return super().__enter__()

    def __exit__(self, *exc):
        from evaluator import autotune_cpu

        if self.recorder is not None:
            self.recorder.around = self.saved
        if autotune_cpu.WATCHES and autotune_cpu.WATCHES[-1] == self.benchmarking:
            autotune_cpu.WATCHES.pop()
        return super().__exit__(*exc)

    def benchmarking(self, kernel: object, args: tuple, kwargs: dict):
        """Around an autotuner's benchmark (evaluator.autotune_cpu), unwatched by the launch hook:
        what its configs leave in the launch's tensors is the launch's (red team rt68)."""
        return self.launching(kernel, args, kwargs, chain=False)

    @contextmanager
    def launching(self, kernel: object, args: tuple, kwargs: dict, chain: bool = True) -> Iterator[None]:
        """Around a launch (inside any other watch's): where it was handed priced memory, every
        storage it handed whose bytes it changed holds what the priced ones held (a keyed
        fingerprint of the whole storage before and after: a sum a kernel could keep)."""
        from evaluator.launch_storage import handed_leaves

        inner = self.saved(kernel, args, kwargs) if chain and self.saved is not None else nullcontext()
        handed: dict[int, torch.Tensor] = {}
        for v in (*args, *kwargs.values()):
            for _, t in handed_leaves(v):
                key = storage_key(t)
                if key:
                    handed.setdefault(key, t)
        carried = [self.price[k] for k in handed if k in self.price]
        if not carried:
            with inner:
                yield
            return
        seconds, unfused = sum(c[0] for c in carried), sum(c[1] for c in carried)
        before = {k: fingerprint(t.untyped_storage()) for k, t in handed.items()}
        with inner:
            yield
        for k, t in handed.items():
            if fingerprint(t.untyped_storage()) != before[k]:
                self.price[k] = (seconds, unfused, weakref.ref(t.untyped_storage()))

    def __torch_dispatch__(self, func, types, args=(), kwargs=None):
        kwargs = kwargs or {}
        name = func.overloadpacket.__name__
        ins = tensors_of(args, kwargs)
        dests = written(func, args, kwargs, ())
        reads = {storage_key(t) for t in ins if all(t is not d for d in dests)}
        out = func(*args, **kwargs)
        if name in GLUE_OPS and not reads:
            return out
        seconds = unfused = 0.0
        for k in reads:  # a random op's too, unpriced itself: torch.normal(table, 0.0) is the table (rt68)
            s, u, _ = self.price.get(k, (0.0, 0.0, None))
            seconds, unfused = seconds + s, unfused + u
        if name not in GLUE_OPS and not random_op(func):
            s, u = op_price(func, args, kwargs, out)
            seconds, unfused = seconds + s, unfused + u
        if not (seconds or unfused):
            return out
        for t in written(func, args, kwargs, out):
            key = storage_key(t)
            if key and key not in reads:
                old = self.price.get(key, (0.0, 0.0, None))
                partial = t.numel() * t.element_size() < t.untyped_storage().nbytes()
                base = (old[0], old[1]) if partial else (0.0, 0.0)
                self.price[key] = (base[0] + seconds, base[1] + unfused, weakref.ref(t.untyped_storage()))
        return out

    def done(self, outs: list, inputs: list) -> None:
        """After the forward: what outlived it joins `kept`, but the storages its outputs and
        inputs fill (their bytes are the answer, judged, or the harness's)."""
        gone = whole_storages([t for v in (*outs, *inputs) for t in tensors_of((v,), {})])
        held = self.held() if self.held is not None and self.price else None
        for key, (seconds, unfused, ref) in self.price.items():
            if key not in gone and ref is not None and ref() is not None and (held is None or key in held):
                self.kept[ref] = (seconds, unfused)
        self.price.clear()
        live, most = _live(self.kept), self.kept.get(MOST, (0.0, 0.0))
        self.kept[MOST] = (max(live[0], most[0]), max(live[1], most[1]))


def _dense_span(t: torch.Tensor) -> tuple[int, int] | None:
    """The bytes [start, end) of its storage that `t` fills exactly (no gap, no overlap, in
    any order of its dims), or None where it leaves gaps or overlaps itself."""
    expected = 1
    for stride, size in sorted((st, sz) for st, sz in zip(t.stride(), t.shape) if sz != 1):
        if stride != expected:
            return None
        expected *= size
    start = t.storage_offset() * t.element_size()
    return start, start + t.numel() * t.element_size()


def whole_storages(tensors: list[torch.Tensor]) -> set[int]:
    """The storages (`storage_key`) whose every byte the tensors together fill."""
    spans: dict[int, tuple[int, list]] = {}
    for t in tensors:
        key = storage_key(t)
        span = _dense_span(t) if key else None
        if span is not None:
            spans.setdefault(key, (t.untyped_storage().nbytes(), []))[1].append(span)
    whole = set()
    for key, (nbytes, parts) in spans.items():
        reach = 0
        for start, end in sorted(parts):
            if start > reach:
                break
            reach = max(reach, end)
        if reach >= nbytes:
            whole.add(key)
    return whole


MOST = "most"  # `Kept.kept`'s entry for the most PyTorch work a watched forward left alive
_KEY: dict = {}  # the fingerprint's secret weights, drawn in this process (a candidate's child)
_CHUNK = 1 << 20  # bytes weighed per pass


def fingerprint(storage: torch.UntypedStorage) -> int:
    """A keyed hash of a storage's bytes: each byte times a secret weight of its position in
    its chunk, chunks chained by a secret odd factor (int64, wrapping). Unlike `checksum`'s sum,
    a kernel that cannot know the weights cannot write and keep it."""
    import secrets

    with _disable_current_modes(), torch.no_grad():
        raw = storage_bytes(storage)
        if storage.device not in _KEY:
            g = torch.Generator().manual_seed(secrets.randbits(62))
            weights = torch.randint(-(1 << 62), 1 << 62, (_CHUNK,), generator=g, dtype=torch.int64)
            _KEY[storage.device] = (weights.to(storage.device), secrets.randbits(61) | 1)
        weights, factor = _KEY[storage.device]
        total = torch.zeros((), dtype=torch.int64, device=storage.device)  # summed where it is: one sync
        for start in range(0, raw.numel(), _CHUNK):
            part = raw[start:start + _CHUNK]
            total = total * factor + (part.to(torch.int64) * weights[:part.numel()]).sum()
        return int(total)


def _live(kept: dict) -> tuple[float, float]:
    """(seconds, unfused seconds) of the kept storages still alive (the dead ones dropped)."""
    for ref in [r for r in kept if r is not MOST and r() is None]:
        del kept[ref]
    return sum(v[0] for r, v in kept.items() if r is not MOST), sum(v[1] for r, v in kept.items() if r is not MOST)


def kept_charge(kept: dict) -> tuple[float, float]:
    """(seconds, unfused seconds) charged to a profiled forward: the most any watched forward
    left alive, held once it was (`MOST`), whether or not those storages still live. A storage
    dying is no proof its data did: an unwatched forward (a timed one) can copy it and drop it,
    and the copy carries no price (red team rt68: the table re-gathered into a fresh buffer
    in every forward, its priced copy dropped in the first timed one, ok under strict at 1.0)."""
    live, most = _live(kept), kept.get(MOST, (0.0, 0.0))
    return max(live[0], most[0]), max(live[1], most[1])
