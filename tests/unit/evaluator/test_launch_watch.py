"""What the provenance watch and the launch hook let host code around a launch do: a device
function is launch data only at a constexpr parameter, host code sees it as a token, and a grid
function may read tensors but neither write them nor launch a kernel."""
from __future__ import annotations

import pytest
import torch

from evaluator.forward_watch import Provenance
from evaluator.launch_hook import LaunchRecorder


def test_a_device_function_is_a_launch_argument_only_at_a_constexpr_parameter():
    """Session 40 (Triton's generic kernels: `ACTIVATION=relu`): a @triton.jit function may be
    handed to a kernel's tl.constexpr parameter, which the GPU compiler specialises on; at a
    plain parameter it stays refused, and a Python function is no device function."""
    import triton
    import triton.language as tl

    from evaluator.launch_args import KernelArgumentError, check_arguments

    @triton.jit
    def relu(x):
        return tl.maximum(x, 0.0)

    @triton.jit
    def k(x_ptr, n, ACT: tl.constexpr):
        tl.store(x_ptr, ACT(tl.load(x_ptr)))

    x = torch.zeros(4)
    check_arguments(k, (x, 4), {"ACT": relu})
    check_arguments(k, (x, 4, relu), {})
    with pytest.raises(KernelArgumentError, match="'n'"):
        check_arguments(k, (x, relu), {"ACT": relu})
    with pytest.raises(KernelArgumentError, match="'ACT'"):
        check_arguments(k, (x, 4), {"ACT": relu.fn})


def test_host_code_of_a_launch_sees_a_device_function_as_a_token_only_its_kernel_gets_it():
    """Red team s40 round 12: a device function handed at a constexpr reached a callable grid
    through meta (and heuristics, prune and pre_hooks through their argument dicts); through it
    the grid rewrote the interpreter's cached body, so what ran was not what was checked. Host
    code sees text naming the function; the kernel's own run gets the function back."""
    import triton
    import triton.language as tl

    from evaluator import launch_args
    from evaluator.launch_hook import _wrap_entry

    @triton.jit
    def relu(x):
        return tl.maximum(x, 0.0)

    seen = []
    grid = LaunchRecorder().resolving(lambda meta: seen.append(dict(meta)) or (1,), None,
                                      {"x": 1, "ACT": relu, "PAIR": (relu, 2)})
    assert grid({"x": 1, "ACT": relu, "PAIR": (relu, 2)}) == (1,)
    token = seen[0]["ACT"]
    assert type(token) is str and "relu" in token and seen[0]["PAIR"] == (token, 2)

    class Entry:  # Heuristics.run / Autotuner.run as _wrap_entry wraps them
        arg_names = ["x", "ACT"]
        values = {"x": lambda args: seen.append(dict(args))}

    def original(self, *args, **kwargs):
        for heuristic in self.values.values():
            heuristic({**dict(zip(self.arg_names, args)), **kwargs})
        return args, launch_args.unveiled(args, {"ACT": token, "B": "text"})  # the kernel's run

    args, inner = _wrap_entry(original)(Entry(), 1, relu)
    assert seen[-1]["ACT"] == token and args == (1, token)
    assert inner == ((1, relu), {"ACT": relu, "B": "text"})
    # a token kept and handed to a later launch that was not handed the function is text
    assert launch_args.unveiled(args, {"ACT": token}) == ((1, token), {"ACT": token})

    class Tuned(Entry):  # an autotune config's kwargs reach its pre_hook as they are
        configs = [triton.Config({"ACT": relu})]

    with pytest.raises(launch_args.KernelArgumentError, match="autotune config sets ACT"):
        _wrap_entry(original)(Tuned(), 1, 2)


def test_a_grid_function_may_read_but_not_write_tensors_inside_the_launch():
    """Red team s40 round 12: a callable grid runs inside its launch, where bytes that change
    are the kernel's work; a grid that copied torch's result into the output had it credited
    to a kernel that wrote nothing there."""
    from evaluator.launch_args import KernelArgumentError

    recorder = LaunchRecorder()
    x, y = torch.randn(8), torch.empty(8)
    reading = recorder.resolving(lambda meta: (int(x.abs().sum().item() > 0) + x.numel() // 8,), None, {})
    writing = recorder.resolving(lambda meta: (y.copy_(x.relu()).numel(),), None, {})
    with Provenance(recorder):
        assert reading({}) == (2,)
        with pytest.raises(KernelArgumentError, match="grid function wrote"):
            writing({})
        y.copy_(x.relu())  # the same write outside a grid is PyTorch's, as ever
    assert recorder.in_grid == 0


def test_a_grid_function_launches_no_kernel():
    """Red team s41 round 13: a grid that launched a kernel into the output was refused for the
    interpreter's own copies, with a message about writes; the launch itself is what is refused."""
    import triton
    import triton.language as tl

    from evaluator.launch_args import KernelArgumentError

    @triton.jit
    def fill(y_ptr, BLOCK: tl.constexpr):
        tl.store(y_ptr + tl.arange(0, BLOCK), 1.0)

    recorder = LaunchRecorder()
    run = recorder._wrap(lambda kernel, *args, **kwargs: None)  # JITFunction.run as installed
    y = torch.zeros(16)
    nested = recorder.resolving(lambda meta: run(fill, y, BLOCK=16, grid=(1,)) or (1,), None, {})
    with pytest.raises(KernelArgumentError, match="launched from inside a grid function"):
        nested({})
    assert recorder.in_grid == 0


def test_a_grid_is_handed_what_inspect_binds_for_every_launch_of_plain_parameters():
    """The grid's meta (launch_hook `_grid_meta`) is bound without inspect for a kernel of plain
    parameters (the CPU autotune benchmark calls it thousands of times per config): it is the
    same dict, in the same order, as `Signature.bind_partial` then `apply_defaults` give, and a
    launch inspect cannot bind (an argument twice, too many) still gets the launch's kwargs."""
    import inspect
    import random

    import triton
    import triton.language as tl

    from evaluator.launch_hook import _grid_meta

    @triton.jit
    def k(a, b, c, d=4, E: tl.constexpr = 8, F: tl.constexpr = None):
        pass

    def starred(a, *rest, b=2, **more):
        pass

    def inspected(kernel, args, kwargs):
        sig = inspect.signature(getattr(kernel, "fn", kernel))
        try:
            bound = sig.bind_partial(*args, **{n: v for n, v in kwargs.items() if n in sig.parameters})
        except TypeError:
            return dict(kwargs)
        bound.apply_defaults()
        return dict(bound.arguments)

    draw = random.Random(0)
    names = ["a", "b", "c", "d", "E", "F", "rest", "more", "num_warps", "grid"]
    for kernel in (k, starred):
        for _ in range(3000):
            args = tuple(range(draw.randint(0, 8)))
            kwargs = {n: draw.random() for n in draw.sample(names, draw.randint(0, 6))}
            got, want = _grid_meta(kernel, args, kwargs), inspected(kernel, args, kwargs)
            assert list(got.items()) == list(want.items()), (args, kwargs)
