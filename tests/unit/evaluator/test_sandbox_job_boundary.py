"""Red team s61b: the boundary between a candidate's job and what is trusted beside it in its
sandbox (the zygote, PID 1 of the sandbox, which forks every later candidate's process), with
the static checks OFF (the sandbox alone), as test_sandbox does."""
from __future__ import annotations

import signal
import subprocess
from pathlib import Path

import pytest
from conftest import cpu_config, fixture_problem
from test_sandbox import _TMPFS_FILL, _descendants, _with_prelude


@pytest.fixture(scope="module")
def relu():
    return fixture_problem("relu")


# The zygote raised to the job's score, the job lowered to the zygote's: both allowed to the
# sandbox's one uid without privilege.
CHOOSE_THE_ZYGOTE = """
for _path, _score in (('/proc/1/oom_score_adj', '1000'), ('/proc/self/oom_score_adj', '0')):
    with open(_path, 'w') as _f:
        _f.write(_score)
"""


def test_a_job_cannot_choose_the_zygote_for_the_oom_killer(relu, settings):
    """Session 60 left it open: every job process has OOM score 1000, but the zygote's
    /proc/1/oom_score_adj is writable from the job (its /proc files are the sandbox uid's) and a
    job may lower its own score to the zygote's 0. Then a job that fills /tmp and /dev/shm while
    its processes stay small got the zygote killed: "out of memory (the sandbox was lost with
    it)", the sandbox replaced (measured in s61b). Now the job's processes are in a cgroup of
    their own below the sandbox's, with the job's memory limit (evaluator.cgroup): its OOM takes
    one of its own processes whatever the scores, and the zygote writes its own score back at
    the job's end, so the sandbox is kept for the next candidate."""
    from evaluator import bwrap
    from evaluator.pipeline import Evaluator

    cfg = cpu_config(children=1, reference_children=1,
                     sandbox={"unsafe_skip_static_checks": True, "memory_limit_bytes": 1 << 30,
                              "tmpfs_bytes": 600 << 20})
    if bwrap.probe(cfg.sandbox).cgroup is None:
        pytest.skip("no cgroup layer on this host: no memory limit to run out of")
    prelude = CHOOSE_THE_ZYGOTE + _TMPFS_FILL
    with Evaluator(cfg) as ev:
        ev.warm_up()
        sandbox = ev.pool._idle[0]
        zygote = _descendants(sandbox.proc.pid)[:1]
        verdict = ev.evaluate(relu, _with_prelude(relu, prelude), settings)
        assert verdict.status == "crashed" and verdict.judged, verdict.feedback
        assert "out of memory" in verdict.feedback and "sandbox was lost" not in verdict.feedback, verdict.feedback
        assert ev.pool.retired == 0 and sandbox.alive()
        assert _descendants(sandbox.proc.pid)[:1] == zygote
        assert Path(f"/proc/{zygote[0]}/oom_score_adj").read_text().strip() == "0"
        assert ev.evaluate(relu, relu.solution, settings).status == "ok"
        assert ev.pool.retired == 0


def test_a_jobs_process_is_admitted_to_the_jobs_own_cgroup():
    """evaluator.cgroup: `admit` moves a process into the job's cgroup, a child of the
    sandbox's memory cgroup with the job's limit; the sandbox's own limit becomes the job's
    plus what its processes hold and ZYGOTE_MARGIN; `remove` kills and deletes both."""
    from evaluator import bwrap, cgroup

    cfg = cpu_config().sandbox
    layers = bwrap.probe(cfg)
    if layers.cgroup is None:
        pytest.skip("no cgroup layer on this host")
    group = bwrap.Cgroup.create(layers, cfg, "s61b-test", memory_bytes=256 << 20)
    sleeper = subprocess.Popen(["sleep", "30"])
    try:
        group.admit(sleeper.pid)
        assert str(sleeper.pid) in (group.job / "cgroup.procs").read_text().split()
        limit = "memory.max" if group.kind == "v2" else "memory.limit_in_bytes"
        assert int((group.job / limit).read_text()) == 256 << 20
        assert int((group.dirs[-1] / limit).read_text()) >= (256 << 20) + cgroup.ZYGOTE_MARGIN
        assert sleeper.pid in group.pids()
    finally:
        group.remove()
    assert sleeper.wait(10) == -signal.SIGKILL
    assert not group.job.exists() and not group.dirs[-1].exists()


# What a candidate who read evaluator/zygote.py tries against its zygote (PID 1) from inside its
# job: each must be refused. The zygote's /proc knobs, writable to the sandbox's one uid, are
# written last: they must cost nothing (written back at the job's end).
REACH_THE_ZYGOTE = """
import ctypes, os
_libc = ctypes.CDLL(None, use_errno=True)
_libc.syscall.restype = ctypes.c_long
REACHED = []
for _n in os.listdir('/proc/1/fd'):  # names are listed; the control socket is fd 11 or so
    try:
        os.close(os.open('/proc/1/fd/' + _n, os.O_RDWR))
        REACHED.append('fd/' + _n)
    except OSError:
        pass
for _name, _value in (('comm', 'x'), ('timerslack_ns', '1'), ('loginuid', '0'), ('uid_map', '0 0 1'),
                      ('timens_offsets', 'monotonic 1 0'), ('projid_map', '0 0 1')):
    try:
        with open('/proc/1/' + _name, 'w') as _f:
            _f.write(_value)
        REACHED.append(_name)
    except OSError:
        pass
for _what, _call in (('ptrace attach', (101, 16, 1, 0, 0)), ('ptrace seize', (101, 0x4206, 1, 0, 0)),
                     ('process_vm_writev', (311, 1, 0, 0, 0, 0, 0)), ('pidfd_open', (434, 1, 0)),
                     ('mq_open', (240, b'/krl', os.O_CREAT | os.O_RDWR, 0o600, 0))):
    if _libc.syscall(*_call) != -1:
        REACHED.append(_what)
if os.path.exists('/sys/fs/cgroup'):
    REACHED.append('cgroupfs')
assert not REACHED, f"the zygote was reached: {REACHED}"
for _name, _value in (('autogroup', '19'), ('coredump_filter', '0'), ('oom_score_adj', '1000')):
    with open('/proc/1/' + _name, 'w') as _f:
        _f.write(_value)
"""


def test_a_job_reaches_nothing_of_its_zygote_and_its_proc_knobs_cost_nothing(unsafe_evaluator, settings, relu):
    """Red team s61b, from inside a job: the zygote's file descriptors (its control socket to the
    worker) through /proc/1/fd, its /proc files a job's uid may open for writing but whose write
    the kernel refuses, ptrace, process_vm_writev, a pidfd, a POSIX queue, the cgroup freezer:
    all refused (held before s61b by the zygote being never dumpable, seccomp, RLIMIT_MSGQUEUE 0
    since s61b, no /sys on the CPU). Its autogroup nice, core dump filter and OOM score are
    writable (the zygote's /proc files are the sandbox uid's): at the job's end the zygote writes
    them back (zygote._restore_knobs) and the sandbox is kept (before s61b it was found unclean
    and replaced: a restart for any candidate that chose to); the next candidate inherits the
    values it would have."""
    from test_rt75_process_boundary import _inherited

    before = _inherited(unsafe_evaluator, relu, settings)
    retired = unsafe_evaluator.pool.retired
    verdict = unsafe_evaluator.evaluate(relu, _with_prelude(relu, REACH_THE_ZYGOTE), settings)
    assert verdict.status == "ok", verdict.feedback
    assert unsafe_evaluator.pool.retired == retired
    assert _inherited(unsafe_evaluator, relu, settings) == before
    assert unsafe_evaluator.pool.retired == retired


LEAVE_IPC = """
import ctypes, os
_libc = ctypes.CDLL(None, use_errno=True)
_libc.shmget(0x5161, 4096, 0o1666)
_libc.mq_open(b'/krl-s61b', os.O_CREAT | os.O_RDWR, 0o600, None)
"""
FIND_IPC = """
import ctypes, os
_libc = ctypes.CDLL(None, use_errno=True)
_found = [_libc.shmget(0x5161, 0, 0), _libc.mq_open(b'/krl-s61b', os.O_RDWR, 0, None)]
assert _found == [-1, -1], f"an earlier job's IPC objects were found: {_found}"
"""


def test_without_seccomp_no_ipc_object_of_one_job_reaches_the_next(relu, settings):
    """Where seccomp is missing (a host without libseccomp, or sandbox.seccomp false) a job can
    make SysV IPC objects and POSIX queues, which outlive their processes in the sandbox's IPC
    namespace, under no file the zygote wipes: red team s61b measured a shared memory segment
    and a queue left by one candidate opened by the next one in the same sandbox. Now the
    zygote removes every SysV object at a job's end (zygote._clear_ipc) and no process of the
    sandbox may make a queue (RLIMIT_MSGQUEUE 0, hard limit too); the sandbox is kept."""
    from evaluator.pipeline import Evaluator

    with Evaluator(cpu_config(children=1, sandbox={"unsafe_skip_static_checks": True, "seccomp": False})) as ev:
        assert ev.evaluate(relu, _with_prelude(relu, LEAVE_IPC), settings).status == "ok"
        retired = ev.pool.retired
        verdict = ev.evaluate(relu, _with_prelude(relu, FIND_IPC), settings)
        assert verdict.status == "ok", verdict.feedback
        assert ev.pool.retired == retired


# Everything in the sandbox's tmpfs is the sandbox uid's, the zygote's as much as the job's: a job
# may take away the owner's own rights to its directories, which the zygote then cannot empty.
LOCK_THE_TMPFS = """
import os
for _root in ('/tmp', '/dev/shm'):
    os.makedirs(_root + '/locked/inner', exist_ok=True)
    open(_root + '/locked/inner/left', 'w').write('for the next candidate')
    os.chmod(_root + '/locked/inner', 0)
    os.chmod(_root + '/locked', 0)
    os.chmod(_root, 0o555)
"""


def test_a_job_that_locks_its_tmpfs_is_wiped_all_the_same(unsafe_evaluator, settings, relu):
    """Red team s61b: a job that set its directories (and /tmp and /dev/shm themselves) to modes
    that deny their owner left files the zygote could not delete, and the sandbox was found
    unclean and replaced (a restart for any candidate that chose to). The zygote owns every file
    there (one uid) and gives itself back the rights to each directory before emptying it; the
    sandbox is kept and the next candidate finds nothing."""
    retired = unsafe_evaluator.pool.retired
    verdict = unsafe_evaluator.evaluate(relu, _with_prelude(relu, LOCK_THE_TMPFS), settings)
    assert verdict.status == "ok", verdict.feedback
    assert unsafe_evaluator.pool.retired == retired
    find = ("import os\nassert not os.path.exists('/tmp/locked') and not os.path.exists('/dev/shm/locked')\n"
            "open('/tmp/written', 'w').write('x')\nopen('/dev/shm/written', 'w').write('x')\n")
    verdict = unsafe_evaluator.evaluate(relu, _with_prelude(relu, find), settings)
    assert verdict.status == "ok", verdict.feedback


def test_the_v2_layout_keeps_processes_out_of_the_cgroup_that_enables_memory(tmp_path):
    """cgroup v2 (not this box's memory controller: a directory tree stands in for it): a cgroup
    that enables controllers for its children may hold no process, so the sandbox's own
    processes start in `<sandbox>/sandbox` (`wrap`), the job's in `<sandbox>/job` (`admit`),
    which has the job's limit; the sandbox's own limit is raised past it at the first job."""
    from evaluator import cgroup

    (tmp_path / "cgroup.controllers").write_text("cpu pids memory\n")
    (tmp_path / "cgroup.subtree_control").write_text("pids memory\n")
    group = cgroup.Cgroup.make("v2", "krl-fake", 64, 1 << 30, tmp_path)
    top = tmp_path / "krl-fake"
    assert group.home == (top / "sandbox",) and group.job == top / "job"
    assert (top / "cgroup.subtree_control").read_text() == "+memory"
    assert (top / "job" / "memory.max").read_text() == str(1 << 30)
    assert group.wrap(["true"])[2].startswith(f"echo $$ > {top / 'sandbox' / 'cgroup.procs'} && exec")
    (top / "memory.current").write_text(str(300 << 20))
    (top / "job" / "memory.current").write_text("0")
    group.admit(4242)
    assert (top / "job" / "cgroup.procs").read_text() == "4242"
    assert int((top / "memory.max").read_text()) == (1 << 30) + (300 << 20) + cgroup.ZYGOTE_MARGIN
    assert group._tree()[:3] == (top / "job", top / "sandbox", top)


def test_a_v2_host_that_delegates_memory_alone_still_gets_the_cgroup_layer(tmp_path):
    """The lent GPU machine (session 61, measured) offers its cgroup `memory` alone, no `pids`:
    the layer was refused whole there, so no job had a cgroup of its own and no sandbox a
    freezer. Memory is what the job's own cgroup needs; pids is enabled where offered, and
    its absence is a missing layer of its own (`pids_max`) that `require_isolation` refuses."""
    from common.config.evaluator import SandboxConfig
    from evaluator import bwrap, cgroup

    (tmp_path / "cgroup.controllers").write_text("cpu memory\n")
    (tmp_path / "cgroup.subtree_control").write_text("\n")
    group = cgroup.Cgroup.make("v2", "krl-fake", 64, 1 << 30, tmp_path)
    assert (tmp_path / "cgroup.subtree_control").read_text() == "+memory"
    assert group.job == tmp_path / "krl-fake" / "job" and not group.pids_max
    layers = bwrap.Layers("/usr/bin/bwrap", True, True, True, True, True, True, "v2", True, False)
    assert layers.missing() == ["pids_max"]
    with pytest.raises(bwrap.IsolationUnavailable, match="pids_max"):
        bwrap.check(SandboxConfig(require_isolation=True), layers)
    bwrap.check(SandboxConfig(), layers)  # off: logged, listed in the verdict's details
    (tmp_path / "cgroup.controllers").write_text("cpu pids\n")
    with pytest.raises(OSError, match="not memory"):
        cgroup.Cgroup.make("v2", "krl-other", 64, 1 << 30, tmp_path)
