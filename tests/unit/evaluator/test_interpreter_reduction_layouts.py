"""The CPU check's float sums and scans over 2D tiles give the H200's exact bits.

tests/unit/evaluator/fixtures/h200_reduction_layouts.json holds what an H200 (Triton 3.6)
answered for scripts/probe_reduction_layouts.py's tiles (random normal data, fp16 / bf16 / fp32,
sums and cumsums along each axis, 1 / 4 / 8 warps): a digest of each case's float32 bits. The
interpreter, launched as the CPU check launches (through device_compile.check, which reads each
reduction's layout off the compiled TTGIR), must give the same bits in every case: a kernel that
gates on one exact rounding of a sum or scan then takes the same arm on both machines, and an
honest kernel's rounding is the GPU's own."""
from __future__ import annotations

import hashlib
import json
import os
import struct
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]
FIXTURE = Path(__file__).parent / "fixtures" / "h200_reduction_layouts.json"


def _digest(values: list[float]) -> str:
    return hashlib.sha256(struct.pack(f"<{len(values)}f", *values)).hexdigest()[:32]


def _key(case: dict) -> tuple:
    return case["dtype"], tuple(case["shape"]), case["axis"], case["scan"], case["warps"]


def test_tile_sums_and_scans_have_the_h200s_bits():
    env = {**os.environ, "PYTHONPATH": str(ROOT), "TRITON_INTERPRET": "1", "QUICK": "1"}
    done = subprocess.run([sys.executable, str(ROOT / "scripts" / "probe_reduction_layouts.py")],
                          capture_output=True, text=True, env=env, timeout=600, cwd=ROOT)
    assert done.returncode == 0, done.stderr[-3000:]
    got = {_key(c): c for c in json.loads(done.stdout.strip().splitlines()[-1])["tiles"]}
    recorded = json.loads(FIXTURE.read_text())["tiles"]
    assert len(recorded) == 60 and set(got) == {_key(c) for c in recorded}
    differ = [(_key(c), got[_key(c)]["values"][:4], c["head"]) for c in recorded
              if _digest(got[_key(c)]["values"]) != c["sha256_f32"]]
    assert not differ, f"{len(differ)} of {len(recorded)} cases differ from the H200 (case, ours, H200's): {differ[:5]}"
