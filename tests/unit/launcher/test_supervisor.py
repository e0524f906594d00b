"""The supervisor's process-group handling, with real processes: whatever a role leaves
in its group (a vLLM engine core and its workers, sandbox children) never outlives it,
whether the role is stopped at the end of a run or dies mid-run.

The roles here are small Python scripts shaped like the actor: a leader that exits on
SIGTERM while a child it started keeps running (the child ignores SIGTERM, as a busy
vLLM worker in a C call effectively does)."""

import json
import os
import signal
import subprocess
import sys
import textwrap
import time

import pytest

from common.config import RunConfig
from launcher.process_groups import group_members, leader_exited
from launcher.supervisor import Proc, Supervisor

# The leader writes its child's pid, then exits 0 on SIGTERM; the child ignores SIGTERM.
ROLE = textwrap.dedent("""
    import signal, subprocess, sys, time
    child = subprocess.Popen([sys.executable, "-c",
        "import signal, time; signal.signal(signal.SIGTERM, signal.SIG_IGN); time.sleep(600)"])
    open(sys.argv[1], "w").write(str(child.pid))
    signal.signal(signal.SIGTERM, lambda *a: sys.exit(0))
    time.sleep(600)
""")


def _supervisor(tmp_path, stop_timeout_s=1.0) -> Supervisor:
    cfg = RunConfig(
        run_dir=str(tmp_path / "run"),
        supervisor={
            "actors": 0,
            "evaluators": 0,
            "stop_timeout_s": stop_timeout_s,
            "restart_backoff_min_s": 30,
        },
    )
    return Supervisor(cfg, tmp_path / "config.yaml")


def _start_role(sup: Supervisor, tmp_path, name: str) -> tuple[Proc, int]:
    pid_file = tmp_path / f"{name}.child"
    p = Proc(name, "actor", [], {}, 0)
    p.popen = subprocess.Popen([sys.executable, "-c", ROLE, str(pid_file)], start_new_session=True)
    p.started_at = time.monotonic()
    sup.procs = [p]
    deadline = time.monotonic() + 30
    while not (pid_file.exists() and pid_file.read_text()):
        assert time.monotonic() < deadline, "the role never started its child"
        time.sleep(0.05)
    return p, int(pid_file.read_text())


@pytest.fixture
def cleanup():
    groups = []
    yield groups
    for pgid in groups:  # a failed test must not leave its sleepers behind
        try:
            os.killpg(pgid, signal.SIGKILL)
        except ProcessLookupError:
            pass


def test_stop_kills_what_a_role_leaves_in_its_group_after_exiting_on_sigterm(tmp_path, cleanup):
    sup = _supervisor(tmp_path)
    p, child = _start_role(sup, tmp_path, "actor-0")
    cleanup.append(p.popen.pid)
    assert sorted(group_members(p.popen.pid)) == sorted([p.popen.pid, child])

    t0 = time.monotonic()
    sup.stop_all()
    assert p.popen.returncode == 0  # the leader itself stopped cleanly on SIGTERM
    assert p.exit_codes == [0]  # and the summary says how it ended
    assert group_members(p.popen.pid) == [], "the child outlived the supervisor's stop"
    assert time.monotonic() - t0 < 1.0 + 10  # stop_timeout_s, then SIGKILL


def test_a_role_that_dies_mid_run_takes_its_group_with_it_and_is_restarted(tmp_path, cleanup):
    sup = _supervisor(tmp_path)
    p, child = _start_role(sup, tmp_path, "actor-0")
    cleanup.append(p.popen.pid)
    os.kill(p.popen.pid, signal.SIGKILL)
    deadline = time.monotonic() + 10
    while not leader_exited(p.popen):
        assert time.monotonic() < deadline
        time.sleep(0.05)
    sup.tick()
    assert p.exit_codes == [-signal.SIGKILL] and p.restart_at is not None
    deadline = time.monotonic() + 10
    while group_members(p.popen.pid):  # SIGKILLed: gone as soon as the kernel tears it down
        assert time.monotonic() < deadline, f"child {child} survived its leader's death"
        time.sleep(0.05)


def test_the_progress_line_shows_throughput_and_staleness_from_the_learner_history(tmp_path):
    sup = _supervisor(tmp_path)
    history = [
        {
            "step": s,
            "t": 1000.0 + 30 * s,
            "groups": ["a", "b"],
            "tokens": 3000,
            "reward": 0.25 * s,
            "correct": 0.5,
            "staleness_mean": 0.5,
            "staleness_max": 1,
        }
        for s in range(1, 5)
    ]
    (sup.run_dir / "learner").mkdir(parents=True)
    (sup.run_dir / "learner" / "progress.json").write_text(
        json.dumps(
            {"learner_steps": 4, "history": history, "hub": {"trained_total": 8, "buffered": 1}}
        )
    )
    line = sup.progress_line()
    # 6 groups and 9000 tokens in the 90 s between steps 1 and 4.
    assert "step 4/" in line and "reward 1.000" in line
    assert "4.0 groups/min, 100 tok/s" in line
    assert "staleness 0.5 (max 1)" in line
    assert "groups 8 trained, 1 buffered" in line


def test_a_damaged_progress_record_is_said_and_the_run_goes_on(tmp_path, caplog):
    sup = _supervisor(tmp_path)
    (sup.run_dir / "learner").mkdir(parents=True)
    (sup.run_dir / "learner" / "progress.json").write_text('{"learner_steps": "four"}')
    assert "step 0/" in sup.progress_line()
    assert sup.summary().learner_steps == 0
    assert "progress.json: not a Progress record" in caplog.text


# A stand-in supervisor: starts a role the way Supervisor.start does (own session, SIGTERM
# when its parent dies), prints the role's pid, then waits to be killed.
PARENT = textwrap.dedent("""
    import os, subprocess, sys, time
    from launcher.process_groups import term_with_parent
    role = subprocess.Popen([sys.executable, "-c", sys.argv[1], sys.argv[2]],
                            start_new_session=True, preexec_fn=term_with_parent(os.getpid()))
    print(role.pid, flush=True)
    time.sleep(600)
""")

# A role that records the SIGTERM it gets, then exits.
TERM_ROLE = textwrap.dedent("""
    import signal, sys, time
    def on_term(*_):
        open(sys.argv[1], "w").write("SIGTERM")
        sys.exit(0)
    signal.signal(signal.SIGTERM, on_term)
    open(sys.argv[1] + ".up", "w").write("up")
    time.sleep(600)
""")


def test_roles_get_sigterm_when_the_supervisor_is_killed(tmp_path):
    marker = tmp_path / "role.signal"
    parent = subprocess.Popen(
        [sys.executable, "-c", PARENT, TERM_ROLE, str(marker)], stdout=subprocess.PIPE, text=True
    )
    role = int(parent.stdout.readline())
    try:
        deadline = time.monotonic() + 30
        while not (tmp_path / "role.signal.up").exists():
            assert time.monotonic() < deadline, "the role never started"
            time.sleep(0.05)
        os.kill(parent.pid, signal.SIGKILL)
        parent.wait()
        deadline = time.monotonic() + 10
        while group_members(role):
            assert time.monotonic() < deadline, "the role outlived its supervisor"
            time.sleep(0.05)
        assert marker.read_text() == "SIGTERM"  # it stopped the orderly way
    finally:
        try:
            os.killpg(role, signal.SIGKILL)
        except ProcessLookupError:
            pass


def _sleeper() -> subprocess.Popen:
    return subprocess.Popen(
        [sys.executable, "-c", "import time; time.sleep(600)"], start_new_session=True
    )


def test_a_lone_learner_gets_no_process_group_variables(tmp_path):
    [learner] = [p for p in _supervisor(tmp_path).procs if p.role == "learner"]
    assert learner.name == "learner" and learner.env == {}


def test_learner_ranks_die_and_restart_together(tmp_path, cleanup):
    """A rank that exits leaves its peers waiting in a collective: the supervisor kills
    them, and every rank restarts at the same moment, at a new rendezvous port."""
    cfg = RunConfig(
        run_dir=str(tmp_path / "run"),
        supervisor={"actors": 0, "evaluators": 0, "learner_ranks": 3, "restart_backoff_min_s": 30},
    )
    sup = Supervisor(cfg, tmp_path / "config.yaml")
    ranks = [p for p in sup.procs if p.role == "learner"]
    assert [p.name for p in ranks] == ["learner", "learner-1", "learner-2"]
    assert [p.env["RANK"] for p in ranks] == ["0", "1", "2"]
    assert {p.env["WORLD_SIZE"] for p in ranks} == {"3"}
    assert len({p.env["MASTER_PORT"] for p in ranks}) == 1
    sup.procs = ranks
    for p in ranks:
        p.popen, p.started_at = _sleeper(), time.monotonic()
        cleanup.append(p.popen.pid)

    os.kill(ranks[1].popen.pid, signal.SIGKILL)
    deadline = time.monotonic() + 10
    while not leader_exited(ranks[1].popen):
        assert time.monotonic() < deadline
        time.sleep(0.05)
    sup.tick()
    assert [p.exit_codes for p in ranks] == [[-signal.SIGKILL]] * 3  # the peers were killed
    assert all(group_members(p.popen.pid) == [] for p in ranks)
    assert ranks[1].restart_at is not None
    assert {p.restart_at for p in ranks} == {ranks[1].restart_at}
    assert len({p.env["MASTER_PORT"] for p in ranks}) == 1
    assert sup.status == "running"


def _wait_exited(p: Proc) -> None:
    """Until the leader has exited, left unreaped: the supervisor's tick reaps it."""
    deadline = time.monotonic() + 30
    while not leader_exited(p.popen):
        assert time.monotonic() < deadline, f"{p.name} never exited"
        time.sleep(0.05)


def test_a_learner_run_completes_when_its_last_rank_finishes_not_its_first(tmp_path, cleanup):
    """Rank 0 still stops the hub (its ledger) after every rank saved the last checkpoint:
    a peer's clean exit must not stop the run under it."""
    cfg = RunConfig(
        run_dir=str(tmp_path / "run"), supervisor={"actors": 0, "evaluators": 0, "learner_ranks": 2}
    )
    sup = Supervisor(cfg, tmp_path / "config.yaml")
    ranks = [p for p in sup.procs if p.role == "learner"]
    sup.procs = ranks
    done = tmp_path / "finish"
    for p, script in zip(
        ranks,
        [  # rank 0 exits 0 once told to; rank 1 at once
            f"import os, time\nwhile not os.path.exists({str(done)!r}): time.sleep(0.05)",
            "pass",
        ],
    ):
        p.popen, p.started_at = (
            subprocess.Popen([sys.executable, "-c", script], start_new_session=True),
            time.monotonic(),
        )
        cleanup.append(p.popen.pid)
    _wait_exited(ranks[1])
    sup.tick()
    assert ranks[1].exit_codes == [0] and ranks[0].exit_codes == []
    assert sup.status == "running" and ranks[0].popen.returncode is None
    assert ranks[1].restart_at is None  # a finished rank is not restarted

    done.write_text("")
    _wait_exited(ranks[0])
    sup.tick()
    assert [p.exit_codes for p in ranks] == [[0], [0]] and sup.status == "completed"


def test_a_damaged_fallback_record_is_said_and_never_reads_as_a_clean_run(tmp_path):
    """learner/recovery.json cut short: the fallbacks it held are unknown, so the run's summary
    names the file and does not say a clean `completed`; the learner's next fallback moves the
    damaged record aside and keeps saying it was lost."""
    from types import SimpleNamespace

    from learner.main import Learner

    sup = _supervisor(tmp_path)
    record = tmp_path / "run" / "learner" / "recovery.json"
    record.parent.mkdir(parents=True)
    record.write_text('{"events": [{"t": 1, "skipped": [{"checkpoint": "step_0000')
    sup.status = "completed"
    summary = sup.summary()
    assert summary.status == "completed_after_checkpoint_fallback"
    assert str(record) in summary.checkpoint_fallback_records_damaged[0]

    Learner._record_fallback(
        SimpleNamespace(run_dir=tmp_path / "run", step=3, hub=None),
        [{"checkpoint": "step_00000004", "reason": "checksum"}],
        None,
    )
    assert (record.parent / "recovery.json.damaged").read_text().startswith('{"events": [{"t": 1')
    kept = json.loads(record.read_text())
    assert [e["step"] for e in kept["events"]] == [3] and "damaged" in kept["damaged_records"][0]
    summary = sup.summary()
    assert summary.status == "completed_after_checkpoint_fallback"
    assert len(summary.checkpoint_fallbacks) == 1 and summary.checkpoint_fallback_records_damaged


def test_a_process_that_exits_while_its_group_is_listed_is_skipped(monkeypatch):
    """`krl run` crashed in its stop (summary.json left at "running") when a process exited
    between /proc's listing and the read of its stat: the listing goes on without it."""
    from pathlib import Path

    real_read = Path.read_text

    def read(self, *args, **kwargs):
        if self.parent.name == "999999999":  # exited after the listing: the kernel says ESRCH
            raise ProcessLookupError(3, "No such process", str(self))
        return real_read(self, *args, **kwargs)

    real_listdir = os.listdir
    monkeypatch.setattr(os, "listdir", lambda path: ["999999999", *real_listdir(path)])
    monkeypatch.setattr(Path, "read_text", read)
    assert group_members(os.getpgid(0)) and os.getpid() in group_members(os.getpgid(0))


def test_a_probe_answered_by_something_not_http_reads_as_unreachable():
    """A port the kernel handed to a role's HTTP server and, later, to another process's
    ZeroMQ socket answers a probe with a ZMTP greeting: `krl run` crashed with BadStatusLine
    ("krl run itself failed", make test, session 35). The probes read it as no answer."""
    import socket
    import threading

    from launcher.run_probe import health, scrape

    server = socket.socket()
    server.bind(("127.0.0.1", 0))
    server.listen(4)
    port = server.getsockname()[1]

    def greet() -> None:
        for _ in range(2):
            conn, _ = server.accept()
            conn.sendall(b"\xff\x00\x00\x00\x00\x00\x00\x00\x01\x7f\n\r\n")
            conn.close()

    thread = threading.Thread(target=greet, daemon=True)
    thread.start()
    try:
        assert health(port, timeout_s=2.0) is None
        assert scrape(port, "krl_anything") is None
    finally:
        thread.join(timeout=5)
        server.close()
