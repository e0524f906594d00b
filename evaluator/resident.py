"""A sandbox's resident memory, as its watchdog counts it against the host memory limit.

Every process of the sandbox's tree is counted by its resident set (VmRSS), its shared memory
(RssShmem) told apart so that the reply arena the job's child maps is counted once
(evaluator.sandbox's watchdog), except the processes the job's child forks: the autotune
pins' forks and the standby fork of the last trial (evaluator.autotune_forks). A fork shares
every page the child had when it was taken until one of them writes it, and VmRSS counts a
shared page whole in each process that maps it: with the standby and one of its forks alive
beside a child holding 768 MiB of input and as much output (1759 MiB resident), the three were
counted 4375 MiB, over the 3 GiB limit, where the host held about 2.5 GiB (session 64, CPU,
measured). A fork is counted by its
proportional share instead (Pss: a page mapped by k processes counts 1/k in each): what it
holds alone counts whole, a page it shares with the child adds a fraction to the child's whole
count, and a page only forks still share (the child freed it) sums to one page over them, so
no page the job's processes hold goes uncounted. Pss walks every page a process maps (0.27 s
for a fork of a 1.7 GiB child, against 0.04 ms for its status), so the watchdog reads it only
where the whole count is over the limit (the share is never more than the whole).

The child itself was counted whole beside its forks' shares, so a page the child and two forks
share counted 1 + 2/3: a child holding 768 MiB of input and output was counted 3142 MiB in the
standby phase, over a 3 GiB limit, where the host held about 2.5 GiB (session 64). Since session
65 the child is counted by its share too (its Pss, its shared memory whole as before: the reply
arena's rule), so a page the three share counts once; the zygote above it stays whole, so a page
the child shares with it counts 1 + 1/2, never less than the one page it is. A page only the
job's processes map is counted exactly once over them, so what a candidate allocates (private,
anonymous) counts whole wherever it lies: a forward exhausting memory is still refused.
"""
from __future__ import annotations

import os


def children(pid: int) -> list[int]:
    """The processes `pid` forked (every thread's)."""
    out = []
    try:
        for tid in os.listdir(f"/proc/{pid}/task"):
            with open(f"/proc/{pid}/task/{tid}/children", encoding="ascii") as f:
                out.extend(int(x) for x in f.read().split())
    except OSError:
        pass
    return out


def tree_memory(pid: int, forker: int | None = None) -> tuple[int, int]:
    """(resident bytes, of which shared memory) over the process tree of `pid`; `forker` (the
    job's child, by host pid) and the processes below it by their proportional share (the
    module's docstring says why), the forker's shared memory (its reply arena) whole and
    counted as shared, so that the watchdog's arena rule sees it as before."""
    total, shmem, todo, seen = 0, 0, [(pid, False)], set()
    while todo:
        p, forked = todo.pop()
        if p in seen:
            continue
        seen.add(p)
        if forked:
            total += _proportional(p)[0]
        elif p == forker:
            share, shared_share = _proportional(p)
            shared = _status(p)[1]
            total, shmem = total + share - shared_share + shared, shmem + shared
        else:
            resident, shared = _status(p)
            total, shmem = total + resident, shmem + shared
        # whatever its own status said
        todo.extend((c, forked or p == forker) for c in children(p))
    return total, shmem


def _status(p: int) -> tuple[int, int]:
    """(VmRSS, RssShmem) in bytes; nothing for a process gone. Read as bytes: the Name line is
    the process's own choice, raw (red team s59e: a name that was not ASCII failed the read,
    which skipped the process and all under it)."""
    try:
        with open(f"/proc/{p}/status", "rb") as f:
            fields = dict(line.split(b":", 1) for line in f if line.startswith((b"VmRSS:", b"RssShmem:")))
        return (int(fields.get(b"VmRSS", b"0 kB").split()[0]) << 10,
                int(fields.get(b"RssShmem", b"0 kB").split()[0]) << 10)
    except (OSError, ValueError, IndexError):
        return 0, 0


def _proportional(p: int) -> tuple[int, int]:
    """(Pss, of which shared memory's: Pss_Shmem) in bytes (smaps_rollup); (VmRSS, RssShmem)
    where the kernel has no rollup to read."""
    try:
        with open(f"/proc/{p}/smaps_rollup", "rb") as f:
            fields = dict(line.split(b":", 1) for line in f if line.startswith((b"Pss:", b"Pss_Shmem:")))
        if b"Pss" in fields:
            return int(fields[b"Pss"].split()[0]) << 10, int(fields.get(b"Pss_Shmem", b"0 kB").split()[0]) << 10
    except (OSError, ValueError, IndexError):
        pass
    return _status(p)
