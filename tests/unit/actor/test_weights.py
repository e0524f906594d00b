"""Staging a weight update: bad updates are rejected before anything reaches the engine.

Bucket packing and checksums themselves are tested in tests/unit/common/test_buckets.py.
"""

from __future__ import annotations

from pathlib import Path

import pytest
import torch

from actor.weights import WeightUpdateError, checkpoint_shapes, stage
from common.buckets import Bucket, BucketChecksumError, BucketError, bucketize

EXPECTED = {"a.weight": [4, 3], "b.bias": [5], "c.weight": [2, 2]}


def _tensors():
    g = torch.Generator().manual_seed(0)
    return [
        ("a.weight", torch.randn(4, 3, generator=g)),
        ("b.bias", torch.randn(5, generator=g).to(torch.bfloat16)),
        ("c.weight", torch.randn(2, 2, generator=g)),
    ]


def test_stage_writes_each_bucket_exactly_and_cleanup_removes_it(tmp_path):
    tensors = _tensors()
    buckets = [Bucket.pack(tensors[:2]), Bucket.pack(tensors[2:])]
    staged = stage(3, buckets, EXPECTED, tmp_path)
    assert staged.num_tensors == 3 and len(staged.infos) == 2
    for bucket, info in zip(buckets, staged.infos):
        assert Path(info["path"]).read_bytes() == bucket.data.numpy().tobytes()
        assert info["names"] == bucket.names and info["offsets"] == bucket.offsets
    staged.cleanup()
    assert not list(tmp_path.iterdir())


def test_a_tensor_split_across_buckets_is_staged_whole_and_a_missing_piece_stages_nothing(tmp_path):
    """vLLM loads each staged file's tensors by name: a piece must never reach it as if it
    were the tensor, so staging joins a split tensor's pieces into one file first."""
    tensors = _tensors()
    buckets = bucketize(tensors, bucket_bytes=32)  # a.weight (48 bytes) in two pieces
    assert [b.pieces for b in buckets if b.names == ["a.weight"]] == [[[0, 8]], [[8, 4]]]
    staged = stage(2, buckets, EXPECTED, tmp_path)
    got = [
        (n, t)
        for info in staged.infos
        for n, t in Bucket(
            torch.from_file(
                info["path"], size=Path(info["path"]).stat().st_size, dtype=torch.uint8
            ),
            info["names"],
            info["dtypes"],
            info["shapes"],
            info["offsets"],
            "",
        ).tensors()
    ]
    assert [n for n, _ in got] == [n for n, _ in tensors]
    assert all(torch.equal(a, b) for (_, a), (_, b) in zip(tensors, got))
    staged.cleanup()
    with pytest.raises(BucketError, match="a.weight"):
        stage(2, buckets[1:], EXPECTED, tmp_path)
    assert not list(tmp_path.iterdir())


@pytest.mark.parametrize(
    "mutate, match",
    [
        (lambda ts: ts + [("d.weight", torch.zeros(1))], "does not have"),
        (lambda ts: [("a.weight", torch.zeros(3, 4))] + ts[1:], "does not match"),
        (lambda ts: ts[:1], "lacks 1 of the model's tensors"),
        (lambda ts: ts + [_tensors()[2]], "twice"),
    ],
)
def test_stage_rejects_a_wrong_update_and_leaves_no_files(tmp_path, mutate, match):
    tensors = _tensors()
    good = Bucket.pack(tensors[2:])  # staged first, so its file must be removed again
    with pytest.raises(WeightUpdateError, match=match):
        stage(1, [good, Bucket.pack(mutate(tensors[:2]))], EXPECTED, tmp_path)
    assert not list(tmp_path.iterdir())


def test_stage_rejects_a_corrupt_bucket_after_a_good_one(tmp_path):
    tensors = _tensors()
    bad = Bucket.pack(tensors[1:])
    bad.data[0] ^= 0xFF
    with pytest.raises(BucketChecksumError):
        stage(1, [Bucket.pack(tensors[:1]), bad], EXPECTED, tmp_path)
    assert not list(tmp_path.iterdir())


def test_verified_buckets_skip_the_hash_but_not_the_layout_checks(tmp_path):
    tensors = _tensors()
    flipped = Bucket.pack(tensors)
    flipped.data[0] ^= 0xFF  # the caller vouched for the bytes: staged as they are
    stage(1, [flipped], EXPECTED, tmp_path, verified=True).cleanup()
    outside = Bucket.pack(tensors)
    outside.offsets[-1] = outside.data.numel()
    with pytest.raises(BucketError, match="outside"):
        stage(1, [outside], EXPECTED, tmp_path, verified=True)


def test_partial_update_allowed_only_when_configured(tmp_path):
    staged = stage(1, [Bucket.pack(_tensors()[:1])], EXPECTED, tmp_path, allow_partial=True)
    assert staged.num_tensors == 1
    staged.cleanup()


def test_checkpoint_shapes_reads_a_tiny_model(tiny_model_dir):
    shapes = checkpoint_shapes(tiny_model_dir)
    assert shapes["model.embed_tokens.weight"] == [2048, 64]
    assert shapes["model.layers.1.self_attn.q_proj.weight"] == [64, 64]
    assert len(shapes) == 27
