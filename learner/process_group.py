"""Where this learner process sits among the DeepSpeed ranks.

`process_group_env()` is the one place the learner touches the environment: DeepSpeed's
launcher (or torchrun) passes rank and world size in environment variables; a plain
single process gets world-size-1 defaults and a free port, so `krl learner`, `krl sft`
and tests need no launcher.
"""

from __future__ import annotations

import os
import sys
from dataclasses import dataclass
from pathlib import Path

from common.ports import free_port


@dataclass(frozen=True)
class ProcessGroupEnv:
    """Where this learner process sits among the DeepSpeed ranks."""

    rank: int
    world_size: int
    local_rank: int
    extensions_dir: Path = Path()  # TORCH_EXTENSIONS_DIR: where DeepSpeed builds its ops


def process_group_env() -> ProcessGroupEnv:
    """Rank and world size from the launcher's variables; world-size-1 defaults otherwise.

    torch.distributed's env:// rendezvous reads these variables, so the defaults are
    written back. DeepSpeed builds its CPU ops once into the virtual environment
    (TORCH_EXTENSIONS_DIR) instead of a per-user cache.
    """
    env = os.environ
    if "WORLD_SIZE" not in env:
        env.update(
            RANK="0",
            WORLD_SIZE="1",
            LOCAL_RANK="0",
            MASTER_ADDR="127.0.0.1",
            MASTER_PORT=str(free_port()),
        )
    env.setdefault("LOCAL_RANK", env.get("RANK", "0"))
    env.setdefault("TORCH_EXTENSIONS_DIR", str(Path(sys.prefix) / "torch_extensions"))
    return ProcessGroupEnv(
        int(env["RANK"]),
        int(env["WORLD_SIZE"]),
        int(env["LOCAL_RANK"]),
        Path(env["TORCH_EXTENSIONS_DIR"]),
    )
