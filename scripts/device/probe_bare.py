"""On the device machine: run a candidate file's ModelNew directly (no evaluator, no sandbox) on
a built-in problem's GPU inputs, compare with the reference and print the full error if it fails,
to tell a compile failure of Triton itself from one the evaluator's child causes.
Usage: python3 scripts/device/probe_bare.py reduction/cumsum=PATH/TO/FILE.py ..."""

from __future__ import annotations

import importlib.util
import sys
import time
import traceback
from pathlib import Path

import torch

from common.problemset import builtin_problem, exec_problem_source


def _load(path: str):
    spec = importlib.util.spec_from_file_location(f"cand_{Path(path).stem}", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def probe(name: str, path: str) -> None:
    problem = builtin_problem(name)
    ref = exec_problem_source(problem, "cuda")
    torch.manual_seed(0)
    inputs = [x.cuda() if isinstance(x, torch.Tensor) else x for x in ref.get_inputs()]
    init = ref.get_init_inputs()
    model = ref.Model(*init).cuda()
    expected = model(*inputs)
    cand = _load(path).ModelNew(*init).cuda()
    cand.load_state_dict(model.state_dict(), strict=False)
    start = time.perf_counter()
    try:
        got = cand(*inputs)
        torch.cuda.synchronize()
    except Exception:  # noqa: BLE001 - the probe's point is the whole error text
        print(f"{name} {Path(path).name}: FAILED after {time.perf_counter() - start:.1f} s")
        traceback.print_exc()
        return
    err = (got.float() - expected.float()).abs().max().item()
    took = time.perf_counter() - start
    print(f"{name} {Path(path).name}: ran in {took:.1f} s, max abs err {err:.3g}")


if __name__ == "__main__":
    print(torch.__version__, torch.cuda.get_device_name(), flush=True)
    import triton

    print("triton", triton.__version__, flush=True)
    for arg in sys.argv[1:]:
        problem, _, file = arg.partition("=")
        probe(problem, file)
