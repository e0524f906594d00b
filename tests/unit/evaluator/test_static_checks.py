"""AST checks: honest kernel files pass, each trick is named, computed access is caught."""
from __future__ import annotations

import textwrap

import pytest
from conftest import FIXTURES

from common.config.evaluator import StaticConfig
from evaluator.static_checks import check_source, decode_source

CFG = StaticConfig()

KERNEL = '''
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def k(x_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    tl.store(out_ptr + offs, tl.load(x_ptr + offs, mask=offs < n), mask=offs < n)
'''


def check(body: str):
    return check_source(KERNEL + textwrap.dedent(body), CFG)


@pytest.mark.parametrize("name", ["relu", "softmax", "tiny_output", "linear_relu"])
def test_reference_solutions_pass(name):
    report = check_source((FIXTURES / f"{name}_solution.py").read_text(), CFG)
    assert report.status is None, report.findings
    assert report.kernels


def test_idioms_of_honest_kernels_pass():
    report = check('''
        import math
        import torch.nn.functional as F
        from functools import lru_cache


        @triton.autotune(configs=[triton.Config({"BLOCK": 128})], key=["n"])
        @triton.jit
        def tuned(x_ptr, n, BLOCK: tl.constexpr):
            pass


        def launch(x, out):
            grid = lambda meta: (triton.cdiv(x.numel(), meta["BLOCK"]),)
            k[grid](x, out, x.numel(), BLOCK=1024)
            return out


        class Block(nn.Module):
            def forward(self, x):
                return launch(x, torch.empty_like(x))


        class ModelNew(nn.Module):
            def __init__(self):
                super().__init__()
                self._cache = {}
                self.block = Block()
                self.weight = nn.Parameter(torch.randn(4))
                setattr(self, "extra", 1)

            def forward(self, x):
                x = x.contiguous().view(-1, x.shape[-1])
                getattr(x, "shape")
                return self.block(x) * math.sqrt(1.0)
    ''')
    assert report.status is None, report.findings
    assert set(report.kernels) == {"k", "tuned"}


@pytest.mark.parametrize("body, code", [
    ("import os\nclass ModelNew(nn.Module):\n    def forward(self, x):\n        k[(1,)](x, x, 0, BLOCK=16)\n", "forbidden_import"),
    ("from concurrent.futures import ThreadPoolExecutor\n", "concurrency"),
    ("x = getattr(torch, 'sa' + 've')\n", "reflection"),
    ("x = getattr(torch, 'save')\n", "file_access"),
    ("x = torch.nn.functional.__dict__\n", "reflection"),
    ("x = vars(torch)\n", "reflection"),
    ("x = globals()\n", "reflection"),
    ("x = eval('1')\n", "dynamic_code"),
    ("torch.matmul = None\n", "monkey_patch"),
    ("del torch.matmul\n", "monkey_patch"),
    ("import torch.nn.functional as F\nF.relu = lambda x: x\n", "monkey_patch"),
    ("setattr(tl, 'load', None)\n", "monkey_patch"),
    ("t = type('T', (object,), {})\n", "reflection"),
    ("class T(torch.Tensor):\n    pass\n", "monkey_patch"),
    ("class T:\n    def __del__(self):\n        pass\n", "monkey_patch"),
    ("x = torch._C\n", "reflection"),
    ("from torch import _C\n", "reflection"),
    ("from torch.utils.cpp_extension import load_inline\n", "file_access"),
    ("import numpy as np\nnp.load('x')\n", "file_access"),
    ("s = torch.cuda.Stream()\n", "side_stream"),
    ("torch.set_num_threads(1)\n", "harness_tamper"),
    ("import triton.knobs\n", "harness_tamper"),
    ("f = (lambda: 0).__code__\n", "reflection"),
])
def test_tricks_are_hacks_with_their_code(body, code):
    report = check(body)
    assert report.status == "hack", report.findings
    assert code in report.hacks


def test_forward_closure_follows_helpers_for_torch_compute():
    report = check('''
        import torch.nn.functional as F

        def helper(x):
            return F.softmax(x, dim=-1)

        class ModelNew(nn.Module):
            def forward(self, x):
                k[(1,)](x, x, 0, BLOCK=16)
                return helper(x) @ x
    ''')
    assert report.hacks == ["torch_compute"]
    assert len([f for f in report.findings if f.code == "torch_compute"]) == 2


def test_torch_compute_is_configurable():
    body = KERNEL + textwrap.dedent('''
        class ModelNew(nn.Module):
            def forward(self, x):
                k[(1,)](x, x, 0, BLOCK=16)
                return torch.matmul(x, x)
    ''')
    assert check_source(body, CFG).hacks == ["torch_compute"]
    assert check_source(body, StaticConfig(forbidden_compute=[])).status is None


def test_structure_errors_are_format_errors():
    assert check("x = 1\n").status == "format_error"
    assert check("class ModelNew(nn.Module):\n    pass\n").findings[0].code == "no_forward"


def test_unknown_modules_are_compile_errors_with_the_allowlist():
    report = check("import scipy\nclass ModelNew(nn.Module):\n    def forward(self, x):\n"
                   "        k[(1,)](x, x, 0, BLOCK=16)\n")
    assert report.status == "compile_error"
    assert "scipy" in report.findings[0].message and "triton" in report.findings[0].message


def test_syntax_error_is_a_compile_error_with_its_line():
    report = check_source("def f(:\n  pass\n", CFG)
    assert report.status == "compile_error" and report.findings[0].line == 1


@pytest.mark.parametrize("raw, code", [
    (b"", "empty_source"), ("   \n\n", "empty_source"), (b"\xff\xfe\x00bad", "not_utf8"),
    ("x = 1\n" * 60000, "source_too_large"),
])
def test_decode_rejects_unusable_files(raw, code):
    text, finding = decode_source(raw, CFG)
    assert text is None and finding.code == code and finding.status == "format_error"
