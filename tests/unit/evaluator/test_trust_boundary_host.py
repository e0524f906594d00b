"""The trust boundary's host side: what a candidate that read the evaluator's code can reach
outside its sandbox (paths the worker follows, host sockets and IPC, other sandboxes while
it is timed). Split from test_trust_boundary.py; these run with the static checks OFF
(`unsafe_evaluator`) so the OS layers are what is tested.
"""
from __future__ import annotations

import socket
import uuid
from pathlib import Path

import pytest
from conftest import cpu_config, fixture_problem
from test_sandbox import _pids_running
from test_trust_boundary import _ok, _prelude


@pytest.fixture(scope="module")
def relu():
    return fixture_problem("relu")


def test_the_worker_never_follows_a_path_the_candidate_controls(unsafe_evaluator, settings, relu, tmp_path):
    host_file = tmp_path / "host-secret.txt"
    secret = "host-secret-" + uuid.uuid4().hex
    host_file.write_text(secret)
    attack = _prelude(relu, f"""
import os
for name in os.listdir("."):
    if name.endswith(".log"):
        os.unlink(name)
        os.symlink({str(host_file)!r}, name)
os.symlink("/etc/hostname", "child.log.link")
print("{{}}".format(open("/proc/self/mounts").read()[:100]))
""")
    verdict = unsafe_evaluator.evaluate(relu, attack, settings)
    assert host_file.read_text() == secret, "the host file was changed through a planted symlink"
    assert secret not in repr(verdict.to_dict())


def test_host_unix_sockets_and_sysv_ipc_are_out_of_reach(unsafe_evaluator, settings, relu, tmp_path):
    path = tmp_path / "host.sock"
    server = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    server.bind(str(path))
    server.listen(1)
    server.settimeout(0.5)
    before = Path("/proc/sysvipc/msg").read_text()
    attack = _prelude(relu, f"""
import ctypes, socket
libc = ctypes.CDLL(None, use_errno=True)
QUEUE = libc.msgget(0x4b524c, 0o1666)
assert QUEUE < 0, "a SysV message queue could be created"
try:
    s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    s.connect({str(path)!r})
    REACHED = True
except OSError:
    REACHED = False
assert not REACHED, "a unix socket on the host was reachable"
try:
    socket.socket(40, socket.SOCK_STREAM)  # AF_VSOCK
    VSOCK = True
except OSError:
    VSOCK = False
assert not VSOCK, "an AF_VSOCK socket could be created"
try:
    open("/dev/kmsg", "w").write("krl sandbox escape\\n")
    KMSG = True
except OSError:
    KMSG = False
assert not KMSG, "/dev/kmsg was writable"
""")
    try:
        verdict = unsafe_evaluator.evaluate(relu, attack, settings)
        with pytest.raises(socket.timeout):
            server.accept()
    finally:
        server.close()
    assert Path("/proc/sysvipc/msg").read_text() == before
    _ok(verdict)


def test_other_sandboxes_are_stopped_while_a_candidate_is_timed(tmp_path):
    """pool.quiet(): every process of another candidate's sandbox (background work included)
    is stopped (frozen by the cgroup's freezer, else SIGSTOPped) for the length of a timing
    and continues afterwards; the timed sandbox itself is never stopped."""
    from evaluator import bwrap
    from evaluator.pool import ChildPool

    cfg = cpu_config()
    pool = ChildPool(cfg, "cpu", bwrap.probe(cfg.sandbox))
    marker = f"{2000 + int(uuid.uuid4().int % 1000)}.5"
    try:
        with pool.candidate({}) as busy, pool.candidate({}) as timed:
            reply, _ = busy.request({"op": "prepare", "problem": "import subprocess\n"
                                     f"subprocess.Popen(['sleep', '{marker}'])\n"
                                     "def get_inputs(): return []\ndef get_init_inputs(): return []\n"
                                     "class Model: pass\n", "sizes": {}, "sets": []}, 30)
            assert reply["op"] == "result", reply
            (pid,) = _wait_for(lambda: sorted(_pids_running(marker)))
            assert _state(pid) != "T" and not _frozen(busy.sandbox)
            with pool.quiet(timed):  # frozen (a v1 freezer shows D, v2's S) or else SIGSTOPped
                group = busy.sandbox.cgroup
                stopped = _frozen(busy.sandbox) if group is not None and group.freezer else _state(pid) == "T"
                assert stopped, "a process of another sandbox ran during a timing"
                assert not _frozen(timed.sandbox)
            assert _wait_for(lambda: _state(pid) != "T" and not _frozen(busy.sandbox))
    finally:
        pool.close()


def _wait_for(probe, timeout_s: float = 10.0):
    import time

    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        value = probe()
        if value:
            return value
        time.sleep(0.02)
    raise AssertionError("timed out")


def _frozen(sandbox) -> bool:
    """Whether the sandbox's freezer says frozen (False without one)."""
    freezer = sandbox.cgroup.freezer if sandbox.cgroup is not None else None
    if freezer is None:
        return False
    if sandbox.cgroup.kind == "v2":
        return "frozen 1" in (freezer / "cgroup.events").read_text().splitlines()
    return (freezer / "freezer.state").read_text().strip() == "FROZEN"


def _state(pid: int) -> str:
    return Path(f"/proc/{pid}/stat").read_bytes().rsplit(b")", 1)[1].split()[0].decode()


def test_a_command_to_a_stopped_job_waits_without_spending_its_deadline():
    """A job stopped for a timing elsewhere (pool.quiet: its sandbox frozen whole, zygote
    included, or SIGSTOPped) is not late for it: its commands' deadlines and its zygote's
    replies are on the sandbox's job clock, which stops with it (red team s59e's busy
    neighbour: before session 60 only a job between commands was stopped, so a stop never
    spent a deadline; a command in flight now may be stopped too). A command with a 1 s
    limit sent into a 2 s stop is answered, and `frozen_seconds` counts the stop (the
    evaluation's deadline moves by it, pipeline `_Run.left`). A stopped job that ends meanwhile
    (its zygote's `finish`) waits for the thaw instead of failing the sandbox."""
    import threading
    import time

    from evaluator import bwrap
    from evaluator.pool import ChildPool

    cfg = cpu_config()
    pool = ChildPool(cfg, "cpu", bwrap.probe(cfg.sandbox))
    try:
        with pool.candidate({}) as busy:
            sandbox, replies = busy.sandbox, []
            assert sandbox.pause() and not busy.gate.locked()
            asked = threading.Thread(target=lambda: replies.append(busy.request({"op": "ping"}, 1.0)))
            asked.start()
            time.sleep(2.0)
            assert asked.is_alive() and not replies  # stopped: no answer yet, and not failed
            sandbox.resume()
            asked.join(30)
            assert replies and replies[0][0]["op"] in ("pong", "result", "error"), replies
            assert 1.9 < busy.frozen_seconds() < 10
            assert sandbox.pause()
            ending = threading.Thread(target=busy.close)
            ending.start()
            time.sleep(1.0)
            sandbox.resume()
            ending.join(30)
            assert sandbox.alive() and pool.retired == 0
    finally:
        pool.close()


def test_no_other_process_of_the_sandbox_can_be_written_or_read_through_proc(unsafe_evaluator, settings, relu):
    """Red team s59e: bwrap's reaper was PID 1 beside the zygote, dumpable, without the
    children's seccomp guard and never killed at a job's end. A candidate wrote code into it
    through /proc/1/mem (no ptrace call for seccomp to see) that SIGKILLed every later process
    of the sandbox: the next honest candidate was `crashed`, blamed on itself. Its stdout, the
    worker's host file, was open to /proc/1/fd/1. Now the zygote, never dumpable, is init
    (bwrap --as-pid-1): no process of the sandbox but the candidate's own can be opened."""
    attack = _prelude(relu, """
import os
_MINE = {os.getpid()}
REACHED = []
for _p in os.listdir("/proc"):
    if not _p.isdigit() or int(_p) in _MINE:
        continue
    for _name, _flags in (("mem", os.O_RDWR), ("syscall", os.O_RDONLY), ("environ", os.O_RDONLY),
                          ("fd/0", os.O_WRONLY), ("fd/1", os.O_WRONLY | os.O_APPEND),
                          ("fd/2", os.O_WRONLY | os.O_APPEND), ("root/tmp", os.O_RDONLY)):
        try:  # syscall is checked when read, the rest when opened (mem at address 0 never reads)
            _fd = os.open(f"/proc/{_p}/{_name}", _flags)
            try:
                if _name in ("syscall", "environ"):
                    os.read(_fd, 64)
            finally:
                os.close(_fd)
            REACHED.append(f"{_p}/{_name}")
        except OSError:
            pass
assert not REACHED, f"another process of the sandbox was opened: {REACHED}"
""")
    _ok(unsafe_evaluator.evaluate(relu, attack, settings))
    _ok(unsafe_evaluator.evaluate(relu, relu.solution, settings))


def test_a_process_named_in_raw_bytes_is_still_stopped_by_a_pause():
    """Red team s59e: a pause reads each process's state from /proc/<pid>/stat, whose name
    field is the process's own choice, raw; a name that was not ASCII (prctl PR_SET_NAME) made
    the zygote's ASCII read raise and the zygote died mid-pause, so the process ran on beside
    another candidate's timing and its sandbox was lost."""
    from evaluator import bwrap
    from evaluator.pool import ChildPool

    cfg = cpu_config()
    pool = ChildPool(cfg, "cpu", bwrap.probe(cfg.sandbox))
    marker = f"{3000 + int(uuid.uuid4().int % 1000)}.5"
    named = f"import ctypes, time; ctypes.CDLL(None).prctl(15, bytes([255, 254]), 0, 0, 0); time.sleep({marker})"
    problem = ("import os, sys\n"
               "if os.fork() == 0:\n"
               f"    os.execv(sys.executable, [sys.executable, '-c', {named!r}])\n"
               "def get_inputs(): return []\ndef get_init_inputs(): return []\nclass Model: pass\n")
    try:
        with pool.candidate({}) as busy, pool.candidate({}) as timed:
            reply, _ = busy.request({"op": "prepare", "problem": problem, "sizes": {}, "sets": []}, 30)
            assert reply["op"] == "result", reply
            (pid,) = _wait_for(lambda: sorted(_pids_running(marker)))
            assert _wait_for(lambda: Path(f"/proc/{pid}/comm").read_bytes() == b"\xff\xfe\n")
            group = busy.sandbox.cgroup
            freezer = group.freezer if group is not None else None
            if group is not None:  # the zygote's pause, which reads states (a freezer reads none)
                group.freezer = None
            try:
                with pool.quiet(timed):
                    assert _state(pid) == "T", "a process of another sandbox ran during a timing"
            finally:
                if group is not None:
                    group.freezer = freezer
            assert _wait_for(lambda: _state(pid) != "T")
            assert busy.sandbox.alive()
    finally:
        pool.close()
