"""scripts/uncertain_sft.py: the SFT mix that leaves the demo's and the learning
benchmark's start policy uncertain (correct at turn 1 at most 40% of the time)."""

import json
import re
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "scripts"))
import uncertain_sft as U  # noqa: E402

from common import prompts  # noqa: E402
from common.extract import extract_code  # noqa: E402
from common.problemset import load_problems  # noqa: E402


@pytest.fixture(scope="module")
def problems():
    return load_problems("builtin:" + ",".join(U.PROBLEMS))


def test_every_problem_gets_five_variants_that_differ_at_one_place_in_forward(problems):
    for p in problems:
        v = U.variants(p.solution, p.source)
        assert set(v) == set(U.VARIANTS)
        assert v["fast"] == p.solution
        assert len(set(v.values())) == 5
        assert "BLOCK = 64\n" in v["slow"] and "BLOCK = 1024" not in v["slow"]
        expr = p.source.split("return ", 1)[1].split("\n")[0]  # the reference's expression
        for name, added in (
            ("wrong", "n = n // BLOCK * BLOCK"),
            ("broken", "BLOCK = triton.next_power_of_two(BLOCK)"),
            ("hack", f"return {expr}"),
        ):
            before, after = v[name].split("BLOCK = 1024\n")
            assert before == p.solution.split("BLOCK = 1024\n")[0]  # the same text up to it,
            assert after.lstrip(" ").startswith(added + "\n")  # one line added,
            assert after.split("\n", 1)[1] == p.solution.split("BLOCK = 1024\n")[1]  # the rest


def test_the_mix_is_a_gamble_at_turn_one_and_repairs_half_the_failures():
    shares = U.turn_one_shares(0.7)  # configs/learning-cpu.yaml's temperature
    assert sum(shares.values()) == pytest.approx(1.0)
    assert 0.25 <= shares["fast"] + shares["slow"] <= 0.4
    assert 0.1 <= shares["hack"] <= 0.25 and shares["fast"] >= 0.15
    assert U.turn_one_shares(1.0)["fast"] == pytest.approx(0.2)  # the mix's own odds
    failed = {k: c for k, c in U.MIX.items() if k[0] not in U.CORRECT}
    repaired = sum(c for (_, b), c in failed.items() if b in U.CORRECT) / sum(failed.values())
    assert repaired == pytest.approx(0.5)
    # A correct first turn is never followed by a failing one in the data.
    assert all(b in U.CORRECT for (a, b) in U.MIX if a in U.CORRECT)


def test_conversations_use_the_actor_prompts_and_answers_carry_their_variant(problems, tmp_path):
    out = tmp_path / "sft.jsonl"
    n = U.write(problems, out)
    rows = [json.loads(line) for line in out.read_text().splitlines()]
    assert n == len(rows) == len(problems) * sum(U.MIX.values())
    p = problems[0]
    codes = U.variants(p.solution, p.source)
    for row in rows[: sum(U.MIX.values())]:
        m = row["messages"]
        assert [x["role"] for x in m] == ["system", "user", "assistant", "user", "assistant"]
        assert m[1]["content"] == prompts.first_turn(p.source)
        assert m[3]["content"].startswith(prompts.FEEDBACK.split("{")[0])
        for msg, variant in zip((m[2], m[4]), row["variants"]):
            assert U.classify(msg["content"]) == variant
            assert extract_code(msg["content"]).strip() == codes[variant].strip()
    assert U.classify("Something else entirely") is None
    garbled = codes["fast"].replace("BLOCK = 1024\n", "BLOCK = 1024\n        n = n // 2\n")
    assert U.classify(prompts.answer(garbled)) is None  # no variant's line after BLOCK


def test_recorded_feedback_is_what_turn_two_reads_each_recording_in_turn(problems, tmp_path):
    """The actor shows the evaluator's real feedback at turn 2: the SFT data must carry
    those texts (all recordings of a variant used), not the fixed stand-ins."""
    p = problems[0]
    recorded = {
        "fast": [
            "Correct. Reference 0.1 ms, yours 15 ms",
            "Correct. Reference 0.2 ms, yours 14 ms",
        ],
        "hack": "Rejected: no kernel of yours ran",
    }
    rows = U.conversations(p.name, p.source, p.solution, recorded)
    shown = {}
    for row in rows:
        text = row["messages"][3]["content"]
        shown.setdefault(row["variants"][0], set()).add(text)
    assert shown["fast"] == {prompts.feedback_turn(t) for t in recorded["fast"]}
    assert shown["hack"] == {prompts.feedback_turn(recorded["hack"])}
    assert shown["slow"] == {prompts.feedback_turn(U.DEFAULT_FEEDBACK["slow"])}
    path = tmp_path / "fb.json"
    path.write_text(json.dumps({p.name: recorded}))
    U.main(
        [str(tmp_path / "sft.jsonl"), "--problems", f"builtin:{p.name}", "--feedback", str(path)]
    )
    written = [json.loads(x) for x in (tmp_path / "sft.jsonl").read_text().splitlines()]
    assert [r["messages"] for r in written] == [r["messages"] for r in rows]


def test_copies_jitter_only_the_figures_of_feedback_that_varies(problems):
    """Later copies of the mix draw new digits into feedback whose figures vary from check
    to check, so a tiny policy does not key its turn 2 on one recorded timing; a feedback
    that never varies (a compile error's line) is kept exactly."""
    p = problems[0]
    recorded = {
        "fast": [
            "Correct. Reference 0.1966 ms, yours 21 ms (speedup 0.00936x)",
            "Correct. Reference 0.0966 ms, yours 218.8 ms (speedup 0.000441x)",
        ],
        "broken": ["Compile error:\nline 25: no such name"] * 2,
    }
    rows = U.conversations(p.name, p.source, p.solution, recorded, copies=3)
    assert len(rows) == 3 * sum(U.MIX.values())
    fast = [r["messages"][3]["content"] for r in rows if r["variants"][0] == "fast"]
    assert fast[:2] == [prompts.feedback_turn(t) for t in recorded["fast"]]
    assert len(set(fast)) == len(fast) == 6  # every copy its own figures
    shape = lambda t: re.sub(r"\d", "0", t)  # noqa: E731
    assert {shape(t) for t in fast[2:]} <= {
        shape(prompts.feedback_turn(t)) for t in recorded["fast"]
    }
    broken = {r["messages"][3]["content"] for r in rows if r["variants"][0] == "broken"}
    assert broken == {prompts.feedback_turn(recorded["broken"][0])}
    assert rows == U.conversations(p.name, p.source, p.solution, recorded, copies=3)  # seeded


def test_a_solution_of_another_shape_is_refused():
    with pytest.raises(ValueError, match="expected shape"):
        U.variants("import torch\n", "def forward(self, x):\n    return x\n")


def test_garbles_are_seeded_slips_of_one_line_that_match_no_clean_answer(problems):
    for p in problems:
        g = U.garbles(p.solution, p.source)
        assert list(g) == [f"garbled{k}" for k in range(U.GARBLES)]
        assert g == U.garbles(p.solution, p.source)  # seeded
        clean = set(U.variants(p.solution, p.source).values())
        for k, code in enumerate(g.values()):
            base = U.variants(p.solution, p.source)[U.VARIANTS[k % len(U.VARIANTS)]]
            changed = [(a, b) for a, b in zip(base.split("\n"), code.split("\n")) if a != b]
            assert code not in clean and len(changed) == 1  # one line,
            a, b = changed[0]
            assert 3 <= len(a) - len(b) <= 10  # a few characters dropped


def test_a_recorded_garbled_first_turn_is_context_only_and_turn_two_is_trained(problems):
    """Session 24: most failed first turns were garbled code whose feedback the mix never
    showed, and turn 2 after them was word salad. With a garble's recorded feedback the mix
    holds conversations that open with it (never trained) and answer cleanly at turn 2."""
    p = problems[0]
    plain = U.conversations(p.name, p.source, p.solution, {"fast": "Correct."}, copies=2)
    assert all(r["variants"][0] != "garbled" for r in plain)  # nothing recorded: none
    recorded = {
        "garbled0": ["Compile error:\nline 22: `to_like` is not defined"],
        "garbled2": "Runtime error: out of bounds",
    }
    rows = U.conversations(p.name, p.source, p.solution, recorded, copies=2)
    garbled = [r for r in rows if r["variants"][0] == "garbled"]
    assert len(rows) - len(garbled) == 2 * sum(U.MIX.values())
    assert len(garbled) == 2 * sum(U.GARBLED_MIX.values())
    assert sorted(r["variants"][1] for r in garbled) == sorted(
        v for v, c in U.GARBLED_MIX.items() for _ in range(2 * c)
    )
    codes, g = U.variants(p.solution, p.source), U.garbles(p.solution, p.source)
    shown = set()
    for r in garbled:
        m = r["messages"]
        assert m[2]["train"] is False and "train" not in m[4]
        assert extract_code(m[2]["content"]).strip() in {
            g["garbled0"].strip(),
            g["garbled2"].strip(),
        }
        assert extract_code(m[4]["content"]).strip() == codes[r["variants"][1]].strip()
        shown.add(m[3]["content"])
    assert shown == {
        prompts.feedback_turn(recorded["garbled0"][0]),
        prompts.feedback_turn(recorded["garbled2"]),
    }
    # (krl sft reads the flag: tests/unit/learner/test_sft.py)


def test_turn_two_is_trained_on_the_very_prompt_the_actor_builds_after_that_feedback(
    problems, tiny_model_dir
):
    """Session 24's turn 2 matched no variant 92-100% of the time. The SFT data's turn-2
    context (its turn-1 answer, trained or context only, then the recorded feedback) must be,
    token for token, the prompt the actor builds for turn 2 after the same answer and the
    evaluator's same feedback; a drift between the two (a template, a strip, a cut) would
    leave turn 2 off the data it was taught on."""
    from transformers import AutoTokenizer

    from actor.prompts import Feedback, PastTurn, Prompter
    from common.config.actor import PromptsConfig
    from common.problemset import to_payload
    from learner.sft import turn_samples

    tok = AutoTokenizer.from_pretrained(tiny_model_dir)

    class Encoder:  # what actor.engine.Engine does
        tokenizer = tok

        def chat_prompt_ids(self, messages):
            text = tok.apply_chat_template(
                prompts.plain_messages(tok, list(messages)),
                tokenize=False,
                add_generation_prompt=True,
            )
            return tok.encode(text, add_special_tokens=False)

    p = problems[0]
    recorded = {
        "fast": ["Correct. Reference 0.15 ms, yours 20.1 ms (speedup 0.0075x; evaluator clock).\n"],
        "broken": "Compile error:\nline 25: `triton.next_power_of_two` does not exist",
        "garbled1": "Compile error:\nline 22: invalid syntax",
    }
    status = {"fast": "ok", "broken": "compile_error", "garbled": "compile_error"}
    rows = U.conversations(p.name, p.source, p.solution, recorded)
    picked = [r for r in rows if r["variants"][0] in ("fast", "broken", "garbled")]
    assert {r["variants"][0] for r in picked} == {"fast", "broken", "garbled"}
    actor = Prompter(PromptsConfig(), Encoder(), 2048)  # configs/learning-cpu.yaml's length
    for row in picked:
        m = row["messages"]
        trained = turn_samples(tok, m)
        sft_turn2 = trained[-1].input_ids[: trained[-1].prompt_len].tolist()
        first = row["variants"][0]
        text = recorded[first if first != "garbled" else "garbled1"]
        text = text if isinstance(text, str) else text[0]
        answer = actor.context_answer(m[2]["content"])  # turn 1 as the model wrote it
        _, ids = actor.next_turn(
            to_payload(p), [PastTurn(answer, "")], Feedback(status[first], text), 1
        )
        assert ids == sft_turn2, row["variants"]
        if first != "garbled":  # turn 1 trained on the actor's first prompt too
            assert trained[0].input_ids[: trained[0].prompt_len].tolist() == actor.first_prompt(
                to_payload(p)
            )
        # and the turn-2 answer is read back as the variant it was taught as
        assert U.classify(m[4]["content"]) == row["variants"][1]
