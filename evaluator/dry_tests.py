"""The branch and loop tests of a `branched` kernel (evaluator.dry_facts: a test that reads a
loaded value) while the dry launch model runs it (evaluator.dry_launch).

The model's loads return zeros, never the GPU's values, so `if tl.load(flag) == 1:` took the
branch the zeros chose (red team s68d: a capped store the GPU takes, skipped by the model). Every
test of a scalar tensor (`if`, `while`, a range's bound: the interpreter's `__bool__` and
`__index__`) raises DataTest where the loaded data decides it (evaluator.dry_taint); the launch is
then rolled back and the forward modelled again on the problem's draw (evaluator.dry_values),
where a flag torch made is known. A program testing more than MAX_TESTS times (a spin on a flag
no other program's store reaches here) is one too.
"""
from __future__ import annotations

from contextlib import contextmanager

from evaluator import dry_taint
from evaluator.dry_memory import Unmodelled


class DataTest(Unmodelled):
    """A branch or loop test of a `branched` kernel that the loaded data decides."""


MAX_TESTS = 1 << 16  # tests of scalar tensors one program makes at most (more: a spin, DataTest)
_COUNT = [0]


def new_program() -> None:
    """A program starts: its tests are counted from zero."""
    _COUNT[0] = 0


@contextmanager
def checked(scope, branched: bool):
    """While a `branched` kernel runs (`scope`: the launch's language patch), its tests are
    checked, and again after every later patch of the language: a device function's call
    (`tl.max` is one, from a module whose language the launch's patch did not cover) patches it
    again with the interpreter's own `__bool__`, and a test after a `tl.max` of loaded values
    went unchecked (`if tl.max(x, axis=0) > 0:` took the branch the model's zeros chose)."""
    if not branched:
        yield
        return
    from triton.runtime import interpreter as ti

    _check(scope)
    patch = ti._patch_lang

    def patched(fn):
        again = patch(fn)
        _check(again)
        return again

    ti._patch_lang = patched
    try:
        yield
    finally:
        ti._patch_lang = patch


def _check(scope) -> None:
    """`__bool__` and `__index__` of the language's tensor raise DataTest on a data-decided test."""
    import triton.language as tl

    for name in ("__bool__", "__index__"):
        plain = getattr(tl.core.tensor, name)
        if getattr(plain, "_krl_checked", False):
            continue

        def test(self, plain=plain, name=name):
            _COUNT[0] += 1
            if dry_taint.of(self.handle).any() or _COUNT[0] > MAX_TESTS:
                raise DataTest(f"a test ({name}) the loaded data decides")
            return plain(self)
        test._krl_checked = True
        scope.set_attr(tl.core.tensor, name, test)
