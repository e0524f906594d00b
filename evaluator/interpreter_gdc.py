"""Grid dependency control (programmatic dependent launch) under the CPU interpreter.

`tl.extra.cuda.gdc_wait()` and `gdc_launch_dependents()` (Triton's tutorial 11; FlashInfer,
SGLang and vLLM kernels launched with `launch_pdl=True`) build `griddepcontrol.wait` and
`griddepcontrol.launch_dependents`, for which Triton's InterpreterBuilder has no method: the
CPU raised AttributeError from honest code that the H200 runs (honest round s56d). Both are
defined by what they order between launches, and the interpreter runs a stream's launches
one after another, each to its end:
- gdc_wait blocks until the grid launched before this one has finished and its memory is
  visible. Here every earlier launch has finished before this launch's first program runs,
  so the wait holds already: a no-op.
- gdc_launch_dependents lets the next launch start early (when every program of this one has
  made the call or exited). It is a hint that changes no value this launch computes: a no-op.
Neither synchronises the programs of one launch, so neither is a barrier or an acquire for
evaluator.interpreter_races. What stays open: a kernel launched with `launch_pdl=True` that
reads, before its gdc_wait, what the previous launch wrote reads it here in order, where the
H200 may let it race (docs/threat_model.md). Installed by evaluator.interpreter_guard."""
from __future__ import annotations


def install(builder_type: type) -> None:
    """The two GDC ops on the interpreter's builder, where this Triton's lacks them."""
    if not hasattr(builder_type, "create_grid_dependency_wait"):
        builder_type.create_grid_dependency_wait = _ordered_already
    if not hasattr(builder_type, "create_grid_dependency_launch_dependents"):
        builder_type.create_grid_dependency_launch_dependents = _ordered_already


def _ordered_already(self) -> None:
    """Nothing to do: the interpreter's launches already run one after another, to their end."""
    return None
