"""A tensor an op of the forward made explains launch ints only where one op sized it from the
problem's tensors and ints (evaluator.shape_origin, session 67): the honest conv + BatchNorm
epilogue (kernelbench_style/s54k_52) hands N, C and H*W of its conv's output; a code smuggled as
a size, by any op, is no size."""
from __future__ import annotations

import math

import torch
import torch.nn.functional as F
from torch.utils._python_dispatch import TorchDispatchMode

from evaluator import host_numbers
from evaluator.aten_facts import storage_key
from evaluator.launch_sizes import DataInts
from evaluator.shape_origin import problem_shaped

PROBLEM = "batch_size = 2\nin_channels = 3\nout_channels = 8\nheight, width = 14, 14\nkernel_size = 3\n"
CODE = round(65535 / (1.0 + math.exp(-8.0 / 15)))  # a sigmoid's 16-bit code


class _Shapes(TorchDispatchMode):
    """What forward_watch.Provenance keeps of the forward's ops: storages made, and those
    `problem_shaped` vouched for."""

    def __init__(self):
        super().__init__()
        self.shaped: set[int] = set()
        self.sized: set[int] = set()

    def __torch_dispatch__(self, func, types, args=(), kwargs=None):
        kwargs = kwargs or {}
        keys = {storage_key(a) for a in (*args, *kwargs.values()) if isinstance(a, torch.Tensor)}
        keys |= {storage_key(t) for a in args if type(a) in (list, tuple) for t in a if isinstance(t, torch.Tensor)}
        out = func(*args, **kwargs)
        outs = [t for t in (out if isinstance(out, (tuple, list)) else (out,)) if isinstance(t, torch.Tensor)]
        new = [k for k in map(storage_key, outs) if k and k not in keys]
        if new and problem_shaped(func, args, kwargs, outs, self.shaped, storage_key):
            self.sized.update(new)
        self.shaped.update(new)
        return out

    def vouched(self, t: torch.Tensor) -> bool:
        return storage_key(t) in self.sized


def _problem():
    host_numbers.set_sources("", PROBLEM)
    torch.manual_seed(0)
    return torch.rand(2, 3, 14, 14), torch.nn.Conv2d(3, 8, 3)


def test_a_conv_output_is_sized_by_the_problem_and_explains_its_epilogue_ints():
    x, conv = _problem()
    with _Shapes() as watch:
        y = conv(x)
        like = torch.empty_like(y)  # one op further: a made tensor's sizes are no source
    assert watch.vouched(y) and not watch.vouched(like)
    n, c, h, w = y.shape
    data = DataInts()
    data.add(_Kernel(_epilogue), (y, like, y.numel(), c, h * w), {},
             made=lambda t: storage_key(t) in watch.shaped, sized=watch.vouched)
    assert data.data() == 0 and data.computed() == set()
    strict = DataInts()  # without the vouching, s66E's pricing: the conv's sizes are data
    strict.add(_Kernel(_epilogue), (y, like, y.numel(), c, h * w), {},
               made=lambda t: storage_key(t) in watch.shaped)
    assert strict.data() > 0


def test_a_code_made_a_size_by_any_op_is_no_problem_size():
    """torch.empty(code), F.pad by a code, a clone of a slice cut at a code, a join of a
    code's count of copies, a repeat of one, a size computed from values, an upsampling by
    code / 14: each output's sizes are host Python's."""
    x, _ = _problem()
    flat = x.reshape(-1)
    with _Shapes() as watch:
        made = [torch.empty(CODE), F.pad(x, (0, CODE - 14)), flat[:CODE % flat.numel()].clone(),
                torch.cat([x] * 7), x.repeat(1, 1, 1, 5), torch.nonzero(x > 0.5),
                F.interpolate(x, scale_factor=(1.0, CODE / 14.0))]
        chained = F.pad(F.pad(x, (0, 1)), (0, 1))  # +1 twice: chains are cut after one op
    assert not any(map(watch.vouched, made)) and not watch.vouched(chained)


def test_a_buffer_sized_by_a_code_in_init_sizes_nothing_it_makes():
    """A buffer made before the forward at a code's length is no problem-sized tensor, so a
    copy of it (`.to(device)` on a GPU, `.clone()`) vouches for nothing."""
    x, _ = _problem()
    buf = torch.empty(CODE, dtype=torch.int8)
    with _Shapes() as watch:
        copy = buf.clone()
        summed = x.sum(dim=3)  # a reduction over a dimension of the problem's input: its sizes
    assert not watch.vouched(copy) and watch.vouched(summed)


class _Kernel:  # a stand-in for a JITFunction: DataInts keys kernels by their function
    def __init__(self, fn):
        self.fn = fn


def _epilogue(y_ptr, out_ptr, n_elements, C, HW):
    pass


def test_construction_keeps_the_storages_it_sized_as_it_chose():
    """`note_sizes`: a buffer a code long is chosen; a Conv2d's weight, a k x k tap table and a
    literal's length are not; a view of a chosen storage written at problem sizes keeps it chosen."""
    from evaluator.shape_origin import note_sizes

    host_numbers.set_sources("WORKSPACE = 4096\n", PROBLEM)
    chosen: set[int] = set()
    buf = torch.empty(CODE * 24, dtype=torch.int8)
    note_sizes(chosen, [buf, torch.empty(8, 3, 3, 3), torch.empty(9), torch.empty(4096)], storage_key)
    assert chosen == {storage_key(buf)}
    note_sizes(chosen, [buf.view(torch.float32)[:12].view(2, 3, 2)], storage_key)
    assert chosen == {storage_key(buf)}
