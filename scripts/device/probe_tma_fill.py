"""On the device machine: what a host TensorDescriptor's out-of-bounds fill is on this GPU
(docs/open_attacks rt62: the CPU interpreter fills numpy's NaN, 0x7fc00000 for float32, and
TMA's fill bits are undocumented), whether a descriptor takes a stride of 0 (a broadcast row),
and whether a block of more than 256 elements per dimension (TMA's boxDim limit) loads right.
Prints one line per probe. Usage: python3 scripts/device/probe_tma_fill.py"""

from __future__ import annotations

import torch
import triton
import triton.language as tl
from triton.tools.tensor_descriptor import TensorDescriptor

BITS = {
    torch.float32: torch.int32,
    torch.float16: torch.int16,
    torch.bfloat16: torch.int16,
    torch.float64: torch.int64,
}


@triton.jit
def _load_tile(desc, out_ptr, START: tl.constexpr, BLOCK: tl.constexpr):
    tile = desc.load([START])
    tl.store(out_ptr + tl.arange(0, BLOCK), tile)


@triton.jit
def _load_rows(desc, out_ptr, ROWS: tl.constexpr, COLS: tl.constexpr):
    tile = desc.load([0, 0])
    r = tl.arange(0, ROWS)[:, None]
    c = tl.arange(0, COLS)[None, :]
    tl.store(out_ptr + r * COLS + c, tile)


def _alloc(size: int, alignment: int, stream) -> torch.Tensor:  # scratch descriptors may need
    return torch.empty(size, device="cuda", dtype=torch.int8)


def fill_bits() -> None:
    """One tile wholly past a 16-element view's end, padding="nan", per float dtype."""
    for dtype, as_int in BITS.items():
        try:
            _fill_one(dtype, as_int)
        except Exception as exc:  # a type TMA refuses: said, the others still probed
            print(
                f"fill {str(dtype):16s} padding=nan: {type(exc).__name__}: {str(exc)[:200]}",
                flush=True,
            )


def _fill_one(dtype, as_int) -> None:
    """The distinct bits of one out-of-bounds tile of `dtype`, read as `as_int`."""
    x = torch.arange(64, device="cuda", dtype=dtype)
    out = torch.empty(16, device="cuda", dtype=dtype)
    desc = TensorDescriptor(x[:16], [16], [1], [16], padding="nan")
    _load_tile[(1,)](desc, out, START=16, BLOCK=16)
    torch.cuda.synchronize()
    bits = sorted(
        {int(b) & ((1 << (8 * out.element_size())) - 1) for b in out.view(as_int).tolist()}
    )
    print(f"fill {str(dtype):16s} padding=nan: bits {[hex(b) for b in bits]}", flush=True)


def zero_stride() -> None:
    """A 2-D descriptor over one row broadcast by a row stride of 0."""
    row = torch.arange(16, device="cuda", dtype=torch.float32)
    out = torch.empty(8 * 16, device="cuda", dtype=torch.float32)
    try:
        desc = TensorDescriptor(row, [8, 16], [0, 1], [8, 16])
        _load_rows[(1,)](desc, out, ROWS=8, COLS=16)
        torch.cuda.synchronize()
        same = torch.equal(out.view(8, 16), row.expand(8, 16))
        print(f"stride 0: launched, rows equal the broadcast row: {same}", flush=True)
    except Exception as exc:  # the answer is what raised
        print(f"stride 0: {type(exc).__name__}: {str(exc)[:300]}", flush=True)


def large_box() -> None:
    """A 1-D block of 512 float32 (past TMA's boxDim limit of 256)."""
    x = torch.randn(4096, device="cuda")
    out = torch.empty(512, device="cuda")
    try:
        desc = TensorDescriptor(x, [4096], [1], [512])
        _load_tile[(1,)](desc, out, START=512, BLOCK=512)
        torch.cuda.synchronize()
        print(f"box 512: loads right: {torch.equal(out, x[512:1024])}", flush=True)
    except Exception as exc:
        print(f"box 512: {type(exc).__name__}: {str(exc)[:300]}", flush=True)


if __name__ == "__main__":
    triton.set_allocator(_alloc)
    print(torch.cuda.get_device_name(), "triton", triton.__version__, flush=True)
    for probe in (fill_bits, zero_stride, large_box):
        try:
            probe()
        except Exception as exc:  # one probe's failure leaves the others' answers
            print(f"{probe.__name__}: {type(exc).__name__}: {str(exc)[:300]}", flush=True)
