"""A forward that leaves the GPU unusable, and what the evaluation does after it.

An illegal address in a CUDA kernel is sticky: every later CUDA call of the process raises
the same error, whatever it is (a synchronize, a seed, a draw). A knock-out forward is the
evaluator's own doing (a kernel skipped, its buffer left holding the noise fresh memory holds
in every checked forward), and honest code faults there on the GPU where it raises on the
CPU: a gather through an index table nobody wrote (the MoE align files s63f and s64f_01,
honest, faulted in the knock-out round on an H100; their next command failed in
`seed_everything` with `torch.manual_seed`'s copy of the error, and the verdict,
runtime_error, named that). So:

- the child records the first failure after which its device no longer answers (`Lost`) and
  answers every later command with it, so a verdict names the forward that faulted, never a
  later call that met the sticky error; a knock-out forward that lost the device says so in
  its trial (`device_lost`);
- the worker ends that child, starts a fresh one for the candidate and runs its job again
  with what was lost taken as raised (knock-out round, evaluator.knockout_round; the full
  knock-out, evaluator.correctness_phase), as a raise is taken on the CPU, never run again.
  A fault stands for ONE knock-out that raised (`Faults`): a kernel of the knock-out round is
  still knocked out its other times in the next child (red team s67G: where one fault stood
  for all three, a candidate faulting at the first forward it could not place kept a padding
  kernel needed 3 times in 7, not the round's 1 in 35). Each child settles one more knock-out,
  so a job starts at most one child per knock-out (REPEATS per kernel, one each for the full,
  torch and joint ones), inside its own deadline.

The CPU has no such state: `usable` is always true there, and a child's claim that its device
was lost is not believed there (`claims`): a fresh child redraws the interpreter's keyed
choices (evaluator.keyed_draw), which a forged claim would reroll.
"""
from __future__ import annotations

from collections.abc import Callable

JOINT = "(the round's decoys together)"
"""What `DeviceLost` names where the knock-out of every decoy at once lost the device."""


class DeviceLost(Exception):
    """A knock-out forward left the candidate child's device unusable; `what` is the knocked
    out kernel's name, JOINT, or the knock-out set's id."""

    def __init__(self, what: str | int, message: str = ""):
        super().__init__(f"knock-out of {what} left the device unusable: {message}"[:600])
        self.what = what


class Faults(dict):
    """The knock-outs that left a candidate child's device unusable: what -> the first fault's
    text, and how often each did (`times`). A kernel of the knock-out round is knocked out
    `repeats` times and each fault is one of them (`left`: how many the next child still runs);
    the full, torch and joint knock-outs run once, so one fault settles them (`in` says so)."""

    def __init__(self, repeats: int):
        super().__init__()
        self.repeats, self.times = repeats, {}

    def allowance(self, what: str | int) -> int:
        """How many times `what` is knocked out in a job: a kernel's name REPEATS times."""
        return self.repeats if isinstance(what, str) and what != JOINT else 1

    def left(self, what: str | int) -> int:
        """How many knock-outs of `what` a child still runs (none once its faults used them up)."""
        return max(self.allowance(what) - self.times.get(what, 0), 0)

    def record(self, what: str | int, text: str) -> bool:
        """Count one fault of `what`; whether it was one of its knock-outs (else the same one
        faulted past them, which no job runs again for)."""
        within = self.left(what) > 0
        self.setdefault(what, text)
        self.times[what] = self.times.get(what, 0) + 1
        return within


def claims(reply: dict, device: str) -> bool:
    """Whether a child's reply (or one trial of it) says the device was lost, believed only on
    CUDA: the CPU's state never is, and a reply is the candidate's process's own writing."""
    return device == "cuda" and bool(reply.get("device_lost"))


def usable(device: str) -> bool:
    """Whether the device still answers: on CUDA a synchronize that raises means the context
    is lost (a sticky error); the CPU always does."""
    if device != "cuda":
        return True
    import torch

    try:
        torch.cuda.synchronize()
    except BaseException:  # deliberate: any failure to answer is the answer
        return False
    return True


class Lost:
    """The first failure of a child after which its device stopped answering."""

    def __init__(self, device: str, probe: Callable[[str], bool] = usable):
        self.device, self.probe = device, probe
        self.first: dict | None = None

    def after(self, kind: str, message: str, traceback: str, where: str) -> bool:
        """Whether the device is lost, recording this failure (in `where`) as the first one
        where it is and none was before."""
        if self.first is None and self.device != "cpu" and not self.probe(self.device):
            self.first = {"kind": kind, "message": f"{where}: {message}"[:2000], "traceback": traceback}
        return self.first is not None

    def reply(self) -> dict | None:
        """The error reply every command gets once the device is lost (None while it is not)."""
        if self.first is None:
            return None
        return {"op": "error", "kind": self.first["kind"], "device_lost": True,
                "message": "the device stopped answering (a sticky CUDA error) after this failure, in "
                           + self.first["message"],
                "traceback": self.first["traceback"]}


def device_ooms(device: str) -> int:
    """How many times this process's CUDA allocator has run out of memory so far."""
    import torch

    return int(torch.cuda.memory_stats().get("num_ooms", 0)) if device == "cuda" else 0
