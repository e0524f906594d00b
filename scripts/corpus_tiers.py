"""Writes tests/corpus_slow.txt, the corpus cases `make test` leaves to `make test-corpus`.

The three corpora (tests/unit/evaluator: hacks, static honest files, honest built-in solutions)
are one parametrized test case per file, judged by a whole CPU evaluation each. Most take a
second or two; a hundred or so (dry-model depth trials, autotuners with many configs, host
loops run to their limit) take 5 s to minutes and were two thirds of the suite's time
(session 65: 64.7 of 114.6 worker-minutes, 58 minutes on the CI box's two workers). Those
are run by `make test-corpus` (and `make test-all`), not by `make test`: see tests/conftest.py.
Three more tests are corpora of the same kind, one file's verdict a case (session 69: 390 of
their 442 seconds in the cases over the thresholds, those KEPT aside): the residual attacks
(hack threshold), the honest files read back at their declared sizes and the built-in
solutions at every declared depth (honest threshold); their modules are in the Makefile's
CORPUS_TESTS.

Input: JUnit XML reports that together cover the corpora (`make test-all PYTEST_ARGS=--junitxml=F`,
or `make test`'s and `make test-corpus`'s). A case
slower than its corpus's threshold there is listed with its seconds; a case not in the
report (a new file) stays in `make test` until the list is written again, and a case listed
now that no report ran (a slow file entered by hand, with its estimated seconds) stays listed.

Session 70: the thresholds went down to 1.5 s (hacks) / 2 s (honest): `make test` on the CI box
(2 cores, 2 workers) took 34 min with 3 s / 4 s, and its corpus cases are a long tail of 1-4 s
evaluations with no fixed cost to cut (a case's own interpreted forwards are four fifths of it;
start-up, static checks, reference, sandbox and problem set-up about a tenth). No hack code or
expected status loses its last `make test` case at these thresholds (session 70 checked).

Usage: python scripts/corpus_tiers.py REPORT.xml [REPORT.xml ...] [--hacks-over 1.5]
       [--honest-over 2]
"""

from __future__ import annotations

import argparse
import xml.etree.ElementTree as ET
from pathlib import Path

LIST = Path(__file__).resolve().parents[1] / "tests" / "corpus_slow.txt"
# test module -> (its corpus test function, which threshold applies)
CORPORA = {
    "test_hacks": ("test_hack_is_caught", "hacks"),
    "test_static_honest": ("test_honest_file_is_ok_on_the_cpu_evaluator", "honest"),
    "test_honest_builtin": ("test_honest_solution_of_a_builtin_problem_is_ok", "honest"),
    "test_residual_attacks": (
        "test_a_residual_attack_earns_less_than_the_honest_solution",
        "hacks",
    ),
    "test_dry_real_forward": (
        "test_an_honest_forward_reading_back_its_own_launch_is_ok_at_the_declared_sizes",
        "honest",
    ),
    "test_depth_trials": ("test_honest_kernels_stay_ok_at_every_declared_depth", "honest"),
}
# cases another test of `make test` judges too (sharing the verdict, conftest.judged): listed,
# `make test` would judge them all the same, and `make test-corpus` once more. The torch-route
# residual attacks are read by test_residual_attacks' torch-route test.
KEPT = ("_torch_route_",)
HEADER = """\
# Corpus cases `make test` leaves to `make test-corpus` (written by scripts/corpus_tiers.py from a
# full run's JUnit report; seconds as measured there). One `<module>::<test id> <seconds>` per line.
"""


def slow_cases(
    reports: list[Path], hacks_over: float, honest_over: float
) -> list[tuple[str, float]]:
    """(`module::test id`, seconds) of every corpus case over its corpus's threshold in `reports`
    (`make test`'s and `make test-corpus`'s, or one of `make test-all`)."""
    over = {"hacks": hacks_over, "honest": honest_over}
    found, ran = [], set()
    for case in (c for report in reports for c in ET.parse(report).iter("testcase")):
        module = (case.get("classname") or "").rpartition(".")[2]
        name = case.get("name") or ""
        test, kind = CORPORA.get(module, (None, None))
        if test is None or not name.startswith(test + "["):
            continue
        seconds = float(case.get("time") or 0.0)
        ran.add(f"{module}::{name}")
        if seconds > over[kind] and not any(k in name for k in KEPT):
            found.append((f"{module}::{name}", seconds))
    return sorted(found + [(case, s) for case, s in listed() if case not in ran])


def listed() -> list[tuple[str, float]]:
    """(`module::test id`, seconds) of every case tests/corpus_slow.txt lists now."""
    lines = LIST.read_text().splitlines() if LIST.exists() else []
    rows = [line.split() for line in lines if line.strip() and not line.startswith("#")]
    return [(row[0], float(row[1]) if len(row) > 1 else 0.0) for row in rows]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("reports", type=Path, nargs="+")
    parser.add_argument("--hacks-over", type=float, default=1.5)
    parser.add_argument("--honest-over", type=float, default=2.0)
    args = parser.parse_args()
    cases = slow_cases(args.reports, args.hacks_over, args.honest_over)
    LIST.write_text(HEADER + "".join(f"{case} {seconds:.1f}\n" for case, seconds in cases))
    print(f"{len(cases)} cases, {sum(s for _, s in cases) / 60:.1f} worker-minutes, in {LIST}")


if __name__ == "__main__":
    main()
