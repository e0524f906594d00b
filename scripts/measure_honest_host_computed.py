"""Per honest file (honest_problems.FULL and honest_builtin/): the host-computed numbers
(`host_computed`) construction and the larger of two forwards report, in-process under the
Triton interpreter at the CPU sizes, as session 59 counted them (a float one number, no
per-storage order) and as session 60 does (a float by its bits, `host_numbers.float_cost`,
and the order of numbers placed into a storage, `placed_order`). The problem's own floats
(`problem_numbers`) are not read here, so a file using them counts more than the evaluator
does. Files that need the CPU child's CUDA shims print ERR.
Usage: PYTHONPATH=. python scripts/measure_honest_host_computed.py [substring | @list_file]"""

import os
import re
import signal
import sys
import types

os.environ["TRITON_INTERPRET"] = "1"
sys.path.insert(0, "tests/unit/evaluator")
import torch  # noqa: E402

from common.problemset import builtin_problem  # noqa: E402
from evaluator import child  # noqa: E402
from evaluator import construction_watch as cw  # noqa: E402
from evaluator import host_numbers as hn  # noqa: E402
from evaluator.forward_watch import Provenance  # noqa: E402

child.prepare_process("cpu")  # the CPU child's launch hook, autotune and libdevice shims
RECORDER = child._RECORDER


def _load(name, source, sizes=None):
    mod = types.ModuleType(name)
    exec(compile(source, name, "exec"), mod.__dict__)
    for k, v in (sizes or {}).items():
        mod.__dict__[k] = v
    return mod


def _new(token) -> bool:
    """A token session 60's rules add: a float's further bits, a placed sequence's order."""
    return type(token) is tuple and (
        token[0] == "bits" or (token[0] == "order" and str(token[1]).startswith("placed"))
    )


def measure(path, problem_name, sizes):
    prob = builtin_problem(problem_name)
    sizes = sizes or dict(prob.sizes["cpu"])
    ref = _load("ref", prob.source, sizes)
    source = open(path).read()
    init = ref.get_init_inputs()
    hn.set_sources(source, prob.source, numbers=hn.given([init, sizes]))
    cand = _load(path, source)
    torch.manual_seed(0)
    with cw.watched(RECORDER) as built:
        model = cand.ModelNew(*init)
    numbers = set(built.computed_numbers())
    inputs = ref.get_inputs()
    worst: set = set()
    for _ in range(2):  # a watch per forward, as the evaluator's
        watch = Provenance(RECORDER)
        with torch.no_grad(), watch:
            model(*inputs)
        found = watch.computed_numbers() | numbers
        worst = found if len(found) > len(worst) else worst
    old = [t for t in worst if not _new(t)]
    return len(old), len(worst), sorted(map(str, worst))[:6]


def main():
    from honest_problems import FULL

    jobs = [(f"tests/unit/evaluator/honest/{n}", p, s) for n, (p, s) in FULL.items()]
    for f in sorted(os.listdir("tests/unit/evaluator/honest_builtin")):
        if f.endswith(".py"):
            head = open(f"tests/unit/evaluator/honest_builtin/{f}").readline()
            m = re.search(r"problem: ([\w/]+)", head)
            if m:
                jobs.append((f"tests/unit/evaluator/honest_builtin/{f}", m.group(1), None))
    only = sys.argv[1] if len(sys.argv) > 1 else ""
    if only.startswith("@"):  # a file listing the files to measure
        wanted = set(open(only[1:]).read().split())
        jobs = [j for j in jobs if "/".join(j[0].split("/")[-2:]) in wanted]
        only = ""
    signal.signal(signal.SIGALRM, lambda *a: (_ for _ in ()).throw(TimeoutError()))
    for path, prob, sizes in jobs:
        name = "/".join(path.split("/")[-2:])
        if only not in path or name.endswith("s21_relu_kernelbench_module_sizes.py"):
            continue  # free(): invalid size in-process
        signal.alarm(30)
        try:
            old, new, some = measure(path, prob, sizes)
            print(f"{old}\t{new}\t{name}\t{some}", flush=True)
        except BaseException as e:  # noqa: BLE001
            print(f"ERR\t-\t{name}\t{type(e).__name__}: {str(e)[:80]}", flush=True)
        finally:
            signal.alarm(0)
            hn.set_sources()


if __name__ == "__main__":
    main()
