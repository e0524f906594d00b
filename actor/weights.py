"""Weight updates for a running vLLM engine: verify, stage, load without a restart.

A weight update arrives from the hub as `common.buckets.Bucket`s: a flat byte
buffer per bucket, its layout (names, dtypes, shapes, offsets) and the sender's
sha256 of the buffer. The actor handles it in two phases:

1. Stage (generation keeps running): every bucket's checksum is recomputed and
   every name and shape is checked against the model's checkpoint; each bucket is
   then written to a file in a RAM-backed staging directory (/dev/shm). Any
   mismatch raises a `BucketError` (`BucketChecksumError`, `WeightUpdateError`)
   here, before the engine is touched, so a bad update loads nothing and the old
   weights stay.
2. Load (engine briefly paused, see actor/engine.py): vLLM's native weight-update
   API (`start_weight_update` / `update_weights` / `finish_weight_update`) drives
   `StagedWeightTransferEngine` below in every vLLM worker process; it maps a
   staged file and feeds its tensors to the model's own `load_weights`, under
   vLLM's layerwise reload (which re-runs any post-load processing, e.g. for
   quantized layers). Under tensor parallelism every worker reads the same
   file and keeps its own shard.

The worker side lives in vLLM's worker processes; it is registered there when
vLLM imports `WORKER_EXTENSION` (our `worker_extension_cls`), because weight
transfer backends are looked up in a per-process registry.
"""

from __future__ import annotations

import os
import tempfile
import time
import uuid
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import torch

from common.buckets import Bucket, BucketError, joined

BACKEND = "krl_staged"
WORKER_EXTENSION = "actor.weights.WeightsWorkerExtension"


class WeightUpdateError(BucketError):
    """A weight update does not fit the model (unknown, missing, repeated or misshapen
    tensors, or not newer than the engine's); nothing was loaded."""


def checkpoint_shapes(model_dir: str | Path) -> dict[str, list[int]]:
    """Parameter name -> shape of a Hugging Face safetensors checkpoint (headers only)."""
    from safetensors import safe_open

    shapes: dict[str, list[int]] = {}
    files = sorted(Path(model_dir).glob("*.safetensors"))
    if not files:
        raise FileNotFoundError(f"{model_dir}: no *.safetensors files to check weights against")
    for f in files:
        with safe_open(str(f), framework="pt") as sf:
            for name in sf.keys():  # noqa: SIM118 (safe_open is not a dict)
                shapes[name] = list(sf.get_slice(name).get_shape())
    return shapes


@dataclass
class StagedUpdate:
    """A verified weight update written to RAM-backed files, ready for the workers."""

    version: int
    infos: list[dict[str, Any]] = field(default_factory=list)  # one update_info per file
    nbytes: int = 0
    num_tensors: int = 0
    stage_s: float = 0.0

    def cleanup(self) -> None:
        for info in self.infos:
            Path(info["path"]).unlink(missing_ok=True)


def default_staging_dir() -> Path:
    shm = Path("/dev/shm")
    return shm if shm.is_dir() and os.access(shm, os.W_OK) else Path(tempfile.gettempdir())


def stage(
    version: int,
    buckets: Iterable[Bucket],
    expected: dict[str, list[int]],
    staging_dir: Path,
    allow_partial: bool = False,
    verified: bool = False,
) -> StagedUpdate:
    """Check every bucket (checksum unless `verified`, layout, names, shapes), then write it out.

    Blocking (hashing and file writes); the engine runs it in a thread. On any
    error the files written so far are removed and nothing reaches the engine.
    """
    start = time.perf_counter()
    staged = StagedUpdate(version)
    seen: set[str] = set()
    try:
        for bucket in joined(_checked(buckets, verified)):
            _check_names(bucket, expected, seen)
            path = staging_dir / f"krl-weights-v{version}-{uuid.uuid4().hex[:8]}.bin"
            bucket.data.numpy().tofile(path)
            staged.infos.append(
                {
                    "path": str(path),
                    "names": bucket.names,
                    "dtypes": bucket.dtypes,
                    "shapes": bucket.shapes,
                    "offsets": bucket.offsets,
                }
            )
            staged.nbytes += bucket.data.numel()
            staged.num_tensors += len(bucket.names)
        missing = set(expected) - seen
        if missing and not allow_partial:
            raise WeightUpdateError(
                f"weight update v{version} lacks {len(missing)} of the model's tensors "
                f"(e.g. {sorted(missing)[:3]}); nothing loaded"
            )
    except BaseException:
        staged.cleanup()
        raise
    staged.stage_s = time.perf_counter() - start
    return staged


def _checked(buckets: Iterable[Bucket], verified: bool) -> Iterator[Bucket]:
    for bucket in buckets:
        if verified:
            bucket.check_layout()  # bounds and alignment only
        else:
            bucket.verify()
        yield bucket


def _check_names(bucket: Bucket, expected: dict[str, list[int]], seen: set[str]) -> None:
    for name, shape in zip(bucket.names, bucket.shapes):
        if name not in expected:
            raise WeightUpdateError(f"weight update names {name!r}, which the model does not have")
        if list(shape) != expected[name]:
            raise WeightUpdateError(
                f"{name}: shape {list(shape)} does not match the model's {expected[name]}"
            )
        if name in seen:
            raise WeightUpdateError(f"weight update sends {name!r} twice")
        seen.add(name)


# ----------------------------------------------------------------- vLLM worker side
# Everything below runs inside vLLM's worker processes.
from vllm.distributed.weight_transfer.base import (
    WeightTransferEngine,
    WeightTransferInitInfo,
    WeightTransferUpdateInfo,
)
from vllm.distributed.weight_transfer.factory import WeightTransferEngineFactory


@dataclass
class StagedInitInfo(WeightTransferInitInfo):
    """No rendezvous: staged files are found by path."""


@dataclass
class StagedUpdateInfo(WeightTransferUpdateInfo):
    """One staged bucket file and its layout."""

    path: str
    names: list[str]
    dtypes: list[str]
    shapes: list[list[int]]
    offsets: list[int]


class StagedWeightTransferEngine(WeightTransferEngine[StagedInitInfo, StagedUpdateInfo]):
    """vLLM weight-transfer backend that loads buckets staged in local files."""

    init_info_cls = StagedInitInfo
    update_info_cls = StagedUpdateInfo

    def init_transfer_engine(self, init_info: StagedInitInfo) -> None:
        pass

    def start_weight_update(self) -> None:
        from vllm.model_executor.model_loader.reload import initialize_layerwise_reload

        initialize_layerwise_reload(self.model)

    def receive_weights(self, update_info: StagedUpdateInfo) -> None:
        nbytes = os.path.getsize(update_info.path)
        # A private mapping of the (RAM-backed) file: its bytes are read once, by the
        # copy into the model's parameters. Already verified, so no checksum here.
        data = torch.from_file(update_info.path, shared=False, size=nbytes, dtype=torch.uint8)
        bucket = Bucket(
            data,
            update_info.names,
            update_info.dtypes,
            update_info.shapes,
            update_info.offsets,
            checksum="",
        )
        self.model.load_weights(bucket.tensors())

    def finish_weight_update(self) -> None:
        from vllm.model_executor.model_loader.reload import finalize_layerwise_reload

        finalize_layerwise_reload(self.model, self.model_config)

    def shutdown(self) -> None:
        pass


class WeightsWorkerExtension:
    """Mixed into vLLM's worker class (`worker_extension_cls`); importing this module
    in the worker process is what registers the staged backend there."""


try:
    WeightTransferEngineFactory.register_engine(BACKEND, StagedWeightTransferEngine)
except ValueError:  # already registered: this module was imported before in this process
    pass
