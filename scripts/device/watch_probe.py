"""On the device machine: one candidate file's forwards under the provenance watch, in this
process (no sandbox), to tell where a GPU-only verdict comes from.
Usage: python3 scripts/device/watch_probe.py FILE PROBLEM [FORWARDS]
Prints, for the first forward (a checked forward's watch), the watch's host-made count split by
source (ops' values, launch floats, launch texts, DataInts: distinct tuples, launch order per
kernel, counter run lengths, storage offsets); then FORWARDS forwards kept alive as a timed
batch keeps them, with the device memory allocated after each, bare and under a watch without
fingerprints (a profiled batch's)."""

from __future__ import annotations

import importlib.util
import os
import sys
import types

import torch

from common.problemset import builtin_problem
from evaluator.forward_watch import Provenance
from evaluator.launch_hook import LaunchRecorder

DEVICE = os.environ.get("DEVICE", "cuda")  # cpu: a smoke test under TRITON_INTERPRET=1


def _module(path: str, name: str):
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


def _problem(problem, device: str):
    module = types.ModuleType("probe_problem")
    exec(compile(problem.source, "probe_problem.py", "exec"), module.__dict__)
    module.__dict__.update(problem.sizes.get(device, {}))
    return module


def _breakdown(watch: Provenance) -> dict:
    d = watch.data_ints
    orders = {}
    for fn in {k[0] for k in d.chosen} | set(d.tuples):
        orders[str(fn)[-6:]] = {
            "tuples": sum(len(t) for t in d.tuples.get(fn, ())),
            "order": d._order(fn),
        }
    chosen = {f"{str(k[0])[-6:]}:{k[1]}": len(d.values.get(k, [])) for k in d.chosen}
    return {
        "ops": watch.host_made,
        "launch_floats": len(watch.launch_floats),
        "launch_texts": sum(watch.launch_texts.values()),
        "data": d.data(),
        "lengths": d._lengths(),
        "per_kernel": orders,
        "chosen_places": chosen,
        "report": watch.report()["host_made"],
    }


def main(path: str, problem_name: str, forwards: int) -> None:
    problem = builtin_problem(problem_name)
    ref = _problem(problem, DEVICE)
    cand = _module(path, "probe_candidate")
    recorder = LaunchRecorder()
    recorder.install()
    with torch.device(DEVICE):
        model = cand.ModelNew(*ref.get_init_inputs()).to(DEVICE)
        inputs = [x.to(DEVICE) if isinstance(x, torch.Tensor) else x for x in ref.get_inputs()]
    watch = Provenance(recorder)
    recorder.start()
    with watch, torch.no_grad():
        model(*inputs)
    recorder.stop()
    print("first forward:", _breakdown(watch), flush=True)
    for label, fingerprints in (("bare", None), ("watched", False)):
        mem = torch.cuda.memory_allocated if DEVICE == "cuda" else (lambda: 0)
        base = mem()
        kept, sizes = [], []
        for _ in range(forwards):
            with torch.device(DEVICE):
                batch = [
                    x.to(DEVICE) if isinstance(x, torch.Tensor) else x for x in ref.get_inputs()
                ]
            w = Provenance(recorder, fingerprints=False) if fingerprints is not None else None
            recorder.start()
            with torch.no_grad():
                if w is not None:
                    with w:
                        out = model(*batch)
                else:
                    out = model(*batch)
            recorder.stop()
            kept.append((batch, out))
            sizes.append(round((mem() - base) / 2**20))
        print(f"{label}: MiB allocated after each forward {sizes}", flush=True)
        del kept


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2], int(sys.argv[3]) if len(sys.argv) > 3 else 8)
