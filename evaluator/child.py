"""Inside the sandbox: process set-up shared by the zygote and the children it forks.

`prepare_process(device)` runs once in the zygote, before any fork: the Triton launch
hook goes onto the class-level launch path (inherited by every child), and on the CPU
the interpreter is warmed up so its lazy one-off work is done before the integrity
baseline. On a GPU nothing touches the device here (CUDA does not survive a fork).

`serve(msg, cmd_fd, reply_fd, tmp, arena_fd)` runs in each forked child: it initialises the
device (GPU: its own CUDA context, TF32 off so float32 means IEEE float32 in the
reference, as a candidate's float32 must be), records the integrity baseline, sends
{"op": "ready"} and serves evaluator.commands until the worker closes the command pipe.
A "reference" child only ever runs problem code; a "candidate" child runs one
candidate and is never reused.
"""
from __future__ import annotations

import gc
import os
import resource
import time
from pathlib import Path

_RECORDER = None
_COLLECT_AFTER = frozenset({"prepare", "load", "model", "run", "profile"})


def prepare_process(device: str) -> dict:
    """Zygote start-up (harness code only): launch hook, CPU warm-up. Returns facts."""
    global _RECORDER
    from evaluator.launch_hook import LaunchRecorder

    if device == "cpu":  # the guard's builder hooks first: the launch hook wraps them, and checks
        from evaluator import interpreter_guard  # that its wrappers stay the outermost

        interpreter_guard.install()
    _RECORDER = LaunchRecorder()
    _RECORDER.install()
    # Imports only (no device): torch._dynamo alone takes seconds, which every forked child
    # would otherwise pay in its warm-up.
    import torch._dynamo  # noqa: F401
    import torch.profiler  # noqa: F401
    from triton.runtime import driver  # noqa: F401
    _values_never_printed()
    if device == "cpu":
        from evaluator import interpreter_libdevice
        from evaluator.warmup import warm_up

        interpreter_libdevice.install()  # before any candidate imports a libdevice function
        from evaluator import device_compile
        device_compile.warm_up()  # the GPU compiler's front end, which every interpreted launch passes
        from evaluator import autotune_cpu
        autotune_cpu.install()  # which config an autotuned kernel runs in each checked forward
        _torch_device_without_a_driver()

        warm_up("cpu")
    # The child's own modules (evaluator.commands and what it imports: the config models,
    # the watches, the protocol), imported here once instead of in every forked child before
    # its "ready": ~0.7 s of CPU per candidate on the CPU (pydantic's model classes, most of
    # it). Harness code only, with nothing at module level that reads the environment, the
    # pid or the device; each child still builds its own state (ChildState, its integrity
    # baseline, the carried-bytes secret keyed by pid) after the fork.
    from evaluator import commands, protocol  # noqa: F401
    return {"device": device}


def _values_never_printed() -> None:
    """A tensor's text names its shape, dtype and device, never its values. str() of a view
    of an input read every value into Python through torch's printing (an internal tolist,
    no aten op), where no knock-out and no work meter sees it: the host decoded the floats
    and computed a GEMM, ok under both policies (red team C, session 15). A 0-dim tensor
    formatted with a spec still goes through .item(), an aten op both watches see."""
    import torch

    from evaluator import candidate_env

    torch.Tensor.__repr__ = candidate_env.tensor_text
    torch.Tensor.__str__ = candidate_env.tensor_text


class _NoDriver:
    """The interpreter's stand-in for Triton's active driver: it names the device tensors
    live on (the CPU) and is otherwise what no driver is ("0 active drivers")."""

    def get_active_torch_device(self):
        """The CPU, where tensors live; to the candidate's own code cuda:0, the device its
        tensors name there (evaluator.candidate_env), so the tutorials' `x.device == DEVICE`
        holds as on the GPU."""
        import torch

        from evaluator import candidate_env

        return torch.device("cuda", 0) if candidate_env.candidate_frame(1) else torch.device("cpu")

    def get_current_device(self) -> int:
        return 0

    def get_current_target(self):
        """The GPU the evaluator times on (an H100/H200: cuda, sm_90, warps of 32): Triton
        tutorial 03 picks its autotune configs by `get_current_target().backend` (honest round,
        session 21: compile_error on the CPU only)."""
        from triton.backends.compiler import GPUTarget

        return GPUTarget("cuda", 90, 32)

    @property
    def utils(self):
        return _NoDriverUtils()

    def __getattr__(self, name: str):
        raise RuntimeError(f"0 active drivers (Triton's CPU interpreter has no device driver: {name})")


DRIVER_PROPERTIES = "triton.runtime.driver.active.utils.get_device_properties(0)"


class _NoDriverUtils:
    """`driver.active.utils` under the interpreter: the device properties Triton tutorial 02
    sizes its persistent grid by (the H200's, as device_answers.interpreter_device_properties
    says to torch)."""

    def get_device_properties(self, device: object = None) -> dict:
        """The recorded driver's dict (its keys in the driver's order: red team s47 rt24 told
        the CPU by the stand-in's), else one made from the device properties."""
        import ast

        from evaluator.device_answers import H200, IMAGE

        recorded = IMAGE["probes"].get(DRIVER_PROPERTIES, {}).get("value")
        if recorded is not None:
            return dict(ast.literal_eval(recorded["repr"]))
        return {"multiprocessor_count": H200["multi_processor_count"],
                "max_shared_mem": H200["shared_memory_per_block_optin"],
                "max_num_regs": H200["regs_per_multiprocessor"], "warpSize": H200["warp_size"],
                "sm_clock_rate": H200["clock_rate"], "mem_clock_rate": H200["memory_clock_rate"],
                "mem_bus_width": H200["memory_bus_width"]}

    def __getattr__(self, name: str):
        raise RuntimeError(f"0 active drivers (Triton's CPU interpreter has no device driver: utils.{name})")


def _torch_device_without_a_driver() -> None:
    """The Triton tutorials' `DEVICE = triton.runtime.driver.active.get_active_torch_device()`
    (a module-level line many solutions copy) raised "0 active drivers" at import under the
    interpreter: honest files failed to load on the CPU only. It now names the CPU, where
    the interpreter's tensors are."""
    from triton.runtime import driver

    try:
        driver.active  # noqa: B018  (a real driver, where there is one, stays)
    except RuntimeError:
        driver.set_active(_NoDriver())


def cpu_budget(seconds: float) -> None:
    """Soft RLIMIT_CPU = CPU used so far + budget: a backstop if the worker vanished."""
    if seconds <= 0:
        return
    used = resource.getrusage(resource.RUSAGE_SELF)
    total = used.ru_utime + used.ru_stime
    hard = resource.getrlimit(resource.RLIMIT_CPU)[1]
    soft = int(total + seconds) + 1
    resource.setrlimit(resource.RLIMIT_CPU, (soft if hard == resource.RLIM_INFINITY else min(soft, hard), hard))


def _init_device(device: str) -> str:
    import torch

    if device != "cuda":
        return "cpu"
    torch.cuda.set_device(0)
    torch.cuda.init()
    torch.backends.cuda.matmul.allow_tf32 = False
    torch.backends.cudnn.allow_tf32 = False
    from evaluator.warmup import warm_up

    warm_up("cuda", profiler=False)
    return torch.cuda.get_device_name(0)


def _cap_device_memory(job: dict) -> int:
    """The device's total memory (0 off the GPU); a job given `device_memory_bytes` (its
    reservation, evaluator.memory) cannot allocate beyond it, set before any candidate code
    is imported."""
    if job["device"] != "cuda":
        return 0
    import torch

    total = torch.cuda.get_device_properties(0).total_memory
    cap = job.get("device_memory_bytes")
    if cap:
        torch.cuda.set_per_process_memory_fraction(min(1.0, int(cap) / total))
    return total


def serve(msg: dict, cmd_fd: int, reply_fd: int, tmp: str, arena_fd: int | None = None) -> int:
    """Serve one job: `msg` is the zygote's spawn message (role, device, and the worker's
    job: its CPU budget, device-memory cap, arena threshold)."""
    from evaluator import protocol
    from evaluator.commands import ChildState

    job = {**(msg.get("job") or {}), "role": msg["role"], "device": msg["device"]}

    t0 = time.perf_counter()
    name = _init_device(job["device"])
    reader = protocol.Reader(cmd_fd)
    if job.get("deferred"):  # a spare, started before its candidate was known (evaluator.sandbox):
        # its limits come as the first command, before any candidate code can be loaded
        protocol.write_blocking(reply_fd, {"op": "ready", "device_name": name, "pid": os.getpid(),
                                           "init_s": time.perf_counter() - t0})
        try:
            head, _ = reader.read(None)
        except protocol.ChannelClosed:
            return 0
        if head.get("op") != "job":
            raise SystemExit(f"a spare child's first command must be its job, not {head.get('op')!r:.40}")
        job.update({k: head[k] for k in ("cpu_budget_s", "device_memory_bytes") if k in head})
    total = _cap_device_memory(job)
    state = ChildState(job["role"], job["device"], Path(tmp), _RECORDER)
    state.capped = bool(total and job.get("device_memory_bytes"))  # a fresh count: the job's own OOMs
    protocol.write_blocking(reply_fd, {"op": "ready", "device_name": name, "pid": os.getpid(),
                                       "init_s": time.perf_counter() - t0, "device_memory_bytes": total})
    arena = None if arena_fd is None else \
        protocol.Arena(arena_fd, int(job.get("arena_min_bytes") or protocol.ARENA_MIN_BYTES))
    cpu_budget(float(job.get("cpu_budget_s", 0)))
    while True:
        try:
            head, _ = reader.read(None)
        except protocol.ChannelClosed:
            return 0
        reply, tensors = state.handle(head)
        protocol.write_blocking(reply_fd, reply, tensors, arena)
        # never between arm and go: a collection there would land inside the next timed call;
        # of a sequence of one-set `run` commands, only after the last
        if head.get("op") in _COLLECT_AFTER and head.get("last", True):
            gc.collect()
