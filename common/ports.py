"""Free TCP ports on the loopback interface, for the processes a run or a test starts."""
from __future__ import annotations

import socket


def free_port(count: int = 1) -> int:
    """A TCP port free on 127.0.0.1 right now; with count > 1, the first of that many
    consecutive free ports (learner ranks serve metrics on port + local rank). Free now is
    not reserved: the caller binds it soon, or a bind error says it was taken."""
    for _ in range(100):
        with socket.socket() as s:
            s.bind(("127.0.0.1", 0))
            first = s.getsockname()[1]
        if all(_bindable(first + i) for i in range(1, count)):
            return first
    raise OSError(f"found no {count} consecutive free ports")


def _bindable(port: int) -> bool:
    with socket.socket() as s:
        try:
            s.bind(("127.0.0.1", port))
        except OSError:
            return False
        return True
