"""The candidate child's forwards under each autotune config (evaluator.commands' `run`, CPU
interpreter only): before a checked forward, the same forward pinned to each config drawn for it,
each in a fork that forgets it (evaluator.autotune_forks), then every pinned forward held to what
the checked one returned (evaluator.autotune_pins: red teams s62f, s63g). A mixin of
`commands.ChildState`, as `timed_steps.TimedSteps` is: it reads the state's device, role,
recorder, workspace and `_forward`.
"""
from __future__ import annotations

from contextlib import nullcontext
from functools import partial

import torch

from evaluator import autotune_cpu, autotune_forks, autotune_pins, kept_work
from evaluator.forward_watch import Provenance
from evaluator.output_noise import poison, random_uninitialised
from evaluator.timed_steps import _as


class PinnedForwards:
    def _pinned_before(self, h: dict, inputs: list, checked: bool) -> list:
        """Under the CPU interpreter, before a checked candidate forward: the forward on its
        inputs once per autotune config drawn for it (evaluator.autotune_pins.due), and,
        before a trial, once per config that has not met its inputs' transform
        (autotune_pins.cover), pinned for its key, as a checked forward runs (fresh memory
        holding noise, poisoned, watched, the report unread): it comes before the forward it is
        held to, on inputs no forward has had, so nothing tells it from a checked forward. Each
        runs in a fork of this process taken here (evaluator.autotune_forks), so what it leaves
        behind (a fingerprint of the inputs, a count) is gone when the next one or the checked
        forward runs: red team s62f's forwards that remember what they saw."""
        if not (checked and self.device == "cpu" and self.role == "candidate"):
            return []
        autotune_forks.dismiss()
        due = autotune_pins.due()
        cover = autotune_pins.cover(due) if h.get("cover_configs", True) else []
        forks = []
        for pin in (*due, *cover):  # each in a process that forgets it (evaluator.autotune_forks)
            forks.append((pin, autotune_forks.run(partial(self._pinned_forward, h, pin, inputs=inputs),
                                                  partial(autotune_pins.took, pin))))
            if (error := forks[-1][1].failed()) is not None:
                raise error
            autotune_pins.taken(pin, forks[-1][1].used())
        # pins known only after it, with no checked forward left (`schedule`'s): red team s63g
        if not h.get("checked_left") and (autotune_cpu._TRIAL[0] or autotune_pins._PENDING or due) \
                and autotune_pins.any_tuner():
            autotune_forks.stand_by(partial(self._pinned_forward, h, inputs=inputs))
        return forks

    def _pinned_forward(self, h: dict, pin: dict, *, inputs: list) -> tuple[list, list]:
        """In a fork, on the checked forward's own input objects (a fresh copy's ids told: s63g)."""
        poison(self.device, h.get("poison_bytes", 0))
        watch = Provenance(self.recorder, kept=self._workspace().kept_lifts) if h.get("provenance") else None
        # PyTorch's work it leaves alive is charged as a checked forward's (kept_work.Kept):
        # a table built in a pinned forward, where none was watched, was found made by the rest
        kept = kept_work.Kept(self._workspace().kept, self.recorder, self._workspace().candidate_held)

        def forward() -> list[torch.Tensor]:
            with autotune_pins.pinned(pin), random_uninitialised(True), watch or nullcontext(), kept:
                again, _ = self._forward(inputs)
            kept.done(again, inputs)
            return again

        # copied as it returns: a later forward must not move what this one is held to
        return autotune_pins.snapshot(_as("candidate", forward)), autotune_pins.snapshot(inputs)

    def _configs_agree(self, h: dict, inputs: list, outs: list[torch.Tensor], pinned: list) -> None:
        """Every config of the forward's autotuners computes what the checked one did: each
        pinned forward run before it (`_pinned_before`) is held to what it returned and left
        in its inputs; the configs its first picks found writing otherwise are drawn later
        checked forwards (`checked_left`: how many the worker still runs), and where none is
        left they run now, on copies of its inputs, in forks of the fork taken before it
        (autotune_forks.stand_by), each of which must launch its key (red team s63g)."""
        for pin, forked in pinned:
            again, again_inputs = forked.result()
            if not pin.get("used", True) and "cover" not in pin:  # its key never launched on these inputs
                pin["wait"] = None
                autotune_pins._PENDING.append(pin)
                continue
            _as("candidate", partial(autotune_pins.held, pin, again, again_inputs, outs, inputs, h.get("agree_floor")))
        now = autotune_pins.schedule(h.get("checked_left"))
        if not now:
            return autotune_forks.dismiss()
        described = [_as("candidate", partial(autotune_pins.described, pin)) for pin in now]
        for pin, forked in zip(now, autotune_forks.after(described), strict=True):  # in the standby's forks
            if (error := forked.failed()) is not None:
                raise error
            autotune_pins.taken(pin, forked.used())
            if not any(forked.used()):  # nothing after its note ever ran it
                _as("candidate", partial(autotune_pins.never_ran, pin))
            again, again_inputs = forked.result()
            _as("candidate", partial(autotune_pins.held, pin, again, again_inputs, outs, inputs, h.get("agree_floor")))
