"""A CPU sandbox's memory is aligned as a GPU's (evaluator.host_alignment): every fresh tensor
on 512 bytes, 2 MiB from 1 MiB up, where PyTorch's CPU allocator gives 64 (red team s46:
`data_ptr() % 512` told the CPU check from the H200)."""
from __future__ import annotations

import os
import subprocess
import sys

from evaluator import host_alignment

_SIZES = "(1, 3, 17, 100, 1000, 70000, 1 << 18, 1 << 20)"


def _pointers(env: dict) -> list[int]:
    code = f"import torch; print([torch.empty(n).data_ptr() for n in {_SIZES}])"
    done = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr[-2000:]
    return eval(done.stdout.strip())  # a list of ints printed by the child


def test_a_preloaded_process_allocates_as_cudas_caching_allocator_aligns():
    library = host_alignment.library()
    assert library is not None, "a C compiler builds the alignment library (make sandbox-tools installs one)"
    aligned = _pointers({**os.environ, "LD_PRELOAD": library})
    sizes = eval(_SIZES)
    assert all(p % 512 == 0 for p in aligned), [hex(p) for p in aligned]
    assert all(p % (2 << 20) == 0 for p, n in zip(aligned, sizes) if 4 * n >= 1 << 20)
    plain = _pointers({k: v for k, v in os.environ.items() if k != "LD_PRELOAD"})
    assert any(p % 512 for p in plain), "without it PyTorch's CPU allocator aligns to 64 only"
