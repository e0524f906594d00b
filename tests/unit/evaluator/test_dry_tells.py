"""The dry launch model's forward asked what the GPU's forward is asked (evaluator.dry_tells):
red team s61d launched the full grid where `x.is_meta` or `x.data_ptr() == 0` said the forward
was the model's (meta tensors at the declared sizes) and a capped grid on the GPU
(hacks/s61d_dry_*_tell_*, ok before). Seen from a real candidate child setup."""
from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]

_CANDIDATE = textwrap.dedent("""
    import torch

    def asked(x):
        y = torch.empty_like(x)
        z = torch.empty(8, device="cuda")
        return (x.is_meta, y.is_meta, z.is_meta, x.data_ptr() != 0, x.data_ptr() % 512,
                x[3:].data_ptr() - x.data_ptr(), y.data_ptr() != x.data_ptr(), x.device.type)

    def names_meta(how):
        if how == 0:
            return torch.empty(1, device="meta")
        if how == 1:
            return torch.ones(2).to("meta")
        return torch.zeros(2, device=torch.device("meta"))
""")


def _child(tmp_path, body: str) -> list[str]:
    (tmp_path / "candidate.py").write_text(_CANDIDATE)
    code = textwrap.dedent(f"""
        import sys
        sys.path.insert(0, {str(tmp_path)!r})
        import torch
        from evaluator import candidate_env, dry_tells
        candidate_env.interpreted_tensors_look_like_cuda()
        import candidate
    """) + textwrap.dedent(body)
    env = {**os.environ, "PYTHONPATH": str(ROOT), "TRITON_INTERPRET": "1"}
    done = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr[-3000:]
    return done.stdout.split("\n")


def test_the_candidate_s_code_asks_a_meta_tensor_in_the_model_and_gets_the_gpu_s_answers(tmp_path):
    out = _child(tmp_path, """
        candidate_env.STANDING_DEVICE[0] = "meta"
        dry_tells.reset()
        x = torch.empty(64, device="meta")
        print(candidate.asked(x))
        print(x.is_meta, x.data_ptr())  # the harness's own reads see the meta tensor
        candidate_env.STANDING_DEVICE[0] = "cpu"
        print(candidate.asked(torch.ones(64))[:3])
    """)
    assert out[0] == "(False, False, False, True, 0, 12, True, 'cuda')", out
    assert out[1] == "True 0" and out[2] == "(False, False, False)", out


def test_no_candidate_makes_a_meta_tensor_of_its_own_in_a_cpu_child(tmp_path):
    out = _child(tmp_path, """
        for how in range(3):
            try:
                candidate.names_meta(how)
                print("made")
            except RuntimeError as exc:
                print("meta device is not available" in str(exc))
        print(torch.empty(1, device="meta").is_meta)  # the harness's own: as torch makes it
    """)
    assert out[:4] == ["True", "True", "True", "True"], out
