"""What a GPU answers, and what the CPU check's interpreter answers, for float8 `tl.dot`s into
float32 whose result depends on how the tensor cores accumulate (evaluator/interpreter_dot8.py:
wgmma keeps 13 bits below the largest of a k-step's 32 products and its accumulator, truncated;
Triton's max_num_imprecise_acc promotes a partial sum with a float32 add). Prints one JSON object.

    python scripts/probe_fp8_dot.py > h200_fp8_probe.json           # on the H200 (torch, triton)
    TRITON_INTERPRET=1 PYTHONPATH=. python scripts/probe_fp8_dot.py # the CPU check's model

Run from the repository root. On the GPU nothing of evaluator/ is imported; interpreted, the
evaluator's interpreter patches are installed and every launch first goes through the GPU front
end and lowering for sm_90 (`device_compile.check`, as the CPU check's launch hook does), which
records whether each dot is a wgmma. The two outputs have the same cases in the same order:
compare `cases[i]["got"]` (and `random[i]["got"]`) one to one. To make them the unit test's
fixture, save the GPU's output as tests/unit/evaluator/fixtures/h200_fp8_probe.json
(tests/unit/evaluator/test_interpreter_dot8.py then holds the interpreter to it case by case).

Cases (each a tile whose every row is one pattern and every column another, so all outputs are
one value, `got` = out[0, 0], `spread` = max - min over the tile):
- repro: rows [1, s, s, ...] x columns [1, s, ...], s = 2**-j (the measurement of session 48);
- bits13: products 2**-13 next to a 1 (12 or 13 kept bits);
- sign: products -2**-14 next to 1 (truncation toward zero or toward -inf);
- cancel: products +1, -1, then 2**-14s (one alignment over the 32 or one per sub-group);
- carry: 31 products 1 and one 2**-13 (a carry out of the sum kept or truncated away);
- acc_bits: an accumulator 1 + 2**-20 with zero or 2**-14 products (the accumulator truncated);
- imprecise: max_num_imprecise_acc 32, 64, 128 and 0 at K = 128 (the promotion period);
- warps/e5m2/mixed: num_warps 2 and 8, e5m2 operands, e4m3 x e5m2;
and `random`: four random float8 tiles (normal values at several scales), their whole outputs.

Reading a GPU answer that differs from the interpreter's (what interpreter_dot8 assumes first):
- bits13: 1.0037841796875 = 1 + 31*2**-13 with 13 kept bits (KEPT_BITS), 1.0 with 12;
- sign: 1.0 when a negative product truncates toward zero, 0.9962158203125 toward -inf;
- cancel / cancel late: 0.0 with one alignment over the 32 products, 2**-14 times the small
  products outside the sub-group holding +1 and -1 with sub-groups of 8 or 16;
- carry / carry 2: 31.0001220703125 when the sum's carry keeps the low bit, 31.0 when the sum is
  cut to 13 bits again;
- acc_bits *: 1.0 when the accumulator is truncated with the products, 1.0000009536743164 when
  it is not; acc big: 16384.0 when products of 1 vanish next to an accumulator of 2**14, 16416.0
  when the accumulator is added apart;
- imprecise N (K = 128, j = 7): 1.0 (default and 128), 1.001953125 (96), 1.00390625 (64),
  1.005859375 (32: a float32 add of a fresh partial sum every k-step), 1.00775146484375 (0:
  MMA v2, exact); warps 2 (MMA v2) exact 1.00189208984375.
"""

import json
import os
import sys

import torch
import triton
import triton.language as tl

INTERPRETED = os.environ.get("TRITON_INTERPRET") == "1"
if INTERPRETED:
    from evaluator import interpreter_guard

    assert interpreter_guard.install()
DEV = "cpu" if INTERPRETED else "cuda"
E4, E5 = tl.float8e4nv, tl.float8e5
FORMATS = {"e4m3": E4, "e5m2": E5}


def launch(kernel, grid, *args, **kwargs):
    """kernel[grid](*args, **kwargs); interpreted, first through the GPU front end and lowering
    for sm_90 as the CPU check's launch hook does (`device_compile.check`)."""
    if INTERPRETED:
        from evaluator import device_compile

        device_compile.check(kernel, args, kwargs)
    kernel[grid](*args, **kwargs)


@triton.jit
def dot8(
    a_ptr,
    b_ptr,
    c_ptr,
    out_ptr,
    M: tl.constexpr,
    N: tl.constexpr,
    K: tl.constexpr,
    FA: tl.constexpr,
    FB: tl.constexpr,
    IMP: tl.constexpr,
):
    rm = tl.arange(0, M)
    rn = tl.arange(0, N)
    rk = tl.arange(0, K)
    a = tl.load(a_ptr + rm[:, None] * K + rk[None, :]).to(FA)
    b = tl.load(b_ptr + rk[:, None] * N + rn[None, :]).to(FB)
    c = tl.load(c_ptr + rm[:, None] * N + rn[None, :])
    if IMP < 0:
        d = tl.dot(a, b, c)
    else:
        d = tl.dot(a, b, c, max_num_imprecise_acc=IMP)
    tl.store(out_ptr + rm[:, None] * N + rn[None, :], d)


def run(row, col, m=64, n=16, fa="e4m3", fb=None, imp=-1, warps=4, acc=0.0):
    """The tile out = A @ B + acc, every row of A `row`, every column of B `col` (float32 values
    exact in the formats)."""
    k = len(row)
    a = torch.tensor(row, dtype=torch.float32).repeat(m, 1).contiguous().to(DEV)
    b = torch.tensor(col, dtype=torch.float32)[:, None].repeat(1, n).contiguous().to(DEV)
    c = torch.full((m, n), acc, dtype=torch.float32, device=DEV)
    out = torch.zeros(m, n, dtype=torch.float32, device=DEV)
    launch(
        dot8,
        (1,),
        a,
        b,
        c,
        out,
        M=m,
        N=n,
        K=k,
        FA=FORMATS[fa],
        FB=FORMATS[fb or fa],
        IMP=imp,
        num_warps=warps,
    )
    return out.cpu()


def case(name, row, col, **kw):
    out = run(row, col, **kw)
    return {
        "name": name,
        "k": len(row),
        **{
            key: kw.get(key, d)
            for key, d in (
                ("m", 64),
                ("fa", "e4m3"),
                ("fb", kw.get("fa", "e4m3")),
                ("imp", -1),
                ("warps", 4),
                ("acc", 0.0),
            )
        },
        "got": out[0, 0].item(),
        "spread": (out.max() - out.min()).item(),
    }


def cases() -> list:
    found = []
    for m, k in ((16, 32), (64, 32), (64, 128), (128, 256)):
        for j in (5, 6, 7, 8):
            s = 2.0**-j
            found.append(case(f"repro j={j}", [1.0] + [s] * (k - 1), [1.0] + [s] * (k - 1), m=m))
    t6, t7 = 2.0**-6, 2.0**-7
    found.append(case("bits13", [1.0] + [t6] * 31, [1.0] + [t7] * 31))
    found.append(case("bits13 k128", [1.0] + [t6] * 127, [1.0] + [t7] * 127))
    found.append(case("sign", [1.0] + [t7] * 31, [1.0] + [-t7] * 31))
    found.append(case("sign neg1", [-1.0] + [t7] * 31, [1.0] + [t7] * 31))
    found.append(case("cancel", [1.0, 1.0] + [t7] * 30, [1.0, -1.0] + [t7] * 30))
    found.append(
        case("cancel late", [t7] * 16 + [1.0, 1.0] + [t7] * 14, [t7] * 16 + [1.0, -1.0] + [t7] * 14)
    )
    found.append(case("carry", [1.0] * 31 + [t6], [1.0] * 31 + [t7]))
    found.append(case("carry 2", [1.0] * 16 + [t6] + [1.0] * 15, [1.0] * 16 + [t7] + [1.0] * 15))
    found.append(case("acc_bits zero", [0.0] * 32, [0.0] * 32, acc=1.0 + 2.0**-20))
    found.append(case("acc_bits tiny", [t7] * 32, [t7] * 32, acc=1.0 + 2.0**-20))
    found.append(case("acc_bits k64", [t7] * 64, [t7] * 64, acc=1.0 + 2.0**-20))
    found.append(case("acc big", [1.0] * 32, [1.0] * 32, acc=2.0**14))
    j7 = [1.0] + [t7] * 127
    for imp in (-1, 32, 64, 96, 128, 0):
        found.append(case(f"imprecise {imp}", j7, j7, imp=imp))
    found.append(case("imprecise 32 acc", [t7] * 128, [t7] * 128, imp=32, acc=1.0))
    found.append(case("warps 2", j7[:32], j7[:32], warps=2))
    found.append(case("warps 8 m128", j7, j7, m=128, warps=8))
    found.append(case("n8", j7[:32], j7[:32], n=8))
    found.append(case("e5m2 j7", j7[:32], j7[:32], fa="e5m2"))
    found.append(case("e5m2 j8", [1.0] + [2.0**-8] * 31, [1.0] + [2.0**-8] * 31, fa="e5m2"))
    found.append(
        case("e5m2 k256", [1.0] + [2.0**-6] * 255, [1.0] + [2.0**-6] * 255, fa="e5m2", m=128)
    )
    found.append(case("mixed", j7[:32], j7[:32], fa="e4m3", fb="e5m2"))
    return found


def random_tiles() -> list:
    g = torch.Generator().manual_seed(0)
    found = []
    for fa, dtype, k, scale in (
        ("e4m3", torch.float8_e4m3fn, 256, 1.0),
        ("e4m3", torch.float8_e4m3fn, 128, 8.0),
        ("e5m2", torch.float8_e5m2, 256, 1.0),
        ("e4m3", torch.float8_e4m3fn, 512, 0.05),
    ):
        a = (torch.randn(64, k, generator=g) * scale).to(dtype).float()
        b = (torch.randn(k, 32, generator=g) * scale).to(dtype).float()
        m, n = a.shape[0], b.shape[1]
        out = torch.zeros(m, n, device=DEV)
        c = torch.zeros(m, n, device=DEV)
        launch(
            dot8,
            (1,),
            a.to(DEV),
            b.to(DEV),
            c,
            out,
            M=m,
            N=n,
            K=k,
            FA=FORMATS[fa],
            FB=FORMATS[fa],
            IMP=-1,
            num_warps=4,
        )
        exact = a.double() @ b.double()
        err = (out.cpu().double() - exact).abs()
        found.append(
            {
                "fa": fa,
                "k": k,
                "scale": scale,
                "max_abs_err": err.max().item(),
                "rel_norm_err": (err.norm() / exact.norm()).item(),
                "got": out.cpu().flatten().tolist(),
            }
        )
    return found


def main() -> None:
    out = {
        "device": torch.cuda.get_device_name() if not INTERPRETED else "cpu interpreter",
        "triton": triton.__version__,
        "torch": torch.__version__,
        "cases": cases(),
        "random": random_tiles(),
    }
    json.dump(out, sys.stdout, indent=1)
    print()


if __name__ == "__main__":
    main()
