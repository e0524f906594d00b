"""autotune_pins.snapshot: a pinned forward is held by what it returned as it returned, whatever
later forwards write into memory it shares (red team rt64). (Its `restore`, which put back what
forwards run after the checked one in the child wrote, went in session 63: none runs there.)"""
from __future__ import annotations

import torch

from evaluator import autotune_pins


def test_a_snapshot_keeps_what_a_kept_buffer_held_when_the_forward_returned():
    buf = torch.arange(6.0)
    pinned = autotune_pins.snapshot([buf, 3])
    buf.fill_(1.0)  # the checked forward writes the same memory
    assert not autotune_pins._agree(pinned[0], buf)
    assert pinned[1] == 3


def test_a_tiny_output_halved_does_not_agree_without_the_workers_floor():
    b = torch.full((1,), 1e-6)
    assert not autotune_pins._agree(b * 0.5, b)  # the fixed 1e-6 floor let it agree (red team rt64)
    assert autotune_pins._agree(b * 0.5, b, floor=1e-5)  # within twice the worker's own floor
    assert not autotune_pins._agree(b * 0.5, b, floor=float("nan"))
    assert autotune_pins._agree(b * (1 + 1e-5), b)  # another tiling's rounding, at any size


def test_a_complex_outputs_imaginary_part_is_compared():
    b = torch.complex(torch.ones(4), torch.ones(4))
    assert not autotune_pins._agree(torch.complex(torch.ones(4), -torch.ones(4)), b)
    assert autotune_pins._agree(b.clone(), b)
