"""Weights for the tiny model that make it answer every prompt with a fixed code block.

The random tiny model never writes a fenced code block, so the evaluator would never
be asked anything. These hand-set weights turn the same architecture (Qwen2, hidden
64, two heads of 32, two layers; same tokenizer) into a trigram machine that, after
any chat prompt, writes

    ```\\n\\nclass ModelNew:\\n    pass\\n```\\n\\nclass ModelNew:\\n    pass\\n``` ...

over and over until max_tokens: every other fence closes a block defining ModelNew,
which the evaluator judges (a format error: ModelNew has no forward). Loading them
through the hub is the tests' weight update: answers change from noise to code.

How: layer 0's two attention heads ignore content (q/k weights are zero) and use
only their biases, set so that RoPE makes head 1 attend to the previous token and
head 2 to the one before it (a sum of cosines over the rotary frequencies peaks at
that offset, >= 21 nats above any other offset up to 2048). Their values copy the
token's code, so the residual holds (x_{t-2}, x_{t-1}, x_t) in three 16-dim
subspaces. Layer 0's MLP has one neuron per trigram of the script; it fires only
when all three match and writes the next token's direction, which lm_head reads.
Layer 1 is switched off. Every next token then has probability ~1 (logit margin ~48).
From any other state the model writes backticks, which lead into the script.
"""

from __future__ import annotations

import math
from pathlib import Path

import numpy as np
import torch
from safetensors.torch import load_file

# The answer's repeating unit, as tokenizer tokens (byte-level BPE spelling).
CYCLE = ["`", "`", "`", "ĊĊ", "class", "ĠModelNew", ":", "Ċ", "ĠĠĠ", "Ġpass", "Ċ"]
PROMPT_TAIL = ["si", "stant", "Ċ"]  # "<|im_start|>assistant\n" ends in these
TEXT_UNIT = "```\n\nclass ModelNew:\n    pass\n"
SUB, OUT, CONST = 16, 48, 63  # residual layout: x_t 0..15, x_{t-1} 16..31, x_{t-2} 32..47


def _offset_weights(theta: np.ndarray, max_len: int = 2048) -> np.ndarray:
    """Weights over rotary frequencies that make sum_i A_i cos(k theta_i) peak at k=0 by
    the largest margin over 0 < |k| < max_len (multiplicative weights on the worst k)."""
    k = np.arange(-2, max_len)
    k = k[k != 0]
    gap = 1 - np.cos(np.outer(k, theta))
    a = np.ones(len(theta)) / len(theta)
    for _ in range(4000):
        a *= np.exp(0.05 * gap[np.argmin(gap @ a)])
        a /= a.sum()
    assert (gap @ a).min() > 0.2
    return a


def scripted_weights(model_dir: str | Path, tokenizer) -> dict[str, torch.Tensor]:
    w = {
        n: torch.zeros_like(t) for n, t in load_file(Path(model_dir) / "model.safetensors").items()
    }
    tokens = list(dict.fromkeys(CYCLE + PROMPT_TAIL))
    ids = tokenizer.convert_tokens_to_ids(tokens)
    assert len(set(ids)) == len(tokens) and tokenizer.unk_token_id not in ids, "tokenizer changed"
    code = {t: i for i, t in enumerate(tokens)}
    outs = {t: i for i, t in enumerate(dict.fromkeys(CYCLE))}
    for n, t in w.items():
        if n.endswith("norm.weight"):
            t.fill_(1.0)
    emb = w["model.embed_tokens.weight"]
    emb[:, CONST] = 1.0
    for t, i in zip(tokens, ids):
        emb[i, code[t]] = 1.0
    _previous_token_heads(w)
    _trigram_mlp(w, code, outs)
    for t, i in zip(
        dict.fromkeys(CYCLE), tokenizer.convert_tokens_to_ids(list(dict.fromkeys(CYCLE)))
    ):
        w["lm_head.weight"][i, OUT + outs[t]] = 6.0
    # Where no trigram fires (mid-answer after an in-flight update), write a backtick:
    # three of them lead into the script. Firing states outweigh this by ~46 nats.
    w["lm_head.weight"][ids[code["`"]], CONST] = 20.0
    return w


def _previous_token_heads(
    w: dict[str, torch.Tensor], head_dim: int = 32, scale: float = 80.0
) -> None:
    half = head_dim // 2
    theta = 10000.0 ** (-np.arange(half) / half)
    r = np.sqrt(scale * _offset_weights(theta) * math.sqrt(head_dim))
    p = "model.layers.0.self_attn."
    norm = math.sqrt(64 / 2)  # RMSNorm of a script token's embedding (two ones in 64 dims)
    for head, delta in ((0, 1), (1, 2)):
        base = head * head_dim
        for i in range(half):
            w[p + "k_proj.bias"][base + i] = r[i]
            w[p + "q_proj.bias"][base + i] = r[i] * math.cos(delta * theta[i])
            w[p + "q_proj.bias"][base + half + i] = -r[i] * math.sin(delta * theta[i])
        for j in range(SUB):
            w[p + "v_proj.weight"][base + j, j] = 1.0 / norm
            w[p + "o_proj.weight"][SUB * (head + 1) + j, base + j] = 1.0


def _trigram_mlp(
    w: dict[str, torch.Tensor], code: dict[str, int], outs: dict[str, int], s: float = 5.0
) -> None:
    seq = PROMPT_TAIL + CYCLE * 3
    rules = {}
    for t in range(2, len(seq) - 1):
        rules.setdefault((seq[t - 2], seq[t - 1], seq[t]), seq[t + 1])
    p = "model.layers.0.mlp."
    for j, ((a, b, c), nxt) in enumerate(rules.items()):
        gate = w[p + "gate_proj.weight"][j]
        gate[code[c]] = gate[SUB + code[b]] = gate[2 * SUB + code[a]] = s
        gate[CONST] = -2.5 * s  # fires only when all three match
        w[p + "up_proj.weight"][j, CONST] = 1.0
        w[p + "down_proj.weight"][OUT + outs[nxt], j] = 2.5
