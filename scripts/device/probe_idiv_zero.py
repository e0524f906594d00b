"""On the device machine: what a Triton kernel's integer division and remainder by a runtime zero
give on this GPU (docs/open_attacks s65e: the CPU interpreter gives 0 for both, numpy's, and PTX
leaves div/rem by zero unspecified), for int32 and int64, signed and unsigned, a scalar argument
divisor and a loaded one, positive and negative dividends. Prints one line per case.
Usage: python3 scripts/device/probe_idiv_zero.py"""

from __future__ import annotations

import torch
import triton
import triton.language as tl


@triton.jit
def _by_scalar(a_ptr, q_ptr, r_ptr, z, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    a = tl.load(a_ptr + offs)
    tl.store(q_ptr + offs, a // z)
    tl.store(r_ptr + offs, a % z)


@triton.jit
def _by_loaded(a_ptr, z_ptr, q_ptr, r_ptr, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    a = tl.load(a_ptr + offs)
    z = tl.load(z_ptr + offs)
    tl.store(q_ptr + offs, a // z)
    tl.store(r_ptr + offs, a % z)


def main() -> None:
    for dtype in (torch.int32, torch.int64, torch.uint32):
        a = torch.tensor([7, -7, 0, 123456, -1, 1, 2**20, -(2**20)], device="cuda")
        a = (a if dtype != torch.uint32 else a.abs()).to(dtype)
        for how in ("scalar", "loaded"):
            q, r = torch.empty_like(a), torch.empty_like(a)
            try:
                if how == "scalar":
                    _by_scalar[(1,)](a, q, r, 0, BLOCK=8)
                else:
                    _by_loaded[(1,)](a, torch.zeros_like(a), q, r, BLOCK=8)
                torch.cuda.synchronize()
                line = f"a {a.tolist()} a//0 {q.tolist()} a%0 {r.tolist()}"
                print(f"{dtype} {how}: {line}", flush=True)
            except Exception as exc:  # a refusal is an answer too
                print(f"{dtype} {how}: {type(exc).__name__}: {str(exc)[:200]}", flush=True)


if __name__ == "__main__":
    main()
