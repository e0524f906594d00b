"""evaluator.seccomp filters installed in a real child process (no bubblewrap needed)."""
from __future__ import annotations

import errno
import json
import platform
import signal
import subprocess
import sys
import textwrap

import pytest

from evaluator import seccomp

pytestmark = pytest.mark.skipif(not seccomp.available(),
                                reason="libseccomp or kernel seccomp filters missing")


def filtered(code: str, profile: str = "seccomp.SANDBOX") -> subprocess.CompletedProcess:
    """Run `code` in a fresh Python after loading `profile` into it."""
    prelude = textwrap.dedent(f"""
        import ctypes, errno, json, os, socket
        from evaluator import seccomp
        libc = ctypes.CDLL(None, use_errno=True)
        def err(rc):
            return 0 if rc != -1 else ctypes.get_errno()
        seccomp.load({profile})
    """)
    return subprocess.run([sys.executable, "-c", prelude + textwrap.dedent(code)],
                          capture_output=True, text=True, timeout=60)


def test_export_is_a_bpf_program_and_typos_are_errors():
    program = seccomp.export_bpf(seccomp.SANDBOX)
    assert len(program) % 8 == 0 and 16 < len(program) // 8 < 1024
    with pytest.raises(seccomp.SeccompError, match="unknown system call"):
        seccomp.export_bpf(seccomp.Profile("typo", (seccomp.Rule("ptrce"),)))


def test_personality_allows_only_the_default_persona_and_the_query():
    proc = filtered("""
        print(json.dumps({hex(p): err(libc.personality(p))
                          for p in (0xFFFFFFFF, 0, 0x0040000, 0x0400000, 0x0008, 0x7FFFFFFF)}))
    """)
    out = json.loads(proc.stdout)
    assert out == {"0xffffffff": 0, "0x0": 0, "0x40000": errno.EPERM, "0x400000": errno.EPERM,
                   "0x8": errno.EPERM, "0x7fffffff": errno.EPERM}


def test_a_stricter_layer_stacks_on_the_first():
    """A candidate-side layer only lists what it adds; the base rules still hold."""
    no_threads = "seccomp.Profile('no-threads', (seccomp.Rule('clone', errno.EPERM, " \
                 "(seccomp.Arg(0, 'masked_eq', 0x100, 0x100),)),))"  # CLONE_VM
    proc = filtered(f"""
        seccomp.load({no_threads})
        import threading
        try:
            threading.Thread(target=print).start()
            thread = 0
        except RuntimeError:
            thread = errno.EPERM
        pid = os.fork()
        if pid == 0:
            os._exit(0)
        os.waitpid(pid, 0)
        print(json.dumps({{"thread": thread, "inet": err(libc.socket(2, 1, 0))}}))
    """)
    assert json.loads(proc.stdout) == {"thread": errno.EPERM, "inet": errno.EAFNOSUPPORT}


@pytest.mark.skipif(platform.machine() != "x86_64", reason="the i386 entry is x86 only")
def test_a_foreign_arch_system_call_kills_the_process():
    """`int 0x80` enters through the i386 table, which the filter does not cover."""
    proc = filtered("""
        import mmap
        code = bytes([0xB8, 20, 0, 0, 0, 0xCD, 0x80, 0xC3])  # mov eax, 20 (getpid); int 0x80
        m = mmap.mmap(-1, 4096, prot=mmap.PROT_READ | mmap.PROT_WRITE | mmap.PROT_EXEC)
        m.write(code)
        fn = ctypes.CFUNCTYPE(ctypes.c_int)(ctypes.addressof(ctypes.c_char.from_buffer(m)))
        print("int 0x80 returned", fn(), flush=True)
    """)
    assert proc.returncode == -signal.SIGSYS and "returned" not in proc.stdout


def test_the_childs_guard_keeps_the_zygote_and_every_process_at_once_out_of_reach():
    """seccomp.guard((zygote,)): a candidate's process may still signal, re-limit and renice
    itself and its own children, never the guarded pid, a process group, -1 or the uid. The
    calls whose effect would matter are made with arguments that fail anyway (signal 0, a NULL
    mask, a uid with no process), so only the filter's EPERM tells them apart."""
    proc = filtered("""
        import platform, resource, signal, time
        ppid = os.getppid()
        tgkill = {"x86_64": 234, "aarch64": 131}[platform.machine()]
        kid = os.fork()
        if kid == 0:
            time.sleep(5)
            os._exit(0)
        out = {
            "kill zygote": err(libc.kill(ppid, 0)),
            "kill group": err(libc.kill(0, 0)),
            "kill all": err(libc.kill(-1, 0)),
            "kill -pgid": err(libc.kill(-os.getpgrp(), 0)),
            "kill self": err(libc.kill(os.getpid(), 0)),
            "kill own child": err(libc.kill(kid, 0)),
            "tgkill zygote": err(libc.syscall(tgkill, ppid, ppid, 0)),
            "pidfd_send_signal": err(libc.syscall(424, -1, 0, None, 0)),
            "prlimit zygote": err(libc.prlimit(ppid, resource.RLIMIT_NOFILE, None, None)),
            "prlimit self": err(libc.prlimit(0, resource.RLIMIT_NOFILE, None, None)),
            "affinity zygote": err(libc.sched_setaffinity(ppid, 8, None)),
            "affinity self": err(libc.sched_setaffinity(0, 8, None)),
            "renice zygote": err(libc.setpriority(0, ppid, os.getpriority(os.PRIO_PROCESS, ppid))),
            "renice a user": err(libc.setpriority(2, 54321, 19)),
            "renice self": err(libc.setpriority(0, 0, os.getpriority(os.PRIO_PROCESS, 0))),
        }
        os.kill(kid, signal.SIGKILL)
        print(json.dumps(out))
    """, profile="seccomp.guard((os.getppid(),))")
    out = json.loads(proc.stdout)
    denied = {k for k, v in out.items() if v == errno.EPERM}
    assert denied == {"kill zygote", "kill group", "kill all", "kill -pgid", "tgkill zygote",
                      "pidfd_send_signal", "prlimit zygote", "affinity zygote", "renice zygote",
                      "renice a user"}, out
    assert out["affinity self"] == errno.EFAULT and out["kill own child"] == 0, out
