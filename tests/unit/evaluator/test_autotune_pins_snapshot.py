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
