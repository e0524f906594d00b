"""DeepSpeed's just-in-time ops (the CPU shared-memory collective op that
`deepspeed.init_distributed` builds), built under a lock that dies with its holder.

torch builds an op into TORCH_EXTENSIONS_DIR/<op>/ while holding `<op>/lock`, a file made
with O_EXCL that only the builder removes. A learner killed while building (kill -9, or a
SIGTERM before its handler is installed) leaves the file behind, and every later learner
waits on it forever, silent, before it serves /health. Here every krl process builds
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


def build_ops(ext_dir: Path) -> None:
    """Build DeepSpeed's ops into `ext_dir` under the flock, clearing stale batons first."""
    lock = RunLock(Path(ext_dir) / "krl-build.lock", "krl build")
    try:
        lock.acquire(
            WAIT_S,
            on_wait=lambda holder: log.info(
                "waiting for %s to build DeepSpeed's ops in %s", holder, ext_dir
            ),
        )
    except LockHeld as exc:  # building anyway: torch's own baton still serialises it
        log.warning("%s: building without it", exc)
    try:
        clear_stale_batons(Path(ext_dir))
        from deepspeed.comm.torch import build_shm_op

        build_shm_op()
    finally:
        lock.release()


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
