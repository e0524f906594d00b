"""Fresh Python objects' addresses drawn anew in every checked and pinned forward of a CPU
candidate child, so that they tell no process from another.

A pinned forward (evaluator.autotune_forks) runs in a fork of the candidate child taken just
before the checked forward it is held to, from the state that forward starts from; but the
child, between the fork and its own forward, reads what the forks sent and keeps a few small
objects alive (the `Forked` replies, the list of pins), and the fork runs the harness's pinned
path before the candidate's code. So pymalloc's free slots differ by a few dozen between the
two, and a fresh object's address (`hash(object())`, `id()` of a new list, an allowed builtin)
is where they part (session 64's open item; red team s65H built a forward handing a wrong
config its "honest" flag by it: hacks/s65h_autotune_fork_tells_itself_by_fresh_object_address_relu).
Making the two heaps equal is out of reach (every harness step allocates); instead each such
forward starts past a random number of fresh blocks in each small size class, held until it
returns (`scattered`), drawn from the OS in each process: where a fresh object lands is then
spread over `SPREAD` slots per class in the forks and the checked forward alike, and the few
dozen slots the harness's own work moves it by change that spread by a few hundredths (an
advantage that small, per forward, over a coin's guess). What is left: an object of a class
over `LARGEST` bytes (a fresh large list's address), glibc's heap (malloc'd buffers) and the
free lists CPython keeps apart from pymalloc (floats, tuples, dicts, lists: filled here too,
through the objects held).
"""
from __future__ import annotations

import random
from contextlib import contextmanager

SPREAD = 256  # fresh blocks held per size class, at most (four times that up to SMALL bytes)
SMALL = 64  # size classes the harness's own objects crowd most (bare objects, ints, floats, small tuples)
LARGEST = 256  # the largest size class scattered (pymalloc's own goes to 512)
_BYTES_HEAD = 33  # a bytes object's size past its length (sys.getsizeof(b""))


@contextmanager
def scattered():
    """Hold, through the block, a random number (0 to SPREAD - 1) of fresh objects in each of
    pymalloc's size classes (16 to LARGEST bytes, as bare objects and bytes of each length)
    and in CPython's free lists of small tuples, lists, dicts and floats."""
    draw = random.Random(random.SystemRandom().getrandbits(64))  # the OS's draw, in each process
    held: list = []
    for size in range(16, LARGEST + 1, 16):
        count = draw.randrange(SPREAD * 4 if size <= SMALL else SPREAD)
        if size == 16:
            held.extend(object() for _ in range(count))
        else:  # a bytes object of `length` bytes takes a block of `size` (its head and a NUL)
            length = size - _BYTES_HEAD
            held.extend(bytes([1]) * length for _ in range(count))
    for make in (lambda: (draw.random(),), lambda: [0], lambda: {}, lambda: draw.random() + 1.0):
        held.extend(make() for _ in range(draw.randrange(SPREAD // 4)))
    draw.shuffle(held)  # freed after it in no order the next forward could read back
    try:
        yield
    finally:
        del held
