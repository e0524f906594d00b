"""The actor's vLLM engine: batched async generation with per-token logprobs and versions.

`Engine` owns one vLLM `AsyncLLM` (the CPU build here, the GPU build on GPU
machines, tensor-parallel when configured). The episode loop calls `generate`
from many coroutines at once; vLLM batches every request in flight into the
same engine steps. Each `Generation` carries, for every sampled token, vLLM's
logprob of it and the policy version whose weights produced it.

Weight updates (`load_weights`) use vLLM's native weight-update API and never
restart the engine. The buckets are verified and staged first while generation
continues (actor/weights.py); then the engine is paused between two steps
(`pause_generation(mode="keep")`: running requests stay in the batch with their
KV cache), the staged buckets are loaded, the engine's weight version is set and
generation resumes. vLLM tags every engine step's output with the weight
version current at that step and reports per-request version spans over output
tokens, so each token's version is exact: tokens sampled before the pause carry
the old version, tokens after it the new one. In "drain" mode the engine instead
waits for running requests to finish (`mode="wait"`), so every answer has one
version.

Prefix-cache entries are keyed with the weight version and the count of loads
(vLLM's `cache_salt`: a version re-published after a learner rollback is other
weights under the same number), so a request started after an update never reuses
KV computed by older weights;
requests that were running during an in-flight update keep their KV (that is
what "in-flight" means).

When the engine process dies, every call raises `EngineDead`; the actor exits
non-zero and its supervisor restarts it.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from common.config.actor import EngineConfig, SamplingConfig
from common.prompts import plain_messages

if TYPE_CHECKING:
    from common.buckets import Bucket

log = logging.getLogger(__name__)


class EngineDead(RuntimeError):
    """The vLLM engine is gone (or its weights are in an unknown state); the actor must exit."""


class PromptTooLong(ValueError):
    """A prompt leaves no room for a single generated token within max_model_len."""


@dataclass
class Generation:
    """One sampled answer, token by token."""

    token_ids: list[int]
    logprobs: list[float]  # vLLM's logprob of each sampled token
    versions: list[int]  # policy version whose weights produced each token
    finish_reason: str  # "stop" | "length" | "abort"
    text: str
    prompt_len: int


@dataclass
class WeightLoad:
    """What one weight update cost."""

    version: int
    num_tensors: int
    nbytes: int
    stage_s: float  # verify + stage; generation keeps running
    load_s: float  # engine paused (in-flight) or draining + paused (drain)
    total_s: float


class Engine:
    """One vLLM engine serving many concurrent generations, with in-place weight updates."""

    def __init__(self, cfg: EngineConfig, model: str):
        self.cfg = cfg
        self.model = model
        self.startup_s = 0.0
        self._llm: Any = None
        self._tokenizer: Any = None
        self._version = 0
        self._loads = 0  # weight loads so far: part of the prefix-cache salt
        self._expected_shapes: dict[str, list[int]] = {}
        self._load_lock = asyncio.Lock()
        self._not_loading = asyncio.Event()
        self._not_loading.set()

    @property
    def version(self) -> int:
        """The policy version of the weights in the engine now."""
        return self._version

    @property
    def tokenizer(self) -> Any:
        return self._tokenizer

    @property
    def alive(self) -> bool:
        """The engine is started and its process has not died (cheap; any thread)."""
        return self._llm is not None and not self._llm.errored

    # ------------------------------------------------------------------ lifecycle
    async def start(self, version: int = 0) -> Engine:
        """Start the engine processes (blocking: tens of seconds on CPU) and label the weights."""
        from transformers import AutoTokenizer
        from vllm.distributed.weight_transfer.base import WeightTransferInitRequest
        from vllm.engine.arg_utils import AsyncEngineArgs
        from vllm.v1.engine.async_llm import AsyncLLM

        from actor.weights import checkpoint_shapes

        started = time.perf_counter()
        self._tokenizer = AutoTokenizer.from_pretrained(self.model)
        self._expected_shapes = checkpoint_shapes(self.model)
        try:
            self._llm = AsyncLLM.from_engine_args(AsyncEngineArgs(**self._engine_args()))
            await self._llm.init_weight_transfer_engine(WeightTransferInitRequest(init_info={}))
            await self._llm.update_weight_version(str(version))
        except Exception as exc:
            self.shutdown()
            raise EngineDead(f"vLLM engine for {self.model} failed to start: {exc}") from exc
        self._version = version
        self.startup_s = time.perf_counter() - started
        log.info(
            "vLLM engine up in %.1f s (model %s, weights v%d)", self.startup_s, self.model, version
        )
        return self

    def _engine_args(self) -> dict[str, Any]:
        import torch

        from actor.weights import BACKEND, WORKER_EXTENSION

        cfg = self.cfg
        eager = cfg.enforce_eager
        if eager is None:
            eager = not torch.cuda.is_available()
        args: dict[str, Any] = {
            "model": self.model,
            "dtype": cfg.dtype,
            "seed": cfg.seed,
            "tensor_parallel_size": cfg.tensor_parallel_size,
            "max_model_len": cfg.max_model_len,
            "max_num_seqs": cfg.max_num_seqs,
            "gpu_memory_utilization": cfg.gpu_memory_utilization,
            "kv_cache_memory_bytes": cfg.kv_cache_bytes,
            "enforce_eager": eager,
            "enable_prefix_caching": cfg.enable_prefix_caching,
            "logprobs_mode": cfg.logprobs_mode,
            "worker_extension_cls": WORKER_EXTENSION,
            "weight_transfer_config": {"backend": BACKEND},
            "disable_log_stats": True,  # the actor exports its own metrics
        }
        if not torch.cuda.is_available():
            # vLLM 0.32's CPU runner crashes the engine ("CPU Generator does not use offset")
            # when a seeded request's prefill is split over steps; whole prefills avoid it.
            args["enable_chunked_prefill"] = False
        args.update(cfg.vllm_args)
        return args

    def shutdown(self) -> None:
        """Stop the engine processes. Safe to call twice."""
        if self._llm is not None:
            self._llm.shutdown()
            self._llm = None

    def engine_pids(self) -> list[int]:
        """Process ids of vLLM's engine-core processes (for supervisors and fault tests)."""
        # vLLM keeps them on its client's background resources; no public accessor in 0.32.
        manager = self._llm.engine_core.resources.engine_manager
        return [p.pid for p in manager.processes]

    async def check_health(self) -> None:
        """Raise EngineDead if the engine process has died."""
        if self._llm is None:
            raise EngineDead("the vLLM engine is not started or was shut down")
        if self._llm.errored:
            raise EngineDead("the vLLM engine process died; its log above says why")

    # ------------------------------------------------------------------ prompts
    def chat_prompt_ids(
        self, messages: Sequence[dict[str, str]], **template_kwargs: Any
    ) -> list[int]:
        """Token ids of a chat, rendered by the model's chat template, ready for the answer."""
        text = self._tokenizer.apply_chat_template(
            plain_messages(self._tokenizer, list(messages)),
            tokenize=False,
            add_generation_prompt=True,
            **template_kwargs,
        )
        # The template writes any BOS itself; letting encode add one would double it.
        return self._tokenizer.encode(text, add_special_tokens=False)

    def decode(self, token_ids: Sequence[int]) -> str:
        return self._tokenizer.decode(list(token_ids), skip_special_tokens=True)

    # ------------------------------------------------------------------ generation
    async def generate(
        self,
        prompt_ids: Sequence[int],
        sampling: SamplingConfig,
        request_id: str,
        on_tokens: Callable[[int], Any] | None = None,
    ) -> Generation:
        """Sample one answer; many calls may run concurrently and are batched by vLLM.

        `on_tokens`, if given, is called with the number of tokens generated so far
        after every engine step that extends this answer (streaming costs a little).
        """
        from vllm.v1.engine.exceptions import EngineDeadError

        await self.check_health()
        room = self.cfg.max_model_len - len(prompt_ids)
        if room < 1:
            raise PromptTooLong(
                f"prompt of {len(prompt_ids)} tokens leaves no room within max_model_len "
                f"{self.cfg.max_model_len}"
            )
        await self._not_loading.wait()  # requests submitted mid-load would carry a stale salt
        salt = f"v{self._version}.{self._loads}"
        prompt = {"prompt_token_ids": list(prompt_ids), "cache_salt": salt}
        params = self._sampling_params(
            sampling, min(sampling.max_tokens, room), stream=on_tokens is not None
        )
        final = None
        try:
            async for out in self._llm.generate(prompt, params, request_id):
                final = out
                if on_tokens is not None:
                    on_tokens(len(out.outputs[0].token_ids))
        except EngineDeadError as exc:
            raise EngineDead(f"vLLM engine died during request {request_id}") from exc
        return self._to_generation(final, len(prompt_ids))

    def _sampling_params(self, s: SamplingConfig, max_tokens: int, stream: bool) -> Any:
        from vllm import SamplingParams
        from vllm.sampling_params import RequestOutputKind

        return SamplingParams(
            n=1,
            temperature=s.temperature,
            top_p=s.top_p,
            top_k=s.top_k,
            max_tokens=max_tokens,
            min_tokens=min(s.min_tokens, max_tokens),
            stop=list(s.stop),
            seed=s.seed,
            logprobs=0,  # 0: only the sampled token's logprob
            output_kind=RequestOutputKind.CUMULATIVE if stream else RequestOutputKind.FINAL_ONLY,
        )

    @staticmethod
    def _to_generation(out: Any, prompt_len: int) -> Generation:
        comp = out.outputs[0]
        token_ids = list(comp.token_ids)
        # With logprobs=0 each position's dict holds just the sampled token.
        logprobs = [pos[tok].logprob for tok, pos in zip(token_ids, comp.logprobs or [])]
        versions: list[int] = []
        for span in comp.weight_versions or []:
            versions.extend([int(span.version)] * (span.end - span.start))
        if not len(logprobs) == len(versions) == len(token_ids):
            raise RuntimeError(
                f"vLLM returned {len(token_ids)} tokens but {len(logprobs)} logprobs and "
                f"{len(versions)} version tags"
            )
        return Generation(
            token_ids, logprobs, versions, comp.finish_reason or "abort", comp.text, prompt_len
        )

    # ------------------------------------------------------------------ weights
    async def load_weights(
        self,
        version: int,
        buckets: Iterable[Bucket],
        verified: bool = False,
        rollback: bool = False,
    ) -> WeightLoad:
        """Verify, stage and load a new policy version without restarting the engine.

        `buckets` is consumed in a worker thread (pass a list or a thread-safe
        iterator); `verified=True` skips re-hashing buckets whose checksums the
        caller has already checked (WeightSync.pull does). A bad checksum, an
        unknown, missing or misshapen tensor or a version not newer than the
        engine's raises a `common.buckets.BucketError` before the engine is
        touched; the old weights stay. `rollback=True` allows a version that is not
        newer: the hub rolled back (a learner restart) and its weights replace ours.
        """
        from actor.weights import WeightUpdateError, default_staging_dir, stage

        async with self._load_lock:
            if version <= self._version and not rollback:
                raise WeightUpdateError(
                    f"weight update v{version} is not newer than the engine's v{self._version}"
                )
            started = time.perf_counter()
            staging_dir = self.cfg.staging_dir or default_staging_dir()
            staged = await asyncio.to_thread(
                stage,
                version,
                buckets,
                self._expected_shapes,
                staging_dir,
                self.cfg.allow_partial_updates,
                verified,
            )
            try:
                load_s = await self._load_staged(version, staged.infos)
            finally:
                staged.cleanup()
            self._version, self._loads = version, self._loads + 1
        report = WeightLoad(
            version,
            staged.num_tensors,
            staged.nbytes,
            staged.stage_s,
            load_s,
            time.perf_counter() - started,
        )
        log.info(
            "loaded weights v%d: %d tensors, %.1f MB, stage %.3f s, engine paused %.3f s",
            version,
            report.num_tensors,
            report.nbytes / 1e6,
            report.stage_s,
            report.load_s,
        )
        return report

    async def _load_staged(self, version: int, infos: list[dict[str, Any]]) -> float:
        """Pause between engine steps, load every staged bucket, set the version, resume."""
        from vllm.distributed.weight_transfer.base import WeightTransferUpdateRequest

        await self.check_health()
        mode = "keep" if self.cfg.weight_update_mode == "in_flight" else "wait"
        self._not_loading.clear()
        started = time.perf_counter()
        try:
            await self._llm.pause_generation(mode=mode, clear_cache=False)
            try:
                await self._llm.start_weight_update()
                for info in infos:
                    await self._llm.update_weights(WeightTransferUpdateRequest(update_info=info))
                await self._llm.finish_weight_update(weight_version=str(version))
            finally:
                await self._llm.resume_generation()
        except Exception as exc:
            # Some buckets may be in and others not: no version describes these weights.
            raise EngineDead(f"loading weights v{version} failed part-way: {exc}") from exc
        finally:
            self._not_loading.set()
        return time.perf_counter() - started
