"""The scaled and spiked trials each run again as a module's first large input: in a fork of the
candidate child taken where the module had seen none (CPU only).

A module keeps what it likes between forwards (an attribute, a global, a class counter, a
kernel cache, its autotuners' state), and one child runs its forwards in one order: only one
scaled or spiked trial is the first large input of the module's life, and which one is the
order's coin. A ReLU that clamped at 100 until it had once seen an element past 100 (the spiked
trial never clamps, having one) was honest on the x1e3 trial wherever the spiked trial came
anywhere before it: ok 1 order in 2 (red team s67G, docs/open_attacks, session 67). No order
closes it: one order holds one large trial first.

So the worker names, in the `run` command of the first large trial, every other large trial to
run again in a fork (`points`): each then meets the state the order gave the first one (the
quiet forwards before it, nothing large). Each fork runs its trial's forward as a checked forward
runs (poisoned, fresh memory holding noise, watched, its autotuners at the next config as a
trial's are), before the command's own forward and from the state that forward starts from;
only its outputs come back (evaluator.autotune_forks: what it learns dies with it). The worker
judges them as the trial's (`FRESH_SET + trial id`; correctness_phase). Not at the module's very
first forward (where `reference.trial_order` never puts a large trial while two trials are on
the problem's own inputs): with forks there too, an honest autotuned matmul's correctness phase
took 270 s against main's 27 s (s68C, CPU, loaded box; a fork there is cold, reasoned: every
cache a forward fills, the first autotune pick's benchmark of every config included, filled
again in each); a forward wrong only where its first call is large stays open
(docs/open_attacks). On the GPU no child forks (CUDA): the order's coin stands there.
"""
from __future__ import annotations

from functools import partial
from typing import TYPE_CHECKING

from evaluator import autotune_forks, autotune_pins, kept_work
from evaluator.input_transforms import leaves
from evaluator.output_noise import poison, random_uninitialised
from evaluator.runner import modified_leaves, pristine
from evaluator.timed_steps import describe_outputs, sendable

if TYPE_CHECKING:
    from evaluator.commands import ChildState

FRESH_SET = 2000  # a fresh run's id: FRESH_SET + its trial's id (the knock-outs' are 1000, 1001)


def points(order: list[int], n: int, plain: list[int]) -> dict[int, list[int]]:
    """{set id: the large trials run in forks before that set's command}: every scaled or
    spiked trial but the first, before the first (none where the plan has one or none)."""
    loud = [s for s in order if s < n and s not in plain]
    return {loud[0]: loud[1:]} if len(loud) > 1 else {}


def run(state: ChildState, h: dict) -> tuple[list[dict], list]:
    """In the candidate child on the CPU, before the command's own forward: each trial of
    `h["fresh_ids"]` in a fork of the child as it is now; (its results, their tensors), each
    as a `run` result with id FRESH_SET + the trial's id."""
    ids = [int(i) for i in h.get("fresh_ids") or ()]
    if not ids or state.device != "cpu" or state.role != "candidate":
        return [], []
    results, tensors = [], []
    for trial in ids:
        forked = autotune_forks.run(partial(_forward, state, h, trial), list)
        error = forked.failed()
        if error is not None and getattr(error, "kind", "") != _Unsendable.kind:
            raise error
        outs, back = forked.result() if error is None else ([], [])
        results.append({"id": FRESH_SET + trial, "outputs": describe_outputs(outs),
                        "problem": None if error is None else error.message,
                        "modified": [], "returned_inputs": len(back), "n_launches": 0, "launches": []})
        tensors.extend((*outs, *back))
    return results, tensors


class _Unsendable(Exception):
    """What the fork's forward returned cannot be sent (`sendable`): said, not copied (a 512 MiB
    output cloned and pickled in the fork ran it out of memory: test_huge_output_*)."""

    kind = "unsendable"

    def __init__(self, message: str):
        super().__init__(message)
        self.message = message


def _forward(state: ChildState, h: dict, trial: int) -> tuple[list, list]:
    """In the fork: trial `trial`'s inputs drawn, and its forward run as a checked trial's
    (`ChildState.run`); its outputs and, asked, the inputs it wrote, as they were when it returned."""
    autotune_forks._STANDBY[0] = None  # the child's standby fork is not this one's to end
    ws = state._workspace()
    inputs = ws.inputs(trial)
    copies = pristine(inputs)
    poison(state.device, h.get("poison_bytes", 0))
    state._autotuned_as_checked(checked=True, probe=False)
    autotune_pins.trial(ws.transform(trial))
    watch = _watch(state, h)
    kept = kept_work.Kept(ws.kept, state.recorder, ws.candidate_held)
    with random_uninitialised(True), watch, kept:
        outs, _ = state._forward(inputs)
    kept.done(outs, inputs)
    problem = sendable(outs, h["max_output_bytes"], h.get("reference_bytes"), h.get("reference_outputs"))
    if problem is not None:
        raise _Unsendable(problem)
    now = leaves(inputs)  # what it wrote into its inputs is judged as output (`ChildState.run`)
    written = [now[i] for i in modified_leaves(inputs, copies) if i < len(now)]
    return autotune_pins.snapshot(outs), autotune_pins.snapshot(written if h.get("return_inputs") else [])


def _watch(state: ChildState, h: dict):
    """The provenance watch every checked forward runs under (its report unread here)."""
    from contextlib import nullcontext

    from evaluator.forward_watch import Provenance

    return Provenance(state.recorder) if h.get("provenance") else nullcontext()
