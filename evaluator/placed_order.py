"""The order of Python's numbers placed one by one into a storage: a table of typed digits.

`host_numbers` prices what a number is (a computed float by its bits, an int a candidate chose
by its bits) and frees what the author typed: a digit of an alphabet the file types is free.
A table spelled over such an alphabet carries its data in the digits' order. A lift's order is
read (`host_numbers.order_numbers` over what torch.tensor lifted), but a storage assembled from
op values was not: 64 `torch.full((1,), d, dtype=torch.int32)` of 4-bit digits from a typed
tuple of 0..15, joined by torch.cat (a join in the order made is free, `host_tables`), carried
32 8-bit sigmoid codes a kernel joined two digits each: ok under paper (session 60, s60a), at
construction and in a first forward whose table was cached; element writes `t[k] = d` alike.

`Placed` follows, per storage, the Python numbers the ops that make constants placed in it, in
order: an op's value arguments after what it read (a fill is its value; a join is its inputs'
sequences in the order given; a copy is its source's; an element write adds to what the storage
held). A sequence that is replaced is read then, the rest when asked (`numbers`): each by
`order_numbers`, which frees a fill, a coefficient list, a period and `ORDER_FREE` repeats, and
counts the repeats of a table spelled in an order Python chose. Honest constants hold a few
numbers each (a fill of -inf, an arange's bounds): nothing to count."""
from __future__ import annotations

import torch
from torch.utils._python_dispatch import _disable_current_modes

from evaluator.host_numbers import MAX_VALUES, ORDER_FREE, order_numbers

_SHORT = ORDER_FREE + 1  # a sequence this short holds no repeat past ORDER_FREE


class Placed:
    """Each storage's placed numbers in order (module doc), and what retired ones cost."""

    def __init__(self) -> None:
        self.seqs: dict[int, list] = {}
        self.found: set = set()

    def sequence(self, keys: list, scalars: list) -> list:
        """What an op writes: the sequences of the storages it read, in order, then its values."""
        out: list = []
        for k in keys:
            out.extend(self.seqs.get(k, ())[:MAX_VALUES - len(out)])
        out.extend(v for v in scalars[:MAX_VALUES - len(out)] if type(v) in (int, float))
        return out

    def put(self, key: int, seq: list, add: bool) -> None:
        """`key` now holds `seq`, after what it held where the op wrote part of it (`add`)."""
        if add:
            seq = [*self.seqs.get(key, ()), *seq][:MAX_VALUES]
        else:
            self._retire(key)
        if seq:
            self.seqs[key] = seq
        else:
            self.seqs.pop(key, None)

    def drop(self, key: int) -> None:
        """`key` now holds something no placing op made (a compute op's output)."""
        self._retire(key)
        self.seqs.pop(key, None)

    def _retire(self, key: int) -> None:
        old = self.seqs.get(key)
        if old and len(old) > _SHORT:
            self.found |= _cost(old)

    def numbers(self) -> set:
        """The numbers the orders of every sequence placed so far carry (`order_numbers`)."""
        return self.found.union(*(_cost(s) for s in self.seqs.values() if len(s) > _SHORT))


def lone(out: object) -> list:
    """The number a one-element lift holds (`t[k] = v` lifts v, then copies it in), as a placed
    value; a longer lift is read whole (`host_numbers.order_numbers`, `host_tables.int_tokens`)."""
    if not isinstance(out, torch.Tensor) or out.numel() != 1 or out.is_meta or out.is_complex():
        return []
    with _disable_current_modes():
        return [out.detach().reshape(-1).tolist()[0]]


def _cost(seq: list) -> set:
    return order_numbers(seq, "placed" + str(hash(tuple(seq))))
