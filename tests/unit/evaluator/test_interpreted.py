"""The interpreter test modules' TRITON_INTERPRET=1 tests (their `needs_interpreter` ones), run
in child pytest processes (conftest.interpreted_child): TRITON_INTERPRET=1 must be set before
Triton is first imported, which the suite's own process has done.

One child per group of modules, not one per module: each child starts Python, torch and Triton
and imports the evaluator through conftest before its first test (4.2 CPU s, its collection
alone, CPU (Triton interpreter), s67C), and the 14 modules' children were 128.5 s of session 66's
suite, 4.3-15.7 s each. The three large groups are about even in those times, so no one test is
long at the end of a worker's share. Alone: `pytest test_interpreted.py -k
dry_launch` (or `TRITON_INTERPRET=1 pytest test_dry_launch.py`). A module of interpreter tests
is in a group or starts its own child (test_every_module_of_interpreter_tests_runs_in_a_child).
"""
from __future__ import annotations

import os
import re
from pathlib import Path

import pytest
from conftest import interpreted_child

HERE = Path(__file__).parent

# (seconds of its own child in session 66's suite) beside each
GROUPS = [
    ["test_autotune_benchmark_counts",  # 15.7
     "test_interpreter_schedule",  # 11.6
     "test_interpreter_lanes",  # 8.0
     "test_candidate_made"],  # 6.2
    ["test_dry_launch",  # 14.7
     "test_interpreter_autotune",  # 11.3
     "test_dry_identity",  # 7.5
     "test_warmed_kernel",  # 5.9
     "test_dry_budget"],  # 4.3
    ["test_device_compile",  # 14.0
     "test_dry_taint",  # 9.9
     "test_interpreter_gpu_runtime",  # 6.6
     "test_dry_memory"],  # 4.6
    # alone: it counts the modules of triton.language a launch patches (at most 8), and the other
    # modules together load more (10 in one child of all fourteen, s67C)
    ["test_interpreter_reduce"],  # 8.3
]


@pytest.mark.skipif(os.environ.get("TRITON_INTERPRET") == "1", reason="this is the child")
@pytest.mark.parametrize("group", GROUPS, ids=lambda group: "+".join(m.removeprefix("test_") for m in group))
def test_under_the_interpreter(group):
    interpreted_child(*(str(HERE / f"{module}.py") for module in group))


def test_every_module_of_interpreter_tests_runs_in_a_child():
    """A module whose tests need the interpreter and that starts no child of its own is in a
    group: otherwise its tests would be skipped in every run of the suite, and pass unseen."""
    grouped = {module for group in GROUPS for module in group}
    assert len(grouped) == sum(len(group) for group in GROUPS)
    for path in sorted(HERE.glob("test_*.py")):
        text = path.read_text()
        if not re.search(r"skipif\(\s*not INTERPRETED", text) or path.stem in grouped:
            continue
        assert '"TRITON_INTERPRET": "1"' in text or "interpreted_child(__file__)" in text, \
            f"{path.name}: its interpreter tests run in no child; add it to a group of {Path(__file__).name}"
    for module in grouped:
        assert (HERE / f"{module}.py").exists(), module
