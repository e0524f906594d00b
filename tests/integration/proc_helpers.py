"""Small helpers the integration tests share for starting real processes."""
import json
import os
import socket
from pathlib import Path

PROCESS_GROUP_VARS = ("RANK", "WORLD_SIZE", "LOCAL_RANK", "MASTER_ADDR", "MASTER_PORT")


def free_port() -> int:
    """A TCP port free on 127.0.0.1 right now."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def clean_env() -> dict:
    """This environment without torch.distributed's variables, so a child started here
    forms its own process group instead of joining the test runner's."""
    return {k: v for k, v in os.environ.items() if k not in PROCESS_GROUP_VARS}


def read_json(path: Path) -> dict:
    """The JSON object in `path`, or {} while it is missing or half-written."""
    try:
        return json.loads(path.read_text())
    except (OSError, ValueError):
        return {}
