"""Input sets in a child: drawn and digested once, not kept; drawn again when used, and a
draw that then differs is an error (real KernelBench sets are GiBs: one at a time)."""
from __future__ import annotations

import pytest
import torch

from evaluator.launch_hook import LaunchRecorder
from evaluator.runner import Workspace

PROBLEM = """
import torch
import torch.nn as nn

class Model(nn.Module):
    def forward(self, x):
        return torch.relu(x)

n = 64

def get_inputs():
    return [torch.randn(n)]

def get_init_inputs():
    return []
"""


@pytest.fixture()
def ws(tmp_path):
    w = Workspace(tmp_path, 1, "cpu", LaunchRecorder())
    w.load_problem(PROBLEM, {})
    yield w
    w.close()


def test_a_prepared_set_holds_no_tensors_until_it_is_used_and_after_it_is_released(ws):
    applied, digest = ws.prepare(0, seed=11, transform="scale:1e3")
    assert applied == "scale:1e3" and digest
    assert ws._prepared[0].tensors == []
    first = ws.inputs(0)[0].clone()
    assert ws.inputs(0)[0] is ws.inputs(0)[0]  # kept while in use
    ws.release(0)
    assert ws._prepared[0].tensors == []
    again = ws.inputs(0)[0]
    assert torch.equal(first, again) and first.abs().max() > 100  # same draw, transform applied


def test_a_draw_that_differs_from_the_first_is_an_error(ws):
    ws.prepare(0, seed=11, transform="base")
    ws.problem.n = 65  # what changed the draw does not matter: it is not the set the worker checked
    with pytest.raises(ValueError, match="differs from its first draw"):
        ws.inputs(0)
