"""Every message that crosses a process boundary in krl, and its wire format.

Wire format (one ZeroMQ multipart message):
  frame 0   msgpack [PROTOCOL_VERSION, "TypeName"]   - route or reject before decoding
  frame 1   msgpack map of the message's fields       - typed and validated by msgspec
  frame 2.. raw tensor bytes, one frame per tensor     - zero-copy on send and receive

A tensor field is encoded in frame 1 as a msgpack extension (code 1) holding
[frame_index, dtype, shape]; small tensors (under INLINE_TENSOR_BYTES) travel inside
frame 1 instead (code 2: [dtype, shape, bytes]) to spare a frame. Decoding checks the
protocol version, the type name, every field's type and bound, each tensor's dtype,
shape and byte count, and that every tensor frame is used exactly once. Anything else
raises `DecodeError` with a short reason code for metrics. No pickle anywhere.

Compatibility: new fields are appended with defaults; receivers ignore fields they
do not know. Removing, reordering or retyping a field bumps PROTOCOL_VERSION.

Decoded tensors alias the received frames (read-only memory); clone before writing.
"""

from __future__ import annotations

import math
import threading
import time
import uuid
import warnings
from typing import Annotated, Any, Literal, Optional, Sequence, Union

import msgspec
import torch

from common.bounds import Count, Id, Name, RecordId, Seconds, Text
from common.verdict import Verdict

PROTOCOL_VERSION = 2  # 2: EvalResult and Turn carry a common/verdict.py Verdict
INLINE_TENSOR_BYTES = 4096
MAX_TENSOR_DIMS = 8

_EXT_FRAME = 1
_EXT_INLINE = 2

DTYPES: dict[str, torch.dtype] = {
    "float64": torch.float64,
    "float32": torch.float32,
    "float16": torch.float16,
    "bfloat16": torch.bfloat16,
    "int64": torch.int64,
    "int32": torch.int32,
    "int16": torch.int16,
    "int8": torch.int8,
    "uint8": torch.uint8,
    "bool": torch.bool,
}
_DTYPE_NAMES = {v: k for k, v in DTYPES.items()}


class DecodeError(ValueError):
    """A received message is not a valid krl message; `reason` is a metric label."""

    def __init__(self, reason: str, detail: str, request_id: str = ""):
        super().__init__(f"{reason}: {detail}")
        self.reason = reason
        self.detail = detail
        self.request_id = request_id  # best effort, so an error reply can name the request


def new_id() -> str:
    return uuid.uuid4().hex


class Message(msgspec.Struct, kw_only=True):
    """Base of every wire message. Subclasses are registered by class name."""


# --------------------------------------------------------------------------- common
class Heartbeat(Message, kw_only=True):
    """Any long-lived link, both ways, every transport.heartbeat_interval_s."""

    sender: Id
    role: Id
    seq: Count = 0
    sent_at: float = 0.0
    status: Id = "ok"


class ErrorReply(Message, kw_only=True):
    """Reply to a request that could not be served (malformed, rejected, failed)."""

    request_id: Id = ""
    code: Id
    message: Text
    sent_at: float = 0.0
    retry_after_s: Seconds = 0.0  # code "busy": resend no sooner than this


class Ack(Message, kw_only=True):
    """hub -> actor, one per TrajectoryGroup received; sent only once the group is stored."""

    request_id: Id
    group_id: RecordId
    outcome: Literal["accepted", "duplicate", "stale", "rejected"]
    detail: Text = ""
    sent_at: float = 0.0


# --------------------------------------------------------------------------- work
class ProblemPayload(msgspec.Struct, kw_only=True):
    """A KernelBench-format problem as it travels: source plus per-device size overrides."""

    name: Name
    source: Text
    family: Id = "unknown"
    sizes: dict[str, dict[str, Any]] = {}
    tolerance: dict[Id, float] = {}
    tags: list[Id] = []
    distributions: Optional[list[Id]] = None  # extra correctness trials; None: the evaluator's


class Lease(msgspec.Struct, kw_only=True):
    """One prompt handed to an actor: generate a group of n_samples episodes for it."""

    lease_id: RecordId
    prompt_id: RecordId
    problem: ProblemPayload
    n_samples: Annotated[int, msgspec.Meta(ge=1)]
    max_turns: Annotated[int, msgspec.Meta(ge=1)]
    expires_in_s: Seconds


class LeaseRequest(Message, kw_only=True):
    """actor -> hub, whenever the actor has room for more prompt groups."""

    request_id: Id
    actor_id: RecordId
    max_groups: Annotated[int, msgspec.Meta(ge=1, le=1024)] = 1
    policy_version: int = -1
    sent_at: float = 0.0


class LeaseGrant(Message, kw_only=True):
    """hub -> actor, reply to LeaseRequest; empty leases means wait retry_after_s."""

    request_id: Id
    leases: list[Lease] = []
    policy_version: int = 0
    retry_after_s: Seconds = 0.0
    sent_at: float = 0.0


class Turn(msgspec.Struct, kw_only=True):
    """One judged turn of one episode: tokens, the actor's logprobs, the token versions and
    the evaluator's verdict (without its diagnostics). The actor builds it, the learner
    trains on it as it arrives: the same struct in memory and on the wire."""

    prompt_ids: torch.Tensor  # int32 [P] full context the model saw this turn
    response_ids: torch.Tensor  # int32 [R] sampled tokens
    logprobs: torch.Tensor  # float32 [R] actor (vLLM) logprob of each sampled token
    versions: torch.Tensor  # int32 [R] policy version that produced each token
    verdict: Verdict  # verdict.judged False: no verdict came; never trained on
    code_start: Count = 0  # index in response_ids where the code begins


class Trajectory(msgspec.Struct, kw_only=True):
    """One sample of a prompt: its turns in order."""

    sample_index: Count
    turns: list[Turn]


class TrajectoryGroup(Message, kw_only=True):
    """actor -> hub, one per finished prompt group; resent until acked (idempotent by group_id)."""

    request_id: Id
    group_id: RecordId
    lease_id: RecordId
    prompt_id: RecordId
    problem_name: Name
    actor_id: RecordId
    trajectories: list[Trajectory]
    sent_at: float = 0.0
    evaluations: Count = 0  # turns whose verdict came from the evaluator service
    weights: dict[Id, int] = {}  # hub_id -> newest version of that hub incarnation's
    # weights that made tokens here (learner/hub_server.py)
    rolled_back: bool = False  # set by the hub on arrival: made by discarded weights


# --------------------------------------------------------------------------- weights
class BucketInfo(msgspec.Struct, kw_only=True):
    """Where one bucket's tensors sit in its flat byte buffer."""

    index: Count
    nbytes: Count
    checksum: Id
    names: list[Name]
    dtypes: list[Id]
    shapes: list[list[Count]]
    offsets: list[Count]
    pieces: list[list[Count]] = msgspec.field(default_factory=list)  # see Bucket.pieces


class WeightAnnouncement(Message, kw_only=True):
    """hub -> actors (PUB), when a version starts publishing, when it is complete, and the
    newest every few seconds; actors then pull the buckets."""

    version: Count
    total_bytes: Count  # 0 while the version is still being packed
    buckets: list[BucketInfo]  # [] while the version is still being packed
    sent_at: float = 0.0
    complete: bool = True  # False: buckets are being packed; pull them as they come
    hub_id: Id = ""  # the hub incarnation that published it (new per learner
    base_version: int = -1  # start) and the version it started at: versions above
    # base_version from an earlier incarnation were discarded
    delta_base: int = -1  # buckets are also served as deltas against this version
    # (the one published before); -1: a keyframe, full only


class WeightBucketRequest(Message, kw_only=True):
    """actor -> hub, one per bucket the actor pulls."""

    request_id: Id
    version: Count
    index: Count
    sent_at: float = 0.0
    hub_id: Id = ""  # only this incarnation's buckets of the version ("": any)
    delta_from: int = -1  # the version (same hub_id) the asker holds in full: a delta
    # against it is welcome; -1: send the full bucket


class WeightBucket(Message, kw_only=True):
    """hub -> actor, reply to WeightBucketRequest: a flat uint8 buffer of several tensors."""

    request_id: Id
    version: Count
    index: Count
    data: torch.Tensor  # uint8 [nbytes]
    checksum: Id  # "<algorithm>:<hex>" (common/buckets.py)
    sent_at: float = 0.0
    info: Optional[BucketInfo] = None  # layout + checksum: a pull may begin before the
    last: bool = False  # announcement lists them; last: no bucket follows
    encoding: Id = ""  # "": data is the bucket; "xor<k>-<codec>": data is the
    base_version: int = -1  # compressed XOR with base_version's bucket, in k byte
    # planes (common/buckets.py);
    # checksum and info are always the full bucket's


class RelayJoin(Message, kw_only=True):
    """actor -> hub, when an actor starts pulling a version with relaying on, and again
    when its source failed it: which peer should it pull from?"""

    request_id: Id
    actor_id: Id
    version: Count
    hub_id: Id
    endpoint: Name  # where this actor serves the version to others
    failed: Name = ""  # a source that went silent or dropped the version
    sent_at: float = 0.0


class RelaySource(Message, kw_only=True):
    """hub -> actor, reply to RelayJoin: pull the version's buckets from `endpoint`."""

    request_id: Id
    endpoint: Name  # "": from the hub itself
    sent_at: float = 0.0


# --------------------------------------------------------------------------- evaluation
class EvalSettings(msgspec.Struct, kw_only=True):
    """Settings that change a verdict; part of the evaluation cache key."""

    device: Id = "auto"
    timeout_s: Annotated[float, msgspec.Meta(gt=0)] = 120.0
    trials: Annotated[int, msgspec.Meta(ge=1, le=100)] = 3
    timing: bool = True
    profile: bool = True


class EvalRequest(Message, kw_only=True):
    """actor -> broker -> worker, one per candidate kernel; idempotent by request_id."""

    request_id: Id
    problem: ProblemPayload
    candidate: Text
    settings: EvalSettings = msgspec.field(default_factory=EvalSettings)
    deadline_s: Seconds = 0.0  # 0: no deadline beyond the settings' timeout
    sent_at: float = 0.0


class EvalResult(Message, kw_only=True):
    """worker -> broker -> actor, exactly one per EvalRequest: the verdict (common/verdict.py)."""

    request_id: Id
    verdict: Verdict
    worker_id: Id = ""
    cached: bool = False
    sent_at: float = 0.0


class WorkerStatus(Message, kw_only=True):
    """worker -> broker, every transport.heartbeat_interval_s (its heartbeat) and at once
    after (re)connecting: capacity and the evaluations it holds, so a restarted broker
    learns them."""

    worker_id: Id
    device: Id
    slots: Annotated[int, msgspec.Meta(ge=1, le=1024)]
    in_flight: Annotated[list[Id], msgspec.Meta(max_length=4096)] = []
    evaluations: Count = 0
    sent_at: float = 0.0


MESSAGE_TYPES: dict[str, type[Message]] = {
    cls.__name__: cls
    for cls in (
        Heartbeat,
        ErrorReply,
        Ack,
        LeaseRequest,
        LeaseGrant,
        TrajectoryGroup,
        WeightAnnouncement,
        WeightBucketRequest,
        WeightBucket,
        EvalRequest,
        EvalResult,
        WorkerStatus,
        RelayJoin,
        RelaySource,
    )
}

Frame = Union[bytes, bytearray, memoryview, Any]  # Any: zmq.Frame (has .buffer)


# --------------------------------------------------------------------------- encoding
class _Codec(threading.local):
    """Per-thread encoder/decoders; the hooks need per-call frame lists."""

    def __init__(self) -> None:
        self.frames: list = []
        self.encoder = msgspec.msgpack.Encoder(enc_hook=self._enc_hook)
        self.decoders: dict[type, msgspec.msgpack.Decoder] = {}
        self.in_frames: Sequence[memoryview] = ()
        self.used: set[int] = set()
        self.header = msgspec.msgpack.Decoder(tuple[int, str])

    def _enc_hook(self, obj: Any) -> Any:
        if not isinstance(obj, torch.Tensor):
            raise NotImplementedError(f"cannot encode {type(obj).__name__}")
        t = obj.detach()
        if t.device.type != "cpu":
            t = t.cpu()
        t = t.contiguous()
        dtype = _DTYPE_NAMES.get(t.dtype)
        if dtype is None:
            raise TypeError(f"tensor dtype {t.dtype} is not supported on the wire")
        shape = list(t.shape)
        nbytes = t.numel() * t.element_size()
        raw = t.view(torch.uint8).numpy() if t.numel() else b""
        if nbytes < INLINE_TENSOR_BYTES:
            return msgspec.msgpack.Ext(
                _EXT_INLINE, msgspec.msgpack.encode([dtype, shape, bytes(raw)])
            )
        self.frames.append(memoryview(raw).cast("B") if nbytes else b"")
        index = len(self.frames) + 1  # frames 0 and 1 are header and body
        return msgspec.msgpack.Ext(_EXT_FRAME, msgspec.msgpack.encode([index, dtype, shape]))

    def decoder(self, cls: type) -> msgspec.msgpack.Decoder:
        dec = self.decoders.get(cls)
        if dec is None:
            dec = msgspec.msgpack.Decoder(cls, ext_hook=self._ext_hook, dec_hook=_dec_hook)
            self.decoders[cls] = dec
        return dec

    def _ext_hook(self, code: int, data: memoryview) -> Any:
        if code == _EXT_INLINE:
            dtype, shape, raw = _unpack_ext(data, 3)
            return _tensor_from(memoryview(raw), dtype, shape)
        if code == _EXT_FRAME:
            index, dtype, shape = _unpack_ext(data, 3)
            if not isinstance(index, int) or not 2 <= index < len(self.in_frames):
                raise DecodeError("bad_tensor", f"tensor frame index {index!r} out of range")
            if index in self.used:
                raise DecodeError("bad_tensor", f"tensor frame {index} referenced twice")
            self.used.add(index)
            return _tensor_from(self.in_frames[index], dtype, shape)
        raise DecodeError("malformed", f"unknown extension type {code}")


def _unpack_ext(data: memoryview, n: int) -> list:
    try:
        items = msgspec.msgpack.decode(data)
    except (msgspec.DecodeError, UnicodeDecodeError) as exc:
        raise DecodeError("bad_tensor", f"tensor descriptor unreadable: {exc}") from None
    if not isinstance(items, list) or len(items) != n:
        raise DecodeError("bad_tensor", "tensor descriptor has the wrong shape")
    return items


def _tensor_from(buf: memoryview, dtype: Any, shape: Any) -> torch.Tensor:
    if dtype not in DTYPES:
        raise DecodeError("bad_tensor", f"unsupported tensor dtype {dtype!r}")
    if (
        not isinstance(shape, list)
        or len(shape) > MAX_TENSOR_DIMS
        or not all(isinstance(d, int) and not isinstance(d, bool) and d >= 0 for d in shape)
    ):
        raise DecodeError("bad_tensor", f"invalid tensor shape {shape!r}")
    torch_dtype = DTYPES[dtype]
    itemsize = torch.empty((), dtype=torch_dtype).element_size()
    expected = math.prod(shape) * itemsize
    if buf.nbytes != expected:
        raise DecodeError(
            "bad_tensor", f"tensor {dtype}{shape} needs {expected} bytes, frame has {buf.nbytes}"
        )
    if expected == 0:
        return torch.empty(shape, dtype=torch_dtype)
    with warnings.catch_warnings():
        # Received frames are read-only; the tensor aliases them (documented above).
        warnings.simplefilter("ignore", UserWarning)
        return torch.frombuffer(buf, dtype=torch_dtype).view(shape)


def _dec_hook(tp: type, obj: Any) -> Any:
    if tp is torch.Tensor and isinstance(obj, torch.Tensor):
        return obj
    raise msgspec.ValidationError(
        f"expected {getattr(tp, '__name__', tp)}, got {type(obj).__name__}"
    )


_codec = _Codec()


def encode(msg: Message) -> list:
    """Frames for `msg`: header, body, then one buffer per large tensor (zero-copy views)."""
    name = type(msg).__name__
    if MESSAGE_TYPES.get(name) is not type(msg):
        raise TypeError(f"{name} is not a registered krl message type")
    _codec.frames = []
    try:
        body = _codec.encoder.encode(msg)
        return [msgspec.msgpack.encode((PROTOCOL_VERSION, name)), body, *_codec.frames]
    finally:
        _codec.frames = []


def _as_view(frame: Frame) -> memoryview:
    buf = getattr(frame, "buffer", frame)  # zmq.Frame exposes .buffer
    try:
        return memoryview(buf).cast("B")
    except TypeError:
        raise DecodeError(
            "malformed", f"frame of type {type(frame).__name__} is not a buffer"
        ) from None


def peek_type(frames: Sequence[Frame]) -> tuple[int, str]:
    """Protocol version and type name from frame 0, without decoding the body."""
    if len(frames) < 2:
        raise DecodeError("malformed", f"expected at least 2 frames, got {len(frames)}")
    try:
        version, name = _codec.header.decode(_as_view(frames[0]))
    except (msgspec.DecodeError, UnicodeDecodeError) as exc:  # includes ValidationError
        raise DecodeError("malformed", f"header frame unreadable: {exc}") from None
    return version, name


def decode(
    frames: Sequence[Frame],
    expect: Union[type, tuple, None] = None,
    max_bytes: Optional[int] = None,
) -> Message:
    """Validate and decode a multipart message; raises DecodeError on anything invalid."""
    views = [_as_view(f) for f in frames]
    if max_bytes is not None:
        total = sum(v.nbytes for v in views)
        if total > max_bytes:
            raise DecodeError("oversized", f"message of {total} bytes exceeds limit {max_bytes}")
    version, name = peek_type(views)
    if version != PROTOCOL_VERSION:
        raise DecodeError(
            "bad_version", f"protocol version {version}, this process speaks {PROTOCOL_VERSION}"
        )
    cls = MESSAGE_TYPES.get(name)
    if cls is None:
        raise DecodeError("unknown_type", f"unknown message type {name[:64]!r}")
    if expect is not None and not issubclass(cls, expect):
        raise DecodeError("unexpected_type", f"did not expect {name} here")
    _codec.in_frames, _codec.used = views, set()
    try:
        msg = _codec.decoder(cls).decode(views[1])
    except msgspec.ValidationError as exc:
        raise DecodeError("invalid", f"{name}: {exc}", _loose_request_id(views[1])) from None
    except (msgspec.DecodeError, UnicodeDecodeError) as exc:
        raise DecodeError("malformed", f"{name}: body unreadable: {exc}") from None
    finally:
        used, _codec.in_frames, _codec.used = _codec.used, (), set()
    if len(used) != len(views) - 2:
        raise DecodeError("bad_tensor", f"{len(views) - 2 - len(used)} tensor frame(s) unused")
    return msg


def _loose_request_id(body: memoryview) -> str:
    """The request_id of a body that failed validation, if it has a readable one."""
    try:
        fields = msgspec.msgpack.decode(body, ext_hook=lambda code, data: None)
    except (msgspec.DecodeError, DecodeError, UnicodeDecodeError):
        return ""
    rid = fields.get("request_id") if isinstance(fields, dict) else None
    return rid[:256] if isinstance(rid, str) else ""


def pack_frames(frames: Sequence[Frame]) -> bytes:
    """One blob holding a multipart message: frame count, then (length, bytes) per frame,
    little-endian u64 lengths. For storing or broadcasting encoded messages as they are."""
    views = [_as_view(f) for f in frames]
    parts = [len(views).to_bytes(8, "little")]
    for v in views:
        parts += [v.nbytes.to_bytes(8, "little"), v]
    return b"".join(parts)


def unpack_frames(blob: Union[bytes, memoryview]) -> list[memoryview]:
    """The frames of a pack_frames blob, as views into it (no copy)."""
    view, pos = memoryview(blob).cast("B"), 8
    if view.nbytes < 8:
        raise DecodeError("malformed", "packed message shorter than its header")
    frames = []
    for _ in range(int.from_bytes(view[:8], "little")):
        size = int.from_bytes(view[pos : pos + 8], "little")
        if pos + 8 + size > view.nbytes:
            raise DecodeError("malformed", "packed message is truncated")
        frames.append(view[pos + 8 : pos + 8 + size])
        pos += 8 + size
    if pos != view.nbytes:
        raise DecodeError("malformed", f"{view.nbytes - pos} trailing bytes after the frames")
    return frames


def now() -> float:
    """Wall-clock send time stamped on requests (seconds since the epoch)."""
    return time.time()
