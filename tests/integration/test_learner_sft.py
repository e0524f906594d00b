"""`krl sft-data` then `krl sft` on the tiny model (DeepSpeed on the CPU, fixed seed): the
run stops, resumes from its checkpoint, and the Hugging Face model it writes gives the
built-in reference solutions a clearly lower assistant-token loss than the base model."""

from __future__ import annotations

import json

import pytest
import torch
from transformers import AutoModelForCausalLM, AutoTokenizer

from launcher.cli import main as krl
from learner.sft import read_conversations, turn_samples

N_CONVERSATIONS = 4  # the shortest built-in ones: a few dozen CPU steps stay fast


def _answer_nll(model_dir, conversations) -> float:
    """Mean negative log-likelihood per assistant token, scored by plain transformers."""
    tok = AutoTokenizer.from_pretrained(model_dir)
    model = AutoModelForCausalLM.from_pretrained(model_dir, dtype=torch.float32)
    total, count = 0.0, 0
    with torch.no_grad():
        for messages in conversations:
            for s in turn_samples(tok, messages):
                logp = model(s.input_ids[None]).logits[0].log_softmax(-1)
                p = s.prompt_len
                total -= float(logp[p - 1 : -1].gather(-1, s.input_ids[p:, None]).sum())
                count += s.response_len
    return total / count


@pytest.fixture
def one_thread():
    """Train on one CPU thread: on a loaded 2-core machine two OpenMP threads stall each
    other (tiny-model steps then take 0.2 to 5 s); one thread keeps them near 0.3 s."""
    before = torch.get_num_threads()
    torch.set_num_threads(1)
    yield
    torch.set_num_threads(before)


def test_sft_resumes_and_lowers_the_loss_on_reference_solutions(
    tiny_model_dir, tmp_path, one_thread
):
    full = tmp_path / "all.jsonl"
    assert krl(["sft-data", str(full)]) == 0
    rows = sorted(full.read_text().splitlines(), key=len)[:N_CONVERSATIONS]
    data = tmp_path / "short.jsonl"
    data.write_text("\n".join(rows) + "\n")
    out = tmp_path / "sft"
    args = [
        "sft",
        "--model",
        str(tiny_model_dir),
        "--data",
        str(data),
        "--out",
        str(out),
        "lr=3e-3",
        "conversations_per_step=2",
        "checkpoint_every=4",
        "trainer.micro_batch_tokens=2048",
    ]

    assert krl(args + ["max_steps=8"]) == 0  # a run that stops at step 8 ...
    assert (out / "checkpoints" / "step_00000008" / "COMPLETE").is_file()
    assert krl(args + ["max_steps=20"]) == 0  # ... and carries on from there
    history = json.loads((out / "progress.json").read_text())["history"]
    assert [h["step"] for h in history] == list(range(1, 21))

    conversations = read_conversations(data)
    before = _answer_nll(tiny_model_dir, conversations)
    after = _answer_nll(out / "hf", conversations)
    assert after < 0.5 * before, (before, after)
    assert history[-1]["loss"] < history[0]["loss"] - 1.0
