"""Where a Model's parameters are drawn (model_build.build): on the device where it can be, so a
GEMM's GiBs of weights are not drawn on the host at every build, the same way for the
reference and the candidate. "meta" stands in for a GPU here: a build under it runs the
Model's own code with the device as torch's default, as under "cuda"."""
from __future__ import annotations

import pytest
import torch
import torch.nn as nn

from evaluator.model_build import build


class Mixes(nn.Module):
    """Mixes an init input made on the host with a tensor made under the default device."""

    def __init__(self, table: torch.Tensor):
        super().__init__()
        self.register_buffer("table", table + torch.zeros(table.shape))


def test_a_model_is_built_on_the_device_where_it_can_be():
    model, init = build(lambda: nn.Linear(64, 32), 7, "meta")
    assert init == "device" and model.weight.device.type == "meta"


def test_a_model_the_device_build_breaks_is_built_on_the_host_and_says_so():
    model, init = build(lambda: Mixes(torch.ones(4, device="cpu")), 7, "meta")
    assert init == "host" and model.table.device.type == "meta"


def test_a_build_held_to_the_device_reports_the_models_error():
    with pytest.raises(RuntimeError):
        build(lambda: Mixes(torch.ones(4, device="cpu")), 7, "meta", init="device")


def test_a_build_held_to_the_host_draws_what_the_cpu_draws():
    """The candidate follows a reference drawn on the host: the same values, seed for seed."""
    on_host, init = build(lambda: nn.Linear(16, 8), 11, "cpu", init="host")
    again, _ = build(lambda: nn.Linear(16, 8), 11, "cpu")
    assert init == "host" and torch.equal(on_host.weight, again.weight)


def test_running_out_of_device_memory_is_not_a_reason_to_use_the_host():
    def huge() -> nn.Module:
        raise torch.OutOfMemoryError("CUDA out of memory")

    with pytest.raises(torch.OutOfMemoryError):
        build(huge, 7, "meta")
