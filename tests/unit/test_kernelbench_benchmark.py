"""benchmarks/kernelbench.py with `--solutions`: solution files written by people, each
naming its KernelBench problem, through the real evaluator (CPU interpreter, a
KernelBench-layout checkout made here at small sizes); the report says what share was ok
and is resumed from its results file."""

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

FIXTURES = ROOT / "tests" / "unit" / "evaluator" / "fixtures"
# KernelBench's own layout of a problem, at a size the CPU interpreter runs quickly
RELU = (FIXTURES / "relu.py").read_text().replace("dim = 16384", "dim = 300")
# a solution file as people write them: its problem named near its top
SOLUTION = (
    "# A ReLU for KernelBench level1/19_ReLU, one program per block.\n"
    + (FIXTURES / "relu_solution.py").read_text()
)


def _bench(tmp_path: Path, *extra: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [
            sys.executable,
            str(ROOT / "benchmarks" / "kernelbench.py"),
            "--kernelbench",
            str(tmp_path / "kb"),
            "--levels",
            "level1",
            "--device",
            "cpu",
            "--concurrency",
            "1",
            "--solutions",
            str(tmp_path / "sol"),
            "--out",
            str(tmp_path / "out"),
            *extra,
        ],
        capture_output=True,
        text=True,
        timeout=600,
        cwd=ROOT,
    )


def test_shards_split_the_selection_between_processes(tmp_path):
    """One process per GPU: --shard K/N takes every Nth job of the whole (seeded) order,
    so shards with their own results files never run the same job twice."""
    (tmp_path / "kb" / "KernelBench" / "level1").mkdir(parents=True)
    (tmp_path / "kb" / "KernelBench" / "level1" / "19_ReLU.py").write_text(RELU)
    sol = tmp_path / "sol"
    sol.mkdir()
    for i in range(5):
        (sol / f"relu_{i}.py").write_text(SOLUTION)
    counts = []
    for k in range(2):  # --budget-s 0: nothing is evaluated, the split is printed
        run = _bench(
            tmp_path,
            "--shuffle",
            "3",
            "--shard",
            f"{k}/2",
            "--budget-s",
            "0",
            "--results",
            str(tmp_path / f"shard{k}.jsonl"),
        )
        assert run.returncode == 0, run.stderr[-3000:]
        line = next(l for l in run.stdout.splitlines() if f"(shard {k}/2)" in l)
        counts.append(int(line.split(" to run")[0].rsplit(" ", 1)[1]))
    assert counts == [3, 2]
    bad = _bench(tmp_path, "--shard", "2/2", "--budget-s", "0")
    assert bad.returncode == 2 and "0 <= K < N" in bad.stderr


@pytest.mark.slow  # 47 s in session 66's suite as two tests: four benchmark processes
def test_honest_solutions_are_judged_against_the_problem_they_name_one_shard_per_gpu(tmp_path):
    """Each solution is judged against the problem it names (one naming no selected problem is
    left out), and a run again on the results file has nothing left to do. With --gpus: one
    process per listed device, each evaluating its shard into its own file; the rows end up
    merged in --results and in one report (here on the CPU: the list only sets each process's
    CUDA_VISIBLE_DEVICES). One run serves both (two were 21 and 26 s in session 66's suite, two
    evaluations of the same two files each): a shard is the same selection and evaluation as a
    whole run, of every Nth job (test_shards_split_the_selection_between_processes)."""
    (tmp_path / "kb" / "KernelBench" / "level1").mkdir(parents=True)
    (tmp_path / "kb" / "KernelBench" / "level1" / "19_ReLU.py").write_text(RELU)
    sol = tmp_path / "sol"
    sol.mkdir()
    (sol / "relu_right.py").write_text(SOLUTION)
    # wrong for negative inputs only: judged against ReLU, not against some other problem
    (sol / "relu_wrong.py").write_text(SOLUTION.replace("tl.maximum(x, 0.0)", "tl.abs(x)"))
    (sol / "names_another.py").write_text(SOLUTION.replace("level1/19_ReLU", "level1/20_LeakyReLU"))
    (sol / "README.md").write_text("not a solution")
    run = _bench(tmp_path, "--gpus", "0,1")
    assert run.returncode == 0, run.stderr[-3000:]
    assert "2 rows from 2 shards (exit codes [0, 0])" in run.stdout
    # the shard processes share the parent's stdout, and under load their lines can run together
    shards = re.findall(r"(\d+) to run \(shard", run.stdout)
    assert sorted(int(n) for n in shards) == [1, 1], run.stdout[-3000:]
    merged = (tmp_path / "out" / "kernelbench_honest_cpu.jsonl").read_text().splitlines()
    assert sorted(json.loads(l)["solution"] for l in merged) == ["relu_right", "relu_wrong"]
    report = json.loads((tmp_path / "out" / "kernelbench_honest_cpu.json").read_text())
    assert report["meta"]["gpus"] == "0,1" and report["summary"]["honest"]["ok_share"] == 0.5
    by_solution = {r["solution"]: r for r in report["rows"]}
    # the one naming no selected problem is left out
    assert set(by_solution) == {"relu_right", "relu_wrong"}
    assert by_solution["relu_right"]["status"] == "ok" and by_solution["relu_right"]["reward"] > 0
    assert by_solution["relu_wrong"]["status"] == "incorrect"
    assert by_solution["relu_wrong"]["class"] == "false_rejection"
    text = (tmp_path / "out" / "kernelbench_honest_cpu.md").read_text()
    assert "Honest solutions ok: 50.0% (target >= 95%: NOT met)" in text
    assert "evaluations per host-hour (2 in" in text

    # a second run (one process) with the same results file has nothing left to do
    again = _bench(tmp_path)
    assert again.returncode == 0, again.stderr[-3000:]
    assert "2 evaluations, 2 already in" in again.stdout and "0 to run" in again.stdout
    rows = (tmp_path / "out" / "kernelbench_honest_cpu.jsonl").read_text().splitlines()
    assert len(rows) == 2
