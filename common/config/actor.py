"""Actor config: vLLM engine, sampling, episodes, prompts. The actor issue owns this file."""

from __future__ import annotations

import string
from pathlib import Path
from typing import Any, Literal

from pydantic import Field, model_validator

from common import prompts
from common.config.base import Section
from common.config.shared import MetricsConfig
from common.ids import KEY_ID_PATTERN, MAX_ID_CHARS


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
    """Sampling temperature; 0 is greedy. In a run it is the top-level `temperature`
    (copied here, so the learner scores at the same one)."""
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
    """Per-request seed; None draws from the engine's generator. The actor derives a
    distinct seed per sample and turn from it, so a group's samples still differ."""


class PromptsConfig(Section):
    """What the model reads each turn. Placeholders are Python str.format fields; the
    defaults are common/prompts.py's, which `krl sft-data` also uses."""

    system: str = prompts.SYSTEM
    """System message of every episode; empty: no system message."""
    user_template: str = prompts.FIRST_TURN
    """First user message; fields: {reference_code} (the problem's source, ending in a
    newline), {problem_name}."""
    feedback_template: str = prompts.FEEDBACK
    """User message of turns 2..T; fields: {feedback} (the evaluator's text), {status},
    {turn} (the turn just judged, 1-based), {reward}, {speedup} ("n/a" when not timed),
    {problem_name}."""
    no_code_feedback: str = prompts.NO_CODE_FEEDBACK
    """The {feedback} of an answer without a code block (judged format_error by the actor
    itself; nothing is sent to the evaluator)."""
    feedback_max_tokens: int = Field(1024, ge=16)
    """Longest evaluator feedback, in tokens, put into the next turn; longer feedback keeps
    its head and tail with a marker between."""
    min_response_tokens: int = Field(256, ge=1)
    """A next turn is started only if its prompt leaves at least this many tokens for the
    answer within engine.max_model_len; otherwise the feedback is cut further, and when
    even the shortest feedback does not fit, the episode ends."""
    keep_thinking: bool = False
    """Keep the model's <think>...</think> text in the assistant messages of later turns'
    context; false strips it (code extraction always ignores it)."""

    @model_validator(mode="after")
    def _check(self) -> PromptsConfig:
        _check_fields("user_template", self.user_template, {"reference_code", "problem_name"})
        _check_fields(
            "feedback_template",
            self.feedback_template,
            {"status", "feedback", "turn", "reward", "speedup", "problem_name"},
        )
        if "{reference_code}" not in self.user_template:
            raise ValueError("user_template must contain {reference_code}")
        if "{feedback}" not in self.feedback_template:
            raise ValueError("feedback_template must contain {feedback}")
        return self


def _check_fields(name: str, template: str, allowed: set[str]) -> None:
    try:
        fields = {f for _, f, _, _ in string.Formatter().parse(template) if f is not None}
    except ValueError as exc:
        raise ValueError(
            f"{name}: not a valid format string ({exc}); write {{{{ for a literal {{"
        ) from None
    unknown = fields - allowed
    if unknown:
        raise ValueError(f"{name}: unknown field(s) {sorted(unknown)}; allowed: {sorted(allowed)}")


class ActorEvalConfig(Section):
    """How the actor asks the evaluator service (the broker section says where it is)."""

    device: Literal["auto", "cuda", "cpu"] = "auto"
    """Device the workers evaluate on; must match theirs unless auto."""
    timeout_s: float = Field(120.0, gt=0)
    """Sandbox time limit per candidate (the worker's own limit caps it)."""
    trials: int = Field(3, ge=1, le=100)
    """Correctness trials per candidate."""
    timing: bool = True
    """Time candidate and reference (speedup enters the reward)."""
    profile: bool = True
    """Profile for coverage (enters the reward and PRS)."""
    deadline_s: float | None = Field(None, gt=0)
    """Per turn, submit to verdict, including queueing and retries; past it the turn is
    recorded unevaluated and the episode ends. None: broker.client.request_deadline_s."""
    retry_min_s: float = Field(1.0, gt=0)
    """First wait before resubmitting while the evaluator is unreachable; doubles."""
    retry_max_s: float = Field(30.0, gt=0)
    """Cap on that wait."""


class ActorSimulateConfig(Section):
    """Simulated latency for pipeline benchmarks (benchmarks/pipeline.py); off by default.

    The engine still generates real tokens with real logprobs and versions (keep
    sampling.max_tokens small); only each turn's wall time is stretched, standing in for
    a large model's generation on a GPU. Leases, evaluation requests, groups, acks and
    weight pulls stay real."""

    generation_s: float = Field(0.0, ge=0)
    """Each turn's generation takes at least this long: after the engine answers, the
    turn waits out the rest. 0: off (real generation time only)."""
    generation_jitter: float = Field(0.0, ge=0, lt=1)
    """Each turn's target is drawn uniformly from generation_s * (1 +- jitter)."""
    evaluate_every_answer: bool = False
    """Send every answer to the evaluator, the whole text as the candidate when it has no
    code block (a random tiny model writes none), so every turn goes through the broker
    and a worker; pair with evaluator.simulate."""
    seed: int = 0
    """Seed of the latency draws."""


class ActorConfig(Section):
    """One actor process: a vLLM engine running multi-turn episodes."""

    model: str = ""
    """Path of a Hugging Face model directory (e.g. one made by `krl tiny-model`)."""
    actor_id: str = Field("", max_length=MAX_ID_CHARS, pattern=KEY_ID_PATTERN)
    """Stable name of this actor at the hub ([A-Za-z0-9_.:@-], at most 128 characters:
    common/ids.py); empty: `<hostname>-<pid>`."""
    max_groups_in_flight: int = Field(8, ge=1)
    """Prompt groups generated at once (each runs its lease's n_samples episodes
    concurrently). No new lease is asked for while this many finished groups wait for
    their ack."""
    initial_version: int = Field(0, ge=0)
    """Policy version of the weights in `model` (the hub's version of the same weights)."""
    hub_retry_min_s: float = Field(0.5, gt=0)
    """First wait before re-contacting an unreachable hub; doubles."""
    hub_retry_max_s: float = Field(10.0, gt=0)
    """Cap on that wait. Finished groups are kept in memory and resent until acked."""
    weight_poll_s: float = Field(0.5, gt=0)
    """How long one wait for a weight announcement lasts (the update latency floor)."""
    relay_endpoint: str = "tcp://127.0.0.1:0"
    """With hub_link.relay_fanout > 0: where this actor serves the weights it pulls to
    other actors (port 0: any free one)."""
    relay_host: str = ""
    """Host other actors reach relay_endpoint at (empty: the endpoint's own host; set it
    when binding 0.0.0.0)."""
    reuse_receive_memory: bool = True
    """Set this process's malloc so weight pulls reuse freed receive buffers instead of
    faulting in fresh pages every version (actor/receive_memory.py)."""
    shutdown_timeout_s: float = Field(60.0, ge=0)
    """On SIGTERM/SIGINT: time to finish running groups and deliver finished ones."""
    engine: EngineConfig = EngineConfig()
    """The vLLM engine."""
    sampling: SamplingConfig = SamplingConfig()
    """Sampling of each turn's answer."""
    prompts: PromptsConfig = PromptsConfig()
    """Prompt and feedback templates."""
    eval: ActorEvalConfig = ActorEvalConfig()
    """Evaluation requests."""
    simulate: ActorSimulateConfig = ActorSimulateConfig()
    """Simulated generation latency (pipeline benchmark); off by default."""
    metrics: MetricsConfig = MetricsConfig()
    """Metrics endpoint of the actor."""
