"""`krl tiny-model`: a directory transformers loads, with a working chat template and tokenizer.

vLLM loading the same directory is covered by every test that uses the
`vllm_engine` fixture (tests/conftest.py).
"""

from __future__ import annotations

import json

import torch
from safetensors.torch import load_file

from launcher.cli import main as krl

CHAT = [
    {"role": "system", "content": "You write Triton kernels."},
    {"role": "user", "content": "Faster:\ndef forward(self, x):\n    return torch.relu(x) * 2"},
]


def test_cli_writes_a_llama_model_transformers_runs(tmp_path):
    from transformers import AutoModelForCausalLM, AutoTokenizer

    out = tmp_path / "llama-tiny"
    assert (
        krl(
            [
                "tiny-model",
                str(out),
                "--arch",
                "llama",
                "--hidden",
                "64",
                "--heads",
                "2",
                "--layers",
                "1",
                "--vocab",
                "1024",
            ]
        )
        == 0
    )
    tok = AutoTokenizer.from_pretrained(out)
    model = AutoModelForCausalLM.from_pretrained(out)
    assert model.config.model_type == "llama"
    assert model.config.hidden_size // model.config.num_attention_heads >= 32
    assert len(tok) <= model.config.vocab_size == 1024
    ids = tok.apply_chat_template(CHAT, tokenize=False, add_generation_prompt=True)
    ids = tok.encode(ids, add_special_tokens=False)
    with torch.no_grad():
        logits = model(torch.tensor([ids])).logits
    assert logits.shape == (1, len(ids), 1024)
    assert torch.isfinite(logits).all()


def test_chat_template_renders_chatml_with_generation_prompt(tiny_model_dir):
    from transformers import AutoTokenizer

    tok = AutoTokenizer.from_pretrained(tiny_model_dir)
    text = tok.apply_chat_template(CHAT, tokenize=False, add_generation_prompt=True)
    assert text.startswith("<|im_start|>system\nYou write Triton kernels.<|im_end|>\n")
    assert CHAT[1]["content"] in text
    assert text.endswith("<|im_end|>\n<|im_start|>assistant\n")
    ids = tok.encode(text, add_special_tokens=False)
    # Each ChatML marker is one special token, not spelled out of pieces.
    assert ids.count(tok.convert_tokens_to_ids("<|im_start|>")) == 3
    assert tok.eos_token == "<|im_end|>" and tok.pad_token == "<|pad|>"
    gen = json.loads((tiny_model_dir / "generation_config.json").read_text())
    assert tok.convert_tokens_to_ids("<|im_end|>") in gen["eos_token_id"]


def test_tokenizer_round_trips_code_and_compresses_it(tiny_model_dir):
    from transformers import AutoTokenizer

    tok = AutoTokenizer.from_pretrained(tiny_model_dir)
    source = (
        "import triton\nimport triton.language as tl\n\n@triton.jit\n"
        "def add_kernel(x_ptr, y_ptr, n, BLOCK: tl.constexpr):\n"
        "    pid = tl.program_id(0)  # ünïcode ✓\n\tretürn None\n"
    )
    ids = tok.encode(source, add_special_tokens=False)
    assert tok.decode(ids) == source
    assert len(ids) < len(source.encode()) / 2  # BPE merges learned from code


def test_same_seed_gives_same_model_other_seed_differs(tmp_path, tiny_model_dir):
    from actor.tiny_model import build

    first, again = build(tmp_path / "first", seed=0), build(tmp_path / "again", seed=0)
    other = build(tmp_path / "other", seed=1)
    ref = load_file(tiny_model_dir / "model.safetensors")
    for d in (first, again):
        same = load_file(d / "model.safetensors")
        assert ref.keys() == same.keys()
        assert all(torch.equal(ref[k], same[k]) for k in ref)
    # The tokenizer depends on the corpus too, which other commits may change between
    # the session's build and this test, so it is compared between back-to-back builds.
    assert (first / "tokenizer.json").read_bytes() == (again / "tokenizer.json").read_bytes()
    diff = load_file(other / "model.safetensors")
    name = "model.layers.0.mlp.up_proj.weight"
    assert not torch.equal(ref[name], diff[name])


def test_head_size_below_32_is_refused(tmp_path, capsys):
    assert krl(["tiny-model", str(tmp_path / "bad"), "--hidden", "64", "--heads", "4"]) == 2
    assert "head size >= 32" in capsys.readouterr().err
    assert not (tmp_path / "bad").exists()
