"""The bubblewrap sandbox an evaluation slot runs in, and what the host granted for it.

`probe(cfg)` finds out once per process which layers this host grants (it runs
`bwrap ... true` for real); `command(...)` builds the argv that starts one sandbox
with those layers; `Cgroup` bounds the sandbox's processes and memory. Starting one:

    layers = probe(cfg)                      # once per process; check(cfg, layers)
    group = Cgroup.create(layers, cfg)       # None without the cgroup layer
    fd = seccomp_fd(layers)                  # None without the seccomp layer
    argv = command(cfg, layers, device, program, env=..., seccomp_fd=fd, cgroup=group)
    proc = Popen(argv, pass_fds=(fd, ...), env=launcher_environment(), ...)
    os.close(fd)                             # bwrap has read it
    ...                                      # SIGKILL proc (outer bwrap) ends it all
    group.remove()                           # kills what is left, deletes the cgroup

The layers, outermost first, and what happens where the host refuses one (each refusal
is logged once as a warning and listed by `Layers.as_details()`, which verdicts carry;
with `sandbox.require_isolation`, `check()` refuses to evaluate instead):

  layer                  closes                            where the host refuses it
  cgroup (v2 under       fork bombs (pids.max), host       no limit; the caller's RSS
    cgroup_parent, or v1   memory (tmpfs pages included);    watchdog and deadlines remain;
    pids + memory, and     frozen whole during a timing      a timing stops jobs by signals
    freezer if mounted;    elsewhere (Cgroup.freeze); the
    evaluator.cgroup)      job in a cgroup of its own: its
                           OOM never takes the zygote
  user namespace, uid    capabilities inside mean nothing  (root only) bwrap works with
    1000, no nested        outside                           root's own privileges; the
    user namespaces                                          sandbox is uid 0, capabilities
                                                             dropped, no_new_privs
  pid namespace,         sees and signals only its own     host pids visible
    --as-pid-1,            processes; dies with its starter;
    --die-with-parent      the program (the zygote, never
                           dumpable) is the namespace's init
  net namespace          only a private loopback: no       host network (seccomp still
                           route out, no host abstract       refuses non-unix sockets)
                           unix sockets
  ipc, uts namespaces    host SysV IPC, POSIX queues;      host's
                           hostname `sandbox`
  mount namespace        a new root of read-only binds     no sandbox: command() raises
    (bwrap needs it)       (/usr, /etc, Python prefixes,
                           sys.path, the repo); never `/`,
                           so /run, /var, /home, host /tmp
                           and their unix sockets are absent
  tmpfs /tmp, /dev/shm   writes past `tmpfs_bytes` fail    unbounded tmpfs
                           with ENOSPC
  --new-session,         TIOCSTI into the caller's tty;    -
    --clearenv             the parent's environment
  seccomp                evaluator.seccomp.SANDBOX         namespaces and dropped
                                                             capabilities remain

The sandbox's uid 1000 is the host's uid of whoever runs bwrap (root, for the
evaluator as deployed). Files that host root owns therefore pass owner permission
checks inside: read-only mounts stop every write, and what host root may read but
others may not (secret keys, /etc/shadow) is masked where the sandbox could see it:
under /etc, the repo (and its .git, which may hold credentials) and, for CUDA, /sys
to three levels. /proc/sys and the other host-wide parts of /proc are bound read-only
(a sysctl writable by uid 0, such as kernel.core_pattern, would run code as host root).
The install trees (/usr, the Python prefixes, site-packages) and `extra_ro_binds` are
not scanned: they are large and hold packages, not secrets. RLIMIT_NPROC does not bind
host root's uid, so the pids cgroup is the only bound on the sandbox's process count.
"""
from __future__ import annotations

import glob
import logging
import os
import shutil
import stat
import subprocess
import sys
import threading
from collections.abc import Mapping, Sequence
from dataclasses import asdict, dataclass, fields, replace
from functools import lru_cache
from pathlib import Path
from typing import Literal

from common.config.evaluator import SandboxConfig
from evaluator import seccomp
from evaluator.cgroup import Cgroup, _own_cgroup_dirs  # noqa: F401 (bwrap.Cgroup, as callers name it)

log = logging.getLogger(__name__)
REPO = Path(__file__).resolve().parents[1]
SANDBOX_UID = 1000
HOME = "/tmp"
"""The sandbox's writable directory: HOME, TMPDIR and its working directory."""

_SYSTEM = ("/usr", "/bin", "/lib", "/lib64", "/sbin", "/etc")
_PROC_READONLY = ("/proc/sys", "/proc/sysrq-trigger", "/proc/irq", "/proc/bus", "/proc/fs")
_NAMESPACES = ("user", "pid", "net", "ipc", "uts")
# Mounted fresh inside every sandbox; a sys.path entry that is one of them (a script run
# from /tmp puts /tmp there) is never bound over them. Directories BELOW /tmp are (a
# checkout under /tmp must stay importable): they become read-only mounts in the tmpfs.
_OWN = (HOME, "/proc", "/dev")


class IsolationUnavailable(RuntimeError):
    """A layer the config requires is missing on this host (or bwrap is unusable)."""


@dataclass(frozen=True)
class Layers:
    """What the host granted; every field False/None is a layer the sandbox lacks."""

    bwrap: str | None = None
    """Path of a bwrap that ran a sandbox here; None: missing or refused."""
    user: bool = False
    pid: bool = False
    net: bool = False
    ipc: bool = False
    uts: bool = False
    seccomp: bool = False
    cgroup: Literal["v1", "v2"] | None = None
    tmpfs_size: bool = False
    pids_max: bool = False
    """The cgroup bounds the sandbox's process count (a v2 host may delegate memory alone)."""
    problems: tuple[str, ...] = ()
    """One line per missing layer: which and why."""

    def missing(self) -> list[str]:
        return [f.name for f in fields(self)
                if f.name != "problems" and not getattr(self, f.name)]

    def as_details(self) -> dict:
        """For verdict details: {"bwrap": true, "user": true, ..., "cgroup": "v1"}."""
        out = asdict(self)
        out["bwrap"] = self.bwrap is not None
        out["problems"] = list(self.problems)
        return out


# ---------------------------------------------------------------------- probing
_probe_lock = threading.Lock()
_probed: dict[tuple[bool, Path | None], Layers] = {}


def probe(cfg: SandboxConfig) -> Layers:
    """The layers this host grants (probed once per process; refusals logged once)."""
    key = (cfg.seccomp, cfg.cgroup_parent)
    with _probe_lock:
        if key not in _probed:
            _probed[key] = _probe(*key)
            for line in _probed[key].problems:
                log.warning("sandbox layer unavailable: %s", line)
        return _probed[key]


def check(cfg: SandboxConfig, layers: Layers) -> None:
    """Raise IsolationUnavailable if `require_isolation` and a layer is missing (seccomp only
    counts when the config asks for it), or if a `cgroup_parent` named in the config cannot be
    used (without one, a host without cgroups runs on the watchdog, said once)."""
    missing = [m for m in layers.missing() if m != "seccomp" or cfg.seccomp]
    if cfg.cgroup_parent is not None and layers.cgroup is None:  # asked for by name: a config error
        raise IsolationUnavailable(
            f"sandbox.cgroup_parent {cfg.cgroup_parent} cannot hold the sandboxes' cgroups "
            f"({'; '.join(p for p in layers.problems if p.startswith('cgroup')) or 'refused'})")
    if cfg.require_isolation and missing:
        raise IsolationUnavailable(
            f"sandbox.require_isolation is set and this host lacks: {', '.join(missing)} "
            f"({'; '.join(layers.problems)})")


def _probe(want_seccomp: bool, parent: Path | None) -> Layers:
    problems: list[str] = []
    use_seccomp = want_seccomp and seccomp.available()
    if not want_seccomp:
        problems.append("seccomp: off (sandbox.seccomp=false)")
    elif not use_seccomp:
        problems.append("seccomp: libseccomp.so.2 or kernel seccomp filters unavailable")
    kind, pids, why = _probe_cgroup(parent)
    if why:
        problems.append(f"cgroup: {why}")
    elif not pids:
        problems.append("pids_max: the cgroup offers no pids controller (no bound on the "
                        "sandbox's process count but its memory)")
    exe = shutil.which("bwrap")
    if exe is None:
        return Layers(problems=("bwrap: not found on PATH", *problems))
    full = Layers(exe, True, True, True, True, True, use_seccomp, kind, True, pids)
    err = _attempt(full)
    if err is None:
        return replace(full, problems=tuple(problems))
    # Something was refused: start from bwrap with no optional layer (root can do this
    # without a user namespace) and add the layers one at a time.
    layers = Layers(exe, cgroup=kind, pids_max=pids)
    err0 = _attempt(layers)
    if err0 is not None:
        return Layers(cgroup=kind, pids_max=pids, problems=(f"bwrap: refused ({err}; without "
                                             f"namespaces: {err0})", *problems))
    for name in (*_NAMESPACES, "tmpfs_size", "seccomp"):
        if name == "seccomp" and not use_seccomp:
            continue
        err = _attempt(replace(layers, **{name: True}))
        if err is None:
            layers = replace(layers, **{name: True})
        else:
            problems.append(f"{name}: refused by bwrap ({err})")
    return replace(layers, problems=tuple(problems))


def _attempt(layers: Layers) -> str | None:
    """Run `true` in a sandbox with these layers; None or bwrap's complaint."""
    fd = seccomp_fd(layers)
    argv = command(SandboxConfig(), layers, "cpu", [shutil.which("true") or "/bin/true"],
                   env={}, seccomp_fd=fd)
    try:
        proc = subprocess.run(argv, capture_output=True, timeout=30,
                              pass_fds=() if fd is None else (fd,))
    except (OSError, subprocess.TimeoutExpired) as exc:
        return str(exc)
    finally:
        if fd is not None:
            os.close(fd)
    if proc.returncode == 0:
        return None
    lines = proc.stderr.decode(errors="replace").strip().splitlines()
    return lines[-1] if lines else f"exit code {proc.returncode}"


def launcher_environment() -> dict[str, str]:
    """The environment to start `command()`'s argv with (the shell and bwrap only; the
    sandbox's own environment is what `command(env=...)` says)."""
    return {"PATH": "/usr/local/bin:/usr/bin:/bin:/usr/sbin:/sbin", "LANG": "C.UTF-8"}


def seccomp_fd(layers: Layers, profile: seccomp.Profile = seccomp.SANDBOX) -> int | None:
    """A memfd holding `profile` as BPF for `command(seccomp_fd=...)` (the caller
    passes it in pass_fds and closes it after the start); None without that layer."""
    if not layers.seccomp:
        return None
    fd = os.memfd_create("krl-seccomp")  # inheritable only through pass_fds
    os.write(fd, seccomp.export_bpf(profile))
    os.lseek(fd, 0, os.SEEK_SET)
    return fd


# ---------------------------------------------------------------------- the command
def command(cfg: SandboxConfig, layers: Layers, device: str, argv: Sequence[str], *,
            env: Mapping[str, str], extra_ro_binds: Sequence[str | Path] = (),
            seccomp_fd: int | None = None, cgroup: Cgroup | None = None) -> list[str]:
    """The argv that runs `argv` in a new sandbox with the granted `layers`.

    `env` is the sandbox's whole environment (HOME and TMPDIR default to /tmp, its
    working directory). `device` "cuda" adds the NVIDIA device nodes and a read-only
    /sys. `cgroup`, if given, is joined before bwrap starts, so nothing escapes it."""
    if layers.bwrap is None:
        raise IsolationUnavailable("bwrap is unusable here: " + "; ".join(layers.problems))
    if layers.seccomp and seccomp_fd is None:  # the details would claim a filter
        raise ValueError("layers.seccomp is on: pass seccomp_fd=seccomp_fd(layers)")
    args = [layers.bwrap, *_namespace_flags(layers), "--cap-drop", "ALL", "--die-with-parent",
            "--new-session", "--clearenv"]
    for name, value in {"HOME": HOME, "TMPDIR": HOME, **env}.items():
        args += ["--setenv", name, value]
    args += _filesystem(cfg, layers, device, extra_ro_binds)
    if seccomp_fd is not None:
        args += ["--seccomp", str(seccomp_fd)]
    args += ["--chdir", HOME, "--", *argv]
    return cgroup.wrap(args) if cgroup is not None else args


def _namespace_flags(layers: Layers) -> list[str]:
    # One flag per namespace rather than --unshare-all, so a refused one can be left out.
    flags = []
    if layers.user:
        flags += ["--unshare-user", "--uid", str(SANDBOX_UID), "--gid", str(SANDBOX_UID)]
        if _knows(layers.bwrap, "--disable-userns"):  # bwrap >= 0.8; seccomp also denies it
            flags.append("--disable-userns")
    flags += [f"--unshare-{n}" for n in _NAMESPACES[1:] if getattr(layers, n)]
    if layers.pid:  # the program is the namespace's init: no bwrap reaper lives beside it
        flags.append("--as-pid-1")
    if layers.uts:
        flags += ["--hostname", "sandbox"]
    return [*flags, "--unshare-cgroup-try"]


@lru_cache(maxsize=4)
def _knows(exe: str, flag: str) -> bool:
    try:
        text = subprocess.run([exe, "--help"], capture_output=True, timeout=10).stdout
    except (OSError, subprocess.TimeoutExpired):
        return False
    return flag.encode() in text


def _filesystem(cfg: SandboxConfig, layers: Layers, device: str,
                extra: Sequence[str | Path]) -> list[str]:
    size = ["--size", str(cfg.tmpfs_bytes)] if layers.tmpfs_size else []
    args = [*size, "--tmpfs", HOME]  # first, so a sys.path entry under /tmp stays visible
    install = _install_dirs(extra)
    for path in _SYSTEM:
        if os.path.islink(path):
            args += ["--symlink", os.readlink(path), path]
        elif os.path.isdir(path):
            args += ["--ro-bind", path, path]
    for path in _python_trees(install):
        args += ["--ro-bind", path, path]
    git = str(REPO / ".git")
    hide = [*_unreadable("/etc", prune=()), *_unreadable(str(REPO), prune=(*install, git))]
    if os.path.exists(git):
        hide.append(git)
    args += ["--proc", "/proc"]
    args += [a for p in _PROC_READONLY if os.path.exists(p) for a in ("--ro-bind", p, p)]
    args += ["--dev", "/dev", *size, "--tmpfs", "/dev/shm"]
    if device == "cuda":
        args += [a for p in sorted(glob.glob("/dev/nvidia*")) for a in ("--dev-bind", p, p)]
        args += ["--ro-bind", "/sys", "/sys"]
        hide += _unreadable("/sys", prune=(), depth=3)
    args += ["--remount-ro", "/dev"]
    for path in hide:
        if os.path.isdir(path) and not os.path.islink(path):
            args += ["--tmpfs", path, "--remount-ro", path]
        else:
            args += ["--ro-bind", "/dev/null", path]
    return [*args, "--remount-ro", "/"]


def _install_dirs(extra: Sequence[str | Path]) -> set[str]:
    """The interpreter's prefixes, its sys.path directories and `extra` (symlinks at
    both ends)."""
    wanted = [sys.base_prefix, sys.prefix, *map(str, extra),
              *(p for p in sys.path if p and os.path.isdir(p))]
    return {os.path.abspath(p) for p in wanted} | {os.path.realpath(p) for p in wanted}


def _python_trees(install: set[str]) -> list[str]:
    """`install` and the repo, minus directories inside another one; never `/`."""
    covered = [*_SYSTEM, *(os.path.realpath(s) for s in _SYSTEM)]
    keep: list[str] = []
    for path in sorted(install | {str(REPO)}, key=len):
        if path == "/":
            raise ValueError("refusing to bind / into the sandbox")
        if path in _OWN or any(path.startswith(own + "/") for own in _OWN if own != HOME):
            continue  # the sandbox's own /tmp, /proc, /dev: a host copy would shadow them
        if not any(path == c or path.startswith(c.rstrip("/") + "/") for c in covered + keep):
            keep.append(path)
    return keep


def _unreadable(root: str, prune: Sequence[str], depth: int = 64) -> list[str]:
    """Entries under `root` that their owner may read and others may not (the sandbox
    passes owner checks of host-root files); bound install trees are skipped."""
    found: list[str] = []
    todo = [(root, 0)]
    while todo:
        top, level = todo.pop()
        try:
            entries = list(os.scandir(top))
        except OSError:
            continue
        for entry in entries:
            if entry.path in prune or entry.is_symlink():
                continue
            try:
                mode = entry.stat(follow_symlinks=False).st_mode
            except OSError:
                continue
            if mode & stat.S_IRUSR and not mode & stat.S_IROTH:
                found.append(entry.path)
            elif stat.S_ISDIR(mode) and level + 1 < depth:
                todo.append((entry.path, level + 1))
    return found


# ---------------------------------------------------------------------- cgroups
def _probe_cgroup(parent: Path | None) -> tuple[Literal["v1", "v2"] | None, bool, str]:
    """The cgroup version sandboxes get, whether it bounds their process count, or None and
    why. A named parent is a v2 directory: v2 only (falling back to v1 would set the
    configured directory aside without a word)."""
    errors = []
    for kind in ("v2",) if parent is not None else ("v2", "v1"):
        try:
            group = Cgroup.make(kind, f"krl-probe-{os.getpid()}", 16, 64 << 20, parent)
            pids = group.pids_max
            group.remove()
            return kind, pids, ""
        except OSError as exc:
            errors.append(f"{kind}: {exc}")
    return None, False, "; ".join(errors)
