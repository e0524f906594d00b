"""Hub config: the learner rank-0 service that owns training progress.

Two sections of the run config: `hub_link` (HubLinkConfig: where the hub serves and how
weights reach actors, which the hub and every actor must agree on, so it is set once at
the top of RunConfig) and `learner.hub` (HubServiceConfig: the hub's own settings, which
no actor reads). `HubConfig` is both together: what the hub runs with.
"""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from common.config.base import Section


class HubLinkConfig(Section):
    """Where the hub (learner rank 0) serves and how weights travel to actors: the learner
    binds these endpoints and every actor connects to them, so both read this one section."""

    endpoint: str = "tcp://127.0.0.1:5560"
    """ROUTER endpoint actors send lease requests, groups and bucket requests to."""
    publish_endpoint: str = "tcp://127.0.0.1:5561"
    """PUB endpoint where weight announcements are broadcast."""
    relay_fanout: int = Field(0, ge=0)
    """Relay: actors pull a version from each other, forwarding buckets as they arrive; the
    hub and each actor serve at most this many actors directly (1: a chain). 0: off, every
    actor pulls from the hub."""
    relay_timeout_s: float = Field(10.0, gt=0)
    """A relay silent this long (dead or stopped), or sending no bucket for three times
    this long (slow), is routed around: the actor asks the hub for another source and
    keeps the buckets it has."""


class HubServiceConfig(Section):
    """Work leases, the trajectory inbox and the weight publisher (learner rank 0); its
    endpoints and relay are `hub_link`'s."""

    lease_timeout_s: float = Field(600.0, gt=0)
    """A lease not returned within this time is handed out again."""
    retry_after_s: float = Field(1.0, gt=0)
    """What an actor is told to wait when admission control grants nothing."""
    storage_give_up_s: float = Field(300.0, gt=0)
    """How long group writes may keep failing (a full disk: actors are told `busy` and
    resend) before the hub gives up: the learner exits with a clear line, so `krl run`
    restarts it and, if the disk stays full, fails the run with the reason instead of
    waiting forever."""
    max_buffered_groups: int = Field(256, ge=1)
    """Accepted groups waiting for training; beyond this no new lease is granted."""
    announce_interval_s: float = Field(2.0, gt=0)
    """The latest weight announcement is re-broadcast this often for late joiners."""
    keep_weight_versions: int = Field(2, ge=1)
    """Published versions kept in memory for actors still pulling an older one."""
    bucket_bytes: int = Field(16 << 20, ge=1 << 20)
    """Largest weight bucket message (a bigger tensor travels in pieces). A relay forwards
    a bucket once it has all of it, so each hop of the chain costs one bucket's transfer,
    and an actor reuses its receive memory only for messages under glibc's 32 MiB mmap
    threshold (actor/receive_memory.py). On the H200 host, 2.5 GB to 8 chained actors in
    steady state: 1.81 s in 16 MiB buckets, 1.87 s in 31 MiB ones (one actor 0.97 / 0.92 s);
    in 256 MiB buckets, before the reuse, 5.61 s (benchmarks/reports/weights.md)."""
    pack_threads: int = Field(4, ge=1)
    """Threads that copy and checksum weight buckets while a version is published."""
    checksum: Literal["blake3", "sha256"] = "blake3"
    """Checksum algorithm of weight buckets; actors verify whichever one a bucket names."""
    delta_codec: Literal["zstd", "zlib", "none"] = "zstd"
    """After a full version, buckets are also served as the compressed XOR with the version
    published before (to actors holding that one); "none": full buckets only."""
    keyframe_every: int = Field(10, ge=1)
    """Every this many versions (counted from the incarnation's first) is a keyframe:
    served in full only, so no actor applies deltas forever. 1: no deltas."""
    synchronous: bool = False
    """Grant leases only to actors whose loaded weights are the hub's newest version. With
    learner.max_staleness 0 this is lockstep: generate and evaluate one batch, train it,
    publish, and only then generate the next (the baseline of benchmarks/pipeline.py)."""


class HubConfig(HubServiceConfig, HubLinkConfig):
    """What the hub runs with: `learner.hub` and `hub_link` together (`of`)."""

    @classmethod
    def of(cls, service: HubServiceConfig, link: HubLinkConfig) -> "HubConfig":
        """The hub's settings of a run: its own section plus the shared link."""
        return cls(**service.model_dump(), **link.model_dump())
