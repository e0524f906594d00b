"""Python's own behaviour, in a candidate child, as the GPU image's Python has it.

The CPU check runs this machine's Python (3.11); the GPU image runs 3.12 (evaluator/h200_names.json
records its version). What a candidate's code can see of the difference was a switch between
an arm the CPU checked and one only the GPU runs. The names one version has and the other lacks
are the static checks' (evaluator.gpu_names: `int.is_integer`, `itertools.batched`); what is left
is behaviour of a name both have, and of the builtins the allowlist lets a candidate use one
changed: sum() of floats, which 3.12 adds with Neumaier's compensation
(`sum([1e16, 1.0, -1e16])` is 0.0 on 3.11 and 1.0 on 3.12: red team s46). In a candidate child
on an older Python, the candidate's own calls of sum() add as 3.12's does; tests/unit/evaluator/
test_python_image.py holds it to the image's recorded answers.
"""
from __future__ import annotations

import builtins
import math
import sys

_LONG = 1 << 63  # C long's range: 3.12's float loop adds an int item in it as a C double


def sum312(iterable, /, start=0):
    """builtins.sum as CPython 3.12's builtin_sum_impl computes it: a C long loop while the sum
    and each item stay in C long's range, then a float loop, compensated (Neumaier; an int item
    in C long's range added uncompensated as a double), where the sum is a float by then, and
    anything else added with `+`."""
    _REAL_SUM((), start)  # the same refusals of a str/bytes/bytearray start, with the same text
    items = iter(iterable)
    result = start
    if type(result) is int and -_LONG <= result < _LONG:
        for item in items:
            if (type(item) is int or type(item) is bool) and -_LONG <= item < _LONG and (
                    -_LONG <= result + item < _LONG):
                result = result + item
                continue
            result = result + item  # past C long's range, or no int: the general loop
            break
        else:
            return result
    if type(result) is float:
        total, c = result, 0.0
        for item in items:
            if type(item) is float:
                t = total + item
                if abs(total) >= abs(item):
                    c += (total - t) + item
                else:
                    c += (item - t) + total
                total = t
                continue
            if isinstance(item, int) and -_LONG <= item < _LONG:
                total += float(item)
                continue
            if c and math.isfinite(c):
                total += c
            result = total + item
            break
        else:
            if c and math.isfinite(c):
                total += c
            return total
    for item in items:
        result = result + item
    return result


class _BuiltinSum:
    """sum, answering as 3.12's to the candidate's own code and as this Python's to everything
    else; it reads as the builtin (`repr`, `__name__`)."""

    __slots__ = ()
    __name__ = __qualname__ = "sum"
    __module__ = "builtins"

    def __call__(self, iterable, /, start=0):
        from evaluator.candidate_env import candidate_frame

        if candidate_frame(1):
            return sum312(iterable, start)
        return _REAL_SUM(iterable, start)

    def __repr__(self) -> str:
        return "<built-in function sum>"


_REAL_SUM = builtins.sum
_BuiltinSum.__doc__ = _REAL_SUM.__doc__


def python_as_the_gpus() -> None:
    """In a candidate child on a Python older than 3.12, sum() adds as 3.12's."""
    if sys.version_info < (3, 12) and builtins.sum is _REAL_SUM:
        builtins.sum = _BuiltinSum()  # type: ignore[assignment]


def resource_errors() -> None:
    """Run first by every except clause of a candidate's file (static_checks.RESOURCE, installed
    as a builtin by evaluator.runner): a MemoryError or RecursionError being handled is raised
    again, since which machine raises it depends on its memory and limits, not on what the file
    computes (a 30 GB allocation in a module-level try, round s47)."""
    exc = sys.exc_info()[1]
    if isinstance(exc, (MemoryError, RecursionError)):
        raise exc
