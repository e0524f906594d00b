"""The dry command, the child's side of the dry launch model (evaluator.dry_phase is the
worker's): the candidate's forward at this child's sizes with its launches recorded and not run,
on meta tensors or the problem's CPU draw, then the model of every launch (evaluator.dry_launch).
"""
from __future__ import annotations

import contextlib

from evaluator import dry_configs, dry_memory
from evaluator.dry_launch import Budget, Launch

# launches of one forward the model runs at most (more: no model). Their programs are bounded
# by the model's time anyway; at 64, a ReLU whose chunk loop stopped at 4M elements (128
# launches at the declared sizes) had no model (s61d), where the GPU pays ~3 us a launch:
# 4096 cost a forward ~12 ms there
MAX_LAUNCHES = 4096


def measured(ws, model, recorder, budget_s: float, skip: frozenset = frozenset(), real_seed: int | None = None,
             runs: frozenset = frozenset(), configs: bool = False, stepped: bool = False,
             pin: list | None = None) -> dict:
    """The child's side (the `dry` command): the candidate's forward at this child's sizes, its
    launches recorded and not run (LaunchRecorder.dry), then the model of every launch:
    {"storages": `stored`'s} or {"unmodelled": why}. The forward runs on meta tensors, or with
    `real_seed` on the problem's CPU draw from that seed (evaluator.dry_tells: where the meta
    forward observed what a meta tensor cannot answer as the GPU would, {"values": why, "elements":
    its inputs' elements}; where the real one read back what a launch it does not run may have
    stored, or raised, {"told": why, "needs": the launches it came from} or {"raised": why}; the
    launches whose ordinals are in `runs` run there, as in a CPU trial: dry_tells.Recorded; {"feeds":
    those not run whose stores a launch its loaded values steer loads}, no model: dry_tells.feeds). With
    `configs` (the declared sizes), also each other autotune config's grid: evaluator.dry_configs.
    The model's CPU time is counted from the forward's end (`Budget`): a forward spinning on the
    host spends none of it; its wall time is dry_phase's cap. Replies carry "cpu_s". With
    `stepped`, a forward with alternative configs replies {"forwards": n} first (`rest` then
    models them: dry_configs.modelled). With `pin` (another forward's `pins`), its autotuned
    launches run those configs (evaluator.dry_phase `_repinned`)."""
    import torch

    from evaluator import candidate_env, dry_tells

    phase = "meta" if real_seed is None else "real"
    recorder.dry = [] if phase == "meta" else dry_tells.Recorded(runs)
    dry_configs.start(configs and not pin, pin)  # every config's grid of an autotuned launch: evaluator.dry_configs
    elements = None
    try:
        # a CUDA device the problem's inputs or the candidate name makes meta tensors (or the CPU's)
        candidate_env.STANDING_DEVICE[0] = "meta" if phase == "meta" else "cpu"
        inputs = _inputs(ws, real_seed)
        elements = sum(x.numel() for x in inputs if isinstance(x, torch.Tensor))
        if isinstance(model, torch.nn.Module) and phase == "meta":
            model.to("meta")
        dry_tells.start(phase)
        dry_memory.births_from(model, inputs)
        with recorder.suppressed(), _real(phase), dry_memory.Births.watching(phase):
            outputs, _ = ws.forward(model, inputs)
        launches, feeds = [Launch(*made) for made in recorder.dry], dry_tells.feeds()
        if dry_tells.told() is not None:
            raise dry_tells.Told(dry_tells.told())
    except Exception as exc:  # noqa: BLE001  (judged by evaluator.dry_phase: `_failed`)
        failed = _failed(phase, exc, dry_tells.told(), elements)
        return {**failed, "needs": dry_tells.needs()} if "told" in failed else failed
    finally:
        recorder.dry, candidate_env.STANDING_DEVICE[0] = None, "cpu"
        dry_tells.start(None)
    if len(launches) > MAX_LAUNCHES:
        return {"unmodelled": f"{len(launches)} launches in one forward"}
    unrun = sorted(set(feeds) - runs)
    if unrun:  # a steered launch loads what launches not run here stored: no model until they run
        return {"feeds": unrun}  # (dry_tells.feeds; dry_phase `_rerun` runs them, a model saved)
    return dry_configs.modelled(launches, Budget(budget_s), tuple(outputs), skip, stepped=stepped)  # per config


def command(workspace, model, recorder, h: dict) -> dict:
    """The child's `dry` command (`measured`; with "rest", `rest`), its header read here."""
    if h.get("rest") is True:  # the second step: the forwards left, a CPU limit for them
        return rest(float(h.get("cpu_s", 0)))
    skip, seed = frozenset(str(k) for k in h.get("skip") or [] if isinstance(k, str)), h.get("real_seed")
    runs = frozenset(int(i) for i in h.get("runs") or [] if type(i) is int)
    pin = [[int(o), str(k), str(c)] for o, k, c in h.get("pin") or []] if isinstance(h.get("pin"), list) else None
    return measured(workspace(), model, recorder, float(h.get("budget_s", 60)), skip,
                    None if seed is None else int(seed), runs, h.get("configs") is True, h.get("stepped") is True,
                    pin)


def rest(cpu_s: float) -> dict:
    """The dry command's second step: the forwards `measured` left (dry_configs.rest), the
    child's CPU limit first set to `cpu_s` more (the host's grant, in units of those forwards:
    evaluator.dry_phase `_granted`)."""
    from evaluator.child import cpu_budget

    cpu_budget(cpu_s)
    return dry_configs.rest()


def _real(phase: str):
    """The real forward's watch (dry_tells.Taint), with fresh memory holding noise as in every
    checked forward (a fresh `torch.empty` read back as zeros here only would tell it apart)."""
    from evaluator import dry_tells
    from evaluator.output_noise import random_uninitialised

    if phase != "real":
        return contextlib.nullcontext()
    stack = contextlib.ExitStack()
    stack.enter_context(random_uninitialised())
    stack.enter_context(dry_tells.Taint())
    return stack


def _inputs(ws, real_seed: int | None) -> list:
    """The forward's inputs: meta tensors from the problem's get_inputs, or its CPU draw."""
    import torch

    if real_seed is not None:
        return ws._make(int(real_seed), "base", with_digest=False)[0]
    with torch.device("meta"):
        return list(ws.problem.get_inputs())


def _failed(phase: str, exc: Exception, told: str | None, elements: int | None) -> dict:
    """The reply for a forward that did not finish: on meta tensors the real forward answers
    it (`values`), unless the problem's inputs were not made; on the CPU draw the model has no
    answer (`told`: it read back a launched storage; `raised`)."""
    why = f"{type(exc).__name__}: {str(exc)[:200]}"
    if elements is None:
        return {"unmodelled": f"the problem's inputs at these sizes: {why}"}
    if phase == "meta":
        return {"values": told or why, "elements": elements}
    return {"told": told} if told is not None else {"raised": why}
