"""Child-side halves of timing and profiling: what runs inside a sandboxed child.

The measurement itself is the worker's (evaluator.stopwatch): its clock runs around
each `go` command. Inside the child, `timed_forwards` does what `triton.testing.do_bench`
does for a batch of runs, so the numbers stay comparable with it: per forward, the L2
flush is enqueued first, then the forward, back to back, the host running ahead of the
device (its launch overhead hides behind queued work); then one device-wide synchronize
(work on any stream is waited for), then `checksum` of each forward's outputs. The
flushes' and the round trip's own cost is measured by the reference child's `null`
batches and subtracted by the worker. CUDA events around each forward are reported
too, but only as a cross-check of the worker's clock.

`checksum` is a commitment, not a proof: two int64 sums over the outputs' 32-bit words
(all words, and the odd-indexed ones). The worker recomputes it over outputs it asks
to see; a child that replied before computing its outputs cannot have committed to
them. Recomputation is exact (integer sums), so nondeterministic kernels are fine:
the child sends the very tensors it summed.

`coverage` (GPU): torch.profiler over a few forwards; the share of GPU kernel time in
kernels named like the candidate's own @triton.jit functions. On the CPU the
interpreter's work meter (evaluator.cpu_work) stands in for it.
"""
from __future__ import annotations

import math
import time
from collections import Counter
from collections.abc import Callable, Sequence

import torch

Forward = Callable[[], object]


def slack(cycles: int) -> None:
    """Queue a spin of `cycles` SM clock cycles on the current stream (GPU; nothing for 0):
    device time the host's next launches hide behind (`timing.launch_slack_us`)."""
    if cycles > 0:
        torch.cuda._sleep(cycles)


def slack_cycles(us: float) -> int:
    """Cycles that spin at least `us` microseconds at any SM clock up to 2 GHz (no H100 or
    H200 boosts beyond 1.98 GHz)."""
    return int(us * 2000)


def timed_forwards(model, batch: list[list], device: str, flush, before: Callable[[], None],
                   after: Callable[[], None], spin: int = 0) -> tuple[list[list[torch.Tensor]], list, list[float]]:
    """One timed batch: for each input list, [spin, flush] and forward, back to back (the
    host runs ahead of the device as in triton.testing.do_bench, so launch overhead hides
    behind queued work: the spin of `spin` cycles makes sure it can); one device-wide sync
    at the end. `before`/`after` bracket each forward (the launch recorder). (outputs per
    forward, CUDA event pairs per forward: read them with `event_seconds`, outside the
    timed window, and `host_between` of each forward)."""
    from evaluator.runner import flatten_outputs

    outs, marks, windows = [], [], []
    began = time.perf_counter()
    for inputs in batch:
        if device == "cuda":
            slack(spin)
        if flush is not None:
            flush.zero_()
        before()
        try:
            if device == "cuda":
                start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
            opened = time.perf_counter()
            if device == "cuda":
                start.record()
            with torch.no_grad():
                out = model(*inputs)
            if device == "cuda":
                end.record()
                marks.append((start, end))
            windows.append((opened, time.perf_counter()))
        finally:
            after()
        outs.append(flatten_outputs(out))
    synced = time.perf_counter()
    if device == "cuda":
        torch.cuda.synchronize()
    return outs, marks, host_between(began, windows, synced)


def host_between(began: float, windows: list[tuple[float, float]], synced: float) -> list[float]:
    """Per forward of a timed batch, the host's seconds outside the event windows before it
    (from the batch's start or the previous forward's end record to its start record; the
    last forward also carries the rest, to the batch's sync): the harness's own path (the
    launch recorder's bookkeeping, the next spin and flush launched). Hidden behind queued
    device work while the host runs ahead; a forward that waited for the device (a
    read-back) leaves the device idle, and the worker's clock then holds it outside the
    events (judge_timed.judge_events nets it out)."""
    out, last = [], began
    for opened, closed in windows:
        out.append(max(opened - last, 0.0))
        last = closed
    if out:
        out[-1] += max(synced - last, 0.0)
    return out


def event_seconds(marks: list) -> list[float] | None:
    """Seconds between each (start, end) CUDA event pair of a synchronized batch (None: none)."""
    return [start.elapsed_time(end) / 1e3 for start, end in marks] if marks else None


def flush_only(flush, count: int = 1, spin: int = 0) -> None:
    """A null batch's device work: `count` spins and flushes and a sync (GPU); nothing on the
    CPU (`flush` None and no spin)."""
    if flush is None and spin <= 0:
        return
    for _ in range(count):
        slack(spin)
        if flush is not None:
            flush.zero_()
    torch.cuda.synchronize()


def _words(t: torch.Tensor) -> torch.Tensor:
    flat = t.detach().contiguous().reshape(-1)
    raw = flat.view(torch.uint8) if flat.numel() else torch.zeros(0, dtype=torch.uint8, device=t.device)
    if raw.numel() % 4:
        raw = torch.cat([raw, raw.new_zeros(4 - raw.numel() % 4)])
    return raw.view(torch.int32)


def checksum(outs: Sequence[torch.Tensor]) -> list[int]:
    """[sum of all 32-bit words, sum of the odd-indexed words] over every output, as int64."""
    return whole([chunk_sums(t) for t in outs])


MIN_CHUNK_BYTES, MAX_CHUNKS = 1 << 16, 4096
# words summed per pass: a sum to int64 over int32 words made an int64 copy of all of them
# (32 GiB asked at once for a 16 GiB KernelBench input: the device ran out of memory)
_WIDENED_WORDS = 1 << 24


def chunk_bytes(nbytes: int) -> int:
    """Bytes per committed chunk of a tensor of `nbytes`: at most MAX_CHUNKS chunks, at least
    64 KiB each, a multiple of 64 (whole elements of every dtype; chunks start on even words)."""
    per = -(-nbytes // MAX_CHUNKS)
    return max(MIN_CHUNK_BYTES, -(-per // 64) * 64)


def n_chunks(nbytes: int) -> int:
    return -(-nbytes // chunk_bytes(nbytes)) if nbytes > 0 else 0


def chunk_sums(t: torch.Tensor, chunk: int | None = None) -> torch.Tensor:
    """The commitment to one tensor: per chunk of its bytes (`chunk_bytes`), [sum of its
    32-bit words, sum of its odd-indexed words] as an int64 [chunks, 2] tensor on the CPU.
    Computed where the tensor is (the device, in a child), so committing to a GiB output
    moves kilobytes; a chunk of it can be revealed and checked on its own."""
    w = _words(t)
    nbytes = t.numel() * t.element_size()
    per = (chunk or chunk_bytes(nbytes)) // 4
    full = w.numel() // per
    parts = []
    if full:
        body = w[:full * per].view(full, per)
        rows = max(1, _WIDENED_WORDS // per)  # the int64 sums widen what they read: bounded per pass
        for r in range(0, full, rows):
            part = body[r:r + rows]
            parts.append(torch.stack([part.sum(1, dtype=torch.int64), part[:, 1::2].sum(1, dtype=torch.int64)], 1))
    tail = w[full * per:]
    if tail.numel():
        parts.append(torch.stack([tail.sum(dtype=torch.int64), tail[1::2].sum(dtype=torch.int64)]).view(1, 2))
    return torch.cat(parts).cpu() if parts else torch.zeros(0, 2, dtype=torch.int64)


def whole(sums: Sequence[torch.Tensor]) -> list[int]:
    """The whole-tensors checksum [sum of all words, sum of odd-indexed words] (each tensor's
    words indexed from its start), from the tensors' chunk sums."""
    total = sum(int(x) for s in sums for x in s[:, 0].tolist()) if sums else 0
    odd = sum(int(x) for s in sums for x in s[:, 1].tolist()) if sums else 0
    return [total & (2 ** 63 - 1), odd & (2 ** 63 - 1)]


def commit_reply(outputs: Sequence[Sequence[torch.Tensor]], inputs: Sequence[Sequence[torch.Tensor]],
                 events_s: list | None = None, host_s: list | None = None) -> tuple[dict, list[torch.Tensor]]:
    """A child's `commit` reply for a batch: per forward, the byte size of each output and
    each tensor input as the forward left them (header), and their chunk sums (tensors, in
    that order: forward by forward, outputs then inputs); its events and host time between
    forwards (`host_between`) where events were recorded."""
    head = {"op": "committed", "outputs": [[t.numel() * t.element_size() for t in o] for o in outputs],
            "inputs": [[t.numel() * t.element_size() for t in x] for x in inputs], "events_s": events_s,
            "host_s": host_s if events_s else None}
    sums = [chunk_sums(t) for o, x in zip(outputs, inputs, strict=True) for t in (*o, *x)]
    return head, sums


def select(nbytes: int, chunks: Sequence[int] | None) -> tuple[list[int], int]:
    """The chunks revealed of a tensor of `nbytes` (None: all) and how many bytes they hold."""
    size, n = chunk_bytes(nbytes), n_chunks(nbytes)
    ids = list(range(n)) if chunks is None else sorted(set(int(c) for c in chunks))
    if any(not 0 <= c < n for c in ids):
        raise ValueError(f"chunk ids {ids[:4]}... out of range for {n} chunks")
    return ids, sum(min(size, nbytes - c * size) for c in ids)


def reveal_part(t: torch.Tensor, chunks: Sequence[int] | None) -> torch.Tensor:
    """What a reveal sends of one tensor: all of it, or its chosen chunks back to back as a
    flat tensor of its dtype (chunks hold whole elements)."""
    if chunks is None:
        return t
    nbytes = t.numel() * t.element_size()
    raw = t.detach().contiguous().reshape(-1).view(torch.uint8)
    size = chunk_bytes(nbytes)
    ids, _ = select(nbytes, chunks)
    return torch.cat([raw[c * size:(c + 1) * size] for c in ids]).view(t.dtype)


def check_part(part: torch.Tensor, nbytes: int, chunks: Sequence[int] | None, committed: torch.Tensor) -> bool:
    """Whether a revealed part of a tensor of `nbytes` holds exactly what its chunk sums
    committed to (worker side, on the CPU)."""
    ids, size_needed = select(nbytes, chunks)
    if part.numel() * part.element_size() != size_needed or committed.shape != (n_chunks(nbytes), 2):
        return False
    # the chunks lie back to back in ascending order, only the tensor's last one short (and
    # last): chunked the same way, the part's sums are the committed rows of those chunks
    return torch.equal(chunk_sums(part, chunk_bytes(nbytes)), committed[ids])


def _profile_once(fn: Forward, per_kernel: dict[str, float], counts: Counter, scale: float,
                  spin: int = 0) -> object:
    """Run fn() once under torch.profiler; add its CUDA kernels' self time (x scale) and
    invocation counts. Returns fn's result.

    `spin` > 0: a spin of that many cycles is queued inside the session before fn, so fn
    starts with the device busy, as a plain timed forward does behind its spin (a forward
    that finds the device idle, a non-blocking copy to the host landing at once, could tell
    a profiled forward from a plain one without a clock: red team s29b). The spin is the
    device's first kernel of the session and is left out of the sums (`_kernel_times`)."""
    from torch.profiler import ProfilerActivity, profile

    torch.cuda.synchronize()
    with profile(activities=[ProfilerActivity.CPU, ProfilerActivity.CUDA]) as prof:
        slack(spin)
        out = fn()
        torch.cuda.synchronize()
    for key, t in _kernel_times(prof, lead=SPIN_KERNEL if spin > 0 else None):
        per_kernel[key] = per_kernel.get(key, 0.0) + t / 1e6 * scale
        counts[key] += 1
    return out


SPIN_KERNEL = "spin_kernel"
"""The name (a substring of it) of the kernel torch.cuda._sleep launches (ATen's Sleep.cu)."""


def _kernel_times(prof, lead: str | None = None) -> list[tuple[str, float]]:
    """(name, self device microseconds) of each device kernel of a finished profile, in
    device order (user annotations left out); with `lead`, the session's first device event is left out where its name
    holds `lead` (the harness's own spin, queued before the forward: nothing of the
    candidate's can run before it)."""
    # a user annotation (record_function's range on the device's timeline) is no kernel: its
    # span holds the kernels that ran inside it, whoever launched them, under its own name
    device = [e for e in prof.events() if str(getattr(e, "device_type", "")).endswith("CUDA")
              and not getattr(e, "is_user_annotation", False)]
    device.sort(key=lambda e: e.time_range.start)
    if lead is not None and device and lead in device[0].name:
        device = device[1:]
    out = []
    for e in device:
        t = getattr(e, "self_device_time_total", None)
        if t is None:
            t = getattr(e, "self_cuda_time_total", 0.0)
        if t > 0:
            out.append((e.key, float(t)))
    return out


def coverage(fn: Forward, kernel_names: set[str], forwards: int, launched: Callable[[], Counter],
             before_each: Callable[[int], None] | None = None) -> dict:
    """Share of the forward's GPU time spent in the candidate's own kernels, over
    `forwards` forwards each profiled in its own session after `before_each(i)` (fresh
    inputs, made outside the profile). Used when nothing is timed; timed evaluations
    profile randomly chosen timed batches instead (`profiled_forwards`).

    `launched()` counts, by compiled name, the kernels the launch hook saw the candidate
    launch during these forwards. A kernel name is the candidate's only where the profiler
    saw it run no more often than that: a function named like a cuBLAS or aten kernel does
    not turn the library's time into the candidate's."""
    per_kernel: dict[str, float] = {}
    counts: Counter = Counter()
    for i in range(forwards):
        if before_each is not None:
            before_each(i)
        _profile_once(fn, per_kernel, counts, 1.0 / forwards)
    return attribute(per_kernel, counts, kernel_names, launched())


def profiled_forwards(model, batch: list[list], flush, kernel_names: set[str],
                      launched: Callable[[], Counter], before: Callable[[], None],
                      after: Callable[[], None], spin: int = 0) -> tuple[list[list[torch.Tensor]], dict]:
    """A batch like `timed_forwards`, each forward under the profiler in its own session
    (the flush outside it, the spin of `spin` cycles inside it and not counted, so the
    forward starts with the device busy as a plain timed one does): (outputs per forward,
    coverage per forward over the batch)."""
    from evaluator.runner import flatten_outputs

    per_kernel: dict[str, float] = {}
    counts: Counter = Counter()
    mine: Counter = Counter()
    outs = []
    for inputs in batch:
        if flush is not None:
            flush.zero_()
            torch.cuda.synchronize()
        before()
        try:
            def forward(inputs=inputs):
                with torch.no_grad():
                    return model(*inputs)

            out = _profile_once(forward, per_kernel, counts, 1.0 / max(len(batch), 1), spin)
            mine += launched()
        finally:
            after()
        outs.append(flatten_outputs(out))
    return outs, attribute(per_kernel, counts, kernel_names, mine)


def attribute(per_kernel: dict[str, float], counts: Counter, kernel_names: set[str],
              launched: Counter) -> dict:
    """Coverage from per-kernel device time (s per forward) and invocation counts."""
    ambiguous = sorted(k for k in per_kernel if k in kernel_names and counts[k] > launched[k])
    mine_names = {k for k in per_kernel if k in kernel_names and k not in ambiguous}
    total = sum(per_kernel.values())
    mine = sum(t for k, t in per_kernel.items() if k in mine_names)
    top = sorted(per_kernel.items(), key=lambda kv: -kv[1])[:8]
    out = {"coverage": (mine / total) if total > 0 else 0.0, "gpu_time_s": total,
           "candidate_time_s": mine, "method": "torch.profiler (CUPTI) kernel time",
           "kernels": [{"name": k[:200], "seconds": t, "candidate": k in mine_names} for k, t in top],
           "candidate_kernels": dict(sorted(((k[:200], t) for k, t in per_kernel.items() if k in mine_names),
                                            key=lambda kv: -kv[1])[:64])}
    if ambiguous:
        out["ambiguous"] = [k[:200] for k in ambiguous[:8]]
    return out


class Stages:
    """Where one `run` set's time went in this process, stage by stage (seconds, the
    process's own clock): a diagnostic the worker reports beside its own clock, never a
    measurement it judges by (a candidate's child could write anything here)."""

    def __init__(self) -> None:
        self.seconds: dict[str, float] = {}
        self._t = time.perf_counter()

    def mark(self, stage: str) -> None:
        now = time.perf_counter()
        self.seconds[stage] = round(self.seconds.get(stage, 0.0) + now - self._t, 4)
        self._t = now


def stage_sums(results: list[dict]) -> dict[str, float]:
    """A child's own report of where its `run` sets' time went (`Stages`), summed
    over the sets: a diagnostic beside the worker's clock, never judged by."""
    sums: dict[str, float] = {}
    for r in results:
        stages = r.get("stages")
        if isinstance(stages, dict):
            for k, v in list(stages.items())[:16]:
                if isinstance(k, str) and type(v) in (int, float) and math.isfinite(v):
                    sums[k[:32]] = round(sums.get(k[:32], 0.0) + v, 3)
    return sums
