"""Worker side of the sandboxes: start a zygote in bubblewrap, fork children, kill them whole.

A `Sandbox` is one bubblewrap sandbox (evaluator.bwrap: user, PID, network, IPC, UTS
and mount namespaces, a size-limited tmpfs, minimal /dev, seccomp, no capabilities,
die-with-parent, cgroup limits where the host has them) whose only program is a zygote
(evaluator.zygote) with torch and Triton imported. `Sandbox.spawn()` has the zygote
fork one `Child`; the worker talks to that child over two pipes it created itself and
handed over with SCM_RIGHTS, so a child's replies can only come from that child (or
its descendants), never from a leftover of an earlier job.

Nothing here follows a path inside a sandbox: the child's files live on the sandbox's
own tmpfs, which the worker never opens; log tails come from the zygote over the
control socket. The worker's clock (`Child.timed_request`) is the only timing that
counts (evaluator.stopwatch).

Deadlines on a sandbox's job (its commands, its zygote's replies) are on the sandbox's job
clock (`Sandbox.clock`), which stops while the sandbox is stopped for a timing elsewhere
(`Sandbox.pause`, evaluator.pool.quiet): a stop is never a job's time.

Failures: a child that breaks the protocol, overruns a deadline or dies becomes a
`ChildFailure` (its job is ended and its status and log tail collected); a sandbox
whose zygote does not answer, or that could not clean up after a job, is killed
whole (SIGKILL to bubblewrap; the PID namespace dies with it) and replaced.
"""
from __future__ import annotations

import json
import logging
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

import torch

from common.config.evaluator import EvaluatorConfig, host_memory_limit, sandbox_environment
from evaluator import bwrap, host_alignment, protocol
from evaluator.resident import children, tree_memory
from evaluator.zygote import receive, send

log = logging.getLogger(__name__)
_REPO = str(Path(__file__).resolve().parents[1])
_BOOT = "import sys; sys.path[:0] = {paths!r}; from evaluator.zygote import main; sys.exit(main(sys.argv))"


class ChildFailure(Exception):
    """The child timed out, died or broke the protocol; its job has been ended."""

    def __init__(self, status: str, reason: str, log_tail: str = ""):
        super().__init__(reason)
        self.status, self.reason, self.log_tail = status, reason, log_tail


class SandboxFailure(Exception):
    """The sandbox itself (bubblewrap or its zygote) failed: infrastructure, not a candidate."""


class MemoryLimitExceeded(protocol.ChannelError):
    """The watchdog saw the sandbox's resident memory over the limit."""


def reply_bound(cfg: EvaluatorConfig) -> int:
    """The most one reply may carry (and its arena's size): a few outputs' worth."""
    return 4 * cfg.correctness.max_output_bytes + (64 << 20)


def _widen(fd: int) -> None:
    """Grow a pipe to 1 MiB so large outputs cross in fewer wake-ups (best effort)."""
    import fcntl

    try:
        fcntl.fcntl(fd, getattr(fcntl, "F_SETPIPE_SZ", 1031), 1 << 20)
    except OSError:
        pass


class Sandbox:
    """One bubblewrap sandbox with a warm zygote; one job (child) at a time."""

    def __init__(self, cfg: EvaluatorConfig, device: str, layers: bwrap.Layers,
                 triton_base: str | None = None):
        self.cfg, self.device, self.layers = cfg, device, layers
        sb = cfg.sandbox
        self.ctl, remote = socket.socketpair(socket.AF_UNIX, socket.SOCK_SEQPACKET)
        sandboxed = layers.bwrap is not None
        # Without bubblewrap the zygote works in a private host directory and never kills
        # or wipes beyond its own jobs (no PID namespace, no tmpfs of its own).
        self.host_dir = None if sandboxed else tempfile.mkdtemp(prefix="krl-zygote-")
        work = "/tmp" if sandboxed else self.host_dir
        settings = {"control_fd": remote.fileno(), "device": device, "threads": sb.cpu_threads,
                    "pid_namespace": bool(sandboxed and layers.pid), "work": work,
                    "wipe": ["/tmp", "/dev/shm"] if sandboxed else [work], "triton_base": triton_base,
                    "guard": bool(sandboxed and layers.seccomp),
                    "limits": {"fsize": sb.file_size_limit_bytes,
                               "as": sb.cpu_address_space_bytes if device == "cpu" else None}}
        paths = list(dict.fromkeys([_REPO, *(p for p in sys.path if p and os.path.isdir(p))]))
        program = [sys.executable, "-I", "-B", "-u", "-X", "faulthandler", "-c",
                   _BOOT.format(paths=paths), json.dumps(settings)]
        env = self._environment(work)
        filter_fd = bwrap.seccomp_fd(layers) if sandboxed else None
        self.memory_limit = host_memory_limit(cfg)
        self.cgroup = bwrap.Cgroup.create(layers, sb, memory_bytes=self.memory_limit) if sandboxed else None
        if sandboxed:  # the normal case; without bubblewrap every verdict says so (layers)
            argv = bwrap.command(sb, layers, device, program, env=env, seccomp_fd=filter_fd,
                                 cgroup=self.cgroup, extra_ro_binds=[triton_base] if triton_base else ())
            env = bwrap.launcher_environment()
        else:
            argv = program
        fds = (remote.fileno(),) if filter_fd is None else (remote.fileno(), filter_fd)
        self._out = tempfile.TemporaryFile()  # the zygote's own output, read by fd only
        try:
            self.proc = subprocess.Popen(argv, stdin=subprocess.DEVNULL, stdout=self._out,
                                         stderr=self._out, pass_fds=fds, start_new_session=True,
                                         close_fds=True, env=env)
        finally:
            remote.close()
            if filter_fd is not None:
                os.close(filter_fd)
        self.ready: dict | None = None
        self.baseline_rss = 0
        self.jobs = 0
        self.peak_rss = 0  # most resident memory the watchdog saw during the current job
        self.dead = False
        self.oom_kills = 0  # the cgroup's OOM kills when the sandbox was killed
        self.child: Child | None = None
        self._frozen_total = 0.0  # seconds stopped by `pause`, ended spans
        self._frozen_since: float | None = None  # when the current `pause` began
        self._frozen_lock = threading.Lock()
        self._ctl_lock = threading.Lock()
        self.spare: Child | None = None  # a candidate child forked ahead of its job (prestart)

    def _environment(self, work: str) -> dict[str, str]:
        env = sandbox_environment(self.cfg.sandbox)
        env.setdefault("PATH", "/usr/local/bin:/usr/bin:/bin")
        env.update({"LANG": "C.UTF-8", "HOME": work, "TMPDIR": work,
                    "OMP_NUM_THREADS": str(self.cfg.sandbox.cpu_threads),
                    "TRITON_CACHE_DIR": os.path.join(work, "triton")})
        if self.device == "cpu":
            env["TRITON_INTERPRET"] = "1"
            env.pop("CUDA_VISIBLE_DEVICES", None)
            aligned = host_alignment.library()  # memory aligned as a GPU's (evaluator.host_alignment)
            if aligned is not None:
                env["LD_PRELOAD"] = aligned
        else:  # GiB-sized KernelBench tensors fragmented the caching allocator's fixed segments:
            # a 32 GiB request failed with 32 GiB reserved but unallocated
            env["PYTORCH_CUDA_ALLOC_CONF"] = "expandable_segments:True"
        return env

    # ------------------------------------------------------------------ control channel
    def _call(self, msg: dict, timeout_s: float, fds: list[int] = ()) -> dict:
        """One message to the zygote and its reply within `timeout_s` on the job clock: a zygote
        frozen meanwhile (`pause`) answers once thawed, and is not late for it."""
        deadline = self.clock() + timeout_s
        try:
            with self._ctl_lock:  # one exchange at a time: `pause` comes from a timing's thread
                if msg:
                    send(self.ctl, msg, fds)
                while True:
                    self.ctl.settimeout(min(max(deadline - self.clock(), 0.01), 0.5))
                    try:
                        reply, extra = receive(self.ctl)
                        break
                    except TimeoutError:
                        if self.clock() >= deadline:
                            raise
        except (OSError, ValueError) as exc:  # timeout, reset, garbage: the zygote is not usable
            self.kill()
            raise SandboxFailure(f"the sandbox's zygote did not answer ({exc})") from None
        for fd in extra:
            os.close(fd)
        if reply is None:
            self.kill()
            raise SandboxFailure("the sandbox's zygote exited" + self._exit_text())
        return reply

    def wait_ready(self, timeout_s: float) -> dict:
        if self.ready is None:
            reply = self._call({}, timeout_s)
            if reply.get("op") != "ready":
                self.kill()
                raise SandboxFailure(f"unexpected start-up reply {reply!r:.200}")
            self.ready = reply
            self.baseline_rss = _tree_rss(self.proc.pid)
        return self.ready

    def spawn(self, role: str, job: dict, timeout_s: float) -> Child:
        """Fork a fresh child for one job and wait until it is ready; a candidate takes the
        sandbox's spare (`prestart`) where there is one, which has set up its device while
        the sandbox was idle."""
        if self.spare is not None:
            spare, self.spare = self.spare, None
            if role == "candidate":
                try:
                    return self._claim(spare, job, timeout_s)
                except ChildFailure as exc:  # its job is ended: fork another
                    log.warning("sandbox: a spare child failed (%s); forking a fresh one", exc.reason)
            else:
                spare.close()  # a spare is a candidate's; its job is ended here
        child = self._fork(role, job)
        self._begin(child)
        child.ready = child.read_reply(self.clock() + timeout_s, "start-up")[0]
        return child

    def prestart(self) -> None:
        """Fork the next candidate's child now, while the sandbox is idle: it sets up its
        device (a CUDA context, the warm-up kernels: most of a fresh child's start on the
        GPU) before any candidate is known, and waits for its job (its CPU budget and device
        memory cap) as its first command, before any candidate code can be loaded. The
        previous job has been ended and wiped first, so nothing of an earlier candidate is
        there. Best effort: a failure leaves no spare."""
        if self.spare is not None or self.child is not None or not self.alive():
            return
        try:
            self.spare = self._fork("candidate", {"deferred": True})
        except SandboxFailure as exc:
            log.warning("sandbox: no spare child (%s)", exc)

    def _fork(self, role: str, job: dict) -> Child:
        self.wait_ready(self.cfg.startup_timeout_s)
        cmd_r, cmd_w = os.pipe()
        reply_r, reply_w = os.pipe()
        _widen(reply_w)
        # large tensors of the replies (evaluator.protocol), as large as the channel's bound
        arena = protocol.Arena.create(reply_bound(self.cfg))
        try:
            job = dict(job, arena_min_bytes=self.cfg.sandbox.arena_min_bytes)
            reply = self._call({"op": "spawn", "role": role, "device": self.device, "job": job},
                               10.0, [cmd_r, reply_w, arena.fd])
        finally:
            os.close(cmd_r)
            os.close(reply_w)
        if reply.get("op") != "spawned":
            os.close(cmd_w)
            os.close(reply_r)
            arena.close()
            raise SandboxFailure(f"the zygote refused the job: {reply.get('message')!r:.200}")
        self.jobs += 1
        child = Child(self, role, cmd_w, reply_r, arena)
        # its forks are counted by their share of what they map (evaluator.resident)
        child.host_pid = _host_pid(self.proc.pid, int(reply.get("pid", 0)))
        try:
            self._admit(int(reply.get("pid", 0)))
        except (OSError, ValueError) as exc:  # the job would share the zygote's OOM choice
            child.closed = True
            child.close_pipes()
            self.kill()
            raise SandboxFailure(f"the job's process could not be placed in its cgroup ({exc})") from None
        return child

    def _admit(self, pid: int) -> None:
        """Place the job's new process (`pid` in the sandbox's PID namespace) in the job's own
        cgroup (evaluator.cgroup: `Cgroup.admit`) before any command reaches it, so no candidate
        code runs outside it: a job that runs its cgroup out of memory loses one of its own
        processes, never the zygote (red team s61b: a job raised the zygote's OOM score through
        /proc/1/oom_score_adj, filled its tmpfs, and the zygote was killed, the sandbox lost)."""
        if self.cgroup is None or self.cgroup.job is None:
            return
        host = _host_pid(self.proc.pid, pid)
        if host is None:
            raise ValueError(f"no process {pid} of the sandbox")
        self.cgroup.admit(host)

    def _begin(self, child: Child) -> None:
        """`child` becomes the sandbox's current job: the watchdog's peak and the OOM count
        start from here."""
        self.peak_rss = 0
        child.oom_base = self.cgroup.oom_kills() if self.cgroup is not None else 0
        child.frozen_base = self.frozen_seconds()
        self.child = child

    def _claim(self, spare: Child, job: dict, timeout_s: float) -> Child:
        """The spare, once its device is set up, given this job's limits."""
        self._begin(spare)
        deadline = self.clock() + timeout_s
        spare.read_reply(deadline, "start-up")
        limits = {k: job[k] for k in ("cpu_budget_s", "device_memory_bytes") if k in job}
        spare._send({"op": "job", **limits}, deadline)
        spare.ready = spare.read_reply(deadline, "start-up")[0]
        return spare

    def clock(self) -> float:
        """The job clock: monotonic seconds less those the sandbox spent stopped by `pause`.
        Every deadline on this sandbox's job (its commands, its zygote's replies) is on it, so
        a timing elsewhere never spends a job's time."""
        return time.monotonic() - self.frozen_seconds()

    def frozen_seconds(self) -> float:
        with self._frozen_lock:
            since = self._frozen_since
            return self._frozen_total + (time.monotonic() - since if since is not None else 0.0)

    def pause(self) -> bool:
        """Stop every process of this sandbox's job while another sandbox's candidate is timed
        (evaluator.pool.quiet), mid-command or not; False when there is no job or it could not
        be stopped. With a freezer (`Cgroup.freeze`) the whole sandbox is frozen, zygote
        included (its replies wait, `_call`); else the zygote SIGSTOPs everything else in the
        PID namespace (the job's session without one). The job clock stops from here (before
        s60b a child that was mid-command was left running: its own deadline would be spent)."""
        child = self.child
        if child is None or child.closed or self.dead:
            return False
        with self._frozen_lock:
            if self._frozen_since is not None:
                return False
            self._frozen_since = time.monotonic()
        try:
            if self.cgroup is not None and self.cgroup.freezer is not None:
                if not self.cgroup.freeze():
                    log.warning("sandbox: a job was still freezing after 1 s; timing beside it")
            else:
                self._call({"op": "pause"}, 5.0)
            return True
        except (OSError, SandboxFailure) as exc:
            log.warning("sandbox: a job could not be stopped for a timing elsewhere (%s)", exc)
            self.resume()
            return False

    def resume(self) -> None:
        """Resume what `pause` stopped; the job clock runs again."""
        try:
            if self.cgroup is not None and self.cgroup.freezer is not None:
                self.cgroup.thaw()
            elif not self.dead:
                self._call({"op": "resume"}, 5.0)
        except (OSError, SandboxFailure) as exc:  # a sandbox that stays stopped is killed
            log.warning("sandbox: a paused sandbox did not resume (%s); it is killed", exc)
            self.kill()
        finally:
            with self._frozen_lock:
                since, self._frozen_since = self._frozen_since, None
                if since is not None:
                    self._frozen_total += time.monotonic() - since

    def tail(self) -> str:
        try:
            return str(self._call({"op": "tail"}, 5.0).get("log", ""))
        except SandboxFailure:
            return ""

    def finish(self, grace_s: float = 0.5) -> dict:
        """End the current job: kill what is left of it and wipe its files."""
        reply = self._call({"op": "finish", "grace_s": grace_s}, grace_s + 10.0)
        if reply.get("op") != "finished":
            self.kill()
            raise SandboxFailure(f"unexpected reply to finish: {reply!r:.200}")
        if not reply.get("clean"):
            log.warning("sandbox: a job left processes or files behind; the sandbox is replaced")
            self.kill()
        return reply

    # ------------------------------------------------------------------ watching and killing
    def watchdog(self) -> None:
        # the job's processes, and what its reply arena holds, once: the child keeps the arena
        # mapped (page-locked for the device's copies), so its resident shared memory holds
        # the arena's pages too; the arena's share of that is not counted twice (what else
        # the job maps shared still is)
        # the job child's forks counted whole, and where that is over the limit by their share
        # (evaluator.resident: a Pss read costs 0.27 s for a 1.7 GiB fork, so only then)
        child = self.child
        arena = child.arena_bytes() if child is not None else 0
        forker = child.host_pid if child is not None else None
        for counted_by_share in (None, forker):
            resident, shared = tree_memory(self.proc.pid, counted_by_share)
            rss = resident - self.baseline_rss - min(shared, arena) + arena
            if rss <= self.memory_limit or forker is None:
                break
        self.peak_rss = max(self.peak_rss, rss)
        if rss > self.memory_limit:
            raise MemoryLimitExceeded(f"host memory limit exceeded ({rss >> 20} MiB resident > "
                                      f"{self.memory_limit >> 20} MiB)")

    def alive(self) -> bool:
        return not self.dead and self.proc.poll() is None

    def kill(self) -> None:
        """SIGKILL bubblewrap's process group; its PID namespace dies with it."""
        self.dead = True
        if self.spare is not None:  # its process dies with the sandbox; its pipes are ours
            self.spare.closed = True
            self.spare.close_pipes()
            self.spare = None
        try:
            os.killpg(self.proc.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        try:
            self.proc.wait(timeout=5)
        except subprocess.TimeoutExpired:
            log.error("sandbox %d did not die after SIGKILL", self.proc.pid)
        self.ctl.close()
        if self.cgroup is not None:
            self.oom_kills = max(self.oom_kills, self.cgroup.oom_kills())  # read before the cgroup goes (Child.fail)
            try:
                self.cgroup.remove()
            except OSError as exc:  # a killing must never raise into an evaluation (rt75)
                log.error("sandbox %d: its cgroup could not be removed (%s); left behind", self.proc.pid, exc)
        if self.host_dir is not None:
            shutil.rmtree(self.host_dir, ignore_errors=True)

    def _exit_text(self) -> str:
        code = self.proc.poll()
        self._out.seek(0, os.SEEK_END)
        size = self._out.tell()
        self._out.seek(max(0, size - 2000))
        tail = self._out.read().decode("utf-8", "replace").strip()
        return (f" (code {code})" if code is not None else "") + (f":\n{tail}" if tail else "")


class Child:
    """One forked process of a sandbox and the two pipes to it."""

    def __init__(self, sandbox: Sandbox, role: str, cmd_w: int, reply_r: int, arena: protocol.Arena):
        self.sandbox, self.role = sandbox, role
        self._cmd_w, self._reply_r, self._arena = cmd_w, reply_r, arena
        self._reader = protocol.Reader(reply_r, max_bytes=reply_bound(sandbox.cfg), on_wait=sandbox.watchdog,
                                       arena=arena, clock=sandbox.clock)
        self.ready: dict = {}
        self.closed = False
        self.oom_base = 0
        self.frozen_base = 0.0  # the sandbox's frozen seconds when this job began
        self.gate = threading.Lock()  # held while a command is in flight
        self.op_seconds: dict[str, list] = {}  # per command: [count, seconds] on the worker's clock
        self.host_pid: int | None = None  # its pid on the host, where found (Sandbox.spawn)

    def request(self, header: dict, timeout_s: float,
                max_bytes: int | None = None) -> tuple[dict, list[torch.Tensor]]:
        """Send one command, return its reply; ChildFailure (job ended) otherwise. A reply
        over `max_bytes` (at most the channel's own bound) is refused before it is read."""
        with self.gate:
            deadline = self.sandbox.clock() + max(timeout_s, 0.0)
            self._send(header, deadline)
            bound = self._reader.max_bytes
            if max_bytes is not None:
                self._reader.max_bytes = min(bound, max_bytes)
            try:
                return self.read_reply(deadline, header.get("op", "?"))
            finally:
                self._reader.max_bytes = bound
                self._count(header, deadline - max(timeout_s, 0.0))

    def timed_request(self, header: dict, timeout_s: float) -> tuple[dict, list[torch.Tensor], float]:
        """As request, with the worker's own clock from before the write to after the read."""
        with self.gate:
            deadline = self.sandbox.clock() + max(timeout_s, 0.0)
            t0 = time.perf_counter()
            self._send(header, deadline)
            try:
                reply, tensors = self.read_reply(deadline, header.get("op", "?"))
            finally:
                self._count(header, deadline - max(timeout_s, 0.0))
            return reply, tensors, time.perf_counter() - t0

    def _count(self, header: dict, started: float) -> None:
        entry = self.op_seconds.setdefault(str(header.get("op", "?")), [0, 0.0])
        entry[0] += 1
        entry[1] += self.sandbox.clock() - started

    def _send(self, header: dict, deadline: float) -> None:
        if self.closed:  # its pipes are closed (and their numbers maybe reused): never written
            raise ChildFailure("crashed", f"the child had already ended before {header.get('op', '?')}", "")
        try:
            protocol.write_deadline(self._cmd_w, header, deadline, self.sandbox.clock)
        except protocol.ChannelError as exc:
            raise self.fail("timeout" if isinstance(exc, protocol.ChannelTimeout) else "crashed",
                            str(exc)) from exc

    def read_reply(self, deadline: float, what: str) -> tuple[dict, list[torch.Tensor]]:
        try:
            return self._reader.read(deadline)
        except protocol.ChannelTimeout:
            raise self.fail("timeout", f"{what} did not finish within the time limit") from None
        except protocol.ChannelClosed:
            raise self.fail("crashed", None, what) from None
        except MemoryLimitExceeded as exc:
            raise self.fail("crashed", f"killed during {what}: {exc}") from None
        except protocol.ChannelError as exc:
            raise self.fail("crashed", f"protocol violation during {what}: {exc}") from None
        except OSError as exc:  # the channel itself failed (EBADF): the child is ended, never the worker
            raise self.fail("crashed", f"the channel failed during {what}: {exc}") from None

    def fail(self, status: str, reason: str | None, what: str = "") -> ChildFailure:
        """End the job (the zygote kills what is left of it) and describe how it ended."""
        self.close_pipes()
        try:
            ended = self.sandbox.finish(grace_s=0.2)
        except SandboxFailure as exc:  # the zygote is gone: if the cgroup ran out of memory, the
            # job's memory did it (nothing else runs there), and the verdict says so
            if reason is None and self.sandbox.oom_kills > self.oom_base:
                return ChildFailure(status, self._out_of_memory(what, " (the sandbox was lost with it)"))
            return ChildFailure(status, reason or f"the child's sandbox failed during {what}: {exc}")
        cgroup = self.sandbox.cgroup  # read by `kill` where the end found the sandbox unclean
        if reason is None and cgroup is not None and max(cgroup.oom_kills(), self.sandbox.oom_kills) > self.oom_base:
            reason = self._out_of_memory(what)
        if reason is None:
            how = ended.get("status") or "an unknown cause"
            reason = (f"the child died of {how.removeprefix('signal ')} during {what}"
                      if how.startswith("signal") else f"the child exited with code "
                      f"{how.removeprefix('exit ')} during {what}" if how.startswith("exit ")
                      else f"the child ended ({how}) during {what}")
        self.closed = True
        return ChildFailure(status, reason, str(ended.get("log", "")))

    def _out_of_memory(self, what: str, lost: str = "") -> str:
        return (f"killed during {what}: out of memory (the sandbox's memory limit of "
                f"{self.sandbox.memory_limit >> 20} MiB, files in /tmp and /dev/shm included){lost}")

    def frozen_seconds(self) -> float:
        """Seconds this job was stopped for timings elsewhere (evaluator.pool.quiet): never its
        own time (the evaluation's deadline moves by them, evaluator.pipeline)."""
        return self.sandbox.frozen_seconds() - self.frozen_base

    def arena_bytes(self) -> int:
        return self._arena.resident_bytes()

    def close_pipes(self) -> None:
        for fd in (self._cmd_w, self._reply_r):
            try:
                os.close(fd)
            except OSError:
                pass
        self._arena.close()

    def close(self) -> dict | None:
        """Close the pipes (the child exits) and end the job in the sandbox. A zygote that
        fails to end it is killed with its whole sandbox (`Sandbox._call`), which ends the
        job as surely, so this never raises: the job's processes shared the zygote's uid and
        tmpfs and could make its end slow (red team rt75: 1.3M files in the job's directory
        outlasted the wipe's deadline), and a failure here, mid-evaluation (the candidate is
        ended before its reference is timed), read "the evaluator's sandbox failed", no verdict."""
        if self.closed:
            return None
        self.closed = True
        self.close_pipes()
        if self.sandbox.child is self:
            self.sandbox.child = None
        try:
            return self.sandbox.finish()
        except SandboxFailure as exc:
            log.warning("sandbox: ending a job failed (%s); the sandbox was killed and is replaced", exc)
            if not self.sandbox.dead:
                self.sandbox.kill()
            return None


def _host_pid(outer: int, pid: int) -> int | None:
    """The host's pid of the process below `outer` whose pid in its own PID namespace is `pid`
    (the last entry of NSpid in its status; without a PID namespace, the same number)."""
    todo, seen = [outer], set()
    while todo:
        p = todo.pop()
        if p in seen:
            continue
        seen.add(p)
        try:
            with open(f"/proc/{p}/status", "rb") as f:
                line = next((x for x in f if x.startswith(b"NSpid:")), b"NSpid:")
            if p != outer and int(line.split()[-1]) == pid:
                return p
        except (OSError, ValueError, IndexError):
            pass
        todo.extend(children(p))
    return None


def _tree_rss(pid: int) -> int:
    return tree_memory(pid)[0]
