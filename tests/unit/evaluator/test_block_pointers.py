"""Block pointers on the CPU (evaluator.block_pointers): a kernel's tl.make_block_ptr /
tl.advance / block loads and stores written out as Triton 3.6's RewriteTensorPointer lowers
them, on the candidate's own lines; the forms it does not cover are a compile_error that says
so; the lowered kernel computes, under the interpreter, what the GPU's block pointers do."""
from __future__ import annotations

import ast
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from common.config.evaluator import StaticConfig
from evaluator.block_pointers import lower
from evaluator.static_checks import check_source

ROOT = Path(__file__).resolve().parents[3]
HEAD = "import torch\nimport triton\nimport triton.language as tl\n\n\n@triton.jit\n"

KERNEL = HEAD + textwrap.dedent('''\
    def k(x_ptr, y_ptr, M, N, s, BM: tl.constexpr, BN: tl.constexpr):
        pid = tl.program_id(0)
        xb = tl.make_block_ptr(base=x_ptr, shape=(M, N),
                               strides=(s, 1), offsets=(pid * BM - 1, -2),
                               block_shape=(BM, BN), order=(1, 0))
        yb = tl.make_block_ptr(y_ptr, (M, N), (s, 1), (pid * BM - 1, -2), (BM, BN), (1, 0))
        for _ in range(0, 2):
            x = tl.load(xb, boundary_check=(1, 0),
                        padding_option="nan")
            tl.store(pointer=yb, value=(x + 1.0).to(yb.dtype.element_ty), boundary_check=(0, 1))
            xb = tl.advance(xb, (0, BN))
            yb = yb.advance((0, BN))
''')


def _statement_lines(source: str) -> list[tuple[str, int, int]]:
    return [(type(n).__name__, n.lineno, n.end_lineno) for n in ast.walk(ast.parse(source))
            if isinstance(n, ast.stmt)]


def test_lowering_keeps_every_statement_on_its_lines():
    out, problems = lower(KERNEL)
    assert problems == []
    assert "make_block_ptr" not in out and "advance" not in out and "boundary_check" not in out
    assert _statement_lines(out) == _statement_lines(KERNEL)
    assert "other=float(\"nan\")" in out and "xb_bp_off1 + tl.cast(tl.cast(BN, tl.int32), tl.int64)" in out


def test_a_file_without_block_pointers_is_left_alone():
    source = HEAD + "def k(x):\n    tl.store(x, tl.load(x))\n"
    assert lower(source) == (source, [])


MODEL = '''

class ModelNew(torch.nn.Module):
    def forward(self, x):
        y = torch.empty_like(x)
        k[(2,)](x, y, x.shape[0], x.shape[1], x.stride(0), BM=4, BN=4)
        return y
'''


def test_the_lowered_file_passes_the_static_checks():
    report = check_source(KERNEL + MODEL, StaticConfig(), lower_block_pointers=True)
    assert report.status is None, report.findings
    assert "make_block_ptr" not in report.source


def test_a_name_of_the_file_is_never_taken():
    source = KERNEL.replace("pid = tl.program_id(0)", "pid = tl.program_id(0)\n    xb_bp_off0 = 3")
    out, problems = lower(source)
    assert problems == [] and "xb1_bp_off0" in out and "xb_bp_off0 = 3" in out


UNSUPPORTED = {
    "passed to a function": ("helper(xb)", "used other than"),
    "returned": ("return xb", "used other than"),
    "put in a tuple": ("t = (xb, xb)", "used other than"),
    "advanced inline": ("x = tl.load(tl.advance(xb, (0, 1)))", "whole right side"),
    "a mask": ("x = tl.load(xb, mask=None, other=0.0)", "`other` arguments cannot"),
    "a boundary_check by name": ("x = tl.load(xb, boundary_check=DIMS)", "literal tuple of integers"),
    "a padding by name": ("x = tl.load(xb, boundary_check=(0,), padding_option=PAD)", "padding_option"),
    "a dimension it lacks": ("x = tl.load(xb, boundary_check=(2,))", "does not have"),
    # red team rt53: 3.6's element type is a block type, the rewrite's the base's: a compare
    # on it branched to relu on the CPU and to the identity on the GPU
    "its dtype compared": ("c = xb.dtype.element_ty == tl.float32", "used other than"),
    "its type asked": ("c = xb.type.element_ty.is_block()", "used other than"),
}


@pytest.mark.parametrize("name", list(UNSUPPORTED))
def test_a_form_not_covered_is_a_compile_error_on_its_line(name):
    line, says = UNSUPPORTED[name]
    source = HEAD + textwrap.dedent(f'''\
        def k(x_ptr, M, N, BM: tl.constexpr, BN: tl.constexpr):
            xb = tl.make_block_ptr(x_ptr, (M, N), (N, 1), (0, 0), (BM, BN), (1, 0))
            {line}
        ''')
    report = check_source(source, StaticConfig(), lower_block_pointers=True)
    assert report.status == "compile_error"
    assert [(f.code, f.line) for f in report.findings] == [("block_pointer", 9)]
    assert says in report.findings[0].message


def test_a_cast_to_its_element_type_reads_the_base():
    source = HEAD + "def k(x_ptr, BM: tl.constexpr):\n" \
        "    xb = tl.make_block_ptr(x_ptr, (BM,), (1,), (0,), (BM,), (0,))\n" \
        "    tl.store(xb, tl.cast(tl.load(xb).to(xb.dtype.element_ty), xb.type.element_ty))\n"
    out, problems = lower(source)
    assert problems == [] and ".to(xb_bp_base.dtype.element_ty), xb_bp_base.type.element_ty)" in out


@pytest.mark.parametrize("shape", ["(BLOCK // (2 - i),)", "(W,)", "(BLOCK,)"])
def test_a_block_shape_names_nothing_the_kernel_binds(shape):
    """Red team rt53: the block shape's text is written out again at each load and store; made
    at static_range index 0 and loaded at 1 it read a whole row on the CPU, half on the GPU."""
    source = HEAD + textwrap.dedent(f'''\
        def k(x_ptr, N, BLOCK: tl.constexpr):
            W = BLOCK // 2
            for i in tl.static_range(2):
                if i == 0:
                    xb = tl.make_block_ptr(x_ptr, (N,), (1,), (0,), {shape}, (0,))
                else:
                    tl.store(xb, tl.load(xb, boundary_check=(0,)), boundary_check=(0,))
        ''')
    out, problems = lower(source)
    if shape == "(BLOCK,)":
        assert problems == [] and "tl.arange(0, BLOCK)" in out
    else:
        assert [line for line, _ in problems] == [11] and "is assigned in this kernel" in problems[0][1]


def test_the_shape_must_be_written_out():
    source = HEAD + "def k(x_ptr, S, BM: tl.constexpr):\n" \
        "    xb = tl.make_block_ptr(x_ptr, S, (1,), (0,), (BM,), (0,))\n    tl.load(xb)\n"
    out, problems = lower(source)
    assert out == source and problems and "literal tuple" in problems[0][1]


def test_without_lowering_tl_advance_is_still_the_removed_api():
    report = check_source(KERNEL, StaticConfig(), lower_block_pointers=False)
    assert report.status == "compile_error" and "block pointers were removed" in report.findings[0].message


RUN = '''
import importlib.util, math, sys
import torch
spec = importlib.util.spec_from_file_location("lowered", sys.argv[1])
mod = importlib.util.module_from_spec(spec); spec.loader.exec_module(mod)
M, N, BM, BN = 5, 7, 4, 4
x = torch.arange(M * N, dtype=torch.float32).reshape(M, N)
y = torch.full((M, N), -7.0)
mod.k[(2,)](x, y, M, N, N, BM=BM, BN=BN)
# program p covers rows p*4-1 .. p*4+2 and columns -2..5 (two tiles of 4): every in-range
# element is stored x + 1, nothing else is touched (the NaN padding lands only out of range)
want = torch.full((M, N), -7.0)
for r in range(-1, 7):
    for c in range(-2, 6):
        if 0 <= r < M and 0 <= c < N:
            want[r, c] = x[r, c] + 1
assert torch.equal(y, want), (y, want)
print("same")
'''


def test_the_lowered_kernel_computes_what_block_pointers_do(tmp_path):
    out, _ = lower(KERNEL)
    (tmp_path / "lowered.py").write_text(out)
    (tmp_path / "run.py").write_text(RUN)
    env = {**os.environ, "TRITON_INTERPRET": "1", "PYTHONPATH": str(ROOT)}
    proc = subprocess.run([sys.executable, str(tmp_path / "run.py"), str(tmp_path / "lowered.py")],
                          env=env, capture_output=True, text=True, timeout=300, check=False)
    assert proc.stdout.strip() == "same", proc.stderr[-3000:]
