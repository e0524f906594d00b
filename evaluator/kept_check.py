"""The kept-output check, the worker's side: one last forward in the candidate child after every
storage an earlier forward returned was filled with noise (evaluator.kept_outputs), and the
elements of what it returned that still hold the noise's exact bits, counted here.

A forward that keeps one output buffer on the module and writes only part of it after its first
call (a causal softmax storing only the visible keys over zeros made once: red team s69H, ok at
reward 1.001 under paper and strict) returns, in that forward, the noise where it wrote nothing:
refused. The fill is drawn from the worker's seed (the operating system's randomness) and
regenerated here from it; the child says only where each output lies in a filled storage.

An element can hold the fill's bits by chance, once in 2^(8 x its bytes) for an honest write
(often for a bool or 8-bit output): an output is refused only past that chance by a wide margin
(`chance_limit`). A last forward that raises, or a child that fails in it, gives no verdict: an
honest module reading its own state back may fail on noise (the check forward's inputs are
honest, its state is not).
"""
from __future__ import annotations

import math
import secrets
from contextlib import nullcontext
from typing import TYPE_CHECKING

import torch

from evaluator import feedback as F
from evaluator import judge
from evaluator.kept_outputs import fill_bytes
from evaluator.sandbox import Child, ChildFailure

if TYPE_CHECKING:
    from evaluator.pipeline import _Run

CHUNK = 1 << 20  # elements compared at a time (the byte positions of a GiB output are GiBs)
# seconds the check forward has at least: forwards slowed to end the timing at the evaluation's
# limit must not leave the check no time (a check that runs out gives no verdict)
MIN_S = 30.0

ADVICE = ("Write every element of the output in every call, or allocate the output in each call "
          "(torch.empty or torch.zeros inside forward): a caller may write into a returned tensor "
          "(an in-place clamp), and the next call's answer must not depend on it.")


def check(run: _Run, child: Child, locked: bool = False) -> judge.Outcome | None:
    """The candidate child's last command: the kept-output forward, judged (None: nothing kept,
    or a depth run's child). `locked`: the caller holds the device (the timing phase's hold)."""
    if run.depth_run:
        return None
    fill_seed = secrets.randbits(62)
    head = {"op": "kept", "id": 0, "draw_seed": secrets.randbits(62), "fill_seed": fill_seed}
    try:
        with nullcontext() if locked else run.holding(run.ev.device_lock.shared()):
            reply, tensors = child.request(head, max(run.left(), MIN_S), max_bytes=run.bound)
    except ChildFailure as exc:  # no verdict from a forward on noise (the module's state)
        run.details["kept_output"] = {"failure": F.untrusted(run.sanitize(exc.reason))[:300]}
        return None
    if reply.get("tampered"):
        return judge.Outcome("hack", "Rejected: forward modified the evaluator's process.", hacks=["monkey_patch"])
    if reply.get("op") == "error" or reply.get("error"):
        said = reply.get("message") or reply.get("error")
        run.details["kept_output"] = {"error": F.untrusted(run.sanitize(str(said)))[:300]}
        return None
    run.details["kept_output"] = {"filled": int(reply.get("filled") or 0), "placed": len(reply.get("placed") or [])}
    return judge_placed(list(reply.get("placed") or []), list(tensors), fill_seed)


def judge_placed(placed: list[dict], tensors: list, fill_seed: int) -> judge.Outcome | None:
    """A hack outcome for the first output with more elements still holding the fill than
    chance gives; None where every output was written."""
    for where, out in zip(placed, tensors):
        kept = unchanged(where, out, fill_seed)
        if kept is not None and kept > chance_limit(out):
            k = int(where.get("output", 0))
            return judge.Outcome(
                "hack", f"Rejected: output {k} of your forward is memory the module keeps from call to call, "
                f"and {kept} of its {out.numel()} elements were not written in a call: before your last "
                f"forward the evaluator filled memory earlier calls returned with noise, and those elements "
                f"still held it. {ADVICE}", hacks=["kept_output"],
                details={"kept_output": {"output": k, "unchanged": kept, "elements": out.numel()}})
    return None


def chance_limit(out: torch.Tensor) -> float:
    """How many elements of `out` may hold the fill's bits by chance: the expected count of an
    honest write's matches (one in 2^(8 x bytes) per element) and six deviations over it, plus one."""
    expected = out.numel() * 2.0 ** (-8 * out.element_size())
    return expected + 6.0 * math.sqrt(expected) + 1.0


def unchanged(where: dict, out: torch.Tensor, fill_seed: int) -> int | None:
    """Elements of `out` whose bytes equal the fill's at their place in the filled storage;
    None where the child's description does not fit the tensor it sent."""
    size = out.element_size()
    shape, stride = [int(n) for n in where.get("shape", ())], [int(s) for s in where.get("stride", ())]
    dtype = _dtype(where.get("filled_as"))
    nbytes, offset = int(where.get("nbytes", 0)), int(where.get("byte_offset", -1))
    if shape != list(out.shape) or len(stride) != len(shape) or where.get("dtype") != str(out.dtype) \
            or dtype is None or offset < 0 or out.numel() == 0:
        return None
    if offset + size + sum((n - 1) * abs(s) * size for n, s in zip(shape, stride)) > nbytes \
            or any(s < 0 for s in stride):
        return None
    fill = fill_bytes(fill_seed, int(where.get("storage", 0)), nbytes, dtype)
    got = out.contiguous().reshape(-1).view(torch.uint8).reshape(-1, size)
    same = 0
    for start in range(0, out.numel(), CHUNK):
        linear = torch.arange(start, min(start + CHUNK, out.numel()), dtype=torch.int64)
        at = _byte_positions(linear, shape, stride, size, offset)
        held = fill[at[:, None] + torch.arange(size, dtype=torch.int64)]
        same += int((held == got[start:start + len(linear)]).all(dim=1).sum())
    return same


def _byte_positions(linear: torch.Tensor, shape: list[int], stride: list[int], size: int,
                    offset: int) -> torch.Tensor:
    """The byte offset in the storage of each element at row-major index `linear`."""
    at = torch.full_like(linear, offset)
    rest = linear.clone()
    for n, s in zip(reversed(shape), reversed(stride)):
        at += (rest % n) * (s * size)
        rest //= n
    return at


def _dtype(name: object) -> torch.dtype | None:
    value = getattr(torch, str(name).removeprefix("torch."), None) if isinstance(name, str) else None
    return value if isinstance(value, torch.dtype) else None
