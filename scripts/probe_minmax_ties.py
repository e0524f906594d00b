"""What tl.maximum / tl.minimum / tl.clamp answer at signed zeros and NaNs, bit for bit, on a GPU
(or, with --cpu, under the CPU check's interpreter). Prints one JSON object {case: [bits...]}.

    python3 scripts/probe_minmax_ties.py > h200_minmax_ties.json              # on the H200
    PYTHONPATH=. python3 scripts/probe_minmax_ties.py --cpu > cpu.json          # the CPU's model

Each case stores float32 results of one op over every ordered pair of the values below, as
their int32 bit patterns (a NaN's payload and sign, a zero's sign are what the probe is about).
"""

import json
import os
import sys

CPU = "--cpu" in sys.argv
if CPU:
    os.environ["TRITON_INTERPRET"] = "1"

import numpy as np  # noqa: E402
import torch  # noqa: E402
import triton  # noqa: E402
import triton.language as tl  # noqa: E402

if CPU:
    from evaluator import interpreter_guard

    assert interpreter_guard.install()
DEV = "cpu" if CPU else "cuda"
VALUES = np.array([0.0, -0.0, 1.0, -1.0, np.nan, -np.nan, np.inf, -np.inf], dtype=np.float32)


@triton.jit
def pairs(a_ptr, b_ptr, out_ptr, OP: tl.constexpr, N: tl.constexpr, PROPAGATE: tl.constexpr):
    i = tl.arange(0, N)
    a = tl.load(a_ptr + i)
    b = tl.load(b_ptr + i)
    if OP == 0:
        r = tl.maximum(a, b)
    elif OP == 1:
        r = tl.minimum(a, b)
    elif OP == 2:
        r = tl.maximum(a, b, propagate_nan=tl.PropagateNan.ALL)
    elif OP == 3:
        r = tl.minimum(a, b, propagate_nan=tl.PropagateNan.ALL)
    elif OP == 4:
        r = tl.clamp(
            a, -tl.abs(b), tl.abs(b)
        )  # symmetric: min.xorsign.abs where the compiler sees it
    else:
        r = tl.clamp(a, -2.0, 2.0)
    tl.store(out_ptr + i, r)


def launch(kernel, grid, *args, **kwargs):
    if CPU:
        from evaluator import device_compile

        device_compile.check(kernel, args, kwargs)
    kernel[grid](*args, **kwargs)


def main() -> None:
    a = np.repeat(VALUES, len(VALUES))
    b = np.tile(VALUES, len(VALUES))
    n = 64
    ta = torch.tensor(a, device=DEV)
    tb = torch.tensor(b, device=DEV)
    names = [
        "maximum",
        "minimum",
        "maximum_nan_all",
        "minimum_nan_all",
        "clamp_sym_abs_b",
        "clamp_const2",
    ]
    out = {
        "device": torch.cuda.get_device_name() if not CPU else "cpu-interpreter",
        "triton": triton.__version__,
        "values": [float(v) for v in VALUES],
        "cases": {},
    }
    for op, name in enumerate(names):
        res = torch.empty(n, device=DEV, dtype=torch.float32)
        launch(pairs, (1,), ta, tb, res, OP=op, N=n, PROPAGATE=0)
        out["cases"][name] = res.cpu().view(torch.int32).tolist()
    if "--diff" in sys.argv:
        other = json.load(open(sys.argv[sys.argv.index("--diff") + 1]))
        diff = {
            k: [
                (i, v, other["cases"][k][i])
                for i, v in enumerate(out["cases"][k])
                if v != other["cases"][k][i]
            ]
            for k in out["cases"]
        }
        print(json.dumps({k: v for k, v in diff.items() if v}, indent=1))
        return
    print(json.dumps(out))


if __name__ == "__main__":
    main()
