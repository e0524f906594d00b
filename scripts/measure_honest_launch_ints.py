"""Per honest file (honest_problems.FULL and honest_builtin/): how many launch ints
evaluator.launch_sizes.DataInts calls data in each of two forwards (the larger), in-process under
the Triton interpreter at the CPU sizes (session 56, rt79), a storage an op of the forward made
explaining no int as in forward_watch (session 57, rt80), and (C=) the computed numbers they
are (session 66, DataInts.computed; what the host read back is not watched here, so it counts),
with session 67's sizes (shape_origin: a forward-made tensor one op sized from the problem's
explains, none construction chose) beside session 66's rule (C66=).
Files that need the CPU child's CUDA shims print ERR.
Usage: PYTHONPATH=. python scripts/measure_honest_launch_ints.py [substring]"""

import os
import signal
import sys
import types

os.environ["TRITON_INTERPRET"] = "1"
sys.path.insert(0, "tests/unit/evaluator")
import torch  # noqa: E402
from torch.utils._python_dispatch import TorchDispatchMode  # noqa: E402
from triton.runtime.jit import KernelInterface  # noqa: E402

from common.problemset import builtin_problem  # noqa: E402
from evaluator.candidate_reach import held_storages  # noqa: E402
from evaluator.launch_sizes import DataInts, offset_numbers  # noqa: E402
from evaluator.shape_origin import note_sizes, problem_shaped  # noqa: E402

WATCH = {
    "d": None,
    "depth": 0,
    "n": 0,
    "shaped": set(),
    "sized": set(),
    "chosen": set(),
    "old": None,
}


def _key(t):
    try:
        return t.untyped_storage().data_ptr()
    except (RuntimeError, NotImplementedError, AttributeError):
        return 0


class Shaped(TorchDispatchMode):
    """The storages an op of the forward made (forward_watch.Provenance.shaped)."""

    def __torch_dispatch__(self, func, types, args=(), kwargs=None):
        kwargs = kwargs or {}
        flat = [
            a
            for a in (*args, *kwargs.values())
            for a in (a if isinstance(a, (list, tuple)) else (a,))
        ]
        keys = {_key(a) for a in flat if isinstance(a, torch.Tensor)}
        out = func(*args, **kwargs)
        if WATCH["depth"] == 0:
            outs = [
                o
                for o in (out if isinstance(out, (list, tuple)) else (out,))
                if isinstance(o, torch.Tensor)
            ]
            new = [k for o in outs if (k := _key(o)) and k not in keys]
            if new and problem_shaped(func, args, kwargs, outs, WATCH["shaped"], _key):
                WATCH["sized"].update(new)  # as forward_watch (session 67: shape_origin)
            WATCH["shaped"].update(new)
        return out


class Built(TorchDispatchMode):
    """The storages construction sized as it chose (construction_watch: shape_origin.note_sizes)."""

    def __torch_dispatch__(self, func, types, args=(), kwargs=None):
        out = func(*args, **(kwargs or {}))
        note_sizes(
            WATCH["chosen"], [o for o in (out if isinstance(out, (list, tuple)) else (out,))], _key
        )
        return out


_orig = KernelInterface.__getitem__


def _getitem(self, grid):
    inner = _orig(self, grid)

    def call(*args, **kwargs):
        if WATCH["depth"] == 0 and WATCH["d"] is not None:
            dims = (
                None
                if callable(grid)
                else tuple(grid)
                if isinstance(grid, (tuple, list))
                else (grid,)
            )
            WATCH["d"].add(
                self,
                args,
                kwargs,
                made=lambda t: _key(t) in WATCH["shaped"] or _key(t) in WATCH["chosen"],
                grid=dims,
                sized=lambda t: _key(t) in WATCH["sized"],
            )
            WATCH["old"].add(
                self, args, kwargs, made=lambda t: _key(t) in WATCH["shaped"], grid=dims
            )  # session 66's
            WATCH["n"] += 1
        WATCH["depth"] += 1
        try:
            return inner(*args, **kwargs)
        finally:
            WATCH["depth"] -= 1

    return call


KernelInterface.__getitem__ = _getitem


def _load(name, source, sizes=None):
    mod = types.ModuleType(name)
    exec(compile(source, name, "exec"), mod.__dict__)
    for k, v in (sizes or {}).items():
        mod.__dict__[k] = v
    return mod


def measure(path, problem_name, sizes):
    prob = builtin_problem(problem_name)
    ref = _load("ref", prob.source, sizes or dict(prob.sizes["cpu"]))
    src = open(path).read()
    from evaluator import host_numbers

    init = [v for v in ref.get_init_inputs() if type(v) in (int, float)]
    given = host_numbers.given([init, sizes or dict(prob.sizes["cpu"])])
    host_numbers.set_sources(
        src, prob.source, numbers=given
    )  # typed and problem ints, as the runner's
    torch.manual_seed(0)
    WATCH["chosen"] = set()
    with Built():
        cand = _load(path, src)
        model = cand.ModelNew(*ref.get_init_inputs())
    held = held_storages([model, cand], cand)
    WATCH["chosen"] &= held if held is not None else WATCH["chosen"]
    inputs = ref.get_inputs()
    worst = None
    for _ in range(2):  # a watch per forward, as the evaluator's
        d = DataInts()
        WATCH.update(d=d, n=0, shaped=set(), sized=set(), old=DataInts())
        with torch.no_grad(), Shaped():
            model(*inputs)
        if worst is None or d.data() > worst.data():
            worst, old = d, WATCH["old"]
    WATCH["d"] = None
    d = worst
    loose = {}
    for fn, kept in d.tuples.items():
        for t in kept:
            for pv in t:
                if not d.counter(fn, pv[0]):
                    loose.setdefault(pv[0], set()).add(pv[1])
    offsets = {str(k[1]): n for k, seq in d.offsets.items() if (n := offset_numbers(seq))}
    found = {**{str(k): sorted(v)[:6] for k, v in loose.items()}, **offsets}
    return f"{d.data()}\tC={len(d.computed())}\tC66={len(old.computed())}", WATCH["n"], found


SKIP = {"honest_builtin/s21_relu_kernelbench_module_sizes.py"}  # free(): invalid size in-process


def main():
    from honest_problems import FULL

    jobs = [(f"tests/unit/evaluator/honest/{n}", p, s) for n, (p, s) in FULL.items()]
    import re

    for f in sorted(os.listdir("tests/unit/evaluator/honest_builtin")):
        if f.endswith(".py"):
            head = open(f"tests/unit/evaluator/honest_builtin/{f}").readline()
            m = re.search(r"problem: ([\w/]+)", head)
            if m:
                jobs.append((f"tests/unit/evaluator/honest_builtin/{f}", m.group(1), None))
    only = sys.argv[1] if len(sys.argv) > 1 else ""
    signal.signal(signal.SIGALRM, lambda *a: (_ for _ in ()).throw(TimeoutError()))
    for path, prob, sizes in jobs:
        name = "/".join(path.split("/")[-2:])
        if only not in path or name in SKIP:
            continue
        signal.alarm(25)
        try:
            data, n, loose = measure(path, prob, sizes)
            print(f"{data}\t{n}\t{name}\t{loose}", flush=True)
        except BaseException as e:  # noqa: BLE001
            print(f"ERR\t-\t{name}\t{type(e).__name__}: {str(e)[:80]}", flush=True)
        finally:
            signal.alarm(0)


main()
