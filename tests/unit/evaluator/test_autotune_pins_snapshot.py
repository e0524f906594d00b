"""autotune_pins.snapshot and restore: a pinned forward is held by what it returned as it
returned, whatever later forwards write into memory it shares (red team rt64)."""
from __future__ import annotations

import pytest
import torch

from evaluator import autotune_pins


def test_a_snapshot_keeps_what_a_kept_buffer_held_when_the_forward_returned():
    buf = torch.arange(6.0)
    pinned = autotune_pins.snapshot([buf, 3])
    buf.fill_(1.0)  # the checked forward writes the same memory
    assert not autotune_pins._agree(pinned[0], buf)
    assert pinned[1] == 3


def test_restore_puts_back_what_a_later_forward_wrote_over():
    out, x = torch.zeros(4), torch.ones(4)
    kept = autotune_pins.snapshot([out, x])
    out.add_(5.0)
    x.mul_(2.0)
    autotune_pins.restore([out, x], kept)
    assert torch.equal(out, torch.zeros(4)) and torch.equal(x, torch.ones(4))


def test_restore_refuses_memory_an_output_shares_with_itself():
    base = torch.zeros(1)
    out = base.expand(4)
    kept = autotune_pins.snapshot([out])
    base.fill_(2.0)
    with pytest.raises(autotune_pins.KernelConfigsDisagree):
        autotune_pins.restore([out], kept)


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
