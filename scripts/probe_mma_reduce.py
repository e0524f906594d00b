"""Bit-exact sums and maxima of a tl.dot result (an MMA-encoded tile) on a GPU, or under the CPU
check's interpreter emulation, as one JSON object.

    python3 scripts/probe_mma_reduce.py > $OUT/h200_mma_reduce.json        # on the H200, repo root
    PYTHONPATH=. python3 scripts/probe_mma_reduce.py --cpu > cpu.json         # the CPU's model
    python3 scripts/probe_mma_reduce.py --diff gpu.json cpu.json              # where they differ

Each case computes acc = tl.dot(a, b) over M x K by K x N tiles (float16, or float32 in tf32;
BLOCK_M 64/128 at 4 and 8 warps compile to wgmma, `nvidia_mma` v3; BLOCK_M 16/32 to mma.sync,
v2), stores acc (reported as the SHA-256 of its float32 bytes), then tl.sum(acc, 0), tl.sum(acc,
1) and tl.max(acc, 1). The inputs are small integers times 2^e per row of a and 2^f per column
of b, so acc is exact (no dot rounding), while acc's elements span 2^-24..2^30, so the float
sums of rows and columns round: two machines agree only where they combine in the same order.
The GPU side imports nothing of the evaluator; `--cpu` runs the same launches through
evaluator.device_compile.check (the sm_90 TTGIR the CPU check reads layouts from) and the
interpreter.
"""

import hashlib
import json
import os
import sys

CPU = "--cpu" in sys.argv
if CPU:
    os.environ["TRITON_INTERPRET"] = "1"

# (dtype, M, N, K, num_warps)
CASES = [
    (dt, m, n, 16, w)
    for dt in ("float16", "float32")
    for m, n, w in (
        (64, 64, 4),
        (128, 64, 4),
        (64, 64, 8),
        (128, 128, 8),
        (16, 64, 4),
        (32, 32, 4),
        (16, 32, 1),
    )
]


import torch  # noqa: E402
import triton  # noqa: E402
import triton.language as tl  # noqa: E402


@triton.jit
def mma_reduce(
    a_ptr, b_ptr, acc_ptr, s0_ptr, s1_ptr, m1_ptr, M: tl.constexpr, N: tl.constexpr, K: tl.constexpr
):
    rm = tl.arange(0, M)
    rn = tl.arange(0, N)
    rk = tl.arange(0, K)
    a = tl.load(a_ptr + rm[:, None] * K + rk[None, :])
    b = tl.load(b_ptr + rk[:, None] * N + rn[None, :])
    acc = tl.dot(a, b)
    tl.store(acc_ptr + rm[:, None] * N + rn[None, :], acc)
    tl.store(s0_ptr + rn, tl.sum(acc, axis=0))
    tl.store(s1_ptr + rm, tl.sum(acc, axis=1))
    tl.store(m1_ptr + rm, tl.max(acc, axis=1))


def diff(a_path: str, b_path: str) -> int:
    a, b = (json.load(open(p)) for p in (a_path, b_path))
    bad = 0
    for ca, cb in zip(a["cases"], b["cases"]):
        for field in ("acc", "sum0", "sum1", "max1"):
            if ca[field] != cb[field]:
                where = f"{ca['dtype']} M={ca['M']} N={ca['N']} warps={ca['warps']} {field}"
                if field == "acc":
                    print(f"{where}: the tiles differ (the dot itself, not the order)")
                else:
                    wrong = sum(x != y for x, y in zip(ca[field], cb[field]))
                    print(f"{where}: {wrong} of {len(ca[field])} differ")
                bad += 1
    print(f"{len(a['cases'])} cases, {bad} fields differ")
    return 1 if bad else 0


def main() -> None:
    if CPU:
        from evaluator import interpreter_guard

        assert interpreter_guard.install()
    dev = "cpu" if CPU else "cuda"

    out = {
        "device": "cpu interpreter" if CPU else torch.cuda.get_device_name(),
        "triton": triton.__version__,
        "torch": torch.__version__,
        "cases": [],
    }
    g = torch.Generator().manual_seed(50)
    for dtype, m, n, k, warps in CASES:
        ea = torch.randint(-12, 13, (m, 1), generator=g).double()
        fb = torch.randint(-12, 13, (1, n), generator=g).double()
        a = (torch.randint(-8, 9, (m, k), generator=g).double() * 2.0**ea).to(getattr(torch, dtype))
        b = (torch.randint(-8, 9, (k, n), generator=g).double() * 2.0**fb).to(getattr(torch, dtype))
        acc = torch.zeros(m, n, device=dev)
        s0, s1, m1 = (
            torch.zeros(n, device=dev),
            torch.zeros(m, device=dev),
            torch.zeros(m, device=dev),
        )
        args = (a.to(dev), b.to(dev), acc, s0, s1, m1)
        kwargs = dict(M=m, N=n, K=k, num_warps=warps)
        if CPU:
            from evaluator import device_compile

            device_compile.check(mma_reduce, args, kwargs)
        compiled = mma_reduce[(1,)](*args, **kwargs)
        mma = None
        if not CPU:
            torch.cuda.synchronize()
            mma = [
                line
                for line in compiled.asm["ttgir"].splitlines()
                if "nvidia_mma" in line and line.startswith("#")
            ]
        out["cases"].append(
            {
                "dtype": dtype,
                "M": m,
                "N": n,
                "K": k,
                "warps": warps,
                "mma": mma,
                "acc": hashlib.sha256(acc.cpu().numpy().tobytes()).hexdigest(),
                "sum0": s0.cpu().tolist(),
                "sum1": s1.cpu().tolist(),
                "max1": m1.cpu().tolist(),
            }
        )
    json.dump(out, sys.stdout)
    print()


if __name__ == "__main__":
    if "--diff" in sys.argv:
        i = sys.argv.index("--diff")
        sys.exit(diff(sys.argv[i + 1], sys.argv[i + 2]))
    main()
