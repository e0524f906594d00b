"""The GPU image's names (evaluator.gpu_names): a name this machine's libraries have and the
image's lack is a compile error here too, and a probe whose answer differs between them is
refused. The mechanism is held here to images made from this machine's own libraries with one
name moved; the recording itself (evaluator/h200_names.json, scripts/record_gpu_image.py) is
held to the versions of evaluator/h200.json."""
from __future__ import annotations

import json
from pathlib import Path

import pytest
from test_static_checks import assert_accepted, assert_rejected, check

from evaluator import gpu_names, static_namespaces

ROOT = Path(__file__).resolve().parents[3]


def _forget() -> None:
    gpu_names.recorded.cache_clear()
    gpu_names.probe_differs.cache_clear()
    static_namespaces.tables.cache_clear()
    static_namespaces.exists.cache_clear()


@pytest.fixture
def image(monkeypatch):
    """An image of this machine's own names, to edit; in force for the test only."""
    import torch.nn.functional as F
    import triton.language as tl

    made = {"versions": {"torch": "2.11.0+cu130", "triton": "3.6.0", "python": "3.12.3"},
            "namespaces": {"torch.nn.functional": sorted(n for n in dir(F) if not n.startswith("__")),
                           "triton.language": sorted(n for n in dir(tl) if not n.startswith("__"))},
            "classes": {"builtins.int": {"dir": sorted(a for a in dir(int) if not a.startswith("__"))}}}
    monkeypatch.setattr(gpu_names, "recorded", lambda: made)
    monkeypatch.setattr(gpu_names.recorded, "cache_clear", lambda: None, raising=False)
    _forget()
    yield made
    monkeypatch.undo()
    _forget()


def _without(image: dict, namespace: str, name: str) -> None:
    image["namespaces"][namespace].remove(name)
    _forget()


def test_a_name_the_images_library_lacks_is_a_compile_error_that_names_the_image(image):
    _without(image, "torch.nn.functional", "gelu")
    body = '''
        class ModelNew(nn.Module):
            def forward(self, x):
                return launch(torch.nn.functional.gelu(x))  # <-
        '''
    assert_rejected(body, "unknown_api", status="compile_error")
    message = " ".join(f.message for f in check(body).findings)
    assert "GPU image" in message and "torch 2.11.0+cu130" in message


def test_a_kernels_name_the_image_lacks_is_refused_and_one_it_has_is_not(image):
    kernel = '''
        @triton.jit
        def k2(x_ptr, n, BLOCK: tl.constexpr):
            offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
            x = tl.load(x_ptr + offs, mask=offs < n)
            tl.store(x_ptr + offs, tl.{}(x, 0.0), mask=offs < n)
        '''
    assert_accepted(kernel.format("maximum"))
    _without(image, "triton.language", "maximum")
    report = check(kernel.format("maximum"))
    assert report.status == "compile_error", report.findings
    assert any("GPU image" in f.message for f in report.findings)


def test_a_feature_probe_whose_answer_differs_on_the_image_is_refused(image):
    body = '''
        class ModelNew(nn.Module):
            def forward(self, x):
                exact = {}(x.numel(), "is_integer"{})  # <-
                return launch(x)
        '''
    for probe, extra in (("hasattr", ""), ("getattr", ", None")):
        assert_accepted(body.format(probe, extra).replace("  # <-", ""))
    image["classes"]["builtins.int"]["dir"].append("is_integer")  # Python 3.12's int has it
    _forget()
    for probe, extra in (("hasattr", ""), ("getattr", ", None")):
        assert_rejected(body.format(probe, extra), "unknown_api", status="compile_error")
    # a name both have is no probe of a difference
    assert_accepted(body.format("hasattr", "").replace("is_integer", "bit_length").replace("  # <-", ""))


def test_an_image_of_this_machines_own_names_changes_nothing(image):
    assert not gpu_names.probe_differs()
    assert not gpu_names.lacks("torch.nn.functional.gelu")
    assert gpu_names.lacks("triton.language.no_such_name")
    assert not gpu_names.lacks("torch.no_such_namespace_recorded.x")


RECORDED = ROOT / "evaluator" / "h200_names.json"


@pytest.mark.skipif(not RECORDED.exists(), reason="no recording of the GPU image's names")
def test_the_recording_is_the_same_images_as_the_device_answers():
    names = json.loads(RECORDED.read_text())
    device = json.loads((ROOT / "evaluator" / "h200.json").read_text())
    assert names["versions"]["torch"] == device["versions"]["torch"]
    assert names["versions"]["triton"] == device["versions"]["triton"]
    assert {"torch", "triton.language", "torch.nn.functional", "math"} <= set(names["namespaces"])
    assert {"torch.Tensor", "triton.language.tensor", "builtins.int"} <= set(names["classes"])
    # what every candidate kernel file names is in the image's libraries
    for name in ("triton.language.load", "triton.language.store", "triton.language.program_id",
                 "triton.language.arange", "torch.empty_like", "torch.nn.functional.relu"):
        assert not gpu_names.lacks(name), name
