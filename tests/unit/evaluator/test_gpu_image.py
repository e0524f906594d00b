"""A CPU candidate child answers every device query a candidate's code may make as the GPU
image does (evaluator/h200.json, recorded on an H200 by scripts/record_gpu_image.py): type,
module, text and attribute names. A query that answered otherwise was a switch between the
path the CPU check runs and the one the GPU runs (red teams s45, s46: 30 such switches got ok)."""
from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[3]
IMAGE = json.loads((ROOT / "evaluator" / "h200.json").read_text())


def _text(description: dict) -> dict:
    """A description with what differs from one process to the next taken out: addresses,
    the device's UUID (drawn per child, as a fleet's GPUs differ) and the attributes of
    Python's own types (3.11 here, 3.12 on the GPU image: `int.is_integer`)."""
    out = dict(description)
    if out["module"] == "builtins":
        out.pop("dir")
    text = re.sub(r"0x[0-9a-f]+", "0x?", out["repr"])
    out["repr"] = re.sub(r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}", "<uuid>", text)
    return out


@pytest.fixture(scope="module")
def cpu_answers(tmp_path_factory):
    """The answers, asked from a candidate's file (candidate.py) in a process set up as a CPU
    candidate child is."""
    work = tmp_path_factory.mktemp("image")
    probes = list(IMAGE["probes"])
    (work / "candidate.py").write_text("import os, torch, triton\n" + "".join(
        f"def probe_{i}():\n    return {expression}\n" for i, expression in enumerate(probes)))
    (work / "ask.py").write_text(textwrap.dedent(f"""
        import json, sys
        sys.path.insert(0, {str(work)!r})
        from evaluator import candidate_env
        candidate_env.interpreted_tensors_look_like_cuda()
        candidate_env.gpu_environment()
        candidate_env.host_queries_alike()
        import candidate
        sys.path.insert(0, {str(ROOT / "scripts")!r})
        from record_gpu_image import describe
        out = {{}}
        for i, expression in enumerate({probes!r}):
            try:
                out[expression] = {{"value": describe(getattr(candidate, f"probe_{{i}}")())}}
            except Exception as exc:
                out[expression] = {{"raises": type(exc).__name__}}
        print(json.dumps(out))
    """))
    env = {**os.environ, "PYTHONPATH": str(ROOT), "TRITON_INTERPRET": "1"}
    done = subprocess.run([sys.executable, str(work / "ask.py")], env=env, capture_output=True, text=True,
                          timeout=300, cwd=work)
    assert done.returncode == 0, done.stderr[-3000:]
    return json.loads(done.stdout.strip().splitlines()[-1])


@pytest.mark.parametrize("expression", list(IMAGE["probes"]))
def test_a_cpu_child_answers_the_candidate_as_the_gpu_does(expression, cpu_answers):
    gpu, cpu = IMAGE["probes"][expression], cpu_answers[expression]
    if "raises" in gpu or "raises" in cpu:
        assert cpu == gpu
        return
    assert _text(cpu["value"]) == _text(gpu["value"])


def test_every_device_query_the_allowlist_allows_is_recorded():
    """A torch.cuda name the allowlist lets in without an answer in the image is a query no
    test holds to the GPU's (red team s46: `is_current_stream_capturing`, allowed and
    unanswered, raised on the CPU only)."""
    from evaluator.static_namespaces import _CUDA

    asked = " ".join(IMAGE["probes"])
    missing = [name for name in sorted(_CUDA) if f"torch.cuda.{name}" not in asked]
    assert not missing, f"add probes for {missing} to scripts/record_gpu_image.py and record the image again"


def test_a_cpu_childs_float_to_int_casts_are_the_gpus(tmp_path):
    """Out-of-range float -> int conversions of the candidate's tensors give what the H200 gave
    (recorded: CUDA saturates, NaN to 0 at 32 bits), by `.to`, `.int()`, `copy_` and item
    assignment, where x86's INT_MIN was a flag the CPU check computed otherwise (red team s46)."""
    sys.path.insert(0, str(ROOT / "scripts"))
    from record_gpu_image import CAST_SOURCE

    (tmp_path / "candidate.py").write_text(textwrap.dedent(f"""
        import torch
        nan, inf = float("nan"), float("inf")
        def casts():
            src = torch.tensor({CAST_SOURCE!r}, device="cuda")
            out = {{}}
            for dt in ("int64", "int32", "int16", "int8", "uint8", "bool"):
                out["float32 to " + dt] = src.to(getattr(torch, dt)).cpu().tolist()
                out["float16 to " + dt] = src.half().to(getattr(torch, dt)).cpu().tolist()
            into = torch.zeros(len(src), dtype=torch.int32)
            into.copy_(src)
            assigned = torch.zeros(len(src), dtype=torch.int32)
            assigned[:] = src
            return out, into.tolist(), assigned.tolist(), src.int().tolist()
    """))
    code = textwrap.dedent(f"""
        import json, sys
        sys.path.insert(0, {str(tmp_path)!r})
        from evaluator import candidate_env
        candidate_env.interpreted_tensors_look_like_cuda()
        import candidate
        print(json.dumps(candidate.casts()))
    """)
    env = {**os.environ, "PYTHONPATH": str(ROOT), "TRITON_INTERPRET": "1"}
    done = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr[-2000:]
    casts, into, assigned, as_int = json.loads(done.stdout.strip().splitlines()[-1])
    for key, recorded in IMAGE["casts"].items():
        assert casts[key] == recorded, key
    assert into == assigned == as_int == IMAGE["casts"]["float32 to int32"]
