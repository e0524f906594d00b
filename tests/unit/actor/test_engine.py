"""The actor's vLLM engine on the real CPU build: logprobs, batching, weight updates.

All tests share the session's one engine (tests/conftest.py). Tests that load
other weights restore the checkpoint's weights afterwards (`restore_weights`).

Logprob tolerance: the engine and the transformers reference both run float32 on
CPU; they differ only in summation order inside matmuls and attention, which
moves logprobs by ~2e-5 for short answers on the checkpoint's weights and by up
to ~2.3e-4 deep into 1800-token answers on the larger perturbed weights.
|diff| <= 5e-4 + 1e-4 * |logprob| leaves >2x headroom over that, while a real
mistake (a token tagged one position off, the wrong temperature or weights, a
logit processor such as min_tokens masking end-of-turn tokens) moves some
logprob by 1e-2 to 1.
"""

from __future__ import annotations

import asyncio
from collections import Counter
from pathlib import Path

import pytest
import torch
from safetensors.torch import load_file

from actor.weights import WeightUpdateError
from common.buckets import Bucket, BucketChecksumError
from common.config.actor import SamplingConfig

ATOL = 5e-4
RTOL = 1e-4
CHAT = [
    {"role": "system", "content": "You write Triton kernels."},
    {"role": "user", "content": "def forward(self, x):\n    return x * 2"},
]
GREEDY = SamplingConfig(temperature=0.0, max_tokens=24, min_tokens=24)  # no early end-of-turn


@pytest.fixture(scope="module")
def original(tiny_model_dir) -> dict[str, torch.Tensor]:
    return load_file(Path(tiny_model_dir) / "model.safetensors")


@pytest.fixture
def run(session_loop):
    return session_loop.run_until_complete


@pytest.fixture
def restore_weights(vllm_engine, original, run):
    """Load the checkpoint's weights back (as a newer version) after the test."""
    yield
    run(vllm_engine.load_weights(vllm_engine.version + 1, [Bucket.pack(original.items())]))


def _perturbed(original, seed: int) -> dict[str, torch.Tensor]:
    g = torch.Generator().manual_seed(seed)
    return {n: t + 0.5 * torch.randn(t.shape, generator=g) for n, t in original.items()}


def _reference(tiny_model_dir, weights: dict[str, torch.Tensor] | None = None):
    from transformers import AutoModelForCausalLM

    model = AutoModelForCausalLM.from_pretrained(tiny_model_dir, dtype=torch.float32).eval()
    if weights is not None:
        model.load_state_dict(weights, strict=True)
    return model


def _logprobs_from(
    logits: torch.Tensor, targets: list[int], temperature: float, masked: list[int] = ()
) -> torch.Tensor:
    logits = logits / temperature
    logits[:, list(masked)] = float("-inf")
    return logits.log_softmax(-1).gather(-1, torch.tensor(targets)[:, None])[:, 0]


def _recompute(
    model, prompt: list[int], tokens: list[int], temperature: float = 1.0, masked: list[int] = ()
) -> torch.Tensor:
    """Teacher-forced logprob of each generated token under `model`."""
    with torch.no_grad():
        logits = model(torch.tensor([prompt + tokens])).logits[0, len(prompt) - 1 : -1]
    return _logprobs_from(logits, tokens, temperature, masked)


def test_generation_has_a_logprob_and_version_per_token(vllm_engine, run):
    ids = vllm_engine.chat_prompt_ids(CHAT)
    gen = run(vllm_engine.generate(ids, GREEDY, "basic"))
    assert gen.prompt_len == len(ids)
    assert len(gen.token_ids) == 24 and gen.finish_reason == "length"
    assert len(gen.logprobs) == 24 and all(lp <= 0 for lp in gen.logprobs)
    assert gen.versions == [vllm_engine.version] * 24
    assert gen.text == vllm_engine.decode(gen.token_ids)


@pytest.mark.parametrize("temperature", [1.0, 0.7])
def test_logprobs_equal_transformers_recomputation(vllm_engine, run, tiny_model_dir, temperature):
    ids = vllm_engine.chat_prompt_ids(CHAT)
    sampling = SamplingConfig(temperature=temperature, max_tokens=200, seed=3)
    gen = run(vllm_engine.generate(ids, sampling, f"lp-{temperature}"))
    assert len(gen.token_ids) > 20
    ref = _recompute(_reference(tiny_model_dir), ids, gen.token_ids, temperature)
    # Sampled tokens are not all near-certain, so matching them is not trivial.
    assert ref.min() < -2.0
    torch.testing.assert_close(torch.tensor(gen.logprobs), ref, atol=ATOL, rtol=RTOL)


def test_many_concurrent_generations_each_get_their_own_answer(vllm_engine, run):
    prompts = [
        vllm_engine.chat_prompt_ids([{"role": "user", "content": text}])
        for text in ("x + y", "torch.relu(x) * 2", "def f(a, b):\n    return a @ b")
    ]
    alone = [run(vllm_engine.generate(p, GREEDY, f"alone-{i}")) for i, p in enumerate(prompts)]

    async def together():
        return await asyncio.gather(
            *[vllm_engine.generate(prompts[i % 3], GREEDY, f"together-{i}") for i in range(24)]
        )

    results = run(together())
    assert len({tuple(r.token_ids) for r in alone}) == 3
    for i, result in enumerate(results):
        assert result.prompt_len == len(prompts[i % 3])
        assert result.token_ids == alone[i % 3].token_ids


def test_weight_update_changes_generation_and_version(
    vllm_engine, run, original, tiny_model_dir, restore_weights
):
    ids = vllm_engine.chat_prompt_ids(CHAT)
    before = run(vllm_engine.generate(ids, GREEDY, "before-update"))
    new = _perturbed(original, seed=1)
    names = sorted(new)
    buckets = [
        Bucket.pack((n, new[n]) for n in names[:10]),
        Bucket.pack((n, new[n]) for n in names[10:]),
    ]
    version = vllm_engine.version + 1
    report = run(vllm_engine.load_weights(version, buckets))
    assert report.version == version == vllm_engine.version
    assert report.num_tensors == len(original)

    after = run(vllm_engine.generate(ids, GREEDY, "after-update"))
    assert after.token_ids != before.token_ids
    assert after.versions == [version] * len(after.token_ids)
    # The engine now computes exactly what the new weights compute.
    raw = run(vllm_engine.generate(ids, SamplingConfig(max_tokens=40, seed=5), "after-update-t1"))
    ref = _recompute(_reference(tiny_model_dir, new), ids, raw.token_ids)
    torch.testing.assert_close(torch.tensor(raw.logprobs), ref, atol=ATOL, rtol=RTOL)


def test_in_flight_update_tags_tokens_on_both_sides(
    vllm_engine, run, original, tiny_model_dir, restore_weights
):
    ids = vllm_engine.chat_prompt_ids(CHAT)
    n = 1800  # long enough that the update lands mid-answer; min_tokens stops an early end
    sampling = SamplingConfig(max_tokens=n, min_tokens=n, seed=11)
    old_version, new_version = vllm_engine.version, vllm_engine.version + 1
    new = _perturbed(original, seed=2)

    async def scenario():
        started = asyncio.Event()
        answer = asyncio.create_task(
            vllm_engine.generate(
                ids, sampling, "in-flight", on_tokens=lambda k: k >= 300 and started.set()
            )
        )
        await started.wait()
        await vllm_engine.load_weights(new_version, [Bucket.pack(new.items())])
        assert not answer.done()
        return await answer

    gen = run(scenario())
    counts = Counter(gen.versions)
    assert set(counts) == {old_version, new_version}, counts
    switch = gen.versions.index(new_version)
    assert 300 <= switch < n - 100  # the tokens on each side are a real share of the answer
    assert gen.versions == [old_version] * switch + [new_version] * (n - switch)

    # Recompute as vLLM ran it: the prompt and the old-version tokens' positions are
    # encoded by the old weights (that KV cache stays), everything after by the new.
    eos = [vllm_engine.tokenizer.convert_tokens_to_ids(t) for t in ("<|im_end|>", "<|endoftext|>")]
    old_model, new_model = _reference(tiny_model_dir), _reference(tiny_model_dir, new)

    def recompute(first_new: int) -> torch.Tensor:
        seq = ids + gen.token_ids
        split = len(ids) + first_new - 1  # the step that sampled token first_new read this position
        with torch.no_grad():
            head = old_model(torch.tensor([seq[:split]]), use_cache=True)
            tail = new_model(torch.tensor([seq[split:-1]]), past_key_values=head.past_key_values)
        logits = torch.cat([head.logits[0, len(ids) - 1 :], tail.logits[0]])
        # min_tokens keeps vLLM from sampling end-of-turn, by masking those tokens
        return _logprobs_from(logits, gen.token_ids, 1.0, masked=eos)

    logprobs = torch.tensor(gen.logprobs)
    torch.testing.assert_close(logprobs, recompute(switch), atol=ATOL, rtol=RTOL)
    # A boundary one token late is visibly wrong, so the check above pins it exactly.
    assert (logprobs - recompute(switch + 1)).abs().max() > 10 * ATOL


def test_drain_mode_waits_for_running_answers(vllm_engine, run, original, restore_weights):
    ids = vllm_engine.chat_prompt_ids(CHAT)
    sampling = SamplingConfig(max_tokens=600, min_tokens=600, seed=4)
    old_version = vllm_engine.version
    vllm_engine.cfg.weight_update_mode = "drain"

    async def scenario():
        answer = asyncio.create_task(vllm_engine.generate(ids, sampling, "drained"))
        await asyncio.sleep(0.3)
        new = Bucket.pack(_perturbed(original, 3).items())
        await vllm_engine.load_weights(old_version + 1, [new])
        assert answer.done()  # the load waited for it
        return await answer

    try:
        gen = run(scenario())
    finally:
        vllm_engine.cfg.weight_update_mode = "in_flight"
    assert gen.versions == [old_version] * 600


def test_bad_checksum_is_rejected_and_old_weights_stay(vllm_engine, run, original, tiny_model_dir):
    ids = vllm_engine.chat_prompt_ids(CHAT)
    before = run(vllm_engine.generate(ids, GREEDY, "before-bad"))
    version = vllm_engine.version
    bucket = Bucket.pack(_perturbed(original, seed=4).items())
    bucket.data[100] ^= 0x01
    with pytest.raises(BucketChecksumError, match="nothing loaded"):
        run(vllm_engine.load_weights(version + 1, [bucket]))
    with pytest.raises(WeightUpdateError, match="does not match"):
        wrong = dict(original, **{"lm_head.weight": torch.zeros(16, 64)})
        run(vllm_engine.load_weights(version + 1, [Bucket.pack(wrong.items())]))
    assert vllm_engine.version == version
    after = run(vllm_engine.generate(ids, GREEDY, "after-bad"))
    assert after.token_ids == before.token_ids and after.versions == before.versions
    assert not list(Path("/dev/shm").glob(f"krl-weights-v{version + 1}-*"))
