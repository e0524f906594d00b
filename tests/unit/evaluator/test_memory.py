"""Admission by device memory (evaluator.memory): reservations never exceed the budget,
are granted in arrival order, and a big problem is not starved by small ones."""
from __future__ import annotations

import threading
import time

from common.config.evaluator import MemoryConfig
from evaluator.memory import DeviceMemory

GIB = 1 << 30


def budget(total_gib: int = 80, processes: int = 6) -> DeviceMemory:
    mem = DeviceMemory(MemoryConfig(device_fraction=1.0, context_bytes=GIB, candidate_factor=3.0,
                                    slack_bytes=GIB), processes)
    mem.set_device(total_gib * GIB)
    return mem


def test_capacity_sets_aside_a_context_per_process_and_no_budget_before_the_device_is_known():
    mem = DeviceMemory(MemoryConfig(), 6)
    assert mem.candidate_bytes(GIB, 0) is None  # CPU, or before a reference child reported
    with mem.reserve(10 * GIB):
        pass
    assert budget().capacity == 74 * GIB


def test_a_candidate_reserves_three_footprints_or_a_timing_batch_capped_at_the_capacity():
    mem = budget()
    assert mem.candidate_bytes(None, 0) == mem.capacity  # unknown footprint: alone on the device
    assert mem.candidate_bytes(2 * GIB, GIB) == 7 * GIB
    assert mem.candidate_bytes(GIB // 10, 8 * GIB) == GIB // 10 + 8 * GIB + GIB
    assert mem.candidate_bytes(30 * GIB, 0) == mem.capacity
    assert mem.reference_bytes(None) == mem.capacity and mem.reference_bytes(GIB) == 2 * GIB


def test_reservations_never_exceed_the_capacity_under_concurrency():
    mem = budget(total_gib=16, processes=0)
    seen, lock = [], threading.Lock()

    def job(nbytes: int) -> None:
        with mem.reserve(nbytes):
            with lock:
                seen.append(mem.used)
            time.sleep(0.02)

    threads = [threading.Thread(target=job, args=((3 + i % 5) * GIB,)) for i in range(24)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=30)
    assert len(seen) == 24 and max(seen) <= 16 * GIB and mem.used == 0
    assert mem.peak_used > 7 * GIB  # several ran at once


def test_a_large_reservation_is_not_overtaken_by_small_ones():
    mem = budget(total_gib=10, processes=0)
    order: list[str] = []
    small_held = threading.Event()

    def small(name: str, hold_s: float) -> None:
        with mem.reserve(2 * GIB):
            order.append(name)
            small_held.set()
            time.sleep(hold_s)

    first = threading.Thread(target=small, args=("small-0", 0.3))
    first.start()
    small_held.wait(5)
    def big_job() -> None:
        with mem.reserve(10 * GIB):
            order.append("big")

    big = threading.Thread(target=big_job)
    big.start()
    time.sleep(0.05)  # the big one waits at the head of the queue
    later = [threading.Thread(target=small, args=(f"small-{i}", 0.0)) for i in (1, 2)]
    for t in later:
        t.start()
    for t in (first, big, *later):
        t.join(timeout=10)
    assert order[:2] == ["small-0", "big"], order
    assert mem.used == 0


def test_the_footprint_is_the_largest_peak_a_reference_reported():
    mem = budget()
    mem.record("p", 3 * GIB)
    mem.record("p", 2 * GIB)
    mem.record("q", 0)
    assert mem.footprint("p") == 3 * GIB and mem.footprint("q") is None


def test_the_worker_host_budget_waits_for_room_and_a_shrunk_grant_lets_the_next_one_in():
    from evaluator.memory import HostMemory

    host = HostMemory(MemoryConfig(host_fraction=0.5), cache_bytes=8 * GIB, total_bytes=128 * GIB)
    assert host.capacity == 56 * GIB and host.first_estimate("new") == 56 * GIB  # unknown: alone
    assert HostMemory(MemoryConfig(), 0, 128 * GIB, enabled=False).first_estimate("x") is None
    order = []
    with host.reserve(28 * GIB) as a, host.reserve(28 * GIB) as b:
        held = host.reserve(GIB)

        def third() -> None:
            held.__enter__()
            order.append("c in")

        waiter = threading.Thread(target=third)
        waiter.start()
        time.sleep(0.2)
        assert order == [] and host.used == 56 * GIB  # full: the third waits
        a.shrink(2 * GIB)  # a's reference turned out small
        waiter.join(timeout=5)
        assert order == ["c in"] and host.used == 2 * GIB + 28 * GIB + GIB
        b.shrink(40 * GIB)  # never grows
        assert b.nbytes == 28 * GIB
    assert host.used == GIB  # a and b handed back what they still held
    held.__exit__(None, None, None)
    assert host.used == 0
    host.record("a", 2 * GIB)
    assert host.first_estimate("a") == 2 * GIB


def test_a_new_problem_is_measured_under_a_share_of_the_budget_first_then_the_whole():
    """The measuring run tries `measure_fraction` of the capacity (its process capped
    there) before the whole capacity, which waits for every other device phase; a share
    of 1 tries the whole at once; no budget (CPU), no reservation."""
    mem = DeviceMemory(MemoryConfig(device_fraction=1.0, context_bytes=0, measure_fraction=0.25), 1)
    assert mem.measure_bytes() == [None]
    mem.set_device(80 * GIB)
    assert mem.measure_bytes() == [20 * GIB, 80 * GIB]
    whole = DeviceMemory(MemoryConfig(device_fraction=1.0, context_bytes=0, measure_fraction=1.0), 1)
    whole.set_device(80 * GIB)
    assert whole.measure_bytes() == [80 * GIB]
