"""free_port hands out each port once per process: a run asks for its hub, broker and
metrics ports before any role binds, and two roles given one port talk past each other."""

import socket

from common.ports import free_port


def test_ports_asked_for_before_any_is_bound_are_all_different():
    # 500 draws from the kernel's ephemeral range repeat a port many times over (birthday
    # bound); the run's roles would then share one
    got = [free_port() for _ in range(500)]
    assert len(set(got)) == len(got)


def test_a_block_of_ports_is_free_and_not_handed_out_again():
    first = free_port(4)
    block = set(range(first, first + 4))
    for p in block:
        with socket.socket() as s:
            s.bind(("127.0.0.1", p))  # free now
    assert block.isdisjoint(free_port() for _ in range(200))


def test_ports_lie_below_the_range_the_kernel_picks_outgoing_connections_from():
    """A port bind(0) gave is one the kernel also gives as the local port of any outgoing
    connection: a learner rank's metrics port was held by another process's connection and
    the rank failed to start four times (session 39). Ports come from below that range."""
    low = int(open("/proc/sys/net/ipv4/ip_local_port_range").read().split()[0])
    got = [free_port() for _ in range(50)] + [free_port(3) + 2]
    assert all(1024 <= p < low for p in got), (low, got)
