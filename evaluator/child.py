"""Sandboxed child process: `python -I -m evaluator.child '<json settings>'`.

Started by evaluator.sandbox inside `unshare` (new network, PID and mount
namespaces where the host allows). Everything up to "ready" is trusted harness code
and runs before any problem or candidate code:

  1. SIGXFSZ ignored, so a write past RLIMIT_FSIZE is an error, not a death;
  2. inside its private mount namespace, every mount is remounted read-only except
     the child's own temp dir (which holds HOME, TMPDIR and the Triton cache) and
     /proc (CUDA needs it; /proc/sys and the other host-reaching parts stay read-only);
  3. rlimits: file size, core dumps off, processes, address space (CPU children);
  4. every Linux capability dropped and no_new_privs set (it stays uid 0 so the
     interpreter's files stay readable, but can no longer remount, trace or escape);
  5. torch and Triton imported (TRITON_INTERPRET=1 for CPU children), the launch
     hook installed, the integrity baseline recorded;
  6. {"op": "ready"} sent with what the child could and could not set up.

Then it serves commands (see evaluator.protocol) until the parent closes the pipe.
A "reference" child only ever runs problem code; "candidate" children refuse
"reference" commands, so reference outputs never come from a process that has run a
candidate.
"""
from __future__ import annotations

import ctypes
import gc
import json
import os
import resource
import signal
import sys
import time
from pathlib import Path

_MS_RDONLY, _MS_REMOUNT, _MS_BIND, _MS_REC, _MS_PRIVATE = 1, 32, 4096, 16384, 1 << 18
_PR_SET_NO_NEW_PRIVS, _PR_CAPBSET_DROP = 38, 24


def _libc() -> ctypes.CDLL:
    return ctypes.CDLL(None, use_errno=True)


def _mount(libc: ctypes.CDLL, target: str, flags: int, source: str | None = None) -> None:
    if libc.mount(source.encode() if source else None, target.encode(), None, flags, None) != 0:
        err = ctypes.get_errno()
        raise OSError(err, os.strerror(err), target)


# /proc stays writable (CUDA's initialisation writes there; it is the PID namespace's
# own procfs), except the parts that reach the host kernel, as container runtimes do.
_PROC_READONLY = ("/proc/sys", "/proc/sysrq-trigger", "/proc/irq", "/proc/bus", "/proc/fs")


def readonly_filesystem(writable: str) -> str | None:
    """Remount every mount read-only except `writable` and /proc (minus _PROC_READONLY);
    an error message or None."""
    libc = _libc()
    try:
        _mount(libc, "/", _MS_REC | _MS_PRIVATE)
        _mount(libc, writable, _MS_BIND, source=writable)
        for path in _PROC_READONLY:
            if os.path.exists(path):
                _mount(libc, path, _MS_BIND, source=path)
        with open("/proc/self/mountinfo", encoding="utf-8") as f:
            points = [line.split()[4].encode().decode("unicode_escape") for line in f]
        failed = []
        for point in sorted(set(points), key=len):
            if point in (writable, "/proc"):
                continue
            try:
                _mount(libc, point, _MS_REMOUNT | _MS_BIND | _MS_RDONLY)
            except OSError as exc:  # a mount that refuses; reported, others still protected
                failed.append(f"{point}: {exc.strerror}")
        return f"could not remount {', '.join(failed[:5])}" if failed else None
    except OSError as exc:  # no private mount namespace: the layer is off, say so
        return f"{exc.filename}: {exc.strerror}"


def drop_capabilities() -> str | None:
    """Drop the bounding set and all capabilities; set no_new_privs. Error or None."""
    libc = _libc()
    if libc.prctl(_PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0:
        return f"no_new_privs: {os.strerror(ctypes.get_errno())}"
    for cap in range(64):
        libc.prctl(_PR_CAPBSET_DROP, cap, 0, 0, 0)  # EINVAL past the last cap: ignored

    class Header(ctypes.Structure):
        _fields_ = [("version", ctypes.c_uint32), ("pid", ctypes.c_int)]

    class Data(ctypes.Structure):
        _fields_ = [("effective", ctypes.c_uint32), ("permitted", ctypes.c_uint32),
                    ("inheritable", ctypes.c_uint32)]

    header, data = Header(0x20080522, 0), (Data * 2)()
    if libc.capset(ctypes.byref(header), data) != 0:
        return f"capset: {os.strerror(ctypes.get_errno())}"
    return None


def set_limits(limits: dict) -> None:
    resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
    resource.setrlimit(resource.RLIMIT_FSIZE, (limits["fsize"], limits["fsize"]))
    hard = resource.getrlimit(resource.RLIMIT_NPROC)[1]
    nproc = limits["nproc"] if hard == resource.RLIM_INFINITY else min(limits["nproc"], hard)
    resource.setrlimit(resource.RLIMIT_NPROC, (nproc, nproc))
    if limits.get("as"):
        resource.setrlimit(resource.RLIMIT_AS, (limits["as"], limits["as"]))


def cpu_budget(seconds: float) -> None:
    """Soft RLIMIT_CPU = CPU used so far + budget: a backstop if the parent vanished."""
    used = resource.getrusage(resource.RUSAGE_SELF)
    total = used.ru_utime + used.ru_stime
    hard = resource.getrlimit(resource.RLIMIT_CPU)[1]
    soft = int(total + seconds) + 1
    resource.setrlimit(resource.RLIMIT_CPU, (soft if hard == resource.RLIM_INFINITY else min(soft, hard), hard))


def bootstrap(settings: dict) -> dict:
    """Steps 1-4 of the module docstring; returns what was set up."""
    signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
    facts = {"pid": os.getpid(), "readonly_fs": False, "caps_dropped": False, "errors": []}
    if settings.get("readonly_fs"):
        err = readonly_filesystem(settings["tmp"])
        facts["readonly_fs"] = err is None
        if err:
            facts["errors"].append(f"read-only filesystem: {err}")
    set_limits(settings["limits"])
    if settings.get("drop_caps"):
        err = drop_capabilities()
        facts["caps_dropped"] = err is None
        if err:
            facts["errors"].append(f"capabilities: {err}")
    return facts


def main(argv: list[str]) -> int:
    settings = json.loads(argv[1])
    facts = bootstrap(settings)
    os.chdir(settings["tmp"])
    t0 = time.perf_counter()
    import torch
    import triton

    from evaluator import protocol
    from evaluator.commands import ChildState

    torch.set_num_threads(settings.get("threads", 1))
    state = ChildState(settings["role"], settings["device"], Path(settings["tmp"]))
    facts.update(import_s=time.perf_counter() - t0, torch=str(torch.__version__), triton=str(triton.__version__),
                 device=state.device_name())
    reply_fd = settings["reply_fd"]
    protocol.write_blocking(reply_fd, {"op": "ready", **facts})
    reader = protocol.Reader(settings["cmd_fd"])
    while True:
        try:
            head, _ = reader.read(None)
        except protocol.ChannelClosed:
            return 0
        if head["op"] == "exit":
            return 0
        cpu_budget(float(head.get("cpu_budget_s", 3600)))
        reply, tensors = state.handle(head)
        protocol.write_blocking(reply_fd, reply, tensors)
        gc.collect()


if __name__ == "__main__":
    sys.exit(main(sys.argv))
