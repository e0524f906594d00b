"""Which memory carries a share of the candidate's own kernels' writes (forward_watch.Provenance).

The knock-out run proves that forward's result depends on what the kernels wrote, not how
much: a one-element flag a kernel writes, gating or offsetting a result PyTorch computed
(`torch.relu(x) * flag`, `torch.addmm(flag_bias, a, b)`), passes it (red teams rt23/rt23b,
session 23). So every checked forward tracks, per storage, whether it is CARRIED: a share
of it was written by the candidate's kernels, or it was computed from carried memory of
at least 1/CARRY_RATIO of its size (a scalar a kernel wrote does not carry an output a
million times bigger; a full-size Triton epilogue does).

Which arguments a launch wrote is not known on the GPU, so it is measured: before each
launch SAMPLES random bytes of every storage it is handed are read (with the harness's
own generator, every dispatch mode off), and after it the same bytes again; a storage
whose sampled bytes changed in at least WRITTEN_SHARE of the places was written by the
launch. A buffer handed to a kernel that never writes it (or writes one element) stays
as it was, noise included: it carries nothing. An input the kernel only reads is not
changed either. A forward that returns memory PyTorch computed (`returned`, or computed
from kernel-written memory: `returned_after_kernels`) that is not carried is `thin`:
evaluator.gates then asks its kernels for the coverage the knock-out cannot show.

Per storage it also keeps WHICH kernels' writes it carries (the last launch that wrote it,
then every carried input of an operator computing from it): `kernels_in(outs)` names the
kernels whose writes reach what forward returned. A single knock-out that only raised
proves that forward looked at the kernel's output, not that its result needs it (a padding
pass writing an index that a gather nobody returns reads: red team s24, finding 7), so
evaluator.knockout_round counts such a kernel needed only where its writes reach the result.
Only PyTorch's operators pass the names on, never a launch: which arguments a kernel reads
is not known, and handing a padding's buffer to the kernel that writes the result (unread)
would launder it.

A kernel's writes carry the result only where they depend on its inputs: an identity
permutation a kernel writes, gathered by torch from its own product (reduced into range by
torch.remainder), made the result carried and no gate ran (red team s25,
rt25_identity_index_carries). So the sample positions are fixed per process and storage size
(a secret drawn after the fork), and every write is kept as a WRITE: its id (kernel, the
kernel's launch count in this forward, the storage's place among the launch's arguments, its
size) and a digest of the sampled bytes after it. The lineage holds write ids;
evaluator.gates compares the digests of the same write across the checked trials (different
inputs): a write whose bytes came out the same in every one computed a constant and carries
nothing, as a constant op's output is nobody's (aten_facts.constant_op).
"""
from __future__ import annotations

import hashlib
import os
import secrets

import torch
from torch.utils._python_dispatch import _disable_current_modes

from evaluator.aten_facts import storage_bytes

SAMPLES = 4096  # bytes sampled per handed storage, before and after each launch
WRITTEN_SHARE = 1 / 64  # sampled bytes that must change for a storage to count as written
CARRY_RATIO = 16  # carried memory must be at least 1/16 the size of what is computed from it
MAX_WRITES = 64  # writes of one kernel kept per forward (each a short id and an 8-byte digest)
ALL_WRITES = 4096  # and of all kernels together
OVERWRITES = frozenset({"copy_", "_copy_from", "_copy_from_and_resize", "fill_", "zero_", "set_"})


_SECRET: dict[int, int] = {}  # pid -> the secret the sample positions are drawn from
_POSITIONS: dict[tuple[int, int, str], torch.Tensor] = {}  # (pid, storage bytes, device) -> positions


def positions(n: int, device: torch.device | str = "cpu") -> torch.Tensor:
    """The byte offsets sampled in a storage of `n` bytes: the same in every forward of this
    process (so a write can be compared across trials), drawn from a secret this process drew
    (a child forked from the zygote draws its own). Kept on the storage's device: a copy to the
    GPU before every launch cost a host sync each (a forward of 32768 launches timed out)."""
    key = (os.getpid(), n, str(device))
    held = _POSITIONS.get(key)
    if held is None:
        seed = _SECRET.setdefault(key[0], secrets.randbits(62))
        gen = torch.Generator().manual_seed((seed + n * 0x9E3779B97F4A7C15) % (1 << 63))
        held = torch.randint(0, n, (min(SAMPLES, n),), generator=gen).to(device)
        if len(_POSITIONS) < 1024:
            _POSITIONS[key] = held
    return held


def _nbytes(t: torch.Tensor) -> int:
    try:
        return t.untyped_storage().nbytes()
    except (RuntimeError, NotImplementedError):
        return 0


def _viewed(t: torch.Tensor) -> int:
    """The bytes an operator reads of `t`: its view's, never more than its storage's (an empty
    slice of a kernel's buffer handed to torch.cat read nothing of it, yet carried the
    kernel's writes into the result: red team s25, rt25 cat_empty_slice)."""
    return min(_nbytes(t), t.numel() * t.element_size())


class Carried:
    """Storage keys (forward_watch.storage_key) that carry the kernels' writes."""

    def __init__(self) -> None:
        self.keys: set[int] = set()
        self.sizes: dict[int, int] = {}
        self.by: dict[int, frozenset] = {}  # carried storage key -> the write ids it holds
        self.writes: dict[str, str] = {}  # write id -> digest of its sampled bytes (module docstring)
        self.kernel_of: dict[str, tuple] = {}  # write id -> (module, name)
        self._launches: dict[tuple, int] = {}  # kernel -> its launches so far in this forward
        self._kept: dict[tuple, int] = {}  # kernel -> its writes with a digest kept
        # carried because a launch wrote a share of it (not an operator mixing carried memory
        # with other memory): a part of it is as carried as the whole (`reads_carried`)
        self.direct: set[int] = set()

    def sample(self, tensors: list[torch.Tensor], key) -> dict[int, tuple]:
        """The sampled bytes of each handed storage, before a launch: key -> (positions, bytes)."""
        taken: dict[int, tuple] = {}
        with _disable_current_modes(), torch.no_grad():
            for t in tensors:
                k, n = key(t), _nbytes(t)
                if not k or k in taken or n == 0:
                    continue
                try:  # never breaks a launch: a storage it cannot read is simply not carried
                    raw = storage_bytes(t.untyped_storage())
                    where = positions(n, t.device)
                    taken[k] = (raw, where, raw.index_select(0, where).clone())
                except (RuntimeError, TypeError, ValueError, NotImplementedError):
                    continue
        return taken

    def written(self, taken: dict[int, tuple], kernel: tuple = ()) -> None:
        """After the launch of `kernel` ((module, name)): storages whose sampled bytes changed
        enough carry its writes (its alone: what another kernel left there, it overwrote)."""
        count = self._launches[kernel] = self._launches.get(kernel, 0) + 1
        with _disable_current_modes(), torch.no_grad():
            for place, (k, (raw, where, before)) in enumerate(taken.items()):
                try:
                    after = raw.index_select(0, where)
                    changed = int((after != before).sum())
                except (RuntimeError, TypeError, ValueError, NotImplementedError):
                    continue
                if changed >= max(1, WRITTEN_SHARE * where.numel()):
                    self.keys.add(k)
                    self.sizes[k] = raw.numel()
                    self.by[k] = frozenset([self._write(kernel, count, place, raw.numel(), after)])
                    self.direct.add(k)

    def _write(self, kernel: tuple, count: int, place: int, n: int, after: torch.Tensor) -> str:
        """Keep one write (module docstring): its id, with its digest where the caps allow."""
        wid = f"{'|'.join(kernel)}#{count}.{place}.{n}"
        kept = self._kept.get(kernel, 0)
        if wid not in self.writes and kept < MAX_WRITES and len(self.writes) < ALL_WRITES:
            self._kept[kernel] = kept + 1
            self.writes[wid] = hashlib.blake2b(after.cpu().numpy().tobytes(), digest_size=8).hexdigest()
        self.kernel_of[wid] = kernel
        return wid

    def computed(self, name: str, ins: list[torch.Tensor], out: torch.Tensor, key) -> None:
        """Operator `name` wrote `out` from `ins`: carried if a carried input is big enough; an
        in-place op on carried memory keeps it carried, a copy or fill over it does not."""
        k = key(out)
        if not k:
            return
        size = _nbytes(out)
        sources = [key(t) for t in ins if key(t) != k and self.reads_carried(t, key(t), size)]
        in_place = name not in OVERWRITES and k in self.keys and any(key(t) == k for t in ins)
        if sources:
            kept = self.by.get(k, frozenset()) if in_place else frozenset()
            self.keys.add(k)
            self.by[k] = kept.union(*(self.by.get(s, frozenset()) for s in sources))
            if not in_place:
                self.direct.discard(k)
        elif name in OVERWRITES or not any(key(t) == k for t in ins):
            self.keys.discard(k)
            self.by.pop(k, None)
            self.direct.discard(k)

    def reads_carried(self, t: torch.Tensor, k: int, size: int) -> bool:
        """Whether reading `t` (storage `k`) carries the kernels' writes into `size` bytes: the
        bytes its view covers are at least 1/CARRY_RATIO of them, and, where an operator made
        its storage carried by mixing carried memory with other memory (torch.cat of PyTorch's
        result and a kernel's buffer), the view covers the whole storage: which part holds the
        kernels' writes is not known per byte, and the PyTorch part sliced back out and cloned
        inherited the cat's carried status (red team s25, rt25_carried_by_beyond_view)."""
        if k not in self.keys:
            return False
        viewed = _viewed(t)
        return viewed * CARRY_RATIO >= size and (k in self.direct or viewed >= _nbytes(t))

    def writes_in(self, outs: list, key) -> list[str]:
        """The write ids the returned tensors carry."""
        held = [key(t) for t in outs if isinstance(t, torch.Tensor) and self.reads_carried(t, key(t), 0)]
        return sorted({w for k in held for w in self.by.get(k, ())})

    def kernels_in(self, outs: list, key) -> list[tuple]:
        """The kernels ((module, name)) whose writes the returned tensors carry."""
        return sorted({self.kernel_of[w] for w in self.writes_in(outs, key) if self.kernel_of.get(w)})

    def marked_writes(self, outs: list, marked: dict[int, str], key) -> list[list[str]]:
        """For each returned tensor PyTorch computed that carries kernel writes: the write ids
        it carries (evaluator.gates: where none of them depends on the inputs, it is thin)."""
        found = []
        for t in outs:
            k = key(t) if isinstance(t, torch.Tensor) else 0
            if k and k in marked and self.reads_carried(t, k, 0):
                found.append(sorted(self.by.get(k, ())))
        return found

    def thin(self, outs: list, marked: dict[int, str], key) -> str | None:
        """The mark of a returned tensor PyTorch computed that carries no kernel writes (as an
        operator reading it would: a part of a mixed storage does not)."""
        for t in outs:
            k = key(t) if isinstance(t, torch.Tensor) else 0
            if k and k in marked and not self.reads_carried(t, k, 0):
                return marked[k]
        return None
