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
  Each retry settles one more knock-out, so a job starts at most a handful of children.

The CPU has no such state: `usable` is always true there, and nothing changes.
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
