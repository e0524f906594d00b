"""Timing runs alone on the device: it waits for candidates' trials and holds new ones back."""
import threading
import time

from evaluator.device_lock import DeviceLock


def _run(fn) -> threading.Thread:
    t = threading.Thread(target=fn, daemon=True)
    t.start()
    return t


def test_a_timing_waits_for_running_trials_and_new_trials_wait_for_it():
    lock, events = DeviceLock(), []
    trial_started = threading.Event()

    def trial(name, hold_s):
        with lock.shared():
            events.append(f"{name}+")
            trial_started.set()
            time.sleep(hold_s)
            events.append(f"{name}-")

    def timing():
        with lock.exclusive():
            events.append("T+")
            time.sleep(0.2)
            events.append("T-")

    a = _run(lambda: trial("A", 0.3))
    trial_started.wait(5)
    t = _run(timing)
    time.sleep(0.05)
    b = _run(lambda: trial("B", 0.0))  # arrives while the timing waits: must not jump ahead
    for th in (a, t, b):
        th.join(5)
    assert events == ["A+", "A-", "T+", "T-", "B+", "B-"]


def test_without_exclusive_timing_trials_overlap_a_timing_but_timings_do_not_overlap():
    lock, inside, overlaps = DeviceLock(exclusive_timing=False), [], []

    def timing():
        with lock.exclusive():
            inside.append(1)
            overlaps.append(len(inside))
            time.sleep(0.1)
            inside.pop()

    def trial():
        with lock.shared():
            overlaps.append(-len(inside))

    threads = [_run(timing), _run(timing)]
    time.sleep(0.02)
    threads.append(_run(trial))
    for th in threads:
        th.join(5)
    assert max(overlaps) == 1 and -1 in overlaps


_OTHER_PROCESS = """
import sys, time
from evaluator.device_lock import DeviceLock, HostLock
lock = DeviceLock(host=HostLock(sys.argv[1]))
print("queued", time.monotonic(), flush=True)
with lock.{side}():
    print("in", time.monotonic(), flush=True)
    time.sleep(float(sys.argv[2]))
    print("out", time.monotonic(), flush=True)
"""


def _other(path, side: str, hold_s: float):
    import subprocess
    import sys
    from pathlib import Path
    root = Path(__file__).resolve().parents[3]
    return subprocess.Popen([sys.executable, "-c", _OTHER_PROCESS.replace("{side}", side), str(path), str(hold_s)],
                            cwd=root, stdout=subprocess.PIPE, text=True)


def _marks(proc) -> dict[str, float]:
    out, _ = proc.communicate(timeout=30)
    return {line.split()[0]: float(line.split()[1]) for line in out.splitlines()}


def _wait_for(proc, word: str) -> float:
    line = proc.stdout.readline()
    assert line.startswith(word), line
    return float(line.split()[1])


def test_a_timing_in_another_process_waits_for_this_ones_trials_and_holds_its_new_ones_back(tmp_path):
    """Six `krl check` runs on one H200 timed beside each other's trials: evaluators of one
    device in separate processes share the lock through a file."""
    from evaluator.device_lock import HostLock
    lock, events = DeviceLock(host=HostLock(str(tmp_path / "gpu.lock"))), {}
    first_in = threading.Event()

    def trial(name, hold_s):
        with lock.shared():
            events[name + "+"] = time.monotonic()
            first_in.set()
            time.sleep(hold_s)
            events[name + "-"] = time.monotonic()

    a = _run(lambda: trial("A", 1.0))
    first_in.wait(5)
    other = _other(tmp_path / "gpu.lock", "exclusive", 0.5)
    _wait_for(other, "queued")
    time.sleep(0.3)  # the other process's timing is queued behind A
    b = _run(lambda: trial("B", 0.0))  # arrives after it: must not jump ahead
    a.join(10)
    b.join(10)
    timing = _marks(other)
    assert events["A-"] <= timing["in"], (events, timing)
    assert timing["out"] <= events["B+"], (events, timing)
    lock.close()


def test_a_process_killed_while_timing_lets_the_others_go_on(tmp_path):
    from evaluator.device_lock import HostLock
    other = _other(tmp_path / "gpu.lock", "exclusive", 60)
    _wait_for(other, "queued")
    _wait_for(other, "in")
    lock = DeviceLock(host=HostLock(str(tmp_path / "gpu.lock")))
    entered = threading.Event()
    t = _run(lambda: (lock.shared().__enter__(), entered.set()))
    assert not entered.wait(0.5)  # held off by the other process's timing
    other.kill()
    other.wait(10)
    assert entered.wait(10)  # the kernel dropped the dead process's lock
    t.join(5)


def test_the_lock_file_is_per_device_and_visible_gpus(monkeypatch):
    from evaluator.device_lock import host_lock_path
    monkeypatch.setenv("CUDA_VISIBLE_DEVICES", "0")
    zero = host_lock_path("cuda")
    monkeypatch.setenv("CUDA_VISIBLE_DEVICES", "1")
    assert host_lock_path("cuda") != zero
    assert host_lock_path("cpu") not in (zero, host_lock_path("cuda"))


def test_a_process_stuck_holding_the_device_does_not_stop_the_others_for_ever(tmp_path):
    """A stopped or hung evaluator holding the file lock: the others wait `wait_s`, then time
    without the host-wide hold (their own process's lock still applies)."""
    import signal

    from evaluator.device_lock import HostLock
    other = _other(tmp_path / "gpu.lock", "exclusive", 60)
    _wait_for(other, "queued")
    _wait_for(other, "in")
    other.send_signal(signal.SIGSTOP)  # stuck while it holds the device
    try:
        lock = DeviceLock(host=HostLock(str(tmp_path / "gpu.lock"), wait_s=0.5))
        t0 = time.monotonic()
        with lock.exclusive():
            waited = time.monotonic() - t0
        assert 0.4 < waited < 5
        with lock.shared():  # and the shared side goes on too
            pass
    finally:
        other.send_signal(signal.SIGCONT)
        other.kill()
        other.wait(10)


def test_a_link_planted_at_the_lock_files_name_leaves_the_evaluator_its_own_lock(tmp_path, caplog):
    """Another local user's link at the name is refused, never followed, and the evaluator
    still starts (open_host_lock gives None, logged): its timings exclude only its own work."""
    from evaluator.device_lock import open_host_lock
    target = tmp_path / "victim"
    target.write_text("keep")
    (tmp_path / "gpu.lock").symlink_to(target)
    assert open_host_lock(str(tmp_path / "gpu.lock"), 1.0) is None
    assert target.read_text() == "keep"
    assert "cannot be opened" in caplog.text
