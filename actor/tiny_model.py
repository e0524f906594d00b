"""`krl tiny-model DIR`: a small random-weight causal LM for tests, demos and CPU runs.

The directory it writes is an ordinary Hugging Face model directory (config.json,
model.safetensors, generation_config.json, tokenizer.json, tokenizer_config.json,
chat template), so vLLM and transformers load it exactly like a real model and
users can pass their own model directory in its place.

The tokenizer is a byte-level BPE trained here on local text: the Python sources
of the built-in problems (the kind of text the actor reads and writes), falling
back to the repository's own Python files when the problem set is missing or
small. It has ChatML special tokens and a Qwen-style chat template, so
`apply_chat_template(messages, add_generation_prompt=True)` works.

Everything is deterministic for a given seed: the corpus is read in sorted
order, BPE training is deterministic for a fixed input, and the weights come
from a seeded CPU generator.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

SPECIAL_TOKENS = ["<|endoftext|>", "<|im_start|>", "<|im_end|>", "<|pad|>"]
EOS_TOKEN = "<|im_end|>"
PAD_TOKEN = "<|pad|>"
MIN_HEAD_DIM = 32  # vLLM's CPU attention kernels reject smaller heads (16 fails)
MIN_CORPUS_BYTES = 50_000  # below this the problem set alone trains a poor BPE

# ChatML, as Qwen2 uses it: every message is <|im_start|>role\ncontent<|im_end|>\n.
CHAT_TEMPLATE = (
    "{%- for message in messages %}"
    "{{- '<|im_start|>' + message['role'] + '\\n' + message['content'] + '<|im_end|>' + '\\n' }}"
    "{%- endfor %}"
    "{%- if add_generation_prompt %}{{- '<|im_start|>assistant\\n' }}{%- endif %}"
)

# Random init at std 0.02 (the HF default) gives near-uniform next-token
# distributions in a model this small, in which every logprob is ~ -log(vocab)
# and a logprob comparison cannot tell one token from another. A wider init
# makes the distributions peaked, so tests comparing logprobs can fail.
INIT_STD = 0.3

_REPO_ROOT = Path(__file__).resolve().parent.parent
_PROBLEMS_DIR = _REPO_ROOT / "evaluator" / "problems" / "builtin"


def corpus_files(problems_dir: Path = _PROBLEMS_DIR, repo_root: Path = _REPO_ROOT) -> list[Path]:
    """The text the tokenizer trains on: built-in problems, plus repo sources if those are few."""
    files = sorted(problems_dir.rglob("*.py")) if problems_dir.is_dir() else []
    if sum(f.stat().st_size for f in files) < MIN_CORPUS_BYTES:
        skip = {".venv", ".git", "build", "node_modules"}
        extra = [
            p
            for p in sorted(repo_root.rglob("*.py"))
            if not skip.intersection(p.relative_to(repo_root).parts)
        ]
        files = sorted(set(files) | set(extra))
    if not files:
        raise FileNotFoundError(f"no Python files to train a tokenizer on under {repo_root}")
    return files


def train_tokenizer(files: list[Path], vocab_size: int):
    """A byte-level BPE (like Qwen's) with ChatML special tokens and a chat template."""
    from tokenizers import Tokenizer, decoders, models, pre_tokenizers, trainers
    from transformers import PreTrainedTokenizerFast

    bpe = Tokenizer(models.BPE())
    bpe.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False)
    bpe.decoder = decoders.ByteLevel()
    trainer = trainers.BpeTrainer(
        vocab_size=vocab_size,
        special_tokens=SPECIAL_TOKENS,
        initial_alphabet=pre_tokenizers.ByteLevel.alphabet(),
        show_progress=False,
    )
    texts = [f.read_text(encoding="utf-8", errors="replace") for f in files]
    bpe.train_from_iterator(texts, trainer=trainer, length=len(texts))
    tok = PreTrainedTokenizerFast(
        tokenizer_object=bpe,
        eos_token=EOS_TOKEN,
        pad_token=PAD_TOKEN,
        additional_special_tokens=["<|im_start|>", "<|endoftext|>"],
        model_max_length=1 << 16,
        clean_up_tokenization_spaces=False,
    )
    tok.chat_template = CHAT_TEMPLATE
    return tok


def model_config(arch: str, hidden: int, layers: int, heads: int, vocab: int, tok):
    """A transformers config for a Qwen2 or Llama model of the given size."""
    from transformers import LlamaConfig, Qwen2Config

    if vocab < len(tok):
        raise ValueError(f"vocab ({vocab}) is smaller than the tokenizer ({len(tok)} tokens)")
    cls = {"qwen2": Qwen2Config, "llama": LlamaConfig}[arch]
    return cls(
        vocab_size=vocab,
        hidden_size=hidden,
        intermediate_size=4 * hidden,
        num_hidden_layers=layers,
        num_attention_heads=heads,
        num_key_value_heads=heads,
        max_position_embeddings=8192,
        initializer_range=INIT_STD,
        tie_word_embeddings=False,
        bos_token_id=None,
        eos_token_id=tok.convert_tokens_to_ids(EOS_TOKEN),
        pad_token_id=tok.convert_tokens_to_ids(PAD_TOKEN),
        architectures=[{"qwen2": "Qwen2ForCausalLM", "llama": "LlamaForCausalLM"}[arch]],
        dtype="float32",
    )


def build(
    out_dir: str | Path,
    arch: str = "qwen2",
    hidden: int = 64,
    layers: int = 2,
    heads: int = 2,
    vocab: int = 2048,
    seed: int = 0,
) -> Path:
    """Write a tiny random model + tokenizer to `out_dir` and return its path."""
    import torch
    from transformers import AutoModelForCausalLM, GenerationConfig

    if hidden % heads or hidden // heads < MIN_HEAD_DIM:
        raise ValueError(
            f"hidden ({hidden}) / heads ({heads}) must be a whole head size "
            f">= {MIN_HEAD_DIM} (vLLM's CPU attention rejects smaller heads)"
        )
    out = Path(out_dir)
    tok = train_tokenizer(corpus_files(), vocab)
    config = model_config(arch, hidden, layers, heads, vocab, tok)
    torch.manual_seed(seed)  # from_config draws every weight from the global CPU generator
    model = AutoModelForCausalLM.from_config(config, dtype=torch.float32)
    out.mkdir(parents=True, exist_ok=True)
    model.save_pretrained(out, safe_serialization=True)
    tok.save_pretrained(out)
    eos_ids = [tok.convert_tokens_to_ids(t) for t in (EOS_TOKEN, "<|endoftext|>")]
    GenerationConfig(eos_token_id=eos_ids, pad_token_id=config.pad_token_id).save_pretrained(out)
    (out / "krl_tiny_model.json").write_text(
        json.dumps(
            {
                "arch": arch,
                "hidden": hidden,
                "layers": layers,
                "heads": heads,
                "vocab": vocab,
                "seed": seed,
                "tokenizer_tokens": len(tok),
            },
            indent=2,
        )
        + "\n"
    )
    return out


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("dir", help="output directory (created if missing)")
    parser.add_argument(
        "--arch",
        choices=["qwen2", "llama"],
        default="qwen2",
        help="model architecture (default qwen2)",
    )
    parser.add_argument("--hidden", type=int, default=64, help="hidden size (default 64)")
    parser.add_argument("--layers", type=int, default=2, help="decoder layers (default 2)")
    parser.add_argument(
        "--heads",
        type=int,
        default=2,
        help=f"attention heads; hidden/heads must be >= {MIN_HEAD_DIM} (default 2)",
    )
    parser.add_argument(
        "--vocab",
        type=int,
        default=2048,
        help="model vocabulary and BPE target size (default 2048)",
    )
    parser.add_argument("--seed", type=int, default=0, help="weight seed (default 0)")


def main(args: argparse.Namespace) -> int:
    try:
        out = build(
            args.dir, args.arch, args.hidden, args.layers, args.heads, args.vocab, args.seed
        )
    except ValueError as exc:  # a bad size: tell the user, no traceback
        print(f"krl tiny-model: {exc}", file=sys.stderr)
        return 2
    print(f"wrote {args.arch} tiny model to {out}")
    return 0
