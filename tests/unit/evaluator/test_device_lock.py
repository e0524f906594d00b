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
