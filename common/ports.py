"""Free TCP ports on the loopback interface, for the processes a run or a test starts."""

from __future__ import annotations

import random
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
    below = _below_ephemeral(count)
    with _lock:
        for _ in range(1000):
            if below is not None:
                first = _random.randrange(*below)
                if not _bindable(first):
                    continue
            else:
                with socket.socket() as s:
                    s.bind(("127.0.0.1", 0))
                    first = s.getsockname()[1]
            ports = range(first, first + count)
            if _given.isdisjoint(ports) and all(_bindable(p) for p in ports[1:]):
                _given.update(ports)
                return first
    raise OSError(f"found no {count} consecutive free ports")


_random = random.SystemRandom()


def _below_ephemeral(count: int) -> tuple[int, int] | None:
    """[low, high) of first ports below the kernel's ephemeral range (ip_local_port_range),
    or None where it cannot be read. A port the kernel handed out for bind(0) is one it also
    hands out as the local port of any outgoing connection: a learner rank's metrics port,
    free when the run chose it, was held by another process's connection for a minute, and
    the rank failed to start four times (CI-like run, session 39)."""
    try:
        low = int(open("/proc/sys/net/ipv4/ip_local_port_range").read().split()[0])
    except (OSError, ValueError, IndexError):
        return None
    start, stop = max(10_000, low - 16_384), low - count
    return (start, stop) if stop - start >= 1_000 else None


def _bindable(port: int) -> bool:
    with socket.socket() as s:
        try:
            s.bind(("127.0.0.1", port))
        except OSError:
            return False
        return True
