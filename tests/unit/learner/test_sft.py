"""SFT data: the built-in problems become conversations in the actor's wording, and only
the assistant's tokens of each turn are trained; data order and sharding."""

from __future__ import annotations

import json

import pytest
from transformers import AutoTokenizer

from common import prompts
from common.extract import extract_code
from common.problemset import builtin_problems
from launcher.cli import main as krl
from learner.sft import read_conversations, shard, step_conversations, turn_samples


@pytest.fixture(scope="module")
def builtin_jsonl(tmp_path_factory):
    path = tmp_path_factory.mktemp("sft") / "builtin.jsonl"
    assert krl(["sft-data", str(path)]) == 0
    return path


def test_sft_data_turns_every_solution_into_a_two_round_conversation(builtin_jsonl):
    rows = [json.loads(line) for line in builtin_jsonl.read_text().splitlines()]
    problems = {p.name: p for p in builtin_problems() if p.solution}
    assert sorted(r["problem"] for r in rows) == sorted(problems)
    for row in rows:
        p, msgs = problems[row["problem"]], row["messages"]
        assert [m["role"] for m in msgs] == ["system", "user", "assistant", "user", "assistant"]
        assert msgs[0]["content"] == prompts.SYSTEM
        assert msgs[1]["content"] == prompts.first_turn(p.source)
        assert p.source.strip() in msgs[1]["content"]
        assert "Correct" in msgs[3]["content"]
        # What the actor's extraction reads back from each answer is the reference solution.
        assert extract_code(msgs[2]["content"]).strip() == p.solution.strip()
        assert extract_code(msgs[4]["content"]).strip() == p.solution.strip()
    assert read_conversations(builtin_jsonl) == [r["messages"] for r in rows]


def test_only_each_answer_and_its_end_marker_are_response_tokens(tiny_model_dir, builtin_jsonl):
    tok = AutoTokenizer.from_pretrained(tiny_model_dir)
    messages = read_conversations(builtin_jsonl)[0]
    samples = turn_samples(tok, messages)
    assert len(samples) == 2
    for sample, answer_at in zip(samples, (2, 4)):
        ids = sample.input_ids.tolist()
        context, response = ids[: sample.prompt_len], ids[sample.prompt_len :]
        assert tok.decode(response) == messages[answer_at]["content"] + "<|im_end|>\n"
        assert (
            context
            == tok(
                tok.apply_chat_template(
                    messages[:answer_at], tokenize=False, add_generation_prompt=True
                ),
                add_special_tokens=False,
            )["input_ids"]
        )
    # The second turn's context holds the first answer: it is context there, not trained twice.
    assert samples[1].prompt_len > samples[0].input_ids.shape[0]


def test_malformed_conversations_are_refused_with_their_line(tmp_path):
    bad = tmp_path / "bad.jsonl"
    bad.write_text(
        json.dumps(
            {
                "messages": [
                    {"role": "user", "content": "hi"},
                    {"role": "assistant", "content": "yo"},
                ]
            }
        )
        + "\n"
        + json.dumps({"messages": [{"role": "user", "content": "only a question"}]})
    )
    with pytest.raises(ValueError, match=r"bad.jsonl:2: no assistant message"):
        read_conversations(bad)
    bad.write_text(json.dumps({"messages": [{"role": "robot", "content": "x"}]}))
    with pytest.raises(ValueError, match=r":1: each message needs a role"):
        read_conversations(bad)


def test_every_conversation_is_seen_once_per_epoch_in_a_seeded_order():
    usable = [0, 2, 3, 5, 7, 8, 9]
    stream = [i for step in range(7) for i in step_conversations(usable, 3, step, seed=1)]
    for epoch in range(3):  # 21 positions = 3 epochs of 7
        assert sorted(stream[epoch * 7 : (epoch + 1) * 7]) == usable
    assert stream[:7] != stream[7:14]  # a fresh order each epoch
    assert step_conversations(usable, 3, 4, seed=1) == stream[12:15]  # resumable by step
    assert step_conversations(usable, 3, 0, seed=2) != stream[:3]


def test_shards_split_whole_conversations_by_tokens(tiny_model_dir, builtin_jsonl):
    tok = AutoTokenizer.from_pretrained(tiny_model_dir)
    data = [turn_samples(tok, m) for m in read_conversations(builtin_jsonl)[:6]]
    shards = shard(range(6), data, world=2)
    assert sorted(i for s in shards for i in s) == list(range(6))
    cost = [sum(s.input_ids.shape[0] for i in part for s in data[i]) for part in shards]
    biggest = max(sum(s.input_ids.shape[0] for s in turns) for turns in data)
    assert abs(cost[0] - cost[1]) <= biggest


def test_an_assistant_message_marked_train_false_is_context_only(tiny_model_dir, tmp_path):
    """A garbled first answer before a repair (the learning benchmark's mix): the repair is
    trained with the garbled answer in its context; the garbled answer itself is not."""
    tok = AutoTokenizer.from_pretrained(tiny_model_dir)
    msgs = [
        {"role": "user", "content": "write it"},
        {"role": "assistant", "content": "garbled", "train": False},
        {"role": "user", "content": "Compile error: line 3"},
        {"role": "assistant", "content": "fixed"},
    ]
    path = tmp_path / "c.jsonl"
    path.write_text(json.dumps({"messages": msgs}) + "\n")
    conv = read_conversations(path)[0]
    assert conv == msgs
    samples = turn_samples(tok, conv)
    assert len(samples) == 1
    ids = samples[0].input_ids.tolist()
    assert tok.decode(ids[samples[0].prompt_len :]) == "fixed<|im_end|>\n"
    assert "garbled" in tok.decode(ids[: samples[0].prompt_len])
    path.write_text(json.dumps({"messages": msgs[:2]}) + "\n")
    with pytest.raises(ValueError, match="no assistant message"):
        read_conversations(path)
    path.write_text(json.dumps({"messages": [{**msgs[1], "train": "no"}]}) + "\n")
    with pytest.raises(ValueError, match="must be true or false"):
        read_conversations(path)
