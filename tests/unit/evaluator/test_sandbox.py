"""Escapes must leave no trace, even with the static checks OFF (the sandbox alone).

These candidates would all be rejected statically; `unsafe_evaluator` skips the AST
checks so the runtime layers are tested on their own: read-only filesystem, no
network, scrubbed environment, PID namespace, integrity check, crash handling.
"""
from __future__ import annotations

import os
import re
import socket
import threading
import time
import uuid
from pathlib import Path

import pytest
from conftest import cpu_config, fixture_problem

PLAIN_VALUE = "krl-plain-" + uuid.uuid4().hex
SECRET_VALUE = "krl-secret-" + uuid.uuid4().hex


@pytest.fixture(scope="module")
def relu():
    return fixture_problem("relu")


def _with_prelude(problem, prelude: str) -> str:
    """The correct solution with untrusted module-level code in front."""
    return prelude + "\n" + problem.solution


def test_files_outside_the_sandbox_cannot_be_written(unsafe_evaluator, settings, relu, tmp_path):
    target = tmp_path / f"escape-{uuid.uuid4().hex}"
    source = _with_prelude(relu, f"""
def attempt(path, text):
    try:
        with open(path, "w") as f:
            f.write(text)
        return True
    except OSError:
        return False
assert not attempt({str(target)!r}, "escaped"), "the sandbox let a file be written outside it"
# a kernel setting, rewritten with its own value: harmless even if the sandbox failed
assert not attempt("/proc/sys/kernel/hostname", open("/proc/sys/kernel/hostname").read()), \
    "the sandbox let /proc/sys be written"
""")
    verdict = unsafe_evaluator.evaluate(relu, source, settings)
    assert verdict.status == "ok", verdict.feedback
    assert verdict.details["sandbox"]["bwrap"] is True
    assert not target.exists()


def test_no_network_connection_reaches_a_local_listener(unsafe_evaluator, settings, relu):
    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen(4)
    listener.settimeout(0.5)
    port = listener.getsockname()[1]
    source = _with_prelude(relu, f"""
import socket
try:
    socket.create_connection(("127.0.0.1", {port}), timeout=2).sendall(b"escaped")
    CONNECTED = True
except OSError:
    CONNECTED = False
assert not CONNECTED, "the sandbox let a connection out"
""")
    try:
        verdict = unsafe_evaluator.evaluate(relu, source, settings)
        with pytest.raises(socket.timeout):
            listener.accept()
    finally:
        listener.close()
    assert verdict.status == "ok", verdict.feedback
    assert verdict.details["sandbox"]["net"] is True


def test_the_parent_environment_never_reaches_the_feedback(unsafe_evaluator, settings, relu):
    source = _with_prelude(relu, "import os\nraise RuntimeError('ENV: ' + repr(dict(os.environ)))")
    verdict = unsafe_evaluator.evaluate(relu, source, settings)
    assert verdict.status == "compile_error" and "ENV:" in verdict.feedback
    everything = repr(verdict.to_dict())
    assert PLAIN_VALUE not in everything and SECRET_VALUE not in everything
    assert "HOME" in verdict.feedback  # the child's own, scrubbed environment was printed


def test_no_process_survives_the_check_even_in_a_new_session(unsafe_evaluator, settings, relu):
    marker = f"{1000 + int(uuid.uuid4().int % 1000)}.{os.getpid()}"
    source = _with_prelude(relu, f"""
import subprocess
subprocess.Popen(["setsid", "sleep", "{marker}"], start_new_session=True)
subprocess.Popen(["sh", "-c", "sleep {marker} & sleep {marker}"], start_new_session=True)
""")
    seen: set[int] = set()
    done = threading.Event()

    def watch() -> None:
        while not done.is_set():
            seen.update(_pids_running(marker))
            time.sleep(0.02)

    watcher = threading.Thread(target=watch)
    watcher.start()
    try:
        verdict = unsafe_evaluator.evaluate(relu, source, settings)
    finally:
        done.set()
        watcher.join()
    assert verdict.status == "ok", verdict.feedback
    assert len(seen) >= 2, "the candidate's processes never started, the test proves nothing"
    time.sleep(0.2)
    survivors = [pid for pid in seen if _alive(pid)]
    assert not survivors, f"processes left running: {survivors}"


def _pids_running(marker: str) -> set[int]:
    pids = set()
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                if marker.encode() in Path(f"/proc/{entry}/cmdline").read_bytes():
                    pids.add(int(entry))
            except OSError:
                continue
    return pids


def _alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"


@pytest.mark.parametrize("patch", [
    "import torch\ntorch.allclose = lambda *a, **k: True",
    "import time\ntime.perf_counter = lambda: 0.0",
    "from triton.runtime import jit\njit.JITFunction.run = lambda *a, **k: None",
])
def test_runtime_monkey_patching_is_detected(patch, unsafe_evaluator, settings, relu):
    verdict = unsafe_evaluator.evaluate(relu, _with_prelude(relu, patch), settings)
    assert verdict.status == "hack" and verdict.hacks == ["monkey_patch"], verdict.feedback


def test_os_exit_is_a_crash_and_the_next_evaluation_succeeds(unsafe_evaluator, settings, relu):
    verdict = unsafe_evaluator.evaluate(relu, _with_prelude(relu, "import os\nos._exit(3)"), settings)
    assert verdict.status == "crashed" and "code 3" in verdict.feedback
    assert unsafe_evaluator.evaluate(relu, relu.solution, settings).status == "ok"


def test_segfault_is_a_crash_with_its_signal(unsafe_evaluator, settings, relu):
    source = relu.solution.replace("        x = x.contiguous()\n",
                                   "        import ctypes\n        ctypes.string_at(0)\n")
    t0 = time.monotonic()
    verdict = unsafe_evaluator.evaluate(relu, source, settings)
    assert verdict.status == "crashed" and "SIGSEGV" in verdict.feedback
    assert "Segmentation fault" in verdict.feedback  # faulthandler's report from the child
    assert time.monotonic() - t0 < settings.timeout_s
    assert unsafe_evaluator.evaluate(relu, relu.solution, settings).status == "ok"


def test_a_candidate_that_kills_its_sandbox_fails_alone(unsafe_evaluator, settings, relu):
    """The zygote is the sandbox's PID namespace's init (pid 1 since s59e, bwrap --as-pid-1;
    pid 2 beside bwrap's reaper before) and the child's parent; killing it would end the sandbox.
    The child's seccomp guard (evaluator.seccomp.guard) refuses the signal, so the candidate's
    forward raises: its own runtime_error; the sandbox is kept and the next one is fine
    (before rt75 the kill went through: `crashed`, and the sandbox was replaced)."""
    retired = unsafe_evaluator.pool.retired
    source = relu.solution.replace("        x = x.contiguous()\n",
                                   "        import os, signal\n        os.kill(os.getppid(), signal.SIGKILL)\n"
                                   "        x = x.contiguous()\n")
    verdict = unsafe_evaluator.evaluate(relu, source, settings)
    assert verdict.status == "runtime_error" and verdict.judged, verdict.feedback
    assert "Operation not permitted" in verdict.feedback
    assert unsafe_evaluator.evaluate(relu, relu.solution, settings).status == "ok"
    assert unsafe_evaluator.pool.retired == retired


def test_the_jobs_cpu_budget_reaches_the_child(unsafe_evaluator, settings, relu):
    """The worker's job limits (CPU budget, device-memory cap) reach the child: its soft
    RLIMIT_CPU is what it used so far plus 4x the evaluation's timeout, not unlimited (they
    were read from the wrong level of the spawn message and silently dropped)."""
    source = _with_prelude(relu, "import resource\n"
                                 "raise RuntimeError('cpu limit %d' % resource.getrlimit(resource.RLIMIT_CPU)[0])")
    verdict = unsafe_evaluator.evaluate(relu, source, settings)
    found = re.search(r"cpu limit (-?\d+)", verdict.feedback)
    assert verdict.status == "compile_error" and found, verdict.feedback  # raised at import
    assert 4 * settings.timeout_s < int(found.group(1)) <= 4 * settings.timeout_s + 120


_ARENA_HOG = """
import mmap, os, time
for name in os.listdir('/proc/self/fd'):
    try:
        if 'krl-reply-arena' in os.readlink('/proc/self/fd/' + name):
            for at in range(0, 1 << 30, 16 << 20):  # stores are not bound by RLIMIT_FSIZE as pwrite is
                m = mmap.mmap(int(name), 16 << 20, offset=at)
                for i in range(0, 16 << 20, 4096):
                    m[i] = 1
                m.close()  # mapped nowhere now: no resident-set figure shows these pages
    except OSError:
        pass
time.sleep(0.6)
"""


def test_memory_written_into_the_reply_arena_counts_against_the_job(unsafe_evaluator, settings, relu):
    """The child holds its reply arena's fd: 1 GiB written there 16 MiB at a time, each
    window unmapped after, is mapped nowhere, so no resident-set figure ever shows it. The watchdog counts what the arena holds,
    so it cannot be a place to keep memory past the job's limit (on a host without cgroups,
    as the GPU machine, the watchdog is the only limit)."""
    verdict = unsafe_evaluator.evaluate(relu, _with_prelude(relu, _ARENA_HOG), settings)
    assert verdict.status == "ok", verdict.feedback
    assert verdict.details["host_peak_rss_bytes"] >= 1 << 30


def test_the_memory_watch_sees_shared_memory_a_process_maps():
    """resident.tree_memory: resident bytes and, of those, shared memory (a child keeps its
    reply arena mapped; the watchdog counts the arena once, from the arena, and the job's
    other shared memory still counts)."""
    import subprocess
    import sys

    from evaluator.resident import tree_memory as _tree_memory

    code = ("import mmap, os, sys, time\n"
            "fd = os.memfd_create('x'); os.ftruncate(fd, 64 << 20)\n"
            "m = mmap.mmap(fd, 64 << 20); m.write(b'x' * (64 << 20))\n"
            "print('ready', flush=True); time.sleep(30)\n")
    proc = subprocess.Popen([sys.executable, "-c", code], stdout=subprocess.PIPE, text=True)
    try:
        assert proc.stdout.readline().strip() == "ready"
        resident, shared = _tree_memory(proc.pid)
        assert shared >= 64 << 20 and resident >= shared
    finally:
        proc.kill()
        proc.wait()


def test_the_memory_watch_counts_a_process_whatever_name_it_gives_itself():
    """Red team s59e: /proc/<pid>/status and stat show a process's name raw, and a name that
    is not ASCII (prctl PR_SET_NAME, or /proc/self/comm) failed the watchdog's ASCII read,
    which then skipped that process AND every process under it: 128 MiB held below a parent
    named b"\\xff" counted 0 bytes (without the cgroup layer the watchdog is the only bound
    on a job's host memory). The zygote's pause read each process's state the same way, and
    the decoding error ended the zygote."""
    import subprocess
    import sys

    from evaluator import zygote
    from evaluator.resident import tree_memory as _tree_memory

    code = ("import ctypes, os, sys, time\n"
            "ctypes.CDLL(None).prctl(15, b'\\xff\\xfe', 0, 0, 0)\n"
            "if os.fork() == 0:\n"
            "    held = bytearray(128 << 20)\n"
            "    for i in range(0, len(held), 4096):\n"
            "        held[i] = 1\n"
            "    print('ready', flush=True)\n"
            "    time.sleep(30)\n"
            "    os._exit(0)\n"
            "time.sleep(30)\n")
    proc = subprocess.Popen([sys.executable, "-c", code], stdout=subprocess.PIPE, text=True)
    try:
        assert proc.stdout.readline().strip() == "ready"
        resident, _ = _tree_memory(proc.pid)
        assert resident >= 128 << 20, resident
        assert zygote._state(proc.pid) in ("S", "R")
    finally:
        for pid in _descendants(proc.pid):
            os.kill(pid, 9)
        proc.kill()
        proc.wait()


def _descendants(pid: int) -> list[int]:
    from evaluator.resident import children as _children

    out, todo = [], [pid]
    while todo:
        kids = _children(todo.pop())
        out.extend(kids)
        todo.extend(kids)
    return out


def test_an_idle_sandbox_holds_a_spare_child_and_a_dead_one_is_replaced(evaluator, settings, relu, caplog):
    """After a job the idle sandbox forks the next candidate's child at once (it sets up
    its device while no candidate is known). A spare that died while idle must cost the
    next candidate nothing: it gets a freshly forked child and its verdict."""
    assert evaluator.evaluate(relu, relu.solution, settings).status == "ok"
    idle = list(evaluator.pool._idle)
    assert idle and all(s.spare is not None for s in idle), "every idle sandbox should hold a spare"
    for sandbox in idle:  # the zygote's newest process is the spare: kill it from the host
        before = set(_descendants(sandbox.proc.pid))
        zygote_tree = [p for p in before if _descendants(p)]
        spare = max(before - set(zygote_tree))
        os.kill(spare, 9)
    time.sleep(0.5)
    forked = evaluator.pool.children
    with caplog.at_level("WARNING", logger="evaluator.sandbox"):
        verdicts = [evaluator.evaluate(relu, relu.solution, settings) for _ in idle]
    assert caplog.text.count("a spare child failed") == len(idle), caplog.text
    assert all(v.status == "ok" for v in verdicts), [v.feedback for v in verdicts]
    assert evaluator.pool.children == forked + len(idle)


_TMPFS_FILL = """
data = b"x" * (16 << 20)
for folder in ("/tmp", "/dev/shm"):  # files: charged to the sandbox's cgroup, in no process's RSS
    for i in range(64):
        try:
            with open(f"{folder}/fill{i}", "wb") as f:
                f.write(data)
        except OSError:
            break
"""


def test_a_job_that_fills_its_tmpfs_is_killed_not_the_zygote(relu, settings):
    """Red team s59e (open until session 60): a job filling /tmp and /dev/shm past the cgroup's
    memory limit while its own processes stay small left the zygote (torch and Triton, the PID
    namespace's init) the largest process; the OOM killer took it (measured in session 60: the
    zygote at 100k pages beside the child's 72k), the verdict read "the child's sandbox failed"
    and the sandbox was replaced. Every job process now carries the highest OOM score
    (evaluator.zygote.OOM_SCORE_ADJ): the job's child dies, the verdict is its own crash out of
    memory, and the next candidate runs in the same sandbox, its tmpfs wiped."""
    from evaluator import bwrap
    from evaluator.pipeline import Evaluator

    cfg = cpu_config(children=1, reference_children=1,
                     sandbox={"unsafe_skip_static_checks": True, "memory_limit_bytes": 1 << 30,
                              "tmpfs_bytes": 600 << 20})
    if bwrap.probe(cfg.sandbox).cgroup is None:
        pytest.skip("no cgroup layer on this host: no memory limit to run out of")
    with Evaluator(cfg) as ev:
        ev.warm_up()
        sandbox = ev.pool._idle[0]
        zygote = _descendants(sandbox.proc.pid)
        verdict = ev.evaluate(relu, _with_prelude(relu, _TMPFS_FILL), settings)
        assert verdict.status == "crashed" and verdict.judged, verdict.feedback
        assert "out of memory" in verdict.feedback and "sandbox failed" not in verdict.feedback
        assert ev.pool.retired == 0 and ev.pool._idle == [sandbox] and sandbox.alive()
        memory = sandbox.cgroup.dirs[-1]  # the job's files went with it (the zygote wiped the tmpfs)
        used = (memory / ("memory.current" if sandbox.cgroup.kind == "v2" else "memory.usage_in_bytes")).read_text()
        assert int(used) < 600 << 20, f"{int(used) >> 20} MiB still charged after the job"
        assert _descendants(sandbox.proc.pid)[:1] == zygote[:1]  # the same zygote
        assert ev.evaluate(relu, relu.solution, settings).status == "ok"
        assert ev.pool.retired == 0


def test_the_zygotes_own_waits_do_not_count_a_freeze(monkeypatch):
    """pool.quiet may freeze a sandbox whole while its zygote is ending a job (a grace for the
    child, up to 3 s for the rest to die): a 10 s freeze must not read as those waits run
    out (a job's child killed before its grace, a sandbox found unclean and replaced)."""
    from types import SimpleNamespace

    from evaluator import zygote

    now = [100.0]
    monkeypatch.setattr(zygote, "time", SimpleNamespace(monotonic=lambda: now[0]))
    deadline = zygote._Deadline(0.5)
    now[0] += 0.1
    assert not deadline.passed()
    now[0] += 10.0  # frozen
    assert not deadline.passed()
    now[0] += 0.2
    assert not deadline.passed()
    now[0] += 0.25
    assert deadline.passed()
