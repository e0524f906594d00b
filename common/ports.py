"""Free TCP ports on the loopback interface, for the processes a run or a test starts."""
from __future__ import annotations

import socket
import threading

# Ports this process has handed out. The kernel may pick a port again as soon as the probe
# socket closes, and a caller that asks for several ports before binding any (a run's hub,
# broker frontend and backend) then got one twice: two roles on one port, and a client of
# the one talking to the other (seen in CI: an actor's lease request answered by a broker).
_given: set[int] = set()
_lock = threading.Lock()


def free_port(count: int = 1) -> int:
    """A TCP port free on 127.0.0.1 right now and not handed out before by this process;
    with count > 1, the first of that many consecutive such ports (learner ranks serve
    metrics on port + local rank). Free now is not reserved: the caller binds it soon, or a
    bind error says it was taken."""
    with _lock:
        for _ in range(1000):
            with socket.socket() as s:
                s.bind(("127.0.0.1", 0))
                first = s.getsockname()[1]
            ports = range(first, first + count)
            if _given.isdisjoint(ports) and all(_bindable(p) for p in ports[1:]):
                _given.update(ports)
                return first
    raise OSError(f"found no {count} consecutive free ports")


def _bindable(port: int) -> bool:
    with socket.socket() as s:
        try:
            s.bind(("127.0.0.1", port))
        except OSError:
            return False
        return True
