"""The policy model: loading a Hugging Face causal LM and scoring response tokens.

Any `AutoModelForCausalLM` directory works (Qwen2/3, Llama, the tiny test model); remote
code is never trusted. `response_logprobs` runs one micro-batch and returns the log
probability of every response token under the model, in sample order: only the
positions that predict a response token go through the LM head (prompts of later turns
are long and their logits are never needed).
"""

from __future__ import annotations

import torch
from transformers import AutoModelForCausalLM, PreTrainedModel

from common.config.learner import TrainerConfig
from learner.batch import MicroBatch

_DTYPES = {"float32": torch.float32, "bfloat16": torch.bfloat16}


def resolve_dtype(name: str, on_gpu: bool) -> torch.dtype:
    """'auto' is bfloat16 on a GPU and float32 on the CPU (where bf16 matmuls are slow)."""
    if name == "auto":
        return torch.bfloat16 if on_gpu else torch.float32
    return _DTYPES[name]


def resolve_attention(name: str, packing: bool, on_gpu: bool) -> str:
    """'auto' is flex_attention for packed rows on a GPU (it skips the masked-out blocks
    between turns), else sdpa (flex attention on the CPU needs a compiler toolchain)."""
    if name == "auto":
        return "flex_attention" if packing and on_gpu else "sdpa"
    return name


def load_model(cfg: TrainerConfig, dtype: torch.dtype, on_gpu: bool) -> PreTrainedModel:
    """Load cfg.model for training: no KV cache, optional gradient checkpointing."""
    if not cfg.model:
        raise ValueError("learner.trainer.model is empty: give the path of a Hugging Face model")
    model = AutoModelForCausalLM.from_pretrained(
        cfg.model,
        dtype=dtype,
        attn_implementation=resolve_attention(cfg.attn_implementation, cfg.packing, on_gpu),
        trust_remote_code=False,
    )
    # A cache would also hide packed sequences from the mask builder, which looks for
    # restarting position ids only when there is neither a cache nor an attention mask.
    model.config.use_cache = False
    if cfg.gradient_checkpointing:
        model.gradient_checkpointing_enable(gradient_checkpointing_kwargs={"use_reentrant": False})
    return model


def response_logprobs(
    model: torch.nn.Module, mb: MicroBatch, temperature: float, device: torch.device
) -> torch.Tensor:
    """Log-probabilities [K] of the micro-batch's response tokens (grad if enabled)."""
    packed = mb.attention_mask is None
    cols = mb.cols.to(device)
    out = model(
        input_ids=mb.input_ids.to(device),
        position_ids=mb.position_ids.to(device),
        attention_mask=None if packed else mb.attention_mask.to(device),
        use_cache=False,
        # Packed: one row, so the LM head runs only on the K positions we score.
        logits_to_keep=cols if packed else 0,
    )
    logits = out.logits[0] if packed else out.logits[mb.rows.to(device), cols]  # [K, V]
    logits = logits.float()
    if temperature != 1.0:
        logits = logits / temperature
    targets = mb.targets.to(device)[:, None]  # [K, 1]
    return logits.gather(-1, targets)[:, 0] - torch.logsumexp(logits, dim=-1)
