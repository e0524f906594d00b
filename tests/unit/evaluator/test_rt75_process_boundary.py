"""Red team rt75 (session 56): the process boundary with the static checks OFF (the sandbox
alone), as test_sandbox does: what one candidate's processes can do to the zygote, to the
pause that keeps them off another candidate's timing, and to the next candidate."""
from __future__ import annotations

import threading
import time
from pathlib import Path

import pytest
from conftest import cpu_config, fixture_problem
from test_sandbox import _descendants, _with_prelude


@pytest.fixture(scope="module")
def relu():
    return fixture_problem("relu")


def _state(pid: int) -> str:
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return ""


# Two processes that resume each other forever: a single kill(-1, SIGSTOP) stops them one
# after the other, and whichever is still running resumes the one already stopped.
PING_PONG = """
import os, signal
_r, _w = os.pipe()
_first = os.fork()
if _first == 0:
    os.close(_w)
    _peer = int(os.read(_r, 32))
    while True:
        try:
            os.kill(_peer, signal.SIGCONT)
        except OSError:
            pass
_second = os.fork()
if _second == 0:
    os.write(_w, str(os.getpid()).encode())
    while True:
        try:
            os.kill(_first, signal.SIGCONT)
        except OSError:
            pass
os.close(_r)
os.close(_w)
"""


@pytest.mark.parametrize("stop", ["freezer", "signals"])
def test_processes_that_resume_each_other_are_still_stopped_by_a_pause(stop, unsafe_evaluator, settings, relu):
    """While another candidate is timed every process of another sandbox's job is stopped
    (pool.quiet): by the cgroup's freezer where the sandbox has one, else by SIGSTOP. Two
    processes that SIGCONT each other in a loop must not keep running (they would share the
    CPU with the other candidate's timing): none gains CPU time while paused."""
    ev = unsafe_evaluator
    for _ in range(3):  # an evaluation may end before a pause lands (a loaded box)
        result, running_seen, pauses = _paused_while_evaluating(ev, relu, settings, stop)
        if pauses:
            break
    assert result and result[0].status == "ok", result and result[0].feedback
    assert pauses, "the candidate was never paused between commands: the test proves nothing"
    assert not running_seen, f"processes ran while their sandbox was paused: {sorted(set(running_seen))}"


def _paused_while_evaluating(ev, relu, settings, stop: str) -> tuple[list, list, int]:
    """Evaluate PING_PONG, pausing its sandbox between commands up to 5 times: (the verdict,
    processes seen running while paused, pauses made)."""
    result: list = []
    thread = threading.Thread(target=lambda: result.append(ev.evaluate(relu, _with_prelude(relu, PING_PONG),
                                                                         settings)))
    thread.start()
    running_seen, pauses = [], 0
    try:
        deadline = time.monotonic() + 60
        while thread.is_alive() and time.monotonic() < deadline and pauses < 5:
            with ev.pool._cond:
                boxes = list(ev.pool._running)
            box = boxes[0] if boxes else None
            if box is None or len(_descendants(box.proc.pid)) < 4:
                time.sleep(0.01)
                continue
            freezer = box.cgroup.freezer if box.cgroup is not None else None
            if stop == "freezer" and freezer is None:
                pytest.skip("no cgroup freezer on this host")
            if stop == "signals" and box.cgroup is not None:
                box.cgroup.freezer = None
            try:
                if not box.pause():
                    time.sleep(0.01)
                    continue
                pauses += 1
                job = _job_processes(box.proc.pid)
                time.sleep(0.05)  # a process stopped as the pause returns may be mid-tick
                before = {p: _cpu_ticks(p) for p in job}
                time.sleep(0.3)
                running_seen.extend(p for p in job if _cpu_ticks(p) > before[p])
            finally:
                box.resume()
                if box.cgroup is not None:
                    box.cgroup.freezer = freezer
    finally:
        thread.join()
    return result, running_seen, pauses


def _cpu_ticks(pid: int) -> int:
    """The process's user and system CPU time so far (clock ticks); 0 once it is gone."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return 0
    return int(fields[11]) + int(fields[12])


def _job_processes(outer: int) -> list[int]:
    """The job's processes: everything below the zygote (bubblewrap -> its init -> zygote)."""
    from evaluator.resident import children as _children

    inits = _children(outer)
    zygotes = [z for i in inits for z in _children(i)]
    return [p for z in zygotes for c in _children(z) for p in [c, *_descendants(c)]]


@pytest.mark.parametrize("attack", [
    "os.kill(os.getppid(), signal.SIGSTOP)",
    "os.kill(-1, signal.SIGSTOP)",
    "os.kill(0, signal.SIGSTOP)",
    "os.kill(1, signal.SIGSTOP)",
    "signal.pidfd_send_signal(os.open('/proc/%d' % os.getppid(), os.O_RDONLY | os.O_DIRECTORY), signal.SIGSTOP)",
])
def test_a_candidate_cannot_stop_its_zygote(attack, unsafe_evaluator, settings, relu):
    """The zygote (the child's parent) and the namespace's init share the candidate's uid:
    a stopped zygote could not answer the job's end, and the verdict read "the evaluator's
    sandbox failed; not a verdict on your kernel" (never trained on: a candidate could turn
    any verdict reached in timing into no verdict). The child's seccomp guard refuses the
    signal; the candidate's verdict is its own and the next candidate is fine."""
    source = _with_prelude(relu, f"import os, signal\ntry:\n    {attack}\nexcept OSError:\n    pass\n")
    verdict = unsafe_evaluator.evaluate(relu, source, settings)
    assert verdict.judged, verdict.feedback
    assert verdict.status == "ok", verdict.feedback
    assert unsafe_evaluator.evaluate(relu, relu.solution, settings).status == "ok"


# What the next candidate's process inherits from the zygote, read inside it.
INHERITED = """
import os, resource
_seen = (os.getpriority(os.PRIO_PROCESS, 0), sorted(os.sched_getaffinity(0)),
         resource.getrlimit(resource.RLIMIT_AS), resource.getrlimit(resource.RLIMIT_NOFILE),
         open("/proc/self/autogroup").read().split()[-1])
"""


def _inherited(ev, relu, settings) -> str:
    verdict = ev.evaluate(relu, _with_prelude(relu, INHERITED + "raise RuntimeError('SEEN %r' % (_seen,))"), settings)
    return verdict.feedback.split("SEEN ", 1)[1].split("\n", 1)[0]


@pytest.mark.parametrize("attack", [
    "import os\nos.setpriority(os.PRIO_PROCESS, os.getppid(), 19)",
    "import os\nos.setpriority(os.PRIO_USER, 0, 19)",
    "import os\nos.sched_setaffinity(os.getppid(), {0})",
    "import os, resource\nresource.prlimit(os.getppid(), resource.RLIMIT_NOFILE, (64, 64))",
    "import os, resource\nresource.prlimit(os.getppid(), resource.RLIMIT_AS, (1 << 29, 1 << 29))",
    "with open('/proc/self/autogroup', 'w') as f:\n    f.write('19')",
    "import os\nwith open('/proc/%d/autogroup' % os.getppid(), 'w') as f:\n    f.write('19')",
])
def test_a_candidate_cannot_change_what_the_next_candidate_inherits(attack, unsafe_evaluator, settings, relu):
    """The zygote forks every candidate of its sandbox: its priority, CPU affinity and limits
    are the next candidate's. A candidate shares the zygote's uid (one uid in the user
    namespace), and setpriority/prlimit/sched_setaffinity only compare uids."""
    before = _inherited(unsafe_evaluator, relu, settings)
    verdict = unsafe_evaluator.evaluate(relu, _with_prelude(relu, attack), settings)
    print("attacker:", verdict.status, verdict.error_source, verdict.feedback[:200])
    after = _inherited(unsafe_evaluator, relu, settings)
    honest = unsafe_evaluator.evaluate(relu, relu.solution, settings)
    print("before", before, "after", after, "honest next:", honest.status, honest.feedback[:200])
    assert after == before
    assert honest.status == "ok", honest.feedback


@pytest.fixture(scope="module")
def no_seccomp_evaluator():

    from evaluator.pipeline import Evaluator

    with Evaluator(cpu_config(children=1, sandbox={"unsafe_skip_static_checks": True, "seccomp": False})) as ev:
        yield ev


def test_without_seccomp_a_zygote_changed_from_outside_is_replaced(no_seccomp_evaluator, settings, relu):
    """Where the host has no seccomp the guard is not there and the calls succeed: the zygote
    compares what its children inherit with its start-up values at every job's end and, changed,
    reports the sandbox unclean, which is replaced before any next candidate."""
    ev = no_seccomp_evaluator
    before = _inherited(ev, relu, settings)
    retired = ev.pool.retired
    attack = "import os\nos.setpriority(os.PRIO_PROCESS, os.getppid(), 19)\nos.sched_setaffinity(os.getppid(), {0})"
    assert ev.evaluate(relu, _with_prelude(relu, attack), settings).status == "ok"
    assert ev.pool.retired == retired + 1, "the changed zygote was kept"
    assert _inherited(ev, relu, settings) == before


# Files in the job's directory: the zygote deletes each at the job's end.
MANY_FILES = """
import os
_d = os.open(".", os.O_RDONLY)
for _i in range(60_000):
    os.close(os.open("f%d" % _i, os.O_CREAT | os.O_WRONLY, dir_fd=_d))
"""


@pytest.mark.parametrize("cgroup_busy", [False, True])
def test_a_job_end_the_candidate_made_slow_is_no_evaluator_failure(cgroup_busy, unsafe_evaluator, settings, relu,
                                                                   monkeypatch):
    """The zygote wipes the job's files at its end, within a deadline; a candidate decides how
    many there are (1.3M made the wipe outlast the 10.5 s deadline: `crashed`, "the evaluator's
    sandbox failed; not a verdict on your kernel", never trained on, red team rt75). Here the
    deadline is cut to 50 ms so 60k files outlast it: the sandbox is killed and replaced, and
    the candidate still gets its own verdict."""
    from evaluator import sandbox as sandbox_module

    real = sandbox_module.Sandbox._call

    def hurried(self, msg, timeout_s, fds=()):
        return real(self, msg, 0.05 if msg.get("op") == "finish" else timeout_s, fds)

    monkeypatch.setattr(sandbox_module.Sandbox, "_call", hurried)
    if cgroup_busy:  # the killed sandbox's cgroup still busy past its deadline (seen under load)
        from evaluator import bwrap

        real_remove = bwrap.Cgroup.remove

        def busy(self, timeout_s=5.0):  # removed all the same: nothing is left on the host
            real_remove(self, timeout_s)
            raise OSError(16, "Device or resource busy")

        monkeypatch.setattr(bwrap.Cgroup, "remove", busy)
    retired = unsafe_evaluator.pool.retired
    verdict = unsafe_evaluator.evaluate(relu, _with_prelude(relu, MANY_FILES), settings)
    assert verdict.judged and verdict.status == "ok", verdict.feedback
    assert unsafe_evaluator.pool.retired > retired, "the deadline was not outlasted: the test proves nothing"
    monkeypatch.undo()
    assert unsafe_evaluator.evaluate(relu, relu.solution, settings).status == "ok"


@pytest.mark.parametrize("change", [
    "os.nice(1)",
    "os.sched_setaffinity(0, {min(os.sched_getaffinity(0))})",
    "resource.setrlimit(resource.RLIMIT_NOFILE, (64, resource.getrlimit(resource.RLIMIT_NOFILE)[1]))",
    "resource.setrlimit(resource.RLIMIT_FSIZE, (1 << 20, 1 << 20))",
    "open('/proc/self/oom_score_adj', 'w').write('900')",
    "open('/proc/self/autogroup', 'w').write('19')",  # red team s59e: the zygote's, from a child
    "open('/proc/self/coredump_filter', 'w').write('0')",
])
def test_what_a_zygote_compares_at_a_jobs_end_sees_each_change(change):
    """zygote.inheritable() is what the zygote holds its start-up state to: each thing a process
    of the same uid can change from outside shows in it (here the process changes its own)."""
    import subprocess
    import sys
    import textwrap

    code = textwrap.dedent(f"""
        import os, resource
        from evaluator.zygote import inheritable
        before = inheritable()
        {change}
        print(before != inheritable())
    """)
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60,
                         cwd=str(Path(__file__).resolve().parents[3]), start_new_session=True)
    assert out.stdout.strip() == "True", out.stderr


# A candidate busy in one command (its module's import, as input generation or a trial would
# be) with a process it forked spinning in the background.
BUSY_NEIGHBOUR = """
import os, signal, time
_spinner = os.fork()
if _spinner == 0:
    while True:
        pass
while time.process_time() < 0.5:  # CPU time: a stop does not shorten it
    pass
os.kill(_spinner, signal.SIGKILL)  # the rest of its evaluation is not slowed by it
os.waitpid(_spinner, 0)
"""


@pytest.mark.slow  # it sleeps through a stop longer than the neighbour's whole time limit
def test_a_busy_neighbour_is_stopped_whole_while_another_candidate_is_timed(relu):
    """Red team s59e (open until session 60): pool.quiet stopped only sandboxes whose child was
    between commands; one mid-command, and the processes it forked, kept running while another
    candidate and its reference were timed. Now every other job is stopped whole, mid-command
    or not (the cgroup's freezer where the sandbox has one, else SIGSTOP): no process of the
    neighbour gains CPU time during the timing, the timed sandbox runs, and the neighbour's
    stop (longer than its whole time limit here) is not its time: its verdict is `ok`, the
    stop in its details (`stopped_s`)."""
    from common.messages import EvalSettings
    from evaluator.pipeline import Evaluator

    settings = EvalSettings(device="cpu", timeout_s=12, trials=2)
    with Evaluator(cpu_config(children=2, sandbox={"unsafe_skip_static_checks": True})) as ev:
        ev.warm_up()
        result: list = []
        neighbour = threading.Thread(target=lambda: result.append(
            ev.evaluate(relu, _with_prelude(relu, BUSY_NEIGHBOUR), settings)))
        neighbour.start()
        try:
            _box, job = _busy_job(ev)
            with ev.pool.candidate({}) as timed, ev.pool.quiet(timed):
                time.sleep(0.05)
                before = {p: _cpu_ticks(p) for p in job}
                time.sleep(0.5)
                ran = [p for p in job if _cpu_ticks(p) > before[p]]
                assert not ran, f"processes of a busy neighbour ran during a timing: {ran}"
                reply, _ = timed.request({"op": "ping"}, 30)  # the timed sandbox is not stopped
                time.sleep(settings.timeout_s + 1 - 0.55)
        finally:
            neighbour.join(120)
    assert result and result[0].status == "ok", result and result[0].feedback
    assert result[0].details["stopped_s"] >= settings.timeout_s


def _busy_job(ev) -> tuple:
    """The neighbour's sandbox and job processes (its child and the spinner it forked) once it
    is mid-command."""
    from evaluator.resident import children as _children

    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        with ev.pool._cond:
            boxes = list(ev.pool._running)
        job = [p for z in _children(boxes[0].proc.pid) for c in _children(z)
               for p in [c, *_descendants(c)]] if boxes else []
        if len(job) >= 2:
            return boxes[0], job
        time.sleep(0.01)
    raise AssertionError("the neighbour never got busy")
