"""Parent side of a sandboxed child: start it, talk to it with deadlines, kill it whole.

Layers, outermost first (what each one does when the host refuses it):
  - `unshare` namespaces: network (-n: only a downed loopback, so no connection
    leaves the child), PID (-p -f --mount-proc --kill-child: the child is PID 1 of
    its own namespace, so killing it kills every descendant, even ones that called
    setsid; /proc shows only the namespace), mount (the child remounts everything
    read-only except its temp dir). Each flag is probed once per process; a refused
    one is logged as a warning and reported in every verdict's details
    (sandbox.network_isolated=false, ...), never silently assumed.
  - its own session and process group (start_new_session); killing sends SIGKILL to
    the group, then sweeps /proc for any process carrying this child's marker in
    its environment (the fallback when there is no PID namespace).
  - a private temp dir (cwd, HOME, TMPDIR, Triton cache), deleted when the child
    is retired (and, if the worker died first, by the next worker's start-up sweep); a scrubbed environment (no variable of the parent except the
    configured pass-through list: never secrets);
  - rlimits and dropped capabilities, set by the child itself before any untrusted
    code (evaluator.child), and a resident-memory watchdog here: the parent polls
    the child's process tree every 0.2 s while waiting and kills it past the limit;
  - a hard deadline on every request; on expiry the whole child is killed.
"""
from __future__ import annotations

import fcntl
import json
import logging
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import uuid
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

import torch

from common.config.evaluator import EvaluatorConfig, sandbox_environment
from evaluator import protocol

log = logging.getLogger(__name__)
_REPO = str(Path(__file__).resolve().parents[1])
_BOOT = "import sys; sys.path[:0] = {paths!r}; from evaluator.child import main; sys.exit(main(sys.argv))"
_FLAGS = {"network": ["-n"], "pid": ["-p", "-f", "--mount-proc", "--kill-child"], "mount": ["-m"]}


@dataclass(frozen=True)
class Isolation:
    """Which namespaces the host granted (probed once per process)."""

    network: bool
    pid: bool
    mount: bool

    def prefix(self) -> list[str]:
        flags = [f for name in ("network", "pid", "mount") if getattr(self, name) for f in _FLAGS[name]]
        return ["unshare", *flags, "--"] if flags else []


@lru_cache(maxsize=8)
def probe_isolation(network: bool, pid: bool, mount: bool) -> Isolation:
    """Try each requested namespace alone, then together; warn about each refused one."""
    exe = shutil.which("unshare")

    def works(names: list[str]) -> bool:
        if exe is None:
            return False
        argv = [exe, *[f for n in names for f in _FLAGS[n]], "--", "true"]
        try:
            return subprocess.run(argv, capture_output=True, timeout=10).returncode == 0
        except (OSError, subprocess.TimeoutExpired):
            return False

    wanted = [n for n, on in (("network", network), ("pid", pid), ("mount", mount)) if on]
    granted = [n for n in wanted if works([n])]
    if len(granted) > 1 and not works(granted):
        granted = granted[:1]
    for name in wanted:
        if name not in granted:
            log.warning("sandbox: %s namespace unavailable (unshare %s refused or missing); "
                        "children run without it", name, " ".join(_FLAGS[name]))
    return Isolation(network="network" in granted, pid="pid" in granted, mount="mount" in granted)


class MemoryLimitExceeded(protocol.ChannelError):
    """The watchdog saw the child's resident memory over the limit."""


def _widen(fd: int) -> None:
    """Grow a pipe from 64 KiB to 1 MiB (the default cap) so outputs of hundreds of MB
    cross in fewer wake-ups; where the kernel refuses, the default works, only slower."""
    try:
        fcntl.fcntl(fd, getattr(fcntl, "F_SETPIPE_SZ", 1031), 1 << 20)
    except OSError:
        pass


class ChildFailure(Exception):
    """The child timed out, died or broke the protocol; it has been killed."""

    def __init__(self, status: str, reason: str, log_tail: str = ""):
        super().__init__(reason)
        self.status, self.reason, self.log_tail = status, reason, log_tail


class Child:
    """One sandboxed child process and its two pipes."""

    def __init__(self, role: str, device: str, cfg: EvaluatorConfig, isolation: Isolation):
        self.role, self.device, self.cfg, self.isolation = role, device, cfg, isolation
        sb = cfg.sandbox
        base = sb.work_dir or Path(tempfile.gettempdir())
        base.mkdir(parents=True, exist_ok=True)
        self.tmp = Path(tempfile.mkdtemp(prefix=f"krl-{role}-{os.getpid()}-", dir=base))
        self.marker = uuid.uuid4().hex
        self.evaluations, self.ready, self.started = 0, None, time.monotonic()
        cmd_r, self._cmd_w = os.pipe()
        self._reply_r, reply_w = os.pipe()
        _widen(reply_w)
        settings = {
            "role": role, "device": device, "tmp": str(self.tmp), "cmd_fd": cmd_r, "reply_fd": reply_w,
            "readonly_fs": sb.readonly_filesystem and isolation.mount, "drop_caps": sb.drop_capabilities,
            "threads": sb.cpu_threads,
            "limits": {"fsize": sb.file_size_limit_bytes, "nproc": sb.max_processes,
                       "as": sb.cpu_address_space_bytes if device == "cpu" else None},
        }
        # -I ignores PYTHONPATH, so the parent's import path is handed over explicitly.
        paths = list(dict.fromkeys([_REPO, *(p for p in sys.path if p and os.path.isdir(p))]))
        argv = [*isolation.prefix(), sys.executable, "-I", "-B", "-u", "-X", "faulthandler", "-c",
                _BOOT.format(paths=paths), json.dumps(settings)]
        self._log_path = self.tmp / "child.log"
        with open(self._log_path, "ab") as logf:
            self.proc = subprocess.Popen(argv, stdin=subprocess.DEVNULL, stdout=logf, stderr=logf,
                                         env=self._environment(), cwd=self.tmp, pass_fds=(cmd_r, reply_w),
                                         start_new_session=True, close_fds=True)
        os.close(cmd_r)
        os.close(reply_w)
        self._reader = protocol.Reader(self._reply_r, max_bytes=4 * cfg.correctness.max_output_bytes + (64 << 20),
                                       on_wait=self._watchdog)
        self._log_offset = 0

    def _environment(self) -> dict[str, str]:
        env = sandbox_environment(self.cfg.sandbox)
        env.setdefault("PATH", "/usr/local/bin:/usr/bin:/bin")
        env.update({"HOME": str(self.tmp), "TMPDIR": str(self.tmp), "LANG": "C.UTF-8",
                    "OMP_NUM_THREADS": str(self.cfg.sandbox.cpu_threads),
                    "TRITON_CACHE_DIR": str(self.tmp / "triton"), "KRL_SANDBOX": self.marker})
        if self.device == "cpu":
            env["TRITON_INTERPRET"] = "1"
            env.pop("CUDA_VISIBLE_DEVICES", None)
        return env

    # ------------------------------------------------------------------ talking
    def wait_ready(self, timeout_s: float) -> dict:
        if self.ready is None:
            self.ready, _ = self._read(time.monotonic() + timeout_s, "start-up")
        return self.ready

    def request(self, header: dict, timeout_s: float) -> tuple[dict, list[torch.Tensor]]:
        """Send one command, return its reply; ChildFailure (child killed) otherwise."""
        deadline = time.monotonic() + max(timeout_s, 0.0)
        self._restart_log()
        try:
            protocol.write_deadline(self._cmd_w, header, deadline)
        except protocol.ChannelError as exc:
            raise self._fail("timeout" if isinstance(exc, protocol.ChannelTimeout) else "crashed",
                             str(exc)) from exc
        return self._read(deadline, header.get("op", "?"))

    def _read(self, deadline: float, what: str) -> tuple[dict, list[torch.Tensor]]:
        try:
            return self._reader.read(deadline)
        except protocol.ChannelTimeout:
            raise self._fail("timeout", f"{what} did not finish within the time limit") from None
        except protocol.ChannelClosed:
            raise self._fail("crashed", self._exit_reason(what)) from None
        except MemoryLimitExceeded as exc:
            raise self._fail("crashed", f"killed during {what}: {exc}") from None
        except protocol.ChannelError as exc:
            raise self._fail("crashed", f"protocol violation during {what}: {exc}") from None

    def _exit_reason(self, what: str) -> str:
        try:
            code = self.proc.wait(timeout=2)
        except subprocess.TimeoutExpired:
            return f"the child closed its pipe during {what}"
        if code < 0 or code > 128:
            num = -code if code < 0 else code - 128
            try:
                name = signal.Signals(num).name
            except ValueError:
                name = f"signal {num}"
            return f"the child died of {name} during {what}"
        return f"the child exited with code {code} during {what}"

    def _fail(self, status: str, reason: str) -> ChildFailure:
        self.kill()
        return ChildFailure(status, reason, self.log_tail())

    # ------------------------------------------------------------------ watching and killing
    def _watchdog(self) -> None:
        rss = _tree_rss(self.proc.pid)
        if rss > self.cfg.sandbox.memory_limit_bytes:
            raise MemoryLimitExceeded(f"host memory limit exceeded ({rss >> 20} MiB resident > "
                                      f"{self.cfg.sandbox.memory_limit_bytes >> 20} MiB)")

    def alive(self) -> bool:
        return self.proc.poll() is None

    def kill(self) -> None:
        """SIGKILL the process group (the namespace dies with its PID 1), then sweep."""
        try:
            os.killpg(self.proc.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        try:
            self.proc.wait(timeout=5)
        except subprocess.TimeoutExpired:
            log.error("sandbox child %d did not die after SIGKILL", self.proc.pid)
        _sweep(self.marker)

    def close(self) -> None:
        """Kill the child, close the pipes and delete its temp dir."""
        self.kill()
        for fd in (self._cmd_w, self._reply_r):
            try:
                os.close(fd)
            except OSError:
                pass
        shutil.rmtree(self.tmp, ignore_errors=True)

    def _restart_log(self) -> None:
        """Empty the log so it holds one request's output and never stays at RLIMIT_FSIZE
        (the child appends, so its next write lands at the new end)."""
        try:
            os.truncate(self._log_path, 0)
        except OSError:
            pass
        self._log_offset = 0

    def _log_size(self) -> int:
        try:
            return self._log_path.stat().st_size
        except OSError:
            return 0

    def log_tail(self, max_bytes: int = 4000) -> str:
        """What the child wrote to stdout/stderr since the last request began (bounded)."""
        try:
            with open(self._log_path, "rb") as f:
                start = max(self._log_offset, self._log_size() - max_bytes)
                f.seek(start)
                return f.read(max_bytes).decode("utf-8", "replace")
        except OSError:
            return ""


def sweep_stale_dirs(work_dir: Path | None) -> int:
    """Delete child temp dirs left by workers that died without cleaning up (their
    names carry the worker's pid); returns how many were removed."""
    base = work_dir or Path(tempfile.gettempdir())
    removed = 0
    for path in base.glob("krl-*-*-*"):
        parts = path.name.split("-")
        if len(parts) < 4 or not parts[2].isdigit() or not path.is_dir():
            continue
        pid = int(parts[2])
        if pid != os.getpid() and not os.path.exists(f"/proc/{pid}"):
            shutil.rmtree(path, ignore_errors=True)
            removed += 1
    return removed


def _children(pid: int) -> list[int]:
    out = []
    try:
        for tid in os.listdir(f"/proc/{pid}/task"):
            with open(f"/proc/{pid}/task/{tid}/children", encoding="ascii") as f:
                out.extend(int(x) for x in f.read().split())
    except OSError:
        pass
    return out


def _tree_rss(pid: int) -> int:
    total, todo, seen = 0, [pid], set()
    while todo:
        p = todo.pop()
        if p in seen:
            continue
        seen.add(p)
        try:
            with open(f"/proc/{p}/statm", encoding="ascii") as f:
                total += int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")
        except (OSError, ValueError, IndexError):
            continue
        todo.extend(_children(p))
    return total


def _sweep(marker: str) -> None:
    """Kill any process whose environment carries this child's marker."""
    needle = f"KRL_SANDBOX={marker}".encode()
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/environ", "rb") as f:
                if needle in f.read().split(b"\0"):
                    os.kill(int(entry), signal.SIGKILL)
        except OSError:
            continue
