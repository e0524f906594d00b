"""Which memory the candidate's own kernels made, for the CPU work meter's coverage bound
(evaluator.cpu_work, evaluator.profiled_coverage): PyTorch's finishing pass over it.

The bound holds the reward's coverage to 1 - (PyTorch's work) / W, W the reference forward's
estimated work, priced at a nominal H100's roofline. At the CPU's sizes a GEMM's estimate is
about its memory traffic, so a pass over a few output-sized tensors costs as much as the
whole product: an honest split-K matmul whose Triton launches did every multiply-add and
whose three partials torch summed (honest round s58j_05) was charged 1.19 W for the sum and
paid coverage 0 (reward 0.50), where at the GPU's sizes the sum is a few percent of the time.

A finishing op is an aten op of FINISH_OPS (sums, adds, maxima, clamps, casts, copies: linear in
their data, no product of two operands) whose largest tensor operands lie in memory the
candidate's own launches wrote during this forward (a storage allocated while counting, every
byte of the operand's span last written by a candidate launch or by another finishing op), any
other operand being SMALL_OPERAND times smaller (a bias row: honest s59d_08, a Triton GEMM
whose bias and ReLU torch added, was held to coverage 0.51 by the two passes). The bound prices
the finishing ops of a forward at W x their flops / the reference's flops (their share of the
problem's arithmetic), where that is less than their roofline price; the forward's own split
(`forward_share`, the policy's gates) still charges them by time. What keeps a hack out:
  - only candidate-made operands, but a small one: torch work on the problem's inputs, on
    PyTorch's own results or on memory made before the forward is priced as before, and an op
    over the candidate's memory and a small tensor is charged one flop per element of the
    larger, the candidate's (its whole output);
  - only ops whose counted flops are at least the elements they touch (one per element of the
    largest tensor, cpu_work): a Triton copy of the input that torch then reduces, adds or
    casts is charged that pass's full share of the problem's arithmetic (a sum over a copy of x
    is the whole of a row-sum problem), and no product (mm, mul, exp...) qualifies, so torch
    cannot finish a problem's algebra more cheaply than the reference counts it;
  - the lesser of the two prices: never below what the bound charged before for anything else.
"""
from __future__ import annotations

import numpy as np
import torch

from evaluator.byte_spans import ByteSpans

# Aten ops (overload packet names) that may finish a candidate's result: reductions and adds of
# partials, maxima of per-block maxima, casts and copies. Each is charged at least one flop per
# element of its largest tensor (cpu_work.WorkCounter._work: linear or reduction ops).
FINISH_OPS = frozenset({"sum", "add", "add_", "mean", "amax", "max", "maximum", "_to_copy", "copy_",
                        "clone", "cat", "stack", "relu", "relu_", "clamp", "clamp_", "clamp_min",
                        "clamp_min_", "clamp_max", "clamp_max_"})
# An operand the candidate did not make may join a finishing op only at this many times fewer
# elements than its largest candidate-made operand (a bias row added to a GEMM's output).
SMALL_OPERAND = 8


class Made(ByteSpans):
    """Spans of storages allocated while counting, with the bytes the candidate made marked."""

    def launch_wrote(self, addrs: np.ndarray, itemsize: int) -> None:
        """The candidate's own launch stored these elements."""
        self.mark(addrs, itemsize)

    def torch_wrote(self, t: torch.Tensor, finishing: bool) -> None:
        """An aten op wrote `t`: the candidate's where it finished candidate-made memory, else not."""
        storage = t.untyped_storage()
        if storage.data_ptr() not in self.spans:
            if not finishing or not storage.nbytes():
                return
            self.add(storage.data_ptr(), storage.nbytes())
        self.mark_view(t, finishing)

    def holds(self, t: torch.Tensor) -> bool:
        """Every byte of `t`'s span was made by the candidate (launches or finishing ops)."""
        return self.covers(t)


def finishing(name: str, reads: list[torch.Tensor], made: Made) -> bool:
    """Whether an aten op named `name` reading `reads` finishes candidate-made memory: its
    largest operands are the candidate's, any other is SMALL_OPERAND times smaller (a bias)."""
    if name not in FINISH_OPS:
        return False
    mine = [t.numel() for t in reads if made.holds(t)]
    if not mine:
        return False
    return all(made.holds(t) or t.numel() * SMALL_OPERAND <= max(mine) for t in reads)

