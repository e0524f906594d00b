"""The candidate child's process setup (evaluator.candidate_env) seen from a real process."""
from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]


def test_wrap_triton_launches_stay_plain_launches_in_a_candidate_child(tmp_path):
    """On a GPU, `torch.library.wrap_triton(kernel)[grid](...)` went through a higher-order op
    that has no rule for the harness's dispatch modes: every checked forward of a file using it
    raised NotImplementedError (H200, session 26). In a child set up for a candidate the wrapper
    is the kernel itself, in every thread; before the setup it is PyTorch's wrapper."""
    code = textwrap.dedent("""
        import threading
        import torch, triton, triton.language as tl
        from torch.library import wrap_triton
        from evaluator.candidate_env import launches_stay_eager

        @triton.jit
        def k(x_ptr):
            tl.store(x_ptr, 1.0)

        before = wrap_triton(k)
        assert before is not k, type(before)
        launches_stay_eager()
        assert wrap_triton(k) is k
        seen = []
        t = threading.Thread(target=lambda: seen.append(wrap_triton(k) is k))
        t.start(); t.join()
        assert seen == [True]
        print("eager")
    """)
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    env.pop("TRITON_INTERPRET", None)  # the interpreter returns the kernel itself anyway
    script = tmp_path / "child.py"  # @triton.jit reads its source from a file
    script.write_text(code)
    done = subprocess.run([sys.executable, str(script)], env=env, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0 and done.stdout.strip() == "eager", done.stderr[-2000:]
