"""Int tables host Python derives from a kernel's output it read back (session 65).

Honest grouped kernels plan their next launch on the host from counts a kernel of theirs
computed: MoE routing reads the tokens per expert (`counts.tolist()`), pads each to the block
and takes prefix sums into expert offsets and an expert id per block (vLLM's
moe_align_block_size done in Python), and varlen batching takes cu_seqlens from the lengths
with itertools.accumulate. `host_tables` prices a lifted int table by its arithmetic runs, so
such a table costs about one computed number per expert (honest s65f_01: 12, s65f_02: 17,
past `host_numbers.COMPUTED_NUMBERS`: host_compute, CPU, session 65).

What separates such a table from one the host chose is where its information comes from. A
table that is an exact, fixed function of one whole storage a Triton launch wrote, read back
in order, holds nothing the consumer kernel could not compute itself from that storage's
pointer (which any launch may be handed): the host only did the kernel's bookkeeping. So a
lifted int table is `derived` where it equals one of a few such functions (`FORMS`) of a
read-back sequence (`ReadBacks.whole`) and costs one number per (form, block, source), not
one per entry. The parts the host could choose are each held:
  * which elements: a read counts only as part of a whole storage read from its first element
    to its last, in order (red team s65f: sixteen `.item()` picks of a kernel-written arange
    spelled sigmoid codes as positions; a torch.stack of picks read whole is no launch's
    storage);
  * which storage: a storage a launch was handed fresh (`forward_watch.Provenance.fed`) and
    that no op outside a launch wrote into since (`overwritten`): a kernel's output, not an
    aten op's gather of the host's picks, nor a launch's buffer the picks were copy_'d into;
  * which function: prefix sums (with and without the leading 0 or the total), the values
    themselves, or a run of ids, over the values as read, each rounded up to a block, or each
    a count of blocks, the block one power of two for the whole table; each distinct form,
    block and source is one computed number (`token`), so a choice among them is no cheaper
    than a number.
What the read storage holds is whatever reached the kernel that wrote it, charged where it
entered (its launch's ints, lifted tables, the inputs); this reading neither adds nor hides a
way in. Reads themselves stay bounded by `policy.max_host_reads` (16 values a forward).
"""
from __future__ import annotations

from itertools import accumulate

MAX_SOURCE = 4096  # ints one whole read may hold and be derived from (longer: as before)
MAX_IDS = 1 << 16  # a run of ids derived at most this long (host_tables.MAX_READ)
KEPT = 16  # whole reads remembered (the latest): a forward reads a few
SUMMED = 64  # a whole read's values whose prefix sums a launch int may be (`_sums`)
BLOCKS = tuple(1 << k for k in range(21))  # a padded count's block: one power of two a table


class ReadBacks:
    """The int values host Python read from storages a launch wrote, per storage in read order,
    and the storages read whole (first element to last, in order) as sequences."""

    def __init__(self) -> None:
        self.open: dict[int, list[int]] = {}
        self.whole: list[tuple[int, ...]] = []
        self.overwritten: set[int] = set()  # storages an op wrote in place since a launch was handed them
        self.copies: set[int] = set()  # whole copies of a launch's output (`.cpu()` on a GPU)
        self.ints: set[int] = set()  # ints read from a launch's output, and sums of whole reads (`explains`)

    def read(self, t: object, values: list, written: bool) -> None:
        """One read (`_local_scalar_dense` of `t`, giving `values`); `written`: its storage is one
        a launch was handed fresh, and no op outside a launch wrote into it since (a copy_ of
        the host's picks into a kernel's output: red team s65f). Anything else ends that
        storage's sequence."""
        try:
            storage = t.untyped_storage()  # type: ignore[attr-defined]
            key, size, offset = storage.data_ptr(), t.element_size(), t.storage_offset()  # type: ignore[attr-defined]
            n = storage.nbytes() // size
        except (RuntimeError, NotImplementedError, AttributeError):
            return
        written = (written or key in self.copies) and key not in self.overwritten
        seq = [] if offset == 0 else self.open.pop(key, None)
        one = len(values) == 1 and type(values[0]) is int and t.numel() == 1  # type: ignore[attr-defined]
        if written and one and n == 1 and len(self.ints) < MAX_SOURCE:  # a kernel's one count, no pick
            self.ints.add(values[0])
        if not (written and one and seq is not None and len(seq) == offset and 2 <= n <= MAX_SOURCE):
            self.open.pop(key, None)
            return
        seq.append(values[0])
        if len(seq) < n:
            self.open[key] = seq
            return
        self.open.pop(key, None)
        self.whole = [*self.whole[-(KEPT - 1):], tuple(seq)]
        if len(self.ints) < MAX_SOURCE:
            self.ints.update(_sums(seq))

    def explains(self, v: int) -> bool:
        """Whether an int the host handed a launch is one it read from a launch's one-element
        output, or a value, prefix sum or total of a whole read (`_sums`): the kernel's numbers,
        the host only doing its bookkeeping (cu_seqlens' total, an MoE's block count:
        `launch_sizes.DataInts.computed`). A single element picked out of a larger output is
        none (red team s65f: sixteen `.item()` picks of a kernel's arange at a table's codes)."""
        return v in self.ints

    def copied(self, src: object, written: bool, outs: list) -> None:
        """A `_to_copy` or `clone` of `src`: where `src` is the whole of a launch's output (its
        storage from the first byte, contiguous, not written into since), its copy holds the
        same values (GPU code reads `counts.cpu().tolist()`)."""
        try:
            storage = src.untyped_storage()  # type: ignore[attr-defined]
            key = storage.data_ptr()
            whole = src.storage_offset() == 0 and src.is_contiguous() \
                and src.numel() * src.element_size() == storage.nbytes()  # type: ignore[attr-defined]
        except (RuntimeError, NotImplementedError, AttributeError):
            return
        if (written or key in self.copies) and key not in self.overwritten and whole:
            for t in outs:
                out = t.untyped_storage().data_ptr()
                if out != key:
                    self.copies.add(out)
                    self.overwritten.discard(out)

    def handed(self, keys: list[int]) -> None:
        """Storages a launch was handed: what they hold is its output now, and a read of them
        begun before it (or of a freed storage at the same address) is no part of one after."""
        for key in keys:
            self.overwritten.discard(key)
            self.open.pop(key, None)
            self.copies.discard(key)

    def token(self, values: list[int]) -> tuple | None:
        """The computed number a lifted int table costs where it is `derived` from a whole read,
        else None."""
        for source in reversed(self.whole):
            form = derived(values, source)
            if form is not None:
                return ("read-derived", *form, hash(source))
        return None


def _sums(source: list[int]) -> set[int]:
    """The values and prefix sums of a whole read as read (at most `SUMMED` long), and its totals each
    rounded up to every block (`BLOCKS`) or counted in blocks: what `derived` tables end in."""
    out = set(source[:SUMMED]) | set(accumulate(source[:SUMMED])) | {0, sum(source)}
    for block in BLOCKS[1:]:
        blocks = sum(-(-r // block) for r in source)
        out.update((blocks, blocks * block))
    return out


def _forms(g: list[int], per_block: bool, n: int) -> dict[str, list[int]]:
    """The tables of `n` ints `g` (counts as rounded) gives: its prefix sums with the leading 0
    and the total, without the total, without the 0, itself, and (a count of blocks each) the
    run of ids, each id repeated its count (an expert id per block)."""
    sums = list(accumulate(g))
    forms = {"exclusive": [0, *sums], "starts": [0, *sums[:-1]], "inclusive": sums, "values": g}
    forms = {k: v for k, v in forms.items() if len(v) == n}
    if per_block and sums[-1] == n:
        forms["ids"] = [e for e, q in enumerate(g) for _ in range(q)]
    return forms


def derived(table: list[int], source: tuple[int, ...]) -> tuple | None:
    """(form, rounding, block) where `table` is exactly that function of `source` (module doc),
    else None. Negative counts derive nothing."""
    if not 2 <= len(table) <= MAX_IDS or len(source) < 2 or min(source) < 0:
        return None
    for rounding in ("as read", "padded", "blocks"):
        for block in (BLOCKS[:1] if rounding == "as read" else BLOCKS[1:]):
            g = [-(-r // block) for r in source]
            if rounding == "padded":
                g = [q * block for q in g]
            for form, values in _forms(g, rounding == "blocks", len(table)).items():
                if values == table:
                    return form, rounding, block
    return None

