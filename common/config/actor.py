"""Actor config: vLLM engine, sampling, episodes, prompts. The actor issue owns this file."""
from __future__ import annotations

from pathlib import Path
from typing import Any, Literal

from pydantic import Field

from common.config.base import Section
from common.config.shared import MetricsConfig


class EngineConfig(Section):
    """The actor's vLLM engine: parallelism, memory, numerics, weight updates."""

    tensor_parallel_size: int = Field(1, ge=1)
    """GPUs one engine spans (vLLM tensor parallelism); 1 on CPU."""
    dtype: str = "auto"
    """Weight/activation dtype: "auto" takes the checkpoint's; "float32" for exact CPU tests."""
    max_model_len: int = Field(8192, ge=16)
    """Longest prompt + response, in tokens, one request may have."""
    max_num_seqs: int = Field(256, ge=1)
    """Most requests the engine batches together in one step."""
    gpu_memory_utilization: float = Field(0.9, gt=0, le=1)
    """GPU: share of GPU memory vLLM may use. CPU: share of RAM it reserves (see kv_cache_bytes)."""
    kv_cache_bytes: int | None = Field(None, gt=0)
    """KV cache size in bytes; overrides gpu_memory_utilization. Set it on shared CPU machines."""
    enforce_eager: bool | None = None
    """No CUDA graphs or torch.compile; None: eager on CPU (compiling costs minutes), not on GPU."""
    enable_prefix_caching: bool = True
    """Reuse the KV cache of shared prompt prefixes (an episode's turns, a group's samples)."""
    seed: int = 0
    """Engine seed for sampling requests that carry no seed of their own."""
    logprobs_mode: Literal["processed_logprobs", "raw_logprobs"] = "processed_logprobs"
    """Logprob kept per token: processed (after temperature, top-k/p, min_tokens) or raw."""
    weight_update_mode: Literal["in_flight", "drain"] = "in_flight"
    """in_flight: load between engine steps, answers go on; drain: let answers finish first."""
    staging_dir: Path | None = None
    """Staging dir for updates, holds one model (Docker: raise --shm-size); None: /dev/shm."""
    allow_partial_updates: bool = False
    """Accept weight updates that carry only some of the model's tensors."""
    vllm_args: dict[str, Any] = Field(default_factory=dict)
    """Extra keyword arguments for vLLM's AsyncEngineArgs; they override the fields above."""


class SamplingConfig(Section):
    """How the actor samples each turn's answer."""

    temperature: float = Field(1.0, ge=0)
    """Sampling temperature; 0 is greedy."""
    top_p: float = Field(1.0, gt=0, le=1)
    """Nucleus sampling mass; 1 disables it (keep 1 for on-policy RL)."""
    top_k: int = Field(0, ge=0)
    """Sample from the k most likely tokens; 0 disables it."""
    max_tokens: int = Field(4096, ge=1)
    """Most tokens one turn's answer may have."""
    min_tokens: int = Field(0, ge=0)
    """Fewest tokens before end-of-sequence is allowed."""
    stop: list[str] = Field(default_factory=list)
    """Extra stop strings (the model's end-of-turn tokens always stop)."""
    seed: int | None = None
    """Per-request seed; None draws from the engine's generator."""


class ActorConfig(Section):
    """One actor process: a vLLM engine running multi-turn episodes."""

    model: str = ""
    """Path of a Hugging Face model directory (e.g. one made by `krl tiny-model`)."""
    n_samples: int = Field(4, ge=1)
    """Samples per prompt (the group size for TRLOO)."""
    max_turns: int = Field(3, ge=1)
    """Turns per episode."""
    engine: EngineConfig = EngineConfig()
    """The vLLM engine."""
    sampling: SamplingConfig = SamplingConfig()
    """Sampling of each turn's answer."""
    metrics: MetricsConfig = MetricsConfig()
    """Metrics endpoint of the actor."""
