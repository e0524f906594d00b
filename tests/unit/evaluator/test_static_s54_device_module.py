"""Honest round s54: `with torch.get_device_module().device(x.device):` (SGLang's diffusion
kernels), the device-agnostic spelling of `torch.cuda.device(...)`, is entered as that manager;
torch.get_device_module stays refused anywhere else (it hands out the accelerator's whole
module), and the CPU child answers it with torch.cuda, as the GPU does (device_answers)."""
from __future__ import annotations

import pytest
import torch
from static_snippets import check_snippet
from test_static_widened_narrow import assert_narrow

ACCEPTED = {
    "device_module_manager": '''
        def run(x):
            with torch.get_device_module().device(x.device):
                return x + 1
    ''',
    "device_module_of_a_device_manager": '''
        def run(x):
            with torch.get_device_module(x.device).device(x.device.index):
                return x + 1
    ''',
}

REJECTED = {
    # the module as a value: every other attribute of torch.cuda under another name
    "device_module_bound_to_a_name": ('''
        def run(x):
            m = torch.get_device_module()  # <-
            return x + 1
    ''', "forbidden_api"),
    "device_module_other_call": ('''
        def run(x):
            torch.get_device_module().synchronize()  # <-
            return x + 1
    ''', "forbidden_api"),
    # entered, never held; only its device manager
    "device_module_manager_held": ('''
        def run(x):
            with torch.get_device_module().device(0) as d:  # <-
                return x + d.idx
    ''', "forbidden_syntax"),
    "device_module_other_manager": ('''
        def run(x):
            with torch.get_device_module().stream(None):  # <-
                return x + 1
    ''', "forbidden_syntax"),
    "device_module_two_arguments": ('''
        def run(x):
            with torch.get_device_module(x.device, 1).device(0):  # <-
                return x + 1
    ''', "forbidden_syntax"),
    # the arguments are judged as any call's
    "device_module_argument_judged": ('''
        def run(x):
            with torch.get_device_module(open("/etc/hostname")).device(0):  # <-
                return x + 1
    ''', "file_access"),
}


@pytest.mark.parametrize("name", list(ACCEPTED))
def test_s54_device_module_manager_is_accepted(name):
    report = check_snippet(ACCEPTED[name])
    assert report.status is None, report.findings


@pytest.mark.parametrize("name", list(REJECTED))
def test_s54_device_module_stays_narrow(name):
    assert_narrow(*REJECTED[name])


def test_cpu_child_answers_the_device_module_as_the_gpu():
    """torch asks torch._C._get_accelerator(), which a CPU build answers with torch.cpu (no
    device manager): the stand-in answers torch.cuda for no device, and torch's answer for a
    named one (a tensor's device, read by the candidate's code, names cuda in the child)."""
    from evaluator.device_answers import _device_module

    real = torch.get_device_module
    assert _device_module(real) is torch.cuda
    assert _device_module(real, "cuda:0") is torch.cuda
    assert _device_module(real, torch.device("cpu")) is torch.cpu  # as on the GPU
    assert _device_module(real, "xpu") is real("xpu")  # any other accelerator: torch's answer


def test_cpu_child_device_manager_resolves_an_index_less_device_as_the_gpu(tmp_path):
    """Red team rt69: torch.cuda.device(d) of a device with no index (None, "cuda",
    torch.device("cuda"); `torch.get_device_module().device(None)`) takes the current device on
    the GPU (torch asks is_available and current_device: 0), where the CPU child's stand-in
    let a CPU build answer None and its __enter__ raised TypeError: a kernel the GPU runs was a
    runtime_error on the CPU. The devices the GPU refuses stay refused (h200.json's probes)."""
    import os
    import subprocess
    import sys
    import textwrap
    from pathlib import Path

    root = Path(__file__).resolve().parents[3]
    (tmp_path / "candidate.py").write_text(textwrap.dedent("""
        import torch

        def enter(d):
            with torch.get_device_module().device(d):
                return torch.cuda.device(d).idx

        def refused(d):
            try:
                enter(d)
            except Exception as exc:  # (a test's candidate: the checks never see it)
                return type(exc).__name__
            return None
    """))
    (tmp_path / "ask.py").write_text(textwrap.dedent(f"""
        import sys
        sys.path.insert(0, {str(tmp_path)!r})
        from evaluator import candidate_env
        candidate_env.interpreted_tensors_look_like_cuda()
        import torch, candidate
        print([candidate.enter(d) for d in (None, "cuda", torch.device("cuda"), 0, -1, "cuda:0")])
        print([candidate.refused(d) for d in ("cpu", 1, "cuda:1")])
    """))
    env = {**os.environ, "PYTHONPATH": str(root), "TRITON_INTERPRET": "1"}
    done = subprocess.run([sys.executable, str(tmp_path / "ask.py")], env=env, capture_output=True, text=True,
                          timeout=300, cwd=tmp_path)
    assert done.returncode == 0, done.stderr[-3000:]
    entered, refused = done.stdout.strip().splitlines()[-2:]
    assert entered == "[0, 0, 0, 0, -1, 0]"
    kind = getattr(torch, "AcceleratorError", RuntimeError).__name__
    assert refused == f"['ValueError', '{kind}', '{kind}']"
