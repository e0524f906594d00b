"""The zygote: a warm process inside one sandbox that forks a fresh child per job.

Started by evaluator.sandbox as the sandbox's only program (bubblewrap: own user, PID,
network, IPC, UTS and mount namespaces, a size-limited tmpfs at /tmp, seccomp). With a PID
namespace it is the namespace's init (bwrap --as-pid-1): bwrap's own reaper, which lived
beside it as PID 1 and outlived every job, was dumpable and had no seccomp guard, so a
candidate wrote code into it through /proc/1/mem that killed the NEXT candidate's process
(red team s59e); the zygote is never dumpable, and its children inherit that.
Everything here is harness code; no problem or candidate code ever runs in the zygote
itself. Start-up, before "ready":
  1. rlimits (file size, no core dumps, address space for CPU sandboxes), SIGXFSZ
     ignored, and PR_SET_DUMPABLE 0: no process of the sandbox may ptrace it or read or
     write its memory through /proc (seccomp denies ptrace as well);
  2. torch and Triton imported, one intra-op thread (so no OpenMP pool exists to be
     broken by fork), the Triton launch hook installed, the child's command modules
     imported (evaluator.commands: no child pays for them), and on the CPU the
     interpreter warmed up. The device is never touched here: CUDA cannot survive a
     fork, so every child initialises its own context.

Then it serves the worker over a unix SEQPACKET socket (msgpack maps; file
descriptors travel with SCM_RIGHTS):
  spawn  {role, device, job}: fork; the child gets the two pipes sent with the command
         and nothing else of the zygote's (the control socket is closed in it), its own
         session (and scheduler autogroup), the highest OOM score (`OOM_SCORE_ADJ`; the
         worker then places it in the job's own cgroup, evaluator.cgroup, so the job's OOM
         never takes the zygote) and a seccomp guard that
         keeps the zygote and init out of its reach (evaluator.seccomp.guard), and serves
         evaluator.child. Reply {"op": "spawned", "pid"}.
  tail   {}: the last bytes of the current child's stdout/stderr (a file in its own
         directory, opened with O_NOFOLLOW and checked to be a regular file).
  finish {grace_s}: end the current job: wait up to grace_s for the child to exit, kill
         it, then kill every other process of the sandbox (kill(-1) in the PID
         namespace reaches all but the zygote, which is its init), wait until
         /proc shows none left, delete everything under /tmp and /dev/shm (their modes and
         every directory's owner rights given back first) and every SysV IPC object, write
         back the zygote's own /proc knobs a job may write (`_restore_knobs`), then compare
         what children inherit (`inheritable`). Reply {"op": "finished",
         "status": <wait status text>, "log": <tail>}. After this nothing of the job
         is left for the next one to find.
  pause / resume: SIGSTOP / SIGCONT every process of the sandbox but the zygote, while
         another sandbox's candidate is timed (evaluator.pool.quiet), where the sandbox's
         cgroup has no freezer; with one the worker freezes the whole sandbox, this zygote
         too, and its own waits (`_Deadline`) do not count the frozen time.
One job at a time; the worker starts one sandbox per concurrent evaluation, so two
candidates never share a sandbox at the same time.
"""
from __future__ import annotations

import ctypes
import errno
import gc
import json
import os
import resource
import signal
import socket
import stat
import sys
import time

_PR_SET_PDEATHSIG, _PR_SET_DUMPABLE = 1, 4
MAX_FDS = 4
LOG_TAIL_BYTES = 4000



def _prctl(option: int, value: int) -> None:
    libc = ctypes.CDLL(None, use_errno=True)
    if libc.prctl(option, value, 0, 0, 0) != 0:
        raise OSError(ctypes.get_errno(), f"prctl({option})")


def die_with_parent() -> None:
    """SIGKILL this process when its parent dies (not inherited over fork: each fork asks)."""
    _prctl(_PR_SET_PDEATHSIG, signal.SIGKILL)


def set_limits(limits: dict) -> None:
    resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
    # no POSIX message queue (hard limit too: raising it back needs a privilege): a queue outlives
    # its job and no file of the sandbox lists it, so where seccomp is missing one job's queue was
    # opened by the next candidate's (red team s61b); seccomp denies mq_* where it is on
    resource.setrlimit(resource.RLIMIT_MSGQUEUE, (0, 0))
    resource.setrlimit(resource.RLIMIT_FSIZE, (limits["fsize"], limits["fsize"]))
    if limits.get("as"):
        resource.setrlimit(resource.RLIMIT_AS, (limits["as"], limits["as"]))


def send(sock: socket.socket, msg: dict, fds: list[int] = ()) -> None:
    import msgspec

    data = msgspec.msgpack.encode(msg)
    if fds:
        socket.send_fds(sock, [data], list(fds))
    else:
        sock.send(data)


def receive(sock: socket.socket, max_bytes: int = 1 << 22) -> tuple[dict | None, list[int]]:
    """One message and its file descriptors; (None, []) at end of file."""
    import msgspec

    data, fds, _flags, _addr = socket.recv_fds(sock, max_bytes, MAX_FDS)
    if not data:
        for fd in fds:
            os.close(fd)
        return None, []
    msg = msgspec.msgpack.decode(data)
    if not isinstance(msg, dict):
        raise ValueError("control message is not a map")
    return msg, list(fds)


def describe_status(status: int) -> str:
    if os.WIFSIGNALED(status):
        sig = os.WTERMSIG(status)
        try:
            return f"signal {signal.Signals(sig).name}"
        except ValueError:
            return f"signal {sig}"
    if os.WIFEXITED(status):
        return f"exit {os.WEXITSTATUS(status)}"
    return f"status {status}"


class Zygote:
    def __init__(self, settings: dict, sock: socket.socket):
        self.settings, self.sock = settings, sock
        self.child: int | None = None
        self.work, self.wipe = settings["work"], settings["wipe"]
        self.pid_namespace = bool(settings["pid_namespace"])
        self.status: str | None = None
        self.jobs = 0
        self.inherited = inheritable()
        self.modes = {d: stat.S_IMODE(os.stat(d).st_mode) for d in self.wipe if os.path.isdir(d)}

    def serve(self) -> int:
        while True:
            msg, fds = receive(self.sock)
            if msg is None:
                self._end_job(0.0)
                return 0
            op = msg.get("op")
            if op == "spawn":
                self._spawn(msg, fds)
            elif op == "tail":
                send(self.sock, {"op": "tail", "log": self._tail()})
            elif op == "finish":
                self._end_job(float(msg.get("grace_s", 0.5)))
            elif op in ("pause", "resume"):
                self._signal(signal.SIGSTOP if op == "pause" else signal.SIGCONT)
                send(self.sock, {"op": op + "d"})
            else:
                send(self.sock, {"op": "error", "message": f"unknown op {op!r}"})

    def _spawn(self, msg: dict, fds: list[int]) -> None:
        if self.child is not None or len(fds) != 3:
            for fd in fds:
                os.close(fd)
            send(self.sock, {"op": "error", "message": "a job is running or its pipes or arena are missing"})
            return
        self.jobs += 1
        self.status = None
        job_dir = os.path.join(self.work, f"job-{self.jobs}")
        os.makedirs(job_dir, mode=0o700)
        pid = os.fork()
        if pid == 0:  # the child: never returns
            _child_main(self.sock, fds, job_dir, msg, self.settings.get("triton_base"),
                        bool(self.settings.get("guard")))
        for fd in fds:
            os.close(fd)
        self.child, self.job_dir = pid, job_dir
        send(self.sock, {"op": "spawned", "pid": pid})

    def _signal(self, sig: int) -> None:
        """Signal the job: every process of the PID namespace, or the job's process group.
        A pause is answered once every one of them has stopped (up to a second)."""
        if self.pid_namespace:
            _signal_everything_else(sig)
        elif self.child is not None:
            try:
                os.killpg(self.child, sig)
            except OSError:
                pass
        deadline = time.monotonic() + 1.0
        while sig == signal.SIGSTOP and self.pid_namespace and time.monotonic() < deadline and any(
                _state(p) not in ("T", "t", "Z", "X", "") for p in _others()):
            # again: kill(-1) stops one process after another, and one not yet stopped may have
            # resumed (SIGCONT) one already stopped (red team rt75: two that resume each other)
            _signal_everything_else(sig)
            time.sleep(0.001)

    def _tail(self) -> str:
        if self.child is None and self.status is None:
            return ""
        path = os.path.join(self.job_dir, "child.log")
        try:
            fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK)
        except OSError:
            return ""
        try:
            info = os.fstat(fd)
            if not stat.S_ISREG(info.st_mode):
                return ""
            os.lseek(fd, max(0, info.st_size - LOG_TAIL_BYTES), os.SEEK_SET)
            return os.read(fd, LOG_TAIL_BYTES).decode("utf-8", "replace")
        finally:
            os.close(fd)

    def _end_job(self, grace_s: float) -> None:
        log = ""
        if self.child is not None:
            deadline = _Deadline(grace_s)
            while not deadline.passed():
                pid, status = os.waitpid(self.child, os.WNOHANG)
                if pid:
                    self.status = describe_status(status)
                    break
                time.sleep(0.005)
            else:
                os.kill(self.child, signal.SIGKILL)
                self.status = describe_status(os.waitpid(self.child, 0)[1]) + " (killed at the job's end)"
            log = self._tail()
            sid, self.child = self.child, None
            # In its own PID namespace the sandbox holds nothing but this job: everything
            # else dies. Without one, only the job's session (the child called setsid).
            clean = _kill_everything_else() if self.pid_namespace else _kill_session(sid)
        else:
            clean = _kill_everything_else() if self.pid_namespace else True
        clean = clean and all([_wipe(d, self.modes.get(d)) for d in self.wipe if os.path.isdir(d)]) and _clear_ipc()
        _restore_knobs(self.inherited)
        clean = clean and inheritable() == self.inherited
        send(self.sock, {"op": "finished", "status": self.status, "log": log, "clean": clean})


def inheritable() -> tuple:
    """What every child forked here inherits that another process of the same uid can change
    from outside (prlimit, setpriority, sched_setaffinity, sched_setscheduler): a job that
    changed any of it leaves the sandbox unclean (replaced), so no candidate sets the next
    one's priority, CPU set or limits (red team rt75; the children's seccomp guard denies
    the calls too, this holds where the host has no seccomp)."""
    limits = tuple(resource.getrlimit(getattr(resource, n)) for n in sorted(dir(resource))
                   if n.startswith("RLIMIT_"))
    # /proc files of the zygote's that the sandbox's uid may write (its /proc files are host
    # root's, which that uid is as deployed; red team s59e found these open for writing from a
    # child, and `autogroup` written to nice 19, kept for every later job): the OOM score, the
    # session's scheduler autogroup (its id and nice) and the core dump filter (inherited)
    knobs = []
    for name in ("oom_score_adj", "autogroup", "coredump_filter"):
        try:
            with open(f"/proc/self/{name}", encoding="ascii") as f:
                knobs.append(f.read().strip())
        except OSError:
            knobs.append("")
    return (limits, os.getpriority(os.PRIO_PROCESS, 0), tuple(sorted(os.sched_getaffinity(0))),
            os.sched_getscheduler(0), os.sched_getparam(0).sched_priority, *knobs)


class _Deadline:
    """A deadline of the zygote's own waits that a freeze of the sandbox does not spend
    (evaluator.pool.quiet freezes it whole, the zygote in the middle of ending a job
    included): a gap between two looks longer than `GAP_S` was a stop, and moves it."""

    GAP_S = 0.25

    def __init__(self, seconds: float):
        self.last = time.monotonic()
        self.at = self.last + seconds

    def passed(self) -> bool:
        now = time.monotonic()
        if now - self.last > self.GAP_S:
            self.at += now - self.last
        self.last = now
        return now >= self.at


def _others() -> list[int]:
    me = os.getpid()
    return [int(p) for p in os.listdir("/proc") if p.isdigit() and int(p) not in (1, me)]


def _state(pid: int) -> str:
    try:  # bytes: the name in parentheses is the process's own choice, raw; a name that was not
        # ASCII failed an ASCII read and ended the zygote in a pause (red team s59e)
        with open(f"/proc/{pid}/stat", "rb") as f:
            return f.read().rsplit(b")", 1)[1].split()[0].decode("ascii", "replace")
    except (OSError, IndexError):
        return ""


def _signal_everything_else(sig: int) -> None:
    try:
        os.kill(-1, sig)
    except ProcessLookupError:
        pass


def _kill_session(sid: int, timeout_s: float = 3.0) -> bool:
    """SIGKILL every process of session `sid` (the job's, without a PID namespace)."""
    deadline = _Deadline(timeout_s)
    while True:
        left = []
        for p in _others():
            try:
                if os.getsid(p) == sid:
                    left.append(p)
                    os.kill(p, signal.SIGKILL)
            except OSError:
                continue
        if not left:
            return True
        if deadline.passed():
            return False
        time.sleep(0.005)


def _kill_everything_else(timeout_s: float = 3.0) -> bool:
    """SIGKILL every process of the PID namespace but init and us; True once none is left."""
    deadline = _Deadline(timeout_s)
    while True:
        try:
            os.kill(-1, signal.SIGKILL)
        except ProcessLookupError:  # nobody else to signal
            pass
        try:  # our own children (the job's) are ours to reap, and as init, every orphan too
            while os.waitpid(-1, os.WNOHANG)[0]:
                pass
        except ChildProcessError:
            pass
        left = _others()
        if not left:
            return True
        if deadline.passed():
            return False
        time.sleep(0.005)


def _wipe(root: str, mode: int | None = None) -> bool:
    """Delete everything a job could have written under `root` (given back its start-up `mode`
    first); read-only mounts that the sandbox placed there (a checkout under /tmp) are left
    alone, and only writable places inside them could hold a job's files, which they cannot.
    Every file there is the sandbox uid's, so the zygote's as well: a directory whose mode a
    job set to deny its owner is given the owner's rights back before it is emptied (red team
    s61b: /tmp at 0555 and a directory at 0 left files the zygote could not delete, and the
    sandbox was replaced)."""
    ok, dev = True, os.stat(root).st_dev
    try:
        if mode is not None:
            os.chmod(root, mode)
    except OSError:
        ok = False
    for name in os.listdir(root):
        path = os.path.join(root, name)
        try:
            if os.lstat(path).st_dev != dev or os.path.ismount(path):
                continue
            if os.path.isdir(path) and not os.path.islink(path):
                _rmtree_same_device(path, dev)
            else:
                os.unlink(path)
        except (OSError, RecursionError):  # left behind: the sandbox is replaced
            ok = False
    return ok


def _rmtree_same_device(path: str, dev: int) -> None:
    """rmtree that steps around mount points (it never follows symlinks either); `path` (a
    directory, lstat-ed: no process of the job is left to swap it) gets its owner's rights."""
    os.chmod(path, stat.S_IRWXU)
    for name in os.listdir(path):
        sub = os.path.join(path, name)
        info = os.lstat(sub)
        if info.st_dev != dev:
            continue
        if stat.S_ISDIR(info.st_mode):
            _rmtree_same_device(sub, dev)
        else:
            os.unlink(sub)
    if not any(os.lstat(os.path.join(path, n)).st_dev != dev for n in os.listdir(path)):
        os.rmdir(path)


OOM_SCORE_ADJ = 1000
"""Every job process's OOM score adjustment (inherited by what it forks): the kernel's badness is
resident memory plus adj/1000 of the cgroup's limit, so at 1000 any process of the job outranks
the zygote, whose resident memory is under that limit. Tmpfs pages are charged to the sandbox's
cgroup but to no process's resident set: a job that filled /tmp and /dev/shm while keeping its
own processes small left the zygote (torch and Triton, the PID namespace's init) the largest
process, and the cgroup's OOM killer took it, ending the sandbox mid-job (red team s59e; session
60 measured it: the zygote killed at 100k pages beside the child's 72k, the verdict "the child's
sandbox failed", the sandbox replaced). Raising one's own score needs no privilege. A job may also
lower its own and raise the zygote's (red team s61b): what closes that is the job's own cgroup
(evaluator.cgroup), and the zygote writes its own score back at the job's end (`_restore_knobs`)."""


def _restore_knobs(inherited: tuple) -> None:
    """Write the zygote's own /proc knobs back as they were at start-up (`inheritable`: its OOM
    score, its autogroup's nice, its core dump filter). A job's process may write them (the
    zygote's /proc files are the sandbox uid's, as every job's process is; red team s59e, s61b),
    and none of them decides anything for the next job once written back: each child is a session
    (an autogroup) of its own, has OOM score `OOM_SCORE_ADJ` in a cgroup of its own
    (evaluator.cgroup) and no core dumps (RLIMIT_CORE 0). Before s61b such a write retired the
    sandbox (a restart per candidate that chose to); a knob that cannot be written back (a
    lower nice or score than the floor allows) still shows in `inheritable`, and the sandbox is
    replaced as before."""
    now = inheritable()[-3:]
    oom, group, dump = inherited[-3:]  # the filter is read in hex, written back as hex
    for name, value, was, is_ in (("oom_score_adj", oom, oom, now[0]),
                                  ("autogroup", group.rsplit(" ", 1)[-1], group, now[1]),
                                  ("coredump_filter", "0x" + dump, dump, now[2])):
        for _ in range(5) if is_ != was else ():
            try:
                with open(f"/proc/self/{name}", "w", encoding="ascii") as f:
                    f.write(value)
                break
            except OSError as exc:  # an autogroup's nice changes at most once per 0.1 s, host-wide
                if exc.errno != errno.EAGAIN:
                    break
                time.sleep(0.11)


_IPC_RMID = 0
_IPC_CTL = {"shm": "shmctl", "msg": "msgctl", "sem": "semctl"}


def _clear_ipc() -> bool:
    """Remove every SysV IPC object of the sandbox's IPC namespace (/proc/sysvipc lists them);
    True once none is left. Only where seccomp is missing can a job make one (SANDBOX denies the
    calls), and there a segment one job made was found by the next candidate's (red team s61b)."""
    libc = ctypes.CDLL(None, use_errno=True)
    left = False
    for kind, ctl in _IPC_CTL.items():
        for ident in _ipc_ids(kind):
            if getattr(libc, ctl)(ident, 0, _IPC_RMID) if kind == "sem" else getattr(libc, ctl)(ident, _IPC_RMID, None):
                left = True
        left = left or bool(_ipc_ids(kind))
    return not left


def _ipc_ids(kind: str) -> list[int]:
    try:
        with open(f"/proc/sysvipc/{kind}", "rb") as f:
            return [int(line.split()[1]) for line in f.read().splitlines()[1:] if line.strip()]
    except (OSError, ValueError, IndexError):
        return []


def _first_for_the_oom_killer() -> None:
    try:
        with open("/proc/self/oom_score_adj", "w", encoding="ascii") as f:
            f.write(str(OOM_SCORE_ADJ))
    except OSError:  # no /proc: the zygote is at risk as before, never the job's start
        pass


def _child_main(sock: socket.socket, fds: list[int], job_dir: str, msg: dict,
                triton_base: str | None, guard: bool) -> None:
    """In the forked child: its seccomp guard, own log, own directory, then serve commands;
    exits, never returns."""
    code = 70
    try:
        sock.close()
        _first_for_the_oom_killer()
        if guard:  # before anything else runs here: the zygote and init are out of reach
            from evaluator import seccomp

            seccomp.load(seccomp.guard((1, os.getppid())))
        # Its own session: what the zygote kills at the job's end without a PID namespace, and
        # with one its own scheduler autogroup, whose nice any process of the session may raise
        # through /proc/self/autogroup: shared with the zygote, a candidate's 19 was the next
        # candidate's, whose honest relu then timed 100x slower beside other work (red team rt75)
        os.setsid()
        die_with_parent()
        log = os.open(os.path.join(job_dir, "child.log"),
                      os.O_WRONLY | os.O_CREAT | os.O_APPEND | os.O_NOFOLLOW, 0o600)
        os.dup2(log, 1)
        os.dup2(log, 2)
        os.close(log)
        os.chdir(job_dir)
        cache = os.path.join(job_dir, "triton")
        if triton_base and os.path.isdir(triton_base):  # read-only, filled by harness code only
            import shutil

            shutil.copytree(triton_base, cache, symlinks=True)
        os.environ.update(HOME=job_dir, TMPDIR=job_dir, TRITON_CACHE_DIR=cache)
        from evaluator.child import serve

        code = serve(msg, cmd_fd=fds[0], reply_fd=fds[1], tmp=job_dir, arena_fd=fds[2])
    except BaseException:  # a failure of the harness before or around serving: exit loudly
        import traceback

        traceback.print_exc()
    finally:
        os._exit(code)


def main(argv: list[str]) -> int:
    settings = json.loads(argv[1])
    signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
    set_limits(settings["limits"])
    _prctl(_PR_SET_DUMPABLE, 0)
    sock = socket.socket(fileno=settings["control_fd"])
    t0 = time.perf_counter()
    import torch
    import triton

    torch.set_num_threads(settings.get("threads", 1))
    from evaluator.child import prepare_process

    facts = prepare_process(settings["device"])
    if settings.get("guard"):  # libseccomp loaded once here, not in every child (its guard)
        from evaluator import seccomp

        seccomp.export_bpf(seccomp.guard((1, os.getpid())))
    # what start-up made (torch, Triton: ~300k objects) out of every later collection: a child
    # collects after most commands (evaluator.child), and each full pass took 0.1-0.4 s,
    # ten or more times per evaluation
    gc.collect()
    gc.freeze()
    facts.update(import_s=time.perf_counter() - t0, torch=str(torch.__version__),
                 triton=str(triton.__version__), pid=os.getpid(), uid=os.getuid())
    send(sock, {"op": "ready", **facts})
    return Zygote(settings, sock).serve()


if __name__ == "__main__":
    sys.exit(main(sys.argv))
