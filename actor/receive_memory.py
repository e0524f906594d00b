"""Receive memory that stays mapped: without it every weight pull lands in fresh pages.

libzmq allocates each incoming message with malloc on its I/O thread. glibc gives an
allocation of 32 MiB or more its own mapping, and a thread's arena hands emptied heaps back
to the kernel, so every byte of every version an actor pulls cost a page fault plus the
kernel zeroing that page: 65,536 faults per 256 MB on every version, the first and the
tenth alike (`benchmarks/weights.py --warm`, which reports the actors' faults; on the H200
host a relaying actor spent about a third of its time in them, session 25).

`keep_receive_memory` sets the process's malloc so that freed receive buffers are reused:
one arena (the I/O thread allocates from the main heap, which grows and is not unmapped
heap by heap), allocations under glibc's largest mmap threshold (32 MiB on 64-bit) from
that heap, and the heap never trimmed (-1: a threshold of 2 GiB still gave every version of
a 2.4 GB model fresh pages on the H200 host, 614,000 faults per actor per version). A 16 MiB
bucket stream then faults on the first versions only (3 faults per later version on the H200
host, where one actor's pull of 2.5 GB went from 1.84 s to 0.97 s and eight actors' from
3.30 s to 1.81 s, session 27; benchmarks/reports/weights.md). The
cost: the process keeps its peak heap (about the versions of weights it holds anyway),
threads share one malloc lock, and only buckets under 32 MiB benefit
(learner.hub.bucket_bytes, 16 MiB by default; a 32 MiB bucket is just over and still maps
fresh pages).
"""

from __future__ import annotations

import ctypes
import ctypes.util
import logging

log = logging.getLogger(__name__)
M_TRIM_THRESHOLD, M_MMAP_THRESHOLD, M_ARENA_MAX = -1, -3, -8  # glibc's malloc.h
MMAP_THRESHOLD_MAX = 32 << 20  # glibc's cap for M_MMAP_THRESHOLD on 64-bit
TRIM_THRESHOLD = -1  # never trim (mallopt takes an int; -1 is glibc's "off")


def keep_receive_memory() -> bool:
    """Set the process's malloc as the module docstring says, before any socket exists.
    False (and a log line) where the C library has no mallopt or refuses a setting."""
    try:
        mallopt = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6").mallopt
    except (OSError, AttributeError):
        log.info("receive memory: no mallopt in this C library; buffers come from fresh pages")
        return False
    mallopt.argtypes, mallopt.restype = [ctypes.c_int, ctypes.c_int], ctypes.c_int
    settings = (
        (M_ARENA_MAX, 1),
        (M_MMAP_THRESHOLD, MMAP_THRESHOLD_MAX),
        (M_TRIM_THRESHOLD, TRIM_THRESHOLD),
    )
    refused = [param for param, value in settings if mallopt(param, value) != 1]
    if refused:
        log.warning(
            "receive memory: mallopt refused %s; buffers may come from fresh pages", refused
        )
    return not refused
