"""Wire messages: every type round-trips; anything malformed is rejected with DecodeError."""

import msgspec
import pytest
import torch
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from common import messages as m
from common.verdict import Verdict


def _turn(n_resp: int, dtype=torch.float32) -> m.Turn:
    return m.Turn(
        prompt_ids=torch.arange(7, dtype=torch.int32),
        response_ids=torch.randint(0, 1000, (n_resp,), dtype=torch.int32),
        logprobs=-torch.rand(n_resp, dtype=dtype),
        versions=torch.full((n_resp,), 3, dtype=torch.int32),
        verdict=Verdict(
            "ok", correct=True, speedup=1.7, reward=1.25, coverage=0.9, feedback="fast"
        ),
        code_start=2,
    )


def _problem() -> m.ProblemPayload:
    return m.ProblemPayload(
        name="activation/gelu",
        source="class Model: ...",
        family="activation",
        sizes={"cpu": {"batch_size": 2}},
    )


EXAMPLES = {
    "Heartbeat": m.Heartbeat(sender="actor-0", role="actor", seq=5, sent_at=1.0),
    "ErrorReply": m.ErrorReply(
        request_id="r1", code="busy", message="queue full", retry_after_s=0.5
    ),
    "Ack": m.Ack(request_id="r1", group_id="g1", outcome="duplicate"),
    "LeaseRequest": m.LeaseRequest(request_id="r1", actor_id="a0", max_groups=4, policy_version=2),
    "LeaseGrant": m.LeaseGrant(
        request_id="r1",
        policy_version=2,
        leases=[
            m.Lease(
                lease_id="l1",
                prompt_id="p1",
                problem=_problem(),
                n_samples=4,
                max_turns=3,
                expires_in_s=60.0,
            )
        ],
    ),
    "TrajectoryGroup": m.TrajectoryGroup(
        request_id="g1",
        group_id="g1",
        lease_id="l1",
        prompt_id="p1",
        problem_name="x",
        actor_id="a0",
        trajectories=[
            m.Trajectory(sample_index=i, turns=[_turn(5), _turn(3000)]) for i in range(2)
        ],
    ),
    "WeightAnnouncement": m.WeightAnnouncement(
        version=3,
        total_bytes=100,
        buckets=[
            m.BucketInfo(
                index=0,
                nbytes=100,
                checksum="ab",
                names=["w"],
                dtypes=["bfloat16"],
                shapes=[[50]],
                offsets=[0],
            )
        ],
    ),
    "WeightBucketRequest": m.WeightBucketRequest(request_id="r2", version=3, index=0),
    "WeightBucket": m.WeightBucket(
        request_id="r2",
        version=3,
        index=0,
        checksum="ab",
        data=torch.randint(0, 255, (1 << 16,), dtype=torch.uint8),
        encoding="xor-zstd",
        base_version=2,
    ),
    "EvalRequest": m.EvalRequest(
        request_id="e1",
        problem=_problem(),
        candidate="class ModelNew: ...",
        settings=m.EvalSettings(device="cpu", trials=2),
    ),
    "EvalResult": m.EvalResult(
        request_id="e1",
        verdict=Verdict(
            "incorrect",
            hacks=["constant_output"],
            phase_seconds={"compile": 0.5},
            error_source="candidate",
            details={"max_abs_err": 0.3},
        ),
    ),
    "WorkerStatus": m.WorkerStatus(
        worker_id="gpu0",
        device="cuda",
        slots=4,
        in_flight=["k1", "k2"],
        evaluations=17,
        sent_at=2.0,
    ),
    "RelayJoin": m.RelayJoin(
        request_id="j1",
        actor_id="a0",
        version=4,
        hub_id="h",
        endpoint="tcp://10.0.0.2:7000",
        failed="tcp://10.0.0.3:7000",
    ),
    "RelaySource": m.RelaySource(request_id="j1", endpoint="tcp://10.0.0.1:7000"),
}


def _equal(a, b) -> bool:
    if isinstance(a, torch.Tensor):
        return isinstance(b, torch.Tensor) and a.dtype == b.dtype and torch.equal(a, b)
    if isinstance(a, msgspec.Struct):
        return type(a) is type(b) and all(
            _equal(getattr(a, f), getattr(b, f)) for f in a.__struct_fields__
        )
    if isinstance(a, list):
        return len(a) == len(b) and all(_equal(x, y) for x, y in zip(a, b))
    return a == b


def test_every_message_type_has_a_round_trip_example():
    assert set(EXAMPLES) == set(m.MESSAGE_TYPES)


@pytest.mark.parametrize("name", sorted(EXAMPLES))
def test_round_trip(name):
    msg = EXAMPLES[name]
    frames = m.encode(msg)
    assert m.peek_type(frames) == (m.PROTOCOL_VERSION, name)
    assert _equal(msg, m.decode([bytes(f) for f in frames]))


@pytest.mark.parametrize(
    "dtype", [torch.bfloat16, torch.float16, torch.float32, torch.int64, torch.bool, torch.uint8]
)
@pytest.mark.parametrize("shape", [(0,), (3, 0), (5,), (4, 4096), (2, 3, 4)])
def test_tensor_dtypes_and_shapes(dtype, shape):
    t = (torch.randn(shape) * 100).to(dtype)
    got = m.decode(
        m.encode(m.WeightBucket(request_id="r", version=0, index=0, data=t, checksum=""))
    )
    assert got.data.dtype == dtype and tuple(got.data.shape) == shape
    assert torch.equal(got.data, t)


def test_large_tensor_travels_as_its_own_zero_copy_frame():
    t = torch.randn(64 << 18)  # 64 MiB of float32
    frames = m.encode(m.WeightBucket(request_id="r", version=1, index=0, data=t, checksum=""))
    assert len(frames) == 3 and memoryview(frames[2]).nbytes == t.numel() * 4
    assert len(frames[1]) < 512  # the body holds only the descriptor
    assert torch.equal(m.decode(frames).data, t)


def test_noncontiguous_and_cuda_free_tensors_are_sent_as_values():
    t = torch.arange(12.0).view(3, 4).t()
    got = m.decode(
        m.encode(m.WeightBucket(request_id="r", version=0, index=0, data=t, checksum=""))
    )
    assert torch.equal(got.data, t)


GOOD = m.encode(EXAMPLES["TrajectoryGroup"])


@pytest.mark.parametrize(
    "frames,reason",
    [
        ([], "malformed"),
        ([GOOD[0]], "malformed"),
        ([b"\x00", GOOD[1]], "malformed"),
        ([msgspec.msgpack.encode((99, "TrajectoryGroup")), *GOOD[1:]], "bad_version"),
        ([msgspec.msgpack.encode((m.PROTOCOL_VERSION, "Pickle")), *GOOD[1:]], "unknown_type"),
        ([GOOD[0], GOOD[1][:-5], *GOOD[2:]], "malformed"),  # truncated body
        ([GOOD[0], GOOD[1], *GOOD[2:-1]], "bad_tensor"),  # a tensor frame missing
        ([*GOOD, b"extra"], "bad_tensor"),  # a stray frame
        ([*GOOD[:-1], bytes(GOOD[-1])[:-4]], "bad_tensor"),  # tensor frame shorter than its shape
    ],
)
def test_malformed_messages_are_rejected_with_a_reason(frames, reason):
    with pytest.raises(m.DecodeError) as exc:
        m.decode(frames)
    assert exc.value.reason == reason


def test_wrong_field_types_are_rejected_and_name_the_field():
    body = msgspec.msgpack.encode({"request_id": "r9", "actor_id": 5})
    header = msgspec.msgpack.encode((m.PROTOCOL_VERSION, "LeaseRequest"))
    with pytest.raises(m.DecodeError) as exc:
        m.decode([header, body])
    assert exc.value.reason == "invalid" and "actor_id" in str(exc.value)
    assert exc.value.request_id == "r9"


def test_out_of_range_values_are_rejected():
    header = msgspec.msgpack.encode((m.PROTOCOL_VERSION, "LeaseRequest"))
    body = msgspec.msgpack.encode({"request_id": "r", "actor_id": "a", "max_groups": 0})
    with pytest.raises(m.DecodeError, match="max_groups"):
        m.decode([header, body])
    body = msgspec.msgpack.encode({"request_id": "x" * 1000, "actor_id": "a"})
    with pytest.raises(m.DecodeError, match="request_id"):
        m.decode([header, body])


def test_a_tensor_field_must_hold_a_tensor():
    header = msgspec.msgpack.encode((m.PROTOCOL_VERSION, "WeightBucket"))
    body = msgspec.msgpack.encode(
        {"request_id": "r", "version": 0, "index": 0, "checksum": "", "data": [1, 2, 3]}
    )
    with pytest.raises(m.DecodeError) as exc:
        m.decode([header, body])
    assert exc.value.reason == "invalid"


def test_tensor_descriptor_with_bad_dtype_or_shape_is_rejected():
    for desc in (
        [2, "complex128", [1]],
        [2, "float32", [-1]],
        [2, "float32", "abc"],
        [2, "float32", [1] * 9],
        [7, "float32", [1]],
    ):
        ext = msgspec.msgpack.Ext(1, msgspec.msgpack.encode(desc))
        body = msgspec.msgpack.encode(
            {"request_id": "r", "version": 0, "index": 0, "checksum": "", "data": ext}
        )
        header = msgspec.msgpack.encode((m.PROTOCOL_VERSION, "WeightBucket"))
        with pytest.raises(m.DecodeError) as exc:
            m.decode([header, body, b"\x00" * 4])
        assert exc.value.reason == "bad_tensor", desc


def test_oversized_message_is_rejected_before_decoding():
    with pytest.raises(m.DecodeError) as exc:
        m.decode(m.encode(EXAMPLES["WeightBucket"]), max_bytes=1000)
    assert exc.value.reason == "oversized"


def test_unknown_fields_from_a_newer_sender_are_ignored():
    header = msgspec.msgpack.encode((m.PROTOCOL_VERSION, "Heartbeat"))
    body = msgspec.msgpack.encode({"sender": "s", "role": "r", "future_field": [1, 2]})
    assert m.decode([header, body]).sender == "s"


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.binary(max_size=200), max_size=5))
def test_random_bytes_never_raise_anything_but_decode_error(frames):
    try:
        m.decode(frames)
    except m.DecodeError:
        pass


@settings(max_examples=200, deadline=None)
@given(st.integers(0, 3), st.integers(0, 40), st.binary(min_size=1, max_size=8))
def test_corrupted_valid_messages_never_crash_the_decoder(frame_idx, pos, junk):
    frames = [bytearray(f) for f in m.encode(EXAMPLES["EvalResult"])]
    frames = frames[: max(2, len(frames))]
    target = frames[min(frame_idx, len(frames) - 1)]
    target[pos % max(1, len(target)) : pos % max(1, len(target)) + len(junk)] = junk
    try:
        m.decode(frames)
    except m.DecodeError:
        pass


def test_encode_refuses_unregistered_types():
    class Rogue(m.Message, kw_only=True):
        x: int = 0

    with pytest.raises(TypeError):
        m.encode(Rogue())


def test_packed_frames_round_trip_nested_and_reject_truncation():
    groups = [EXAMPLES["TrajectoryGroup"], EXAMPLES["WeightBucket"]]
    blob = m.pack_frames([m.pack_frames(m.encode(g)) for g in groups])  # as the learner broadcasts
    back = [m.decode(m.unpack_frames(part)) for part in m.unpack_frames(blob)]
    assert all(_equal(a, b) for a, b in zip(groups, back)) and len(back) == 2
    for bad in (blob[:-1], blob + b"x", b"\x01"):
        with pytest.raises(m.DecodeError):
            m.unpack_frames(bad)
