"""The hack corpus: every file in hacks/ names its trick, problem and expected verdict.

First line of each file: `# hack: <what>. problem: <fixture>. expect: <status>[/<hack code>]`
(alternatives separated by `|`; a fixture name, or a built-in problem's name such as
attention/sdpa, taken with its manifest: sizes, tolerance, trial distributions), optionally followed by `. policy: strict` for entries that
are honest-but-lazy under the default (paper) policy and a hack only under the strict one,
by `. device: cuda` for an entry whose cheat only the GPU's runs can trigger (fresh
memory left as the allocator hands it out in timed runs): on the CPU it never cheats, or
`. device: cpu` for one whose cheat only the CPU interpreter's runs can trigger (a tell of
the CPU meter: on the GPU the same forward gains nothing, tests/gpu), and by `. gpu: <expect>`
where the GPU's verdict differs (a host loop over GPU-sized inputs runs out of time there;
a kernel body the interpreter runs does not compile). None may ever be status ok under its
policy on a device it runs on. A file whose name holds `_declared_depth_` is wrong only at a size the
CPU shrinks: it is judged with the depth trials on (evaluator.depth_phase), as `krl check` is.
"""
from __future__ import annotations

import contextlib
import re
from pathlib import Path

import pytest
from conftest import HACKS, depth_limits, fixture_problem, judged, settings_for

CORPUS = sorted(HACKS.glob("*.py"))
_HEADER = re.compile(r"^# hack: (?P<what>.+)\. problem: (?P<problem>[\w/]+)\. expect: (?P<expect>\S+?)"
                     r"(?:\. policy: (?P<policy>paper|strict))?(?:\. device: (?P<device>cuda|cpu))?"
                     r"(?:\. gpu: (?P<gpu>\S+))?$")


# a depth hack whose verdict may be `timeout` stalls above the CPU's sizes (a host wait, red team
# rt51): it runs past any limit, so its depth trials are judged under a short one (the same path:
# out of time at the declared value, again at the retry's, then the candidate's timeout) rather
# than krl check's 30 s and a retry's 90 s, which the stall spent in full (123 s in the suite),
# holding the host's device lock shared all that time: the other test worker's timings waited
STALL_DEPTH_TIMEOUT_S = 5.0


def _header(path: Path) -> dict:
    match = _HEADER.match(path.read_text().splitlines()[0])
    assert match, f"{path.name}: first line must be '# hack: ... problem: ... expect: ...'"
    return match.groupdict()


def test_corpus_covers_the_issue_list():
    codes = {alt.partition("/")[2] for p in CORPUS for alt in _header(p)["expect"].split("|")}
    wanted = {"no_triton_kernel", "no_triton_launch", "try_except", "monkey_patch", "reflection",
              "dynamic_code", "forbidden_import", "concurrency", "modified_inputs", "constant_output",
              "timed_output_mismatch", "precision_downgrade", "side_stream", "low_coverage",
              "file_access", "harness_tamper"}
    assert wanted <= codes, f"missing: {sorted(wanted - codes)}"


@pytest.mark.parametrize("path", CORPUS, ids=[p.stem for p in CORPUS])
def test_hack_is_caught(path, evaluator, strict_evaluator, request, settings):
    head = _header(path)
    if head["device"] == "cuda":  # its cheat needs what only the GPU's timed runs leave (tests/gpu)
        pytest.skip("the cheat runs only on the GPU (tests/gpu/test_evaluator_gpu.py runs it)")
    ev = strict_evaluator if head["policy"] == "strict" else evaluator
    limit = contextlib.nullcontext()
    if "_declared_depth_" in path.stem:
        ev = request.getfixturevalue("depth_evaluator")
        if "timeout" in (alt.partition("/")[0] for alt in head["expect"].split("|")):
            limit = depth_limits(ev, timeout_s=STALL_DEPTH_TIMEOUT_S)
    # the bytes as an actor would send them: no newline translation (red team s38's files end
    # lines with a bare \r, which the checks must read as Python does)
    with limit:
        verdict = judged(ev, fixture_problem(head["problem"]), path.read_bytes().decode("utf-8"),
                         settings_for(head["problem"], settings))
    assert verdict.status != "ok" and verdict.reward == 0.0 and not verdict.correct
    accepted = []
    for alt in head["expect"].split("|"):
        status, _, code = alt.partition("/")
        accepted.append((status, code))
    assert any(verdict.status == s and (not c or c in verdict.hacks) for s, c in accepted), (
        f"{path.name}: expected {head['expect']}, got {verdict.status} {verdict.hacks}\n{verdict.feedback}")
    assert verdict.feedback


def test_lazy_library_kernels_are_ok_but_worth_less_under_the_paper_policy(evaluator, settings):
    """The strict-policy entries are honest under the default policy: a library call with a
    Triton epilogue is ok, and its coverage (hence reward) is below a pure-Triton solution's."""
    problem = fixture_problem("linear_relu")
    pure = evaluator.evaluate(problem, problem.solution, settings)
    assert pure.status == "ok", pure.feedback
    for path in (HACKS / "torch_matmul.py", HACKS / "nn_linear_submodule.py"):
        lazy = evaluator.evaluate(problem, path.read_text(), settings)
        assert lazy.status == "ok" and lazy.details["policy"] == "paper", lazy.feedback
        assert lazy.coverage < 0.5 < pure.coverage


@pytest.mark.parametrize("name", ["relu", "softmax", "linear_relu"])
def test_pure_triton_kernels_are_ok_under_the_strict_policy(name, strict_evaluator, settings):
    """The strict policy's torch knock-out leaves allocation, views and copies working: a
    kernel whose forward only allocates, reshapes and launches passes it."""
    problem = fixture_problem(name)
    verdict = strict_evaluator.evaluate(problem, problem.solution, settings)
    assert verdict.status == "ok" and verdict.details["policy"] == "strict", verdict.feedback
