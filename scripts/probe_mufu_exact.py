"""Which special arguments the GPU's approximate float instructions answer exactly, as one JSON
object, for the CPU interpreter's model (evaluator/interpreter_asm.py). Run on an H100 in
session 55 (docs/audits/mufu_exact_sm90_s55.json): lg2.approx of 2^k is exact only for k >= 0
(session 53 had reasoned all exact; the H200 refuted it in session 54), ex2/rcp/sqrt/rsqrt are
exact at integers/powers, sin/cos answer an end of their range for some arguments only.

    python3 scripts/probe_mufu_exact.py > $OUT/h200_mufu_exact.json     # on the GPU, repo root
    PYTHONPATH=. python3 scripts/probe_mufu_exact.py --cpu > cpu.json    # the CPU's model

Each case feeds one PTX instruction (tl.inline_asm_elementwise) float32 arguments and reports,
per argument, the result's bits where it differs from the exact answer rounded to float32
(`off`: [argument, result, exact]); `exact` counts the rest. The GPU side imports nothing of
the evaluator.
"""

import json
import math
import os
import sys

CPU = "--cpu" in sys.argv
if CPU:
    os.environ["TRITON_INTERPRET"] = "1"

import torch  # noqa: E402
import triton  # noqa: E402
import triton.language as tl  # noqa: E402

POW2 = [2.0**k for k in range(-126, 128)]
INTS = [float(k) for k in range(-126, 128)]
POW4 = [4.0**k for k in range(-63, 64)]
# arguments whose exact answer rounds to 1 (cos near 0, sin near pi/2) or to the argument itself
# (tanh and sin of tiny values), as float32 values
TINY = [float(torch.tensor(k * 2e-6, dtype=torch.float32)) for k in range(1, 65)]
NEAR_HALF_PI = [
    float(torch.tensor(1.5707964 + (k - 32) * 2e-6, dtype=torch.float32)) for k in range(64)
]
TINIER = [float(torch.tensor(k * 1e-9, dtype=torch.float32)) for k in range(1, 65)]
# (instruction, arguments, the exact answer per argument); tanh.approx has no .ftz form on sm_90
# (ptxas: "Illegal modifier '.ftz' for instruction 'tanh'"). Session 55's answers (an H100, sm_90):
# docs/audits/mufu_exact_sm90_s55.json, modelled in evaluator/interpreter_asm.py
CASES = [
    ("lg2.approx.f32", POW2, [float(k) for k in range(-126, 128)]),
    ("lg2.approx.ftz.f32", POW2, [float(k) for k in range(-126, 128)]),
    ("ex2.approx.f32", INTS, POW2),
    ("ex2.approx.ftz.f32", INTS, POW2),
    ("rcp.approx.f32", POW2, [1.0 / v for v in POW2]),
    ("rcp.approx.ftz.f32", POW2, [1.0 / v for v in POW2]),
    ("rsqrt.approx.f32", POW4, [1.0 / math.sqrt(v) for v in POW4]),
    ("rsqrt.approx.ftz.f32", POW4, [1.0 / math.sqrt(v) for v in POW4]),
    ("sqrt.approx.f32", POW4, [math.sqrt(v) for v in POW4]),
    ("sqrt.approx.ftz.f32", POW4, [math.sqrt(v) for v in POW4]),
    ("sin.approx.f32", [0.0, -0.0], [0.0, -0.0]),
    ("sin.approx.ftz.f32", [0.0, -0.0], [0.0, -0.0]),
    ("cos.approx.f32", [0.0, -0.0], [1.0, 1.0]),
    ("cos.approx.ftz.f32", [0.0, -0.0], [1.0, 1.0]),
    ("tanh.approx.f32", [0.0, -0.0], [0.0, -0.0]),
    # red team rt72: the model's per-child coins (interpreter_asm.Instruction.unmeasured)
    ("cos.approx.f32", TINY, [1.0] * len(TINY)),
    ("cos.approx.ftz.f32", TINY, [1.0] * len(TINY)),
    ("sin.approx.f32", NEAR_HALF_PI, [1.0] * len(NEAR_HALF_PI)),
    ("tanh.approx.f32", TINIER, TINIER),
    ("sin.approx.f32", TINIER, TINIER),
]


@triton.jit
def one(x_ptr, y_ptr, n, ASM: tl.constexpr, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    m = offs < n
    x = tl.load(x_ptr + offs, mask=m, other=1.0)
    y = tl.inline_asm_elementwise(ASM, "=r,r", [x], dtype=tl.float32, is_pure=True, pack=1)
    tl.store(y_ptr + offs, y, mask=m)


def run_case(op: str, args: list[float], exact: list[float], device: str) -> dict:
    x = torch.tensor(args, dtype=torch.float32, device=device)
    y = torch.empty_like(x)
    one[(1,)](x, y, x.numel(), ASM=f"{op} $0, $1;", BLOCK=triton.next_power_of_2(x.numel()))
    want = torch.tensor(exact, dtype=torch.float32)
    got = y.cpu()
    same = got.view(torch.int32) == want.view(torch.int32)
    off = [
        [a, float(g), float(w)]
        for a, g, w, s in zip(args, got.tolist(), want.tolist(), same.tolist())
        if not s
    ]
    return {"op": op, "exact": int(same.sum()), "of": len(args), "off": off}


def main() -> None:
    device = "cpu" if CPU else "cuda"
    if CPU:  # the evaluator's interpreter model (interpreter_asm, keyed errors per child)
        from evaluator import interpreter_guard

        interpreter_guard.install()
    out = {
        "device": "cpu-model" if CPU else torch.cuda.get_device_name(),
        "triton": triton.__version__,
        "cases": [],
    }
    for op, args, exact in CASES:
        try:
            out["cases"].append(run_case(op, args, exact, device))
        except Exception as exc:  # noqa: BLE001  (one instruction the model or the GPU refuses)
            out["cases"].append({"op": op, "error": f"{type(exc).__name__}: {exc}"[:300]})
    json.dump(out, sys.stdout, indent=1)
    print()


if __name__ == "__main__":
    main()
