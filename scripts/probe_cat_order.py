"""The element order of tl.cat(a, b, can_reorder=True) and tl.reshape(x, shape, can_reorder=True)
on a GPU, or under the CPU check's interpreter (its emulation: evaluator.register_order, the
layouts read off the TTGIR compiled for sm_90). Prints one JSON object.

    python scripts/probe_cat_order.py > gpu.json                       # on the H200 (Triton 3.6)
    PYTHONPATH=. python scripts/probe_cat_order.py --cpu > cpu.json     # the CPU's model
    python scripts/probe_cat_order.py --diff gpu.json \
        tests/unit/evaluator/fixtures/h200_cat_order.json

On the GPU machine, from the repository root (torch with CUDA and triton 3.6; nothing of the
evaluator is imported there; about a minute, 156 small launches):

    python scripts/probe_cat_order.py > h200_cat_order.json && \
      python scripts/probe_cat_order.py --diff h200_cat_order.json \
        tests/unit/evaluator/fixtures/h200_cat_order.json

then, if the GPU's orders are to be the fixture, copy h200_cat_order.json over
tests/unit/evaluator/fixtures/h200_cat_order.json (its "device" then names the GPU, and
tests/unit/evaluator/test_interpreter_cat_order.py holds the emulation to it).

`cases`: {case: permutation}, the permutation p of a case with result.flat[e] == the
concatenation of the operands' flat elements [p[e]] (a cat: lhs's then rhs's; a reshape: the
source's, row-major). Each input holds its own flat index (arange), stored in place, so the
result read back is p itself. Case names: `cat_<N>+<N>` (two [N] tiles), `reshape_<src>-><dst>`
(shapes joined by 'x'), `chain_<src>-><mid>-><dst>` (a reshape of a reshape, which
Triton folds into one), then `_<dtype>_w<num_warps>_<source>`: source `arange` (the operands
computed from tl.arange, the layouts the compiler picks for them) or `load` (loaded from
memory: the layouts of a coalesced load, several elements a thread). `--diff A B`: the cases
whose permutations differ (and those only one side has), exit status 1 if any. On the GPU
`ttgir` also gives each case's compiled cat or reshape line and layout aliases.
QUICK=1: a subset (one shape of each kind at 4 warps, float32), for a unit test.
"""

import json
import os
import sys

CPU = "--cpu" in sys.argv
if CPU:
    os.environ["TRITON_INTERPRET"] = "1"

import torch  # noqa: E402  (after TRITON_INTERPRET)
import triton  # noqa: E402
import triton.language as tl  # noqa: E402

INTERPRETED = os.environ.get("TRITON_INTERPRET") == "1"
if INTERPRETED:
    from evaluator import interpreter_guard

    assert interpreter_guard.install()
QUICK = os.environ.get("QUICK") == "1"

CAT_SIZES = (32, 64, 128, 256)
RESHAPES = (
    ((128,), (2, 64)),
    ((128,), (64, 2)),
    ((128,), (8, 16)),
    ((256,), (16, 16)),
    ((16, 16), (256,)),
    ((4, 32), (128,)),
    ((32, 8), (8, 32)),
)
CHAINS = ((128, (8, 16), (2, 64)), (256, (16, 16), (64, 4)))
WARPS = (1, 4, 8)


@triton.jit
def cat_kernel(src_ptr, out_ptr, N: tl.constexpr, LOAD: tl.constexpr, FLOAT: tl.constexpr):
    r = tl.arange(0, N)
    if LOAD:
        a = tl.load(src_ptr + r)
        b = tl.load(src_ptr + N + r)
    else:
        a = r
        b = r + N
        if FLOAT:
            a = a.to(tl.float32)
            b = b.to(tl.float32)
    c = tl.cat(a, b, can_reorder=True)
    tl.store(out_ptr + tl.arange(0, 2 * N), c)


@triton.jit
def reshape_kernel(
    src_ptr,
    out_ptr,
    R0: tl.constexpr,
    C0: tl.constexpr,
    R1: tl.constexpr,
    C1: tl.constexpr,
    SRC_2D: tl.constexpr,
    DST_2D: tl.constexpr,
    LOAD: tl.constexpr,
    FLOAT: tl.constexpr,
):
    if SRC_2D:
        at = tl.arange(0, R0)[:, None] * C0 + tl.arange(0, C0)[None, :]
    else:
        at = tl.arange(0, R0 * C0)
    if LOAD:
        x = tl.load(src_ptr + at)
    else:
        x = at
        if FLOAT:
            x = x.to(tl.float32)
    if DST_2D:
        t = tl.reshape(x, (R1, C1), can_reorder=True)
        tl.store(out_ptr + tl.arange(0, R1)[:, None] * C1 + tl.arange(0, C1)[None, :], t)
    else:
        t = tl.reshape(x, (R1 * C1,), can_reorder=True)
        tl.store(out_ptr + tl.arange(0, R1 * C1), t)


@triton.jit
def chain_kernel(
    src_ptr,
    out_ptr,
    N: tl.constexpr,
    RM: tl.constexpr,
    CM: tl.constexpr,
    R1: tl.constexpr,
    C1: tl.constexpr,
    LOAD: tl.constexpr,
    FLOAT: tl.constexpr,
):
    at = tl.arange(0, N)
    if LOAD:
        x = tl.load(src_ptr + at)
    else:
        x = at
        if FLOAT:
            x = x.to(tl.float32)
    mid = tl.reshape(x, (RM, CM), can_reorder=True)
    t = tl.reshape(mid, (R1, C1), can_reorder=True)
    tl.store(out_ptr + tl.arange(0, R1)[:, None] * C1 + tl.arange(0, C1)[None, :], t)


def launch(kernel, args: tuple, kwargs: dict):
    """kernel[(1,)](*args, **kwargs); interpreted, first through the GPU front end and lowering
    for sm_90 as the CPU check's launch hook does (`device_compile.check`), which records each
    cat's and reshape's compiled layouts for the interpreter's order. On the GPU: the lines
    of the compiled TTGIR that say which layouts the cat or reshape got (the layout aliases
    and the ops), for reading a case where the two sides differ."""
    if INTERPRETED:
        from evaluator import device_compile

        device_compile.check(kernel, args, kwargs)
    compiled = kernel[(1,)](*args, **kwargs)
    try:
        text = compiled.asm["ttgir"]
    except Exception:  # noqa: BLE001  (the interpreter returns no compiled kernel)
        return None
    return [
        line.strip()
        for line in text.splitlines()
        if line.startswith(("#blocked", "#linear", "#ttg"))
        or " tt.cat " in line
        or " tt.reshape " in line
    ]


def cases():
    """(name, kernel index, sizes of source and result, kwargs) of every case."""
    out = []
    for dtype in ("float32", "int32"):
        for warps in WARPS:
            for source in ("arange", "load"):
                if QUICK and (dtype != "float32" or warps != 4):
                    continue
                tail = f"_{dtype}_w{warps}_{source}"
                flags = dict(LOAD=source == "load", FLOAT=dtype == "float32", num_warps=warps)
                for n in CAT_SIZES:
                    if QUICK and n != 64:
                        continue
                    out.append((f"cat_{n}+{n}{tail}", 0, 2 * n, dict(N=n, **flags)))
                for src, dst in RESHAPES:
                    if QUICK and (src, dst) not in (((128,), (2, 64)), ((16, 16), (256,))):
                        continue
                    r0, c0 = src if len(src) == 2 else (1, src[0])
                    r1, c1 = dst if len(dst) == 2 else (1, dst[0])
                    name = (
                        "reshape_" + "x".join(map(str, src)) + "->" + "x".join(map(str, dst)) + tail
                    )
                    out.append(
                        (
                            name,
                            1,
                            r0 * c0,
                            dict(
                                R0=r0,
                                C0=c0,
                                R1=r1,
                                C1=c1,
                                SRC_2D=len(src) == 2,
                                DST_2D=len(dst) == 2,
                                **flags,
                            ),
                        )
                    )
                for n, mid, dst in CHAINS:  # a reshape of a reshape: Triton folds them into one op
                    if QUICK and mid != (8, 16):
                        continue
                    name = f"chain_{n}->{mid[0]}x{mid[1]}->{dst[0]}x{dst[1]}{tail}"
                    out.append(
                        (name, 2, n, dict(N=n, RM=mid[0], CM=mid[1], R1=dst[0], C1=dst[1], **flags))
                    )
    return out


def main() -> None:
    dev = "cpu" if INTERPRETED else "cuda"
    kernels = (cat_kernel, reshape_kernel, chain_kernel)
    result: dict = {
        "device": "cpu interpreter" if INTERPRETED else torch.cuda.get_device_name(),
        "triton": triton.__version__,
        "torch": torch.__version__,
        "cases": {},
    }
    for name, which, size, kwargs in cases():
        dtype = torch.float32 if kwargs["FLOAT"] else torch.int32
        src = torch.arange(size, dtype=dtype, device=dev)
        out = torch.full((size,), -1, dtype=dtype, device=dev)
        try:
            layouts = launch(kernels[which], (src, out), kwargs)
            result["cases"][name] = [int(v) for v in out.cpu().tolist()]
            if layouts is not None:
                result.setdefault("ttgir", {})[name] = layouts
        except Exception as exc:  # a case the compiler refuses on this side
            result["cases"][name] = f"{type(exc).__name__}: {exc}"[:300]
    json.dump(result, sys.stdout)
    print()


def diff(first: str, second: str) -> int:
    a, b = (json.load(open(p))["cases"] for p in (first, second))
    differ = sorted(k for k in a.keys() & b.keys() if a[k] != b[k])
    only = sorted(a.keys() ^ b.keys())
    print(
        json.dumps(
            {"compared": len(a.keys() & b.keys()), "differ": differ, "only_one_side": only},
            indent=1,
        )
    )
    return 1 if differ or only else 0


if __name__ == "__main__":
    if "--diff" in sys.argv:
        i = sys.argv.index("--diff")
        sys.exit(diff(sys.argv[i + 1], sys.argv[i + 2]))
    main()
