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
