"""Weight buckets: pack/unpack any dtype mix in place, checksums catch corruption and name
their algorithm."""

import hashlib
from concurrent.futures import ThreadPoolExecutor

import pytest
import torch

from common.buckets import (
    CODECS,
    Bucket,
    BucketChecksumError,
    BucketError,
    apply_delta,
    bucketize,
    encode_delta,
    joined,
    pack_stream,
    whole_tensors,
)
from common.messages import WeightBucket, decode, encode


def _weights():
    g = torch.Generator().manual_seed(0)
    return [
        ("embed", torch.randn(33, 7, generator=g).to(torch.bfloat16)),
        ("norm", torch.randn(7, generator=g)),
        ("count", torch.tensor([3], dtype=torch.int64)),
        ("empty", torch.zeros(0, 4)),
        ("proj", torch.randn(5, 3, generator=g).to(torch.float16)),
    ]


def test_pack_unpack_round_trip_with_mixed_dtypes():
    b = Bucket.pack(_weights())
    b.verify()
    assert all(off % 16 == 0 for off in b.offsets)
    for (n0, t0), (n1, t1) in zip(_weights(), b.tensors()):
        assert n0 == n1 and t0.dtype == t1.dtype and torch.equal(t0, t1)


def test_bucketize_respects_size_and_keeps_order():
    ws = [(f"w{i}", torch.full((256,), float(i))) for i in range(10)]  # 1 KiB each
    buckets = bucketize(ws, bucket_bytes=3000)
    assert [len(b.names) for b in buckets] == [2, 2, 2, 2, 2]
    names = [n for b in buckets for n, _ in b.tensors()]
    assert names == [f"w{i}" for i in range(10)]


def test_a_tensor_over_the_bucket_size_travels_in_pieces_and_joins_bit_exactly():
    """No bucket exceeds bucket_bytes whatever the tensor (a 7B model's embedding is over
    the 1 GiB message limit); the pieces, decoded from the wire, join to the same bits."""
    g = torch.Generator().manual_seed(1)
    ws = [
        ("a", torch.randn(3, generator=g)),
        ("big", torch.randn(70, 33, generator=g)),
        ("b", torch.randn(5, generator=g).to(torch.bfloat16)),
        ("big2", torch.randn(4, 300, generator=g).to(torch.float16)),
    ]
    buckets = bucketize(ws, bucket_bytes=1000)
    assert max(b.data.numel() for b in buckets) <= 1000
    assert [b.names for b in buckets if not b.pieces] == [["a"], ["b"]]
    assert sum(1 for b in buckets if b.names == ["big"]) == 10  # 9240 bytes in 992s
    wired = [
        Bucket.from_wire(
            b.info(i),
            decode(
                encode(
                    WeightBucket(
                        request_id="r",
                        version=1,
                        index=i,
                        data=b.data,
                        checksum=b.checksum,
                        info=b.info(i),
                    )
                )
            ),
        )
        for i, b in enumerate(buckets)
    ]
    for b in wired:
        b.verify()
    got = list(whole_tensors(wired))
    assert [n for n, _ in got] == [n for n, _ in ws]
    assert all(torch.equal(t0, t1) and t0.dtype == t1.dtype for (_, t0), (_, t1) in zip(ws, got))
    with pytest.raises(BucketError, match="piece of a split tensor"):
        list(wired[1].tensors())  # a piece is never loaded as if it were the tensor


def test_missing_reordered_or_foreign_pieces_load_nothing():
    buckets = bucketize([("big", torch.arange(992.0)), ("c", torch.ones(2))], 1000)
    pieces = [b for b in buckets if b.pieces]
    assert len(pieces) == 4
    for bad in (
        buckets[:1] + buckets[2:],  # a piece missing in the middle
        [buckets[1], buckets[0]] + buckets[2:],  # out of order
        buckets[:3] + buckets[4:],
    ):  # the tensor's end missing
        with pytest.raises(BucketError, match="big"):
            list(joined(bad))
    other = bucketize([("big", torch.arange(992.0).reshape(8, 124))], 1000)
    with pytest.raises(BucketError, match="does not continue"):
        list(joined(buckets[:2] + other[2:]))  # same name, another shape
    lying = Bucket(pieces[0].data, ["big"], ["float32"], [[992]], [0], "", [[990, 248]])
    with pytest.raises(BucketError, match="piece"):
        lying.check_layout()


def test_corruption_is_detected_after_the_wire():
    b = Bucket.pack(_weights())
    msg = decode(
        encode(WeightBucket(request_id="r", version=1, index=0, data=b.data, checksum=b.checksum))
    )
    got = Bucket.from_wire(b.info(0), msg)
    got.verify()
    flipped = got.data.clone()
    flipped[5] ^= 1
    with pytest.raises(BucketChecksumError, match="nothing loaded"):
        Bucket(flipped, got.names, got.dtypes, got.shapes, got.offsets, got.checksum).verify()


def test_bad_layouts_are_rejected():
    b = Bucket.pack(_weights())
    with pytest.raises(BucketError, match="outside"):
        list(Bucket(b.data, ["x"], ["float32"], [[10_000]], [0], b.checksum).tensors())
    with pytest.raises(BucketError, match="unknown dtype"):
        list(Bucket(b.data, ["x"], ["complex64"], [[1]], [0], b.checksum).tensors())
    with pytest.raises(BucketError, match="misaligned"):
        list(Bucket(b.data, ["x"], ["float32"], [[1]], [3], b.checksum).tensors())


def test_threaded_bucketize_gives_the_same_buckets_in_order():
    g = torch.Generator().manual_seed(1)
    ws = [(f"w{i}", torch.randn(300 + 50 * i, generator=g)) for i in range(12)]
    one = bucketize(ws, bucket_bytes=4000)
    many = bucketize(iter(ws), bucket_bytes=4000, threads=4)
    assert len(one) == len(many) > 3
    assert [b.checksum for b in one] == [b.checksum for b in many]
    assert [n for b in many for n in b.names] == [n for n, _ in ws]


def _relabelled(b: Bucket, checksum: str) -> Bucket:
    return Bucket(b.data, b.names, b.dtypes, b.shapes, b.offsets, checksum)


def test_checksums_name_their_algorithm_and_either_verifies():
    b3, sha = Bucket.pack(_weights()), Bucket.pack(_weights(), "sha256")
    assert b3.checksum.startswith("blake3:") and sha.checksum.startswith("sha256:")
    assert torch.equal(b3.data, sha.data)
    b3.verify()
    sha.verify()
    legacy = hashlib.sha256(sha.data.numpy()).hexdigest()  # a bare digest is sha256
    assert sha.checksum == "sha256:" + legacy
    _relabelled(sha, legacy).verify()


def test_wrong_or_unknown_checksum_algorithm_loads_nothing():
    b = Bucket.pack(_weights())
    digest = b.checksum.split(":", 1)[1]
    with pytest.raises(BucketChecksumError, match="nothing loaded"):
        _relabelled(b, "sha256:" + digest).verify()  # right digest, wrong algorithm named
    with pytest.raises(BucketChecksumError):
        _relabelled(b, digest).verify()  # a bare digest means sha256
    with pytest.raises(BucketError, match="unsupported checksum algorithm 'md5'"):
        _relabelled(b, "md5:" + digest).verify()
    with pytest.raises(BucketError, match="unsupported"):
        Bucket.pack(_weights(), "crc32")


def test_pack_takes_strided_tensors_and_zeroes_the_padding():
    t = torch.arange(35, dtype=torch.float32).view(5, 7).t()  # not contiguous
    b = Bucket.pack([("t", t), ("odd", torch.ones(3, dtype=torch.int8)), ("s", torch.tensor(2.5))])
    got = dict(b.tensors())
    assert torch.equal(got["t"], t) and torch.equal(got["s"], torch.tensor(2.5))
    pad = b.data[b.offsets[1] + 3 : b.offsets[2]]
    assert pad.numel() == 13 and not pad.any()  # the checksum depends on the tensors only


def test_pack_stream_marks_only_the_last_bucket():
    ws = [(f"w{i}", torch.full((256,), float(i))) for i in range(5)]  # 1 KiB each
    with ThreadPoolExecutor(2) as pool:
        stream = list(pack_stream(iter(ws), 2048, pool))
        assert [last for _, last in stream] == [False, False, True]
        assert [b.names for b in (f.result() for f, _ in stream)] == [
            ["w0", "w1"],
            ["w2", "w3"],
            ["w4"],
        ]
        assert list(pack_stream(iter([]), 2048, pool)) == []


# ------------------------------------------------------------------ deltas
def _step(bucket_tensors, share: float, seed: int = 1):
    """The same tensors with about `share` of their bf16 words changed."""
    g = torch.Generator().manual_seed(seed)
    out = []
    for name, t in bucket_tensors:
        moved = t.clone()
        mask = torch.rand(t.shape, generator=g) < share
        moved[mask] = (moved[mask].float() * 1.05 + 1e-3).to(t.dtype)
        out.append((name, moved))
    return out


def _bf16(seed: int = 0):
    g = torch.Generator().manual_seed(seed)
    return [
        ("a", torch.randn(300, 200, generator=g).to(torch.bfloat16)),
        ("b", torch.randn(77, generator=g).to(torch.bfloat16)),
    ]


@pytest.mark.parametrize("codec", CODECS)
def test_delta_rebuilds_the_new_bucket_bit_exactly_and_is_small(codec):
    old = Bucket.pack(_bf16())
    new = Bucket.pack(_step(_bf16(), 0.01))
    delta, encoding = encode_delta(new, old, codec)
    assert encoding == f"xor2-{codec}"  # bf16: two byte planes
    assert delta.numel() < 0.1 * new.data.numel()  # 1% of the words moved
    rebuilt = apply_delta(old, delta, encoding, new.info(0))
    rebuilt.verify()
    assert torch.equal(rebuilt.data, new.data)


def test_delta_applied_to_the_wrong_base_or_corrupted_fails_the_checksum():
    old, other = Bucket.pack(_bf16()), Bucket.pack(_bf16(seed=5))
    new = Bucket.pack(_step(_bf16(), 0.01))
    delta, encoding = encode_delta(new, old, "zstd")
    with pytest.raises(BucketChecksumError):
        apply_delta(other, delta, encoding, new.info(0)).verify()
    with pytest.raises(BucketChecksumError):  # read with the wrong byte planes
        apply_delta(old, delta, "xor1-zstd", new.info(0)).verify()
    raw, encoding = encode_delta(new, old, "zlib")
    with pytest.raises(BucketError):  # a flipped byte: zlib's own check or ours
        bad = raw.clone()
        bad[len(bad) // 2] ^= 0xFF
        apply_delta(old, bad, encoding, new.info(0)).verify()
    for unknown in ("xor2-lz77", "xor3-zstd", "add-zstd"):
        with pytest.raises(BucketError, match="unknown delta encoding"):
            apply_delta(old, delta, unknown, new.info(0))


def test_delta_needs_the_same_layout():
    with pytest.raises(BucketError, match="same bucket layout"):
        encode_delta(Bucket.pack(_bf16()), Bucket.pack(_bf16()[:1]), "zstd")


def test_delta_of_a_bucket_mixing_element_sizes_is_bit_exact_too():
    tensors = _bf16() + [("c", torch.randn(33, generator=torch.Generator().manual_seed(3)))]
    old, new = Bucket.pack(tensors), Bucket.pack(_step(tensors, 0.05))
    delta, encoding = encode_delta(new, old, "zstd")
    assert encoding == "xor1-zstd"
    assert torch.equal(apply_delta(old, delta, encoding, new.info(0)).data, new.data)
