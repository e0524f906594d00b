"""Writes tests/corpus_slow.txt, the corpus cases `make test` leaves to `make test-corpus`.

The three corpora (tests/unit/evaluator: hacks, static honest files, honest built-in solutions)
are one parametrized test case per file, judged by a whole CPU evaluation each. Most take a
second or two; a hundred or so (dry-model depth trials, autotuners with many configs, host
loops run to their limit) take 5 s to minutes and were two thirds of the suite's time
(session 65: 64.7 of 114.6 worker-minutes, 58 minutes on the CI box's two workers). Those
are run by `make test-corpus` (and `make test-all`), not by `make test`: see tests/conftest.py.

Input: JUnit XML reports that together cover the corpora (`make test-all PYTEST_ARGS=--junitxml=F`,
or `make test`'s and `make test-corpus`'s). A case
slower than its corpus's threshold there is listed with its seconds; a case not in the
report (a new file) stays in `make test` until the list is written again.

Usage: python scripts/corpus_tiers.py REPORT.xml [REPORT.xml ...] [--hacks-over 5]
       [--honest-over 10]
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
}
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
    found = []
    for case in (c for report in reports for c in ET.parse(report).iter("testcase")):
        module = (case.get("classname") or "").rpartition(".")[2]
        name = case.get("name") or ""
        test, kind = CORPORA.get(module, (None, None))
        if test is None or not name.startswith(test + "["):
            continue
        seconds = float(case.get("time") or 0.0)
        if seconds > over[kind]:
            found.append((f"{module}::{name}", seconds))
    return sorted(found)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("reports", type=Path, nargs="+")
    parser.add_argument("--hacks-over", type=float, default=5.0)
    parser.add_argument("--honest-over", type=float, default=10.0)
    args = parser.parse_args()
    cases = slow_cases(args.reports, args.hacks_over, args.honest_over)
    LIST.write_text(HEADER + "".join(f"{case} {seconds:.1f}\n" for case, seconds in cases))
    print(f"{len(cases)} cases, {sum(s for _, s in cases) / 60:.1f} worker-minutes, in {LIST}")


if __name__ == "__main__":
    main()
