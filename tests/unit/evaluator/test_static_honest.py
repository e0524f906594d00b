"""Honest kernel files, written the way people write them for KernelBench, pass.

honest/ holds complete candidate files in the styles of public Triton code (the Triton
tutorials, Liger-Kernel, unsloth, attorch, KernelBench level-1 and level-2 solutions):
autotune and heuristics, libdevice, tl.reduce with a combine function, atomics, tensor
descriptors, autograd.Function wrappers, nn.Linear-style initialisation, buffers,
cuBLAS/cuDNN with a Triton epilogue, a CPU fallback, `__all__`, a test block under
`if __name__ == "__main__":`. Every one must pass the static layer; a handful run
through the whole evaluator on the CPU interpreter. The edges of what was widened for them
are pinned in test_static_widened_accepted.py and test_static_widened_narrow.py; the last
tests here pin how pytest imports and refused honest idioms are answered.
"""
from __future__ import annotations

import textwrap
from pathlib import Path

import pytest
from conftest import FixtureProblem, verdict_timing
from honest_problems import FULL
from static_snippets import BASE, check_snippet

from common.config.evaluator import StaticConfig
from common.problemset import builtin_problem
from evaluator.static_checks import check_source

HONEST = Path(__file__).parent / "honest"
FILES = sorted(HONEST.glob("*.py"))
CFG = StaticConfig()


def test_the_corpus_is_large_enough():
    assert len(FILES) >= 25


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.stem)
def test_honest_file_passes_the_static_checks(path):
    report = check_source(path.read_text(), CFG)
    assert report.status is None, [(f.code, f.line, f.message) for f in report.findings]
    assert report.kernels


@pytest.mark.parametrize("name", list(FULL))
def test_honest_file_is_ok_on_the_cpu_evaluator(name, evaluator, settings):
    problem_name, sizes = FULL[name]
    builtin = builtin_problem(problem_name)
    # the built-in's own trials too (its manifest's list: layernorm's shift, argmax's near ties)
    problem = FixtureProblem(name=f"honest/{problem_name}", source=builtin.source,
                             sizes={"cpu": sizes or dict(builtin.sizes["cpu"])},
                             tolerance=dict(builtin.tolerance or {}) or None,
                             distributions=builtin.distributions)
    with verdict_timing(evaluator):  # it reads the status alone (conftest.VERDICT_TIMING)
        verdict = evaluator.evaluate(problem, (HONEST / name).read_text(), settings)
    assert verdict.status == "ok", verdict.feedback


# a pytest import is dropped only where every read of it is a mark on a module-level test
# marked with nothing else, or lies where nothing the harness runs reaches: else the import
# is refused as it was (pytest is not in the sandbox)
PYTEST_KEPT = {
    # red team s40: a marked def by a builtin's name shadows it for all code run in the
    # module's globals: never test-only, its body is judged
    "pytest_marked_def_shadows_a_builtin": ('''
        import pytest


        @pytest.mark.skip
        def range(n):
            exec("import os")  # <-
    ''', "dynamic_code"),
    "pytest_module_level_mark": ('''
        import pytest  # <-

        pytestmark = pytest.mark.skip
    ''', "unavailable_module"),
    "pytest_mark_beside_another_decorator": ('''
        import pytest  # <-


        @pytest.mark.parametrize("n", [1])
        @torch.no_grad()
        def test_copy(n):
            pass
    ''', "unavailable_module"),
    "pytest_rebound": ('''
        import pytest  # <-


        @pytest.mark.parametrize("n", [1])
        def test_copy(n, pytest=None):
            pass
    ''', "unavailable_module"),
    "pytest_aliased": ('''
        import pytest as pt  # <-


        @pt.mark.parametrize("n", [1])
        def test_copy(n):
            pass
    ''', "unavailable_module"),
    "pytest_mark_in_a_class": ('''
        import pytest  # <-


        class TestCopy:
            @pytest.mark.parametrize("n", [1])
            def test_copy(self, n):
                pass
    ''', "unavailable_module"),
}


@pytest.mark.parametrize("name", list(PYTEST_KEPT))
def test_a_pytest_import_in_any_other_shape_is_still_refused(name):
    snippet, code = PYTEST_KEPT[name]
    text = textwrap.dedent(snippet)
    line = BASE.count("\n") + 1 + next(i for i, s in enumerate(text.splitlines(), 1)
                                       if s.rstrip().endswith("# <-"))
    report = check_snippet(snippet)
    assert report.status is not None
    assert (code, line) in {(f.code, f.line) for f in report.findings}, report.findings


def test_a_marked_test_that_something_calls_is_judged_whole_without_pytest():
    """A def whose pytest marks were dropped is a test only while nothing but the test block
    names it; called from elsewhere, its body is judged, where the dropped import leaves
    `pytest` undefined (what Python would raise in the sandbox, which has no pytest)."""
    snippet = textwrap.dedent('''
        import pytest


        @pytest.mark.parametrize("n", [1])
        def test_copy(n):
            pytest.skip("x")


        def run(x):
            return test_copy(x)
    ''')
    report = check_snippet(snippet)
    assert report.status == "compile_error"
    line = BASE.count("\n") + 1 + snippet.splitlines().index('    pytest.skip("x")') + 1
    assert ("undefined_name", line) in {(f.code, f.line) for f in report.findings}, report.findings


def test_an_import_of_the_launcher_says_what_to_write_instead():
    """`from triton.runtime import driver` is the device-query chain's head (honest round s45);
    the rest of triton.runtime is the launcher, refused with the query to write instead."""
    assert check_snippet("from triton.runtime import driver\n").status is None
    report = check_snippet("from triton.runtime import autotuner\n")
    message = report.findings[0].message
    assert "from triton.runtime import autotuner" in message
    assert "triton.runtime.driver.active.get_active_torch_device()" in message


def test_refusals_of_honest_idioms_say_what_to_write_instead():
    """Honest round, session 25: idioms that stay refused, each for its reason, now say what
    works: a kernel bound into functools.partial is no longer followed as a kernel; a
    strict-policy refusal of PyTorch finishing a reduction names the kernel-side finish.
    Block pointers (tl.advance, gone from the installed Triton, which said to use tensor
    descriptors) are accepted since session 50: written out as Triton 3.6 lowers them
    (evaluator.block_pointers; test_block_pointers.py holds the message without that rewrite)."""
    from evaluator.judge import judge_provenance

    advance = check_snippet('''
        @triton.jit
        def walk(p_ptr, BLOCK: tl.constexpr):
            b = tl.make_block_ptr(p_ptr, (BLOCK,), (1,), (0,), (BLOCK,), (0,))
            b = tl.advance(b, (BLOCK,))
    ''')
    assert advance.status is None and "b_bp_off0" in advance.source, advance.findings
    partial = check_snippet('''
        import functools

        def launch(kernel, x, out):
            kernel[(1,)](x, out, x.numel(), BLOCK=1024)

        run_k = functools.partial(launch, k)
    ''')
    assert partial.status == "hack" and "pass it straight to a function" in partial.findings[0].message
    trials = [{"provenance": {"returned": "forward returned memory PyTorch computed (aten::div)"}}]
    outcome = judge_provenance(trials, strict=True, knockout_raised=False)
    assert outcome.status == "hack" and "a second launch over the partial results" in outcome.feedback


def test_a_registered_triton_op_is_refused_with_the_launch_to_write_instead():
    """torch.library's docs register a Triton kernel with @triton_op (an op for the whole
    process, dispatched as one opaque op): refused, and the message says what runs instead,
    a plain launch or wrap_triton(kernel)[grid](...) without the op."""
    report = check_snippet('''
        from torch.library import triton_op


        @triton_op("krl_demo::copy", mutates_args={})
        def copy(x: torch.Tensor) -> torch.Tensor:
            out = torch.empty_like(x)
            k[(1,)](x, out, x.numel(), BLOCK=1024)
            return out
    ''')
    assert report.status == "hack"
    assert len(report.findings) == 2
    for finding in report.findings:
        assert "kernel[grid](...)" in finding.message and "wrap_triton(kernel)[grid](...)" in finding.message


def test_refused_names_say_what_to_write_for_what_their_author_wanted():
    """Honest round s32a: calling an op through torch.ops got the hint for process-wide settings,
    and importing Triton's OutOfResources (to retry a launch) the hint for a device query."""
    report = check_snippet('''
        from triton.runtime.errors import OutOfResources


        def relu(x):
            return torch.ops.aten.relu(x)
    ''')
    assert report.status == "hack"
    ops, errors = sorted(report.findings, key=lambda f: "torch.ops" in f.message, reverse=True)
    assert "torch.relu" in ops.message and "settings" not in ops.message
    assert "try/except" in errors.message and "block sizes" in errors.message


def test_a_solution_that_names_its_own_class_model_is_judged_as_modelnew(evaluator, settings):
    """Some public solution sets name the solution's class Model, like the reference's; it is
    the candidate's own class (the reference lives in another module) and is judged."""
    builtin = builtin_problem("activation/relu")
    source = builtin.solution.replace("class ModelNew", "class Model")
    assert "ModelNew" not in source
    problem = FixtureProblem(name="honest/activation/relu", source=builtin.source,
                             sizes={"cpu": {"batch_size": 4, "dim": 300}}, tolerance=None)
    verdict = evaluator.evaluate(problem, source, settings)
    assert verdict.status == "ok", verdict.feedback


def test_a_kernel_written_out_twice_is_one_kernel_and_a_changed_second_one_is_still_refused():
    """A public level-2 solution defined its @triton.jit kernel twice, word for word, and was
    called a patch (honest round, session 17): identical definitions give the name one meaning.
    A second definition that differs rebinds the kernel's name, as before."""
    kernel = '''
@triton.jit
def k(x_ptr, n, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    tl.store(x_ptr + offs, tl.load(x_ptr + offs, mask=offs < n), mask=offs < n)
'''
    head = "import torch\nimport torch.nn as nn\nimport triton\nimport triton.language as tl\n"
    model = ("\n\nclass ModelNew(nn.Module):\n    def forward(self, x):\n"
             "        k[(1,)](x, x.numel(), BLOCK=16)\n        return x\n")
    assert check_source(head + kernel + kernel + model, CFG).status is None
    changed = kernel.replace("mask=offs < n), mask", "mask=offs < n) * 2, mask")
    report = check_source(head + kernel + changed + model, CFG)
    assert report.status == "hack" and any("rebinds k" in f.message for f in report.findings)
