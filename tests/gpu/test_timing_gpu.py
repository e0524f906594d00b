"""evaluator.timing on the GPU: what a forward can see of how it is run.

A profiled timed forward must look to the forward like a plain timed one. A plain one
starts behind the harness's spin (the launch slack) with the device busy; a profiled one
used to start after a sync with the device idle, which a forward could see without a clock
(a non-blocking copy to the host landing at once; here, the stream's own query) and compute
with PyTorch only where it was not profiled (red team s29b)."""

from __future__ import annotations

from collections import Counter

import pytest
import torch

from evaluator import timing

pytestmark = [
    pytest.mark.gpu,
    pytest.mark.skipif(not torch.cuda.is_available(), reason="needs a CUDA GPU"),
]

SPIN = timing.slack_cycles(200.0)  # the default timing.launch_slack_us


class Probe(torch.nn.Module):
    """Notes, as a forward could, whether the device had finished all queued work."""

    def __init__(self) -> None:
        super().__init__()
        self.idle: list[bool] = []

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        self.idle.append(torch.cuda.current_stream().query())
        return x * 2.0


def _batch(n: int = 6) -> list[list[torch.Tensor]]:
    return [[torch.randn(1 << 20, device="cuda")] for _ in range(n)]


def _profiled(model: Probe, spin: int) -> dict:
    flush = torch.empty(64 << 18, dtype=torch.int32, device="cuda")  # 64 MiB
    _, cov = timing.profiled_forwards(
        model, _batch(), flush, set(), Counter, lambda: None, lambda: None, spin=spin
    )
    return cov


def test_a_profiled_forward_starts_with_the_device_busy_as_a_plain_one_does():
    flush = torch.empty(64 << 18, dtype=torch.int32, device="cuda")
    # warm, as the worker's warm-up batches are: the first launch of a kernel loads its module,
    # which waits for the device (CUDA's lazy loading) and would leave it idle once
    timing.timed_forwards(Probe(), _batch(1), "cuda", flush, lambda: None, lambda: None, spin=SPIN)
    _profiled(Probe(), SPIN)
    plain = Probe()
    timing.timed_forwards(plain, _batch(), "cuda", flush, lambda: None, lambda: None, spin=SPIN)
    assert not any(plain.idle), plain.idle

    profiled = Probe()
    cov = _profiled(profiled, SPIN)
    assert not any(profiled.idle), profiled.idle
    # the spin is nobody's kernel time: 200 us of it would be 40x the forward's own
    names = [k["name"] for k in cov["kernels"]]
    assert not any(timing.SPIN_KERNEL in n for n in names), names
    assert 0 < cov["gpu_time_s"] < 100e-6, cov

    unspun = (
        Probe()
    )  # the tell this closes: without the spin, every profiled forward saw an idle device
    cov0 = _profiled(unspun, 0)
    assert all(unspun.idle), unspun.idle
    assert cov0["gpu_time_s"] == pytest.approx(cov["gpu_time_s"], rel=0.5)
