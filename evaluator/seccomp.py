"""Seccomp filters for the evaluation sandbox, built with libseccomp (through ctypes).

A filter here allows every system call except those a GPU-kernel file never needs
and that reach the host kernel's global state or other processes. evaluator.bwrap
hands `export_bpf(SANDBOX)` to bubblewrap (`--seccomp FD`), which installs it just
before it executes the sandbox's first program; `load()` adds a further filter to the
calling process (a forked candidate can narrow its own rights: the kernel runs every
installed filter and the strictest answer wins, so a layer only lists what it adds).

Why default-allow: the sandbox runs CPython, torch, Triton, gcc, ptxas and the CUDA
driver, whose set of system calls changes with every release; an allow-list would
break on a driver update. What this filter closes are whole kernel interfaces, each
of which is also refused by a namespace, a dropped capability or a read-only mount;
the filter is the second lock, and the one that holds if the kernel has a bug in the
first. Each entry of SANDBOX (errno EPERM unless said):

  system calls                               why a kernel file never needs them
  ptrace, process_vm_readv/writev,           read or write another process: the warm
    process_madvise, pidfd_getfd, kcmp         zygote, a sibling
  keyctl, add_key, request_key               kernel keyrings are not fully namespaced
  bpf, perf_event_open                       kernel programs and tracing; side channels
  userfaultfd, io_uring_setup/enter/register race-exploit primitives; io_uring's
                                               operations bypass seccomp
  mount, umount2, mount_setattr, move_mount, change the filesystem view bwrap built
    open_tree, fsopen, fsmount, fsconfig,
    fspick, pivot_root, chroot
  setns, unshare, clone with a CLONE_NEW*    a new namespace grants capabilities inside
    flag                                       it: kernel attack surface
  clone3 (ENOSYS)                            its flags sit behind a pointer a filter
                                               cannot read; glibc falls back to clone
  kexec_load, kexec_file_load, init_module,  host administration
    finit_module, delete_module, reboot,
    swapon, swapoff, acct, quotactl(_fd),
    syslog, settimeofday, clock_settime
  iopl, ioperm, modify_ldt (x86 only)        raw port I/O; the LDT has a history of bugs
  open_by_handle_at, name_to_handle_at       open host files by inode handle, past mounts
  fanotify_init, lookup_dcookie              watch or name files of the whole host
  personality, except PER_LINUX (0) and      ADDR_NO_RANDOMIZE, READ_IMPLIES_EXEC
    the query (0xffffffff)
  msgget ... shmctl (SysV IPC), mq_* (POSIX  IPC objects outside the file tree (the IPC
    message queues)                            namespace isolates them too)
  socket, socketpair of every family but     network, netlink (routing, audit), packet,
    AF_UNIX (EAFNOSUPPORT: what a kernel       vsock (the hypervisor), bluetooth, alg
    without the family says, so libraries      (kernel crypto)
    take their no-such-family path)

A forked child adds `guard((1, zygote))` (evaluator.zygote, before anything else runs in
it): the sandbox has one uid, which is all that kill, prlimit, setpriority, ioprio_set and
sched_set* check, so without it a candidate stops or kills its zygote or init, or sets the
priority, CPU affinity or limits the next candidate's process inherits from the zygote
(red team rt75). Refused: those calls naming the zygote or init, kill(0) and kill(-n),
the group and user forms of setpriority and ioprio_set, and pidfd_send_signal (a
/proc/<pid> directory is a pidfd). The zygote also checks what its children inherit at
every job's end (`zygote.inheritable`): a change makes the sandbox unclean (replaced).

Architectures: the filter covers the native one only (x86_64 or aarch64). A system
call made through another ABI on the same kernel (x86's `int 0x80` i386 entry, x32
numbers with bit 30 set) is not checked against these rules, so such calls kill the
process (SCMP_FLTATR_ACT_BADARCH = KILL_PROCESS; libseccomp's default is KILL_THREAD,
set explicitly here so a multi-threaded candidate cannot keep running). Adding i386
as a second arch would not be enough: its socket() can go through socketcall(), whose
family is behind a pointer.

System calls a profile names that do not exist on the running arch (modify_ldt on
aarch64) are skipped; a name libseccomp does not know at all is an error (a typo).
"""
from __future__ import annotations

import ctypes
import ctypes.util
import errno
import os
from dataclasses import dataclass
from functools import lru_cache
from typing import Literal

_ACT_ALLOW = 0x7FFF0000
_ACT_KILL_PROCESS = 0x80000000
_ATTR_ACT_BADARCH = 2
_CMP = {"ne": 1, "eq": 4, "masked_eq": 7}
_PR_SET_SECCOMP, _SECCOMP_MODE_FILTER = 22, 2


@dataclass(frozen=True)
class Arg:
    """One comparison of a system call argument: `arg[index] <op> value`;
    masked_eq compares `arg[index] & mask` with value."""

    index: int
    op: Literal["eq", "ne", "masked_eq"]
    value: int
    mask: int = 0


@dataclass(frozen=True)
class Rule:
    """Fail `syscall` with `errno` when every comparison in `args` holds (always if none)."""

    syscall: str
    errno: int = errno.EPERM
    args: tuple[Arg, ...] = ()


@dataclass(frozen=True)
class Profile:
    """A default-allow filter: the calls it fails. Layer a stricter one with `plus`."""

    name: str
    rules: tuple[Rule, ...]

    def plus(self, name: str, *rules: Rule) -> Profile:
        """This profile and more rules (for one filter holding both)."""
        return Profile(name, self.rules + rules)


def _deny(*names: str, err: int = errno.EPERM) -> tuple[Rule, ...]:
    return tuple(Rule(n, err) for n in names)


# clone's flags are argument 0 on x86_64 and aarch64. CLONE_NEWTIME (0x80) is absent:
# clone() reads that bit as part of the exit signal; only clone3 and unshare take it.
_CLONE_NEW = {"NEWNS": 0x00020000, "NEWCGROUP": 0x02000000, "NEWUTS": 0x04000000,
              "NEWIPC": 0x08000000, "NEWUSER": 0x10000000, "NEWPID": 0x20000000,
              "NEWNET": 0x40000000}
_AF_UNIX = 1


def _personality_rules() -> tuple[Rule, ...]:
    # libseccomp cannot put two comparisons on one argument in a rule, so "neither 0 nor
    # 0xffffffff" is spelt as a union: a 32-bit value that is not all zeros or all ones
    # has, going round its bits cyclically, some bit i set whose neighbour i+1 is clear.
    rules = []
    for i in range(32):
        mask = (1 << i) | (1 << ((i + 1) % 32))
        rules.append(Rule("personality", errno.EPERM, (Arg(0, "masked_eq", 1 << i, mask),)))
    return tuple(rules)


SANDBOX = Profile("sandbox", (
    *_deny("ptrace", "process_vm_readv", "process_vm_writev", "process_madvise",
           "pidfd_getfd", "kcmp"),
    *_deny("keyctl", "add_key", "request_key", "bpf", "perf_event_open", "userfaultfd",
           "io_uring_setup", "io_uring_enter", "io_uring_register"),
    *_deny("mount", "umount2", "mount_setattr", "move_mount", "open_tree", "fsopen",
           "fsmount", "fsconfig", "fspick", "pivot_root", "chroot", "setns", "unshare"),
    *(Rule("clone", errno.EPERM, (Arg(0, "masked_eq", flag, flag),))
      for flag in _CLONE_NEW.values()),
    Rule("clone3", errno.ENOSYS),
    *_deny("kexec_load", "kexec_file_load", "init_module", "finit_module", "delete_module",
           "reboot", "swapon", "swapoff", "acct", "quotactl", "quotactl_fd", "syslog",
           "settimeofday", "clock_settime", "iopl", "ioperm", "modify_ldt"),
    *_deny("open_by_handle_at", "name_to_handle_at", "fanotify_init", "lookup_dcookie"),
    *_personality_rules(),
    *_deny("msgget", "msgsnd", "msgrcv", "msgctl", "semget", "semop", "semtimedop",
           "semctl", "shmget", "shmat", "shmdt", "shmctl"),
    *_deny("mq_open", "mq_unlink", "mq_timedsend", "mq_timedreceive", "mq_notify",
           "mq_getsetattr"),
    Rule("socket", errno.EAFNOSUPPORT, (Arg(0, "ne", _AF_UNIX),)),
    Rule("socketpair", errno.EAFNOSUPPORT, (Arg(0, "ne", _AF_UNIX),)),
))
"""What the bubblewrap sandbox denies to everything in it (zygote and candidates)."""

# System calls that act on another process named by a pid argument (index), beyond the
# ptrace family SANDBOX denies: signals, limits, priority, CPU affinity, scheduling.
_PID_ARG = {"kill": 0, "tkill": 0, "tgkill": 0, "rt_sigqueueinfo": 0, "rt_tgsigqueueinfo": 0,
            "pidfd_open": 0, "prlimit64": 0, "sched_setaffinity": 0, "sched_setscheduler": 0,
            "sched_setparam": 0, "sched_setattr": 0}
# (which, who) calls: the `which` values naming a group or a user (every process of the
# sandbox's one uid) are denied outright, the one-process value only for the guarded pids
_WHO = {"setpriority": (0, (1, 2)), "ioprio_set": (1, (2, 3))}
_LOW32 = 0xFFFFFFFF


def guard(pids: tuple[int, ...]) -> Profile:
    """What a forked child adds to SANDBOX: nothing it runs may signal, re-limit, renice or
    re-pin `pids` (the zygote that forks every later candidate of the sandbox, and the PID
    namespace's init), nor every process at once (kill(-1), a process group, the uid).
    All share the sandbox's one uid, which is all these calls check, so without this a
    candidate could stop its zygote (its job's end then reads as the evaluator's failure)
    or set the priority, CPU affinity or limits the NEXT candidate's process inherits
    (red team rt75: nice 19, one CPU, 64 file descriptors carried over). pidfd_send_signal
    is denied whole: a /proc/<pid> directory opened as a pidfd names any process."""
    pids = tuple(dict.fromkeys(pids))  # the zygote is init itself under bwrap --as-pid-1
    rules = [Rule(name, errno.EPERM, (Arg(index, "masked_eq", pid, _LOW32),))
             for name, index in _PID_ARG.items() for pid in pids]
    rules += [Rule("kill", errno.EPERM, (Arg(0, "masked_eq", 0, _LOW32),)),  # own process group
              Rule("kill", errno.EPERM, (Arg(0, "masked_eq", 1 << 31, 1 << 31),)),  # -1, -pgid
              Rule("pidfd_send_signal")]
    for name, (one, groups) in _WHO.items():
        rules += [Rule(name, errno.EPERM, (Arg(0, "masked_eq", g, _LOW32),)) for g in groups]
        rules += [Rule(name, errno.EPERM, (Arg(0, "masked_eq", one, _LOW32), Arg(1, "masked_eq", pid, _LOW32)))
                  for pid in pids]
    return Profile("guard", tuple(rules))


class SeccompError(OSError):
    """libseccomp is missing or refused a filter."""


class _Cmp(ctypes.Structure):
    _fields_ = [("arg", ctypes.c_uint), ("op", ctypes.c_int),
                ("datum_a", ctypes.c_uint64), ("datum_b", ctypes.c_uint64)]


@lru_cache(maxsize=1)
def _lib() -> ctypes.CDLL | None:
    name = ctypes.util.find_library("seccomp") or "libseccomp.so.2"
    try:
        lib = ctypes.CDLL(name, use_errno=True)
    except OSError:
        return None
    lib.seccomp_init.restype = ctypes.c_void_p
    lib.seccomp_init.argtypes = [ctypes.c_uint32]
    lib.seccomp_release.argtypes = [ctypes.c_void_p]
    lib.seccomp_attr_set.argtypes = [ctypes.c_void_p, ctypes.c_int, ctypes.c_uint32]
    lib.seccomp_syscall_resolve_name.argtypes = [ctypes.c_char_p]
    lib.seccomp_rule_add_array.argtypes = [ctypes.c_void_p, ctypes.c_uint32, ctypes.c_int,
                                           ctypes.c_uint, ctypes.POINTER(_Cmp)]
    lib.seccomp_export_bpf.argtypes = [ctypes.c_void_p, ctypes.c_int]
    lib.seccomp_load.argtypes = [ctypes.c_void_p]
    return lib


@lru_cache(maxsize=1)
def available() -> bool:
    """libseccomp loads and the kernel has seccomp filter mode."""
    if _lib() is None:
        return False
    libc = ctypes.CDLL(None, use_errno=True)
    # A NULL program is refused with EFAULT (or EACCES without no_new_privs) by a kernel
    # with filter mode, and EINVAL by one without it; nothing is installed either way.
    rc = libc.prctl(_PR_SET_SECCOMP, _SECCOMP_MODE_FILTER, None, 0, 0)
    return rc != 0 and ctypes.get_errno() in (errno.EFAULT, errno.EACCES)


def _check(rc: int, what: str) -> None:
    if rc < 0:
        raise SeccompError(-rc, f"libseccomp {what}: {os.strerror(-rc)}")


def _build(profile: Profile) -> int:
    """A libseccomp context holding `profile` for the native arch (caller releases it)."""
    lib = _lib()
    if lib is None:
        raise SeccompError(errno.ENOENT, "libseccomp.so.2 not found")
    ctx = lib.seccomp_init(_ACT_ALLOW)
    if not ctx:
        raise SeccompError(errno.ENOMEM, "seccomp_init failed")
    try:
        _check(lib.seccomp_attr_set(ctx, _ATTR_ACT_BADARCH, _ACT_KILL_PROCESS), "bad-arch")
        for rule in profile.rules:
            nr = lib.seccomp_syscall_resolve_name(rule.syscall.encode())
            if nr == -1:
                raise SeccompError(errno.EINVAL, f"unknown system call {rule.syscall!r}")
            if nr < 0:  # a pseudo number: this call does not exist on the native arch
                continue
            cmps = (_Cmp * max(len(rule.args), 1))(
                *(_Cmp(a.index, _CMP[a.op], a.mask if a.op == "masked_eq" else a.value,
                       a.value) for a in rule.args))
            action = 0x00050000 | (rule.errno & 0xFFFF)
            _check(lib.seccomp_rule_add_array(ctx, action, nr, len(rule.args), cmps),
                   f"rule for {rule.syscall}")
    except BaseException:
        lib.seccomp_release(ctx)
        raise
    return ctx


def export_bpf(profile: Profile) -> bytes:
    """The filter as a classic BPF program (struct sock_filter[]), as bwrap --seccomp reads it."""
    lib = _lib()
    ctx = _build(profile)
    fd = os.memfd_create(f"seccomp-{profile.name}", os.MFD_CLOEXEC)
    try:
        _check(lib.seccomp_export_bpf(ctx, fd), "export")
        size = os.lseek(fd, 0, os.SEEK_END)
        return os.pread(fd, size, 0)
    finally:
        os.close(fd)
        lib.seccomp_release(ctx)


def load(profile: Profile) -> None:
    """Install `profile` in the calling process, on top of any filter it already has;
    sets no_new_privs (libseccomp's default), which is what lets an unprivileged
    process install a filter. Irreversible, and inherited by every child."""
    lib = _lib()
    ctx = _build(profile)
    try:
        _check(lib.seccomp_load(ctx), "load")
    finally:
        lib.seccomp_release(ctx)
