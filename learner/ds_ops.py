"""DeepSpeed's just-in-time ops: the one `deepspeed.init_distributed` would build is left
unbuilt, and any op DeepSpeed builds later (CPU Adam under ZeRO-Offload, fused Adam on a GPU)
never waits on a build killed mid-way.

`init_distributed` on the CPU builds DeepSpeed's shared-memory collective op
(`deepspeed_shm_comm`: a minute of a 2-core machine's CPU, on every fresh venv, CI's included)
whenever DeepSpeed's table of compatible ops says it can. That op serves only
`deepspeed.comm.inference_all_reduce` (AutoTP inference); the learner trains, and training's
collectives (all_reduce, all_gather, broadcast) are torch.distributed's in every case, so the
learner marks the op incompatible in that table (DeepSpeed keeps the table as one dict so that
edits to it hold) and the build never starts. On a GPU the accelerator offers no such op.

torch builds an op into TORCH_EXTENSIONS_DIR/<op>/ while holding `<op>/lock`, a file made
with O_EXCL that only the builder removes. A learner killed while building (kill -9, or a
SIGTERM before its handler is installed) leaves the file behind, and every later learner
waits on it forever, silent, before it serves /health. Here every krl process clears them
while holding an flock on TORCH_EXTENSIONS_DIR/krl-build.lock (common/runlock.py: gone the
moment its holder dies). Whoever holds it knows no krl build is under way, so a `lock`
file older than STALE_S was left by a dead builder and is removed, loudly; a younger one
(a process between this build and its own, which is quick once the op is built) is
waited for first.
"""

from __future__ import annotations

import logging
import time
from pathlib import Path

from common.runlock import LockHeld, RunLock

log = logging.getLogger(__name__)
STALE_S = 60.0  # a build's own `lock` outlives the flock only for the quick no-op rebuild
WAIT_S = 1800.0  # another process's build (a minute or two on a small machine)


def prepare_ops(ext_dir: Path) -> None:
    """Before `deepspeed.init_distributed`: clear stale build batons in `ext_dir` under the
    flock, and leave the inference-only shared-memory op unbuilt (skip_shm_op)."""
    lock = RunLock(Path(ext_dir) / "krl-build.lock", "krl build")
    try:
        lock.acquire(
            WAIT_S,
            on_wait=lambda holder: log.info(
                "waiting for %s to build DeepSpeed's ops in %s", holder, ext_dir
            ),
        )
    except LockHeld as exc:  # building anyway: torch's own baton still serialises it
        log.warning("%s: going on without it", exc)
    skip_shm_op()
    try:
        clear_stale_batons(Path(ext_dir))
    finally:
        lock.release()


def skip_shm_op() -> None:
    """Mark `deepspeed_shm_comm` incompatible in DeepSpeed's table of compatible ops, the one
    thing `deepspeed.comm.torch.build_shm_op` reads before building it: TorchBackend then keeps
    no shm op, and its `inference_all_reduce` (the op's only user) falls back to
    torch.distributed's all_reduce."""
    import deepspeed.ops

    deepspeed.ops.__compatible_ops__["deepspeed_shm_comm"] = False


def clear_stale_batons(ext_dir: Path, stale_s: float = STALE_S) -> list[Path]:
    """Remove each `<op>/lock` under `ext_dir` once it is older than stale_s (waiting for
    a younger one to go or age); the paths removed. Call only while holding the flock."""
    removed = []
    for baton in sorted(ext_dir.glob("*/lock")):
        while True:
            try:
                age = time.time() - baton.stat().st_mtime
            except FileNotFoundError:
                break  # its builder finished
            if age >= stale_s:
                log.warning(
                    "removing %s, left %.0fs ago by a build that was killed: every "
                    "learner would wait on it forever",
                    baton,
                    age,
                )
                baton.unlink(missing_ok=True)
                removed.append(baton)
                break
            time.sleep(min(1.0, stale_s - age))
    return removed
