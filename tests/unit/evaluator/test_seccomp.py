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
