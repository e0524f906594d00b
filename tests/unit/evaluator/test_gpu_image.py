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
import torch

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
        from evaluator.child import _torch_device_without_a_driver
        _torch_device_without_a_driver()  # Triton's stand-in driver, as a CPU child has it
        import candidate
        sys.path.insert(0, {str(ROOT / "scripts")!r})
        from record_gpu_image import describe
        out = {{}}
        for i, expression in enumerate({probes!r}):
            try:
                out[expression] = {{"value": describe(getattr(candidate, f"probe_{{i}}")())}}
            except Exception as exc:
                out[expression] = {{"raises": type(exc).__name__, "message": str(exc)[:400]}}
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
    if "raises" in gpu or "raises" in cpu:  # the exception, and its message where recorded
        assert cpu.get("raises") == gpu.get("raises") and cpu.get("message") == gpu.get("message", cpu.get("message"))
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


def _recorded_in_a_candidate(tmp_path, *functions):
    """What the recording's own functions (scripts/record_gpu_image.py) answer when their source
    runs as a candidate's file in a CPU candidate child."""
    import inspect

    sys.path.insert(0, str(ROOT / "scripts"))
    import record_gpu_image as record

    source = ["import torch", "nan, inf = float('nan'), float('inf')"]
    for name in ("CAST_SOURCE", "CAST_DTYPES", "AUTOCAST_CASES"):
        source.append(f"{name} = {getattr(record, name)!r}")
    source += [inspect.getsource(getattr(record, f)) for f in functions]
    (tmp_path / "candidate.py").write_text("\n".join(source))
    code = textwrap.dedent(f"""
        import json, sys, warnings
        warnings.simplefilter("ignore")
        sys.path.insert(0, {str(tmp_path)!r})
        from evaluator import candidate_env
        candidate_env.interpreted_tensors_look_like_cuda()
        import candidate
        print(json.dumps([getattr(candidate, f)("cuda") for f in {list(functions)!r}]))
    """)
    env = {**os.environ, "PYTHONPATH": str(ROOT), "TRITON_INTERPRET": "1"}
    done = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr[-3000:]
    return json.loads(done.stdout.strip().splitlines()[-1])


def test_a_cpu_childs_float_to_int_casts_are_the_gpus(tmp_path):
    """Out-of-range float -> int conversions of the candidate's tensors give what the H200 gave
    (recorded: CUDA saturates, NaN to 0 at 32 bits), by every path the recording takes
    (`.to`, `.int()`, torch.tensor, as_tensor, new_tensor, copy_, item assignment, a dtype=
    reduction), and x86's where CUDA's copy_ converts on the host (a blocking copy into a host
    tensor), where x86's INT_MIN was a flag the CPU check computed otherwise (red teams s46)."""
    (casts,) = _recorded_in_a_candidate(tmp_path, "casts")
    for key, recorded in IMAGE["casts"].items():
        assert casts[key] == recorded, key
    saturated = IMAGE["casts"]["float32 to int32"]
    for key in ("by copy_ on the device", "by item assignment", "by torch.tensor", "by as_tensor", "by new_tensor",
                "by int()"):
        assert casts[f"float32 to int32 {key}"] == saturated, key
    assert casts["float32 to int32 by copy_ into the host"] == casts["host float32 to int32"] != saturated
    assert casts["float32 to int32 by copy_ into the host, non_blocking"] == saturated


def test_a_cpu_childs_cuda_autocast_is_the_gpus(tmp_path):
    """Under torch.autocast("cuda", dtype) each op's dtype and every query of the autocast state
    answer as recorded on the H200 (red team s46 rt23: CPU autocast under a CUDA name answered
    get_autocast_gpu_dtype, is_autocast_enabled("cpu") and CPU's op lists); where the recording
    predates the cases, as the installed torch's CUDA policy says (test_candidate_env)."""
    (answers,) = _recorded_in_a_candidate(tmp_path, "autocast_answers")
    recorded = IMAGE.get("autocast", {})
    for key, value in recorded.items():
        if key != "registrations":
            assert answers[key] == value, key
    assert answers["bfloat16: torch.get_autocast_gpu_dtype()"] == "torch.bfloat16"
    assert answers["bfloat16: torch.is_autocast_enabled('cpu')"] == "False"
    assert answers["float16: torch.softmax(a, -1).dtype"] == "torch.float32"
    assert answers["float16: (host @ host).dtype"] == "torch.float32"  # a host tensor is CUDA autocast's to leave


def test_the_autocast_policy_covers_every_op_the_gpu_autocasts():
    """Every op the GPU image registers a CUDA autocast kernel for has a policy in the CPU
    child's table (an op missing from it would run uncast on the CPU and cast on the GPU)."""
    from evaluator.candidate_autocast import POLICY

    def here(qualified: str) -> bool:  # named-tensor overloads are gone from this torch
        name, _, overload = qualified.partition(".")
        return hasattr(getattr(torch.ops.aten, name, None), overload or "default")

    registered = [r.removeprefix("aten::") for r in IMAGE.get("autocast", {}).get("registrations", [])]
    missing = [r for r in registered if r not in POLICY and here(r)]
    assert not missing, missing
    # and an op this torch's table casts but the image's torch does not is left uncast
    from evaluator.candidate_autocast import policy

    assert all(policy(name) == "none" for name in POLICY if name not in registered)
