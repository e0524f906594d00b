"""evaluator.interpreter_gdc: programmatic dependent launch (tl.extra.cuda.gdc_wait and
gdc_launch_dependents) runs under the CPU interpreter, whose builder lacked both (honest round
s56d: Triton tutorial 11's kernel was a runtime error on the CPU only). The whole evaluator path
is honest/s56d_01_*, run by test_static_honest."""
import pytest

from evaluator import interpreter_gdc


def test_installed_where_missing_and_a_no_op():
    class Builder:
        pass

    interpreter_gdc.install(Builder)
    assert Builder().create_grid_dependency_wait() is None
    assert Builder().create_grid_dependency_launch_dependents() is None


def test_a_builder_that_has_them_keeps_its_own():
    def own(self):
        return "own"

    class Builder:
        create_grid_dependency_wait = own
        create_grid_dependency_launch_dependents = own

    interpreter_gdc.install(Builder)
    assert Builder().create_grid_dependency_wait() == "own"
    assert Builder().create_grid_dependency_launch_dependents() == "own"


def test_the_interpreters_builder_has_them_once_guarded():
    pytest.importorskip("triton")
    from triton.runtime import interpreter

    from evaluator import interpreter_guard

    if not interpreter_guard.install():
        pytest.skip("no interpreter")
    builder = interpreter.interpreter_builder
    assert builder.create_grid_dependency_wait() is None
    assert builder.create_grid_dependency_launch_dependents() is None
