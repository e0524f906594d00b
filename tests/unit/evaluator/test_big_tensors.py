"""Harness work on GiB-sized tensors (real KernelBench inputs and outputs) holds no
whole-size temporaries: on the H100 a 16 GiB input's checksum asked for 32 GiB at once
(an int64 copy of its words), and comparing it with its pristine copy for a bool per byte.
Each is done a slice at a time and gives what the whole-tensor computation gives."""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import torch

from evaluator import runner, timing

ROOT = Path(__file__).resolve().parents[3]


def test_chunk_sums_a_slice_at_a_time_equal_the_whole_computation(monkeypatch):
    torch.manual_seed(0)
    t = torch.randn(3 * 4096 * 17 + 5)  # many chunks and a tail
    whole = timing.chunk_sums(t)
    monkeypatch.setattr(timing, "_WIDENED_WORDS", 1000)  # a few chunk rows per pass
    assert torch.equal(timing.chunk_sums(t), whole)
    w = t.view(torch.int32).to(torch.int64)
    assert timing.checksum([t]) == [int(w.sum()) & (2 ** 63 - 1), int(w[1::2].sum()) & (2 ** 63 - 1)]


def test_bitwise_equal_is_by_bytes_a_slice_at_a_time(monkeypatch):
    monkeypatch.setattr(runner, "_EQUAL_SLICE", 7)
    x = torch.tensor([1.0, float("nan"), 3.0, 4.0, 5.0])
    assert runner.bitwise_equal(x, x.clone())                      # NaN-safe
    y = x.clone()
    y[4] = 5.000001
    assert not runner.bitwise_equal(x, y)                          # in the last slice
    assert not runner.bitwise_equal(torch.tensor([0.0]), torch.tensor([-0.0]))
    assert not runner.bitwise_equal(x, x.double()) and not runner.bitwise_equal(x, x[:4])
    assert runner.unchanged([x, 3], [x.clone(), 3]) and not runner.unchanged([y], [x])


def test_a_checksum_holds_no_whole_size_temporary_over_a_big_tensor():
    """(torch.equal allocates nothing on the CPU, only on CUDA: `bitwise_equal`'s slices are
    checked above for their result, and on the GPU for their memory.)"""
    call = "timing.checksum([x])"
    probe = f"""
import resource, torch
from evaluator import runner, timing
x = torch.randn(1 << 27)                                         # 512 MiB
before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
{call}
print((resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - before) * 1024)
"""
    grew = int(subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True,
                              cwd=ROOT).stdout)
    assert grew < 256 << 20, f"{call} grew the peak by {grew >> 20} MiB over a 512 MiB tensor"
