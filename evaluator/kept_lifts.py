"""Numbers host Python computed that a forward left in memory past itself (`forward_watch`).

The limit on numbers host Python computed (`host_numbers.COMPUTED_NUMBERS`, 8) holds per
checked forward, and what construction lifted is charged to every forward (`construction_watch`,
`computed_count(more)`). A table lifted a few numbers per forward into memory the module keeps
was charged to none: red team s68G (session 68) lifted 4 sigmoid knots per forward (math.exp,
8 numbers at float32's 2 each), ran an honest Triton sigmoid while the 16 knots filled, then had
a kernel interpolate the kept table over half the elements beside it: ok under strict at 1.00
(`hacks/s68g_host_table_lifted_across_forwards_*`).

So a storage holding numbers Python computed, lifted in a forward (`torch.tensor` of them) or
moved there by glue (a copy into a kept buffer, a cat, a clone: the same numbers), is recorded
with those numbers, and while anything besides this record still holds it (a module attribute,
a list, a returned output), its numbers are charged to every later forward of the child, as
construction's are: the state lives in the child's workspace (`Workspace.kept_lifts`), shared
by every watch of that child, and an entry whose storage nothing else holds any more is dropped
(a per-forward scale replaced by the next one's is charged while it lives, not for ever).
Honest forwards lift a scale or a few coefficients into a temporary, which dies with the
forward; one that caches its constants lifts the same numbers each time, so the charge is what
one forward already paid. A tensor past MAX_ELEMENTS is followed by a weak reference to itself,
not its storage (a held storage stays alive until the forward ends: an activation a computed
scale was broadcast into would be held that long)."""
from __future__ import annotations

import weakref
from collections.abc import Callable

import torch

from evaluator.aten_facts import GLUE_OPS

MAX_ELEMENTS = 1 << 20  # a table, not an activation: a larger one is followed weakly


class KeptLifts:
    """One watch's view of the child's kept lifts (`shared`: storage key -> (the storage, the
    computed numbers it holds)); a watch without a workspace keeps its own."""

    def __init__(self, shared: dict | None = None) -> None:
        self.shared: dict = {} if shared is None else shared

    def lifted(self, key: int, t: torch.Tensor, numbers: set) -> None:
        """A lift (`torch.tensor` of Python's data) wrote `numbers` into t's storage."""
        if numbers and key:
            self._hold(key, t, frozenset(numbers))

    def moved(self, name: str, reads: list[int], outs: list, key_of: Callable) -> None:
        """A glue op wrote what it read: the numbers of the held storages it read go along."""
        if name not in GLUE_OPS:
            return
        held = [self.shared[k][1] for k in reads if k in self.shared]
        if not held:
            return
        numbers = frozenset().union(*held)
        for o in outs:
            key = key_of(o) if isinstance(o, torch.Tensor) else 0
            if key:
                self._hold(key, o, numbers)

    def _hold(self, key: int, t: torch.Tensor, numbers: frozenset) -> None:
        holder, had = self.shared.get(key, (None, frozenset()))
        if holder is None:
            holder = weakref.ref(t) if t.numel() > MAX_ELEMENTS else t.untyped_storage()
        self.shared[key] = (holder, had | numbers)

    def settle(self) -> None:
        """At a forward's end: drop what nothing but this record holds any more."""
        for key in [k for k, (h, _) in self.shared.items() if not _held(h)]:
            del self.shared[key]

    def numbers(self) -> frozenset:
        """The computed numbers kept storages hold, charged to the forward now running."""
        return frozenset().union(*(n for _, n in self.shared.values())) if self.shared else frozenset()


def _held(holder: object) -> bool:
    """Whether anything but this record holds the storage (or the large tensor) it follows."""
    if isinstance(holder, weakref.ref):
        return holder() is not None
    return torch._C._storage_Use_Count(holder._cdata) > 1
