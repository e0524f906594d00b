"""Self-check of reference solutions: run every problem's solution against its reference.

    python -m evaluator.problems.verify --device cpu     # built-ins, interpreter, CPU sizes
    python -m evaluator.problems.verify --device cuda --bench
    python -m evaluator.problems.verify --problems DIR   # any set with NAME.solution.py files

This is a check of our own fixtures, not the hardened evaluator: it runs trusted
code in this process. Per problem it executes the reference with the device's sizes,
builds `Model` and `ModelNew` from `get_init_inputs()` under the same seed (their
state dicts must already agree: the built-in rule), copies the state dict anyway,
runs both on separate copies of `get_inputs()`, compares with per-dtype tolerances
(the manifest may override them), and counts the Triton kernels the solution
launched. One JSON object per problem goes to stdout, then a summary object; the
exit status is 0 only when every problem passed.

`--device cpu` selects Triton's interpreter, which must happen before triton is
imported, so this module imports torch and triton only inside `main`.
"""
from __future__ import annotations

import argparse
import collections
import json
import os
import shutil
import sys
import tempfile
import time
import traceback
from typing import Any

DEFAULT_TOLERANCE = {  # dtype name -> (atol, rtol)
    "float32": (1e-4, 1e-4),
    "float64": (1e-7, 1e-7),
    "float16": (1e-2, 1e-2),
    "bfloat16": (1e-2, 1e-2),
}


class LaunchCounter:
    """Counts Triton kernel launches by wrapping the launch path of jit and interpreted kernels."""

    def __init__(self) -> None:
        self.names: list[str] = []

    def install(self) -> None:
        from triton.runtime import interpreter, jit

        for cls in (jit.JITFunction, interpreter.InterpretedFunction):
            self._wrap(cls)

    def _wrap(self, cls: type) -> None:
        original = cls.run
        counter = self

        def run(fn_self, *args, **kwargs):
            counter.names.append(getattr(fn_self, "__name__", "?"))
            return original(fn_self, *args, **kwargs)

        cls.run = run


def _flatten(out: Any) -> list:
    return list(out) if isinstance(out, (tuple, list)) else [out]


def compare(ref_out: Any, new_out: Any, tolerance: dict) -> tuple[bool, str, float]:
    """(passed, reason, max abs error) for two forward outputs."""
    import torch

    refs, news = _flatten(ref_out), _flatten(new_out)
    if len(refs) != len(news):
        return False, f"{len(news)} outputs, expected {len(refs)}", float("inf")
    worst = 0.0
    for i, (r, n) in enumerate(zip(refs, news)):
        if not isinstance(n, torch.Tensor) or n.shape != r.shape or n.dtype != r.dtype:
            got = f"{tuple(n.shape)} {n.dtype}" if isinstance(n, torch.Tensor) else type(n).__name__
            return False, f"output {i}: got {got}, expected {tuple(r.shape)} {r.dtype}", worst
        if not r.is_floating_point():
            if not torch.equal(r.cpu(), n.cpu()):
                return False, f"output {i}: integer values differ", worst
            continue
        atol, rtol = DEFAULT_TOLERANCE[str(r.dtype).removeprefix("torch.")]
        atol, rtol = tolerance.get("atol", atol), tolerance.get("rtol", rtol)
        r64, n64 = r.double().cpu(), n.double().cpu()
        if not torch.isfinite(r64).all():
            return False, f"output {i}: the reference output is not finite", worst
        err = (r64 - n64).abs()
        worst = max(worst, float(err.max()) if err.numel() else 0.0)
        if not bool((err <= atol + rtol * r64.abs()).all()):
            reason = f"output {i}: max abs error {worst:.3g} over atol={atol} rtol={rtol}"
            return False, reason, worst
    return True, "", worst


def _exec_solution(source: str, name: str, workdir: str):
    """Import the solution from a real file: on GPU, @triton.jit reads its kernels' source
    with inspect, which fails for code exec'd from a string."""
    import importlib.util

    module_name = "krl_solution_" + name.replace("/", "_")
    path = os.path.join(workdir, module_name + ".py")
    with open(path, "w", encoding="utf-8") as handle:
        handle.write(source)
    spec = importlib.util.spec_from_file_location(module_name, path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _build_models(ref_mod, sol_mod, device: str):
    import torch

    init = ref_mod.get_init_inputs()
    torch.manual_seed(0)
    ref = ref_mod.Model(*init)
    torch.manual_seed(0)
    new = sol_mod.ModelNew(*init)
    ref_state, new_state = ref.state_dict(), new.state_dict()
    if ref_state.keys() != new_state.keys():
        raise AssertionError(f"ModelNew state keys {sorted(new_state)} "
                             f"!= Model's {sorted(ref_state)}")
    for key, value in ref_state.items():
        if not torch.equal(value, new_state[key]):
            raise AssertionError(f"ModelNew's {key} differs from Model's under the same seed")
    new.load_state_dict(ref_state)
    return ref.to(device).eval(), new.to(device).eval()


def check_problem(problem, device: str, sizes: str, counter: LaunchCounter, bench: bool,
                  workdir: str) -> dict:
    """Run one problem's reference and solution; the result dict is one JSON line."""
    import torch

    from common.problemset import exec_problem_source

    result: dict[str, Any] = {"name": problem.name, "family": problem.family, "ok": False}
    start = time.perf_counter()
    try:
        if problem.solution is None:
            raise AssertionError("no reference solution")
        ref_mod = exec_problem_source(problem, sizes)
        sol_mod = _exec_solution(problem.solution, problem.name, workdir)
        ref, new = _build_models(ref_mod, sol_mod, device)
        torch.manual_seed(1)
        inputs = [x.to(device) if isinstance(x, torch.Tensor) else x for x in ref_mod.get_inputs()]

        def copy():
            return [x.clone() if isinstance(x, torch.Tensor) else x for x in inputs]

        with torch.no_grad():
            ref_out = ref(*copy())
            before = len(counter.names)
            new_out = new(*copy())
            launched = counter.names[before:]
        if device == "cuda":
            torch.cuda.synchronize()
        ok, reason, err = compare(ref_out, new_out, dict(problem.tolerance))
        result.update(max_abs_err=err, kernels=sorted(set(launched)), launches=len(launched))
        if not launched:
            ok, reason = False, "the solution launched no Triton kernel"
        result.update(ok=ok, error=reason or None)
        if ok and bench:
            result.update(_bench(ref, new, copy()))
    except Exception as exc:  # noqa: BLE001 (deliberate: report every problem, check the rest)
        tb = traceback.format_exc().strip().splitlines()[-6:]
        result.update(error=f"{type(exc).__name__}: {exc}", traceback=tb)
    result["seconds"] = round(time.perf_counter() - start, 3)
    return result


def _bench(ref, new, inputs) -> dict:
    import torch
    from triton.testing import do_bench

    with torch.no_grad():
        ref_ms = do_bench(lambda: ref(*inputs))
        new_ms = do_bench(lambda: new(*inputs))
    return {"ref_ms": round(ref_ms, 4), "solution_ms": round(new_ms, 4),
            "speedup": round(ref_ms / new_ms, 3)}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--problems", default="builtin",
                        help="problem set to check: builtin[:family], a directory or a file")
    parser.add_argument("--device", choices=("cpu", "cuda"), default="cpu")
    parser.add_argument("--sizes", choices=("cpu", "cuda"), help="size set (default: the device's)")
    parser.add_argument("--only", nargs="*", help="problem names or families to check")
    parser.add_argument("--bench", action="store_true", help="time reference and solution (GPU)")
    args = parser.parse_args(argv)
    if args.device == "cpu":  # the interpreter is chosen when triton is first imported
        os.environ["TRITON_INTERPRET"] = "1"
    import torch  # noqa: F401  (after the interpreter switch)

    from common.problemset import load_problems

    counter = LaunchCounter()
    counter.install()
    problems = [p for p in load_problems(args.problems)
                if not args.only or p.name in args.only or p.family in args.only]
    start, failed, families = time.perf_counter(), [], collections.Counter()
    workdir = tempfile.mkdtemp(prefix="krl_verify_")
    for problem in problems:
        result = check_problem(problem, args.device, args.sizes or args.device, counter,
                               args.bench, workdir)
        families[problem.family] += 1
        if not result["ok"]:
            failed.append(problem.name)
        print(json.dumps(result), flush=True)
    summary = {"summary": True, "problems": len(problems), "failed": failed,
               "families": dict(sorted(families.items())),
               "seconds": round(time.perf_counter() - start, 2)}
    print(json.dumps(summary), flush=True)
    shutil.rmtree(workdir, ignore_errors=True)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
