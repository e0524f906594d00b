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
    kept = KERNEL.count("\n")  # Triton 3.6's compile-time checks are appended after the last line
    assert [s for s in _statement_lines(out) if s[1] <= kept] == _statement_lines(KERNEL)
    assert "other=float(\"nan\")" in out and "xb_bp_off1 + tl.cast(tl.cast(_krl_bp_check_index((BN), False), tl.int32), tl.int64)" in out


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
        assert [line for line, _ in problems] == [11] and "which this kernel assigns" in problems[0][1]


def test_the_shape_must_be_written_out():
    source = HEAD + "def k(x_ptr, S, BM: tl.constexpr):\n" \
        "    xb = tl.make_block_ptr(x_ptr, S, (1,), (0,), (BM,), (0,))\n    tl.load(xb)\n"
    out, problems = lower(source)
    assert out == source and problems and "literal tuple" in problems[0][1]


@pytest.mark.parametrize("rebind", ["BM = BM * 2", "for BM in range(2):\n        pass", "BM += 1"])
def test_a_block_shape_naming_a_variable_the_kernel_assigns_is_refused(rebind):
    # each load writes the block shape's text again: rebound after the make, the CPU's load
    # would read another block than the GPU's (whose block pointer keeps the shape it was made with)
    source = HEAD + "def k(x_ptr, y_ptr, N, BM: tl.constexpr):\n" \
        "    xb = tl.make_block_ptr(x_ptr, (N,), (1,), (0,), (BM,), (0,))\n" \
        f"    {rebind}\n    tl.store(y_ptr + tl.arange(0, 4), tl.sum(tl.load(xb, boundary_check=(0,))))\n"
    out, problems = lower(source)
    assert out == source and [line for line, _ in problems] == [8]  # the make's line
    assert "which this kernel assigns" in problems[0][1]


def test_a_name_only_the_decorators_bind_is_not_the_kernels():
    """fla's layer_norm_fwd_kernel (honest round s52): the autotune configs' comprehension binds
    `BT` in the module's scope; the kernel's block shape names its own `BT: tl.constexpr`. A
    rebind in the kernel's body is still refused (above)."""
    source = ("import torch\nimport triton\nimport triton.language as tl\n\n\n"
              "@triton.autotune(configs=[triton.Config({'BT': BT}) for BT in [32, 64]], key=['N'])\n"
              "@triton.jit\n") + textwrap.dedent('''\
        def k(x_ptr, y_ptr, N, BT: tl.constexpr):
            xb = tl.make_block_ptr(x_ptr, (N,), (1,), (tl.program_id(0) * BT,), (BT,), (0,))
            yb = tl.make_block_ptr(y_ptr, (N,), (1,), (tl.program_id(0) * BT,), (BT,), (0,))
            tl.store(yb, tl.load(xb, boundary_check=(0,)), boundary_check=(0,))
    ''')
    out, problems = lower(source)
    assert problems == [] and "tl.arange(0, BT)" in out


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


HELPERS = HEAD + textwrap.dedent('''\
    def put(dst, x):
        tl.store(dst, x, boundary_check=(0, 1))


    @triton.jit
    def step(src, dst, n, BN: tl.constexpr):
        for _ in range(0, n):
            x = tl.load(src, boundary_check=(0, 1), padding_option="zero")
            put(dst, x + 1.0)
            src = tl.advance(src, (0, BN))
            dst = tl.advance(dst, (0, BN))


    @triton.jit
    def k(x_ptr, y_ptr, M, N, s, BM: tl.constexpr, BN: tl.constexpr):
        pid = tl.program_id(0)
        xb = tl.make_block_ptr(x_ptr, (M, N), (s, 1), (pid * BM, 0), (BM, BN), (1, 0))
        yb = tl.make_block_ptr(y_ptr, (M, N), (s, 1), (pid * BM, 0), (BM, BN), (1, 0))
        step(xb, yb, 1, BN)
        yb = tl.advance(yb, (0, BN))
        step(src=xb, dst=yb, n=1,
             BN=BN)
''')


def test_a_block_pointer_passed_to_a_helper_becomes_its_variables():
    out, problems = lower(HELPERS)
    assert problems == []
    assert "make_block_ptr" not in out and "advance" not in out and "boundary_check" not in out
    kept = HELPERS.count("\n")  # 3.6's compile-time checks come after the last line
    assert [s for s in _statement_lines(out) if s[1] <= kept] == _statement_lines(HELPERS)
    assert "def put(dst_bp_base, " in out and "dst_bp_block1: tl.constexpr, x)" in out
    assert "step(xb_bp_base, xb_bp_shape0, " in out and ", xb_bp_off1, BM, BN, yb_bp_base" in out
    assert "step(src_bp_base=xb_bp_base, " in out and "src_bp_block1=BN, dst1_bp_base=yb_bp_base" in out


RUN_HELPERS = RUN.split("# program p")[0] + '''
# each call of step stores one tile from the caller's own copies (the helper's advances do not
# move them): tile 0 of x + 1 into y's tile 0, then (yb advanced by the caller) into y's tile 1
want = torch.full((M, N), -7.0)
want[:, :BN] = x[:, :BN] + 1
want[:, BN:] = x[:, :N - BN] + 1
assert torch.equal(y, want), (y, want)
print("same")
'''


def test_the_lowered_helper_stores_what_block_pointers_do(tmp_path):
    out, _ = lower(HELPERS)
    (tmp_path / "lowered.py").write_text(out)
    (tmp_path / "run.py").write_text(RUN_HELPERS)
    env = {**os.environ, "TRITON_INTERPRET": "1", "PYTHONPATH": str(ROOT)}
    proc = subprocess.run([sys.executable, str(tmp_path / "run.py"), str(tmp_path / "lowered.py")],
                          env=env, capture_output=True, text=True, timeout=300, check=False)
    assert proc.stdout.strip() == "same", proc.stderr[-3000:]


def test_the_lowered_helpers_pass_the_static_checks():
    report = check_source(HELPERS + MODEL, StaticConfig(), lower_block_pointers=True)
    assert report.status is None, report.findings


INCONSISTENT = {
    "a plain pointer at another call": ("step(x_ptr, yb, 1, BN)", "same parameters at every call", 29),
    "a block of another rank": ("zb = tl.make_block_ptr(x_ptr, (M,), (1,), (0,), (BM,), (0,))\n"
                                "    step(zb, yb, 1, BN)", "rank 2 and 1", 30),
    "the helper aliased": ("f = step", "named only to call it", 29),
    "the helper launched": ("step[(1,)](x_ptr, y_ptr, 1, BN)", "named only to call it", 29),
    "the block returned by the helper": ("pass", "used other than", 18),
    "a starred call": ("step(*(xb, yb, 1, BN))", "without *args", 29),
}


@pytest.mark.parametrize("name", list(INCONSISTENT))
def test_a_helper_passed_block_pointers_inconsistently_is_a_compile_error(name):
    line, says, at = INCONSISTENT[name]
    source = HELPERS.replace("        BN=BN)\n", f"        BN=BN)\n    {line}\n")
    if name == "the block returned by the helper":
        source = source.replace("        dst = tl.advance(dst, (0, BN))\n",
                                "        dst = tl.advance(dst, (0, BN))\n    return src\n")
    report = check_source(source, StaticConfig(), lower_block_pointers=True)
    assert report.status == "compile_error"
    assert says in report.findings[0].message, report.findings
    assert report.findings[0].line == at, report.findings


def test_a_block_parameter_with_a_default_or_annotation_is_refused():
    for params in ("x, dst=None", "dst: tl.tensor, x"):
        source = HELPERS.replace("def put(dst, x)", f"def put({params})").replace("put(dst, x + 1.0)",
                                                                               "put(dst=dst, x=x + 1.0)")
        out, problems = lower(source)
        assert problems and "no annotation and no default" in problems[0][1], problems


def test_make_block_ptr_and_advance_imported_by_bare_name():
    source = KERNEL.replace("import triton.language as tl\n", "import triton.language as tl\n"
                            "from triton.language import (make_block_ptr as mbp,\n    advance, cdiv)\n")
    source = source.replace("tl.make_block_ptr(", "mbp(").replace("tl.advance(", "advance(")
    out, problems = lower(source)
    assert problems == [] and "mbp(" not in out and "advance" not in out
    assert "from triton.language import (cdiv\n)" in out
    kept = source.count("\n")
    assert [s for s in _statement_lines(out) if s[1] <= kept] == _statement_lines(source)
    assert out.replace("from triton.language import (cdiv\n)\n", "") == lower(KERNEL)[0]
    report = check_source(source + MODEL, StaticConfig(), lower_block_pointers=True)
    assert report.status is None, report.findings


@pytest.mark.parametrize("order, says", [("(0, 1) if x_ptr.dtype.element_ty == tl.float8e5 else (1, 0)", None),
                                         ("(0, 1) if BM > 2 else (1, 1)", "permutation"),
                                         ("(1, 0, 2)", "same length")])
def test_an_order_named_as_a_constexpr_of_the_kernel(order, says):
    source = KERNEL.replace("pid = tl.program_id(0)", f"pid = tl.program_id(0)\n    x_order: tl.constexpr = {order}")
    source = source.replace("block_shape=(BM, BN), order=(1, 0))", "block_shape=(BM, BN), order=x_order)")
    out, problems = lower(source)
    assert (problems == []) == (says is None), problems
    assert says is None or says in problems[0][1]


@pytest.mark.parametrize("extra, says", [("", None), ("\n    O0 = 1", "literal tuple of integers"),
                                         ("\n    O0: tl.constexpr = 0", "literal tuple of integers")])
def test_an_order_of_constexpr_parameters_is_checked_at_the_launch(extra, says):
    source = KERNEL.replace("BN: tl.constexpr):", "BN: tl.constexpr, O0: tl.constexpr, O1: tl.constexpr, B: tl.constexpr):")
    source = source.replace("pid = tl.program_id(0)", "pid = tl.program_id(0)" + extra)
    source = source.replace("order=(1, 0))", "order=(O0, O1))").replace("boundary_check=(1, 0)", "boundary_check=(B, 0)")
    out, problems = lower(source)
    assert (problems == []) == (says is None), problems
    assert says is None or says in problems[0][1]
    if says is None:  # each use checks its tuple; the load masks every dimension
        load = out.split("    x = ")[1].split("\n")[0]
        assert "_krl_bp_check_perm2((_krl_bp_check_base((x_ptr))), O0, O1)" in out and "B, 0), mask=" in load
        assert load.count(">= 0") == 2


# Triton 3.6's compile-time checks (semantic.py: make_block_ptr and advance through
# _convert_elem_to_ir_value, _load_block_pointer, _store_block_pointer), which the written-out
# plain loads and stores would not make: the rewrite appends them as static_asserts, which the
# GPU compiler's front end judges before an interpreted launch (evaluator.device_compile).
CHECKED = HEAD + textwrap.dedent('''\
    def k(x_ptr, y_ptr, M, N, OFF, BM: tl.constexpr, BN: tl.constexpr):
        xb = tl.make_block_ptr(x_ptr, (M, N), (N, 1), (0, 0), (BM, BN), (1, 0))
        yb = tl.make_block_ptr(y_ptr, (M, N), (N, 1), (0, 0), (BM, BN), (1, 0))
        x = tl.load(xb, boundary_check=(0, 1), padding_option="zero")
        tl.store(yb, x, boundary_check=(0, 1))
''')
LOAD = 'x = tl.load(xb, boundary_check=(0, 1), padding_option="zero")'
STORE = "tl.store(yb, x, boundary_check=(0, 1))"
MAKE_Y = "yb = tl.make_block_ptr(y_ptr, (M, N), (N, 1), (0, 0), (BM, BN), (1, 0))"
# name: (old, new, dtype of x and y, OFF, what the front end says; None: it compiles and runs)
# FlagGems' generated pointwise kernels (honest round s53): order and boundary_check as tuples
# of the kernel's tl.constexpr parameters, which 3.6 checks at the launch's values
DEF = "def k(x_ptr, y_ptr, M, N, OFF, BM: tl.constexpr, BN: tl.constexpr):"
ORDERED = "x_ptr, y_ptr, M, N, OFF, BM: tl.constexpr, BN: tl.constexpr, O0: tl.constexpr = 1, O1: tl.constexpr = {}"


def _named_orders(second: int, check: str = "(O1, O0)") -> str:
    body = CHECKED[len(HEAD):].replace(DEF[6:-2], ORDERED.format(second)).replace("(BM, BN), (1, 0))", "(BM, BN), (O0, O1))")
    return body.replace("boundary_check=(0, 1)", f"boundary_check={check}")


CHECK_CASES = {
    "same_dtype_and_shape": (STORE, STORE, "float32", 0, None),
    "constexpr_order_and_boundary_check": (CHECKED[len(HEAD):], _named_orders(0), "float32", 0, None),
    "constexpr_order_not_a_permutation": (CHECKED[len(HEAD):], _named_orders(1), "float32", 0, "permutation"),
    "constexpr_boundary_check_past_the_rank": (CHECKED[len(HEAD):], _named_orders(0, "(O0, 2)"), "float32", 0,
                                               "permutation"),
    "scalar_of_the_element_type": (STORE, "tl.store(yb, 0.0, boundary_check=(0, 1))", "float32", 0, None),
    "int32_and_uint32_offsets": (MAKE_Y, MAKE_Y.replace("(0, 0), (BM", "(OFF, OFF.to(tl.uint32)), (BM"),
                                 "float32", 3, None),
    "int32_advance": (STORE, STORE + "\n    yb = tl.advance(yb, (tl.zeros((), tl.int32), 0))", "float32", 0, None),
    "int16_shape_and_uint8_stride": (MAKE_Y, MAKE_Y.replace("(M, N), (N, 1)", "(M.to(tl.int16), N), (N.to(tl.uint8), 1)"),
                                     "float32", 0, None),
    "int16_advance": (STORE, STORE + "\n    yb = tl.advance(yb, (tl.zeros((), tl.int16), 0))", "float32", 0,
                      "32 bit `offsets"),
    "bool_constant_offset": (MAKE_Y, MAKE_Y.replace("(0, 0), (BM", "(False, 0), (BM"), "float32", 0, "a bool is"),
    "nan_padding_of_floats": (LOAD, LOAD.replace('"zero"', '"nan"'), "float32", 0, None),
    # 3.6 reads a block of int1 as int8 (make_block_ptr casts the base): loaded int8, stored int8
    "bool_block_is_int8": (STORE, STORE, "bool", 0, None),
    "bool_value_into_a_bool_block": (STORE, STORE.replace("yb, x", "yb, x != 0"), "bool", 0,
                                     "element type mismatch"),
    "value_of_another_dtype": (STORE, STORE.replace("yb, x", "yb, x.to(tl.float16)"), "float32", 0,
                               "element type mismatch"),
    "python_int_into_floats": (STORE, STORE.replace("yb, x", "yb, 0"), "float32", 0, "element type mismatch"),
    "value_that_only_broadcasts": (STORE, STORE.replace("yb, x", "yb, tl.zeros((1, BN), tl.float32)"),
                                   "float32", 0, "shape mismatch"),
    "value_of_another_rank": (STORE, STORE.replace("yb, x", "yb, tl.zeros((BN,), tl.float32)"),
                              "float32", 0, "shape mismatch"),
    "int64_offset": (MAKE_Y, MAKE_Y.replace("(0, 0), (BM", "(OFF.to(tl.int64), 0), (BM"), "float32", 0,
                     "32 bit `offsets"),
    "int64_kernel_argument_offset": (MAKE_Y, MAKE_Y.replace("(0, 0), (BM", "(OFF, 0), (BM"), "float32",
                                     2**33, "32 bit `offsets"),
    "constant_offset_past_int32": (MAKE_Y, MAKE_Y.replace("(0, 0), (BM", "(2147483648, 0), (BM"),
                                   "float32", 0, "32 bit `offsets"),
    "int64_advance": (STORE, STORE + "\n    yb = tl.advance(yb, (0, tl.zeros((), tl.int64)))", "float32", 0,
                      "32 bit `offsets"),
    "float_shape": (MAKE_Y, MAKE_Y.replace("(M, N), (N, 1)", "(M * 1.0, N), (N, 1)"), "float32", 0,
                    "integer scalar type"),
    "float_constant_stride": (MAKE_Y, MAKE_Y.replace("(N, 1), (0", "(N, 1.0), (0"), "float32", 0,
                              "Unsupported element type"),
    "block_of_offsets": (MAKE_Y, MAKE_Y.replace("(0, 0), (BM", "(tl.zeros((2,), tl.int32), 0), (BM"),
                         "float32", 0, "Expected a scalar"),
    "nan_padding_of_integers": (LOAD, LOAD.replace('"zero"', '"nan"'), "int32", 0, "`nan` is not supported"),
    "pointer_block_as_base": (MAKE_Y, MAKE_Y.replace("(y_ptr,", "(y_ptr + tl.arange(0, 2),"), "float32", 0,
                              "Expected `base` to be a pointer type"),
}

CHECK_RUN = '''
import importlib.util, json, sys
import torch
from evaluator import device_compile, interpreter_guard, interpreter_libdevice
from evaluator.launch_hook import LaunchRecorder

interpreter_guard.install(); interpreter_libdevice.install(); device_compile.warm_up()
LaunchRecorder().install()
out = {}
for name, dtype, off in json.loads(sys.argv[2]):
    spec = importlib.util.spec_from_file_location(name, f"{sys.argv[1]}/{name}.py")
    mod = importlib.util.module_from_spec(spec); spec.loader.exec_module(mod)
    x = (torch.arange(16) % 3).to(getattr(torch, dtype)).reshape(4, 4)
    y = torch.zeros_like(x)
    try:
        mod.k[(1,)](x, y, 4, 4, off, BM=4, BN=4)
        out[name] = None
    except Exception as exc:
        while exc.__cause__ is not None:
            exc = exc.__cause__
        out[name] = f"{type(exc).__name__}: {exc}"
print(json.dumps(out))
'''


def test_what_triton_36_refuses_to_compile_is_refused_before_the_launch(tmp_path):
    cases = []
    for name, (old, new, dtype, off, _) in CHECK_CASES.items():
        assert old in CHECKED
        out, problems = lower(CHECKED.replace(old, new))
        assert problems == [], name
        (tmp_path / f"{name}.py").write_text(out)
        cases.append((name, dtype, off))
    (tmp_path / "run.py").write_text(CHECK_RUN)
    env = {**os.environ, "TRITON_INTERPRET": "1", "PYTHONPATH": str(ROOT)}
    import json
    proc = subprocess.run([sys.executable, str(tmp_path / "run.py"), str(tmp_path), json.dumps(cases)],
                          env=env, capture_output=True, text=True, timeout=600, check=False)
    got = json.loads(proc.stdout.strip().splitlines()[-1]) if proc.returncode == 0 else proc.stderr[-3000:]
    assert isinstance(got, dict), got
    for name, (*_, says) in CHECK_CASES.items():
        if says is None:
            assert got[name] is None, (name, got[name])
        else:
            assert got[name] and "CompileTimeAssertionFailure" in got[name] and says in got[name], (name, got[name])
