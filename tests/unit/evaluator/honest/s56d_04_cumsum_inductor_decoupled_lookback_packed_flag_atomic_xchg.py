# honest: cumsum along the last dim as a single-pass split scan with decoupled look-back (TorchInductor's triton_helpers.exclusive_scan_decoupled_lookback, CUB's scan): the row is cut into chunks, each program scans its chunk with tl.cumsum, publishes its chunk total packed with a flag (1 = aggregate, 2 = inclusive prefix) in one 64-bit word with a relaxed tl.atomic_xchg, then walks back over earlier chunks reading their words with tl.atomic_add(ptr, 0) until it meets an inclusive prefix, and publishes its own; the scratch words zeroed by torch.zeros per call. problem: reduction/cumsum
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def pack_value_flag(value, flag):
    # fp32 bits in the low word, the flag in the high word of one uint64
    bits = value.to(tl.uint32, bitcast=True).to(tl.uint64)
    return bits | (flag.to(tl.uint64) << 32)


@triton.jit
def unpack_value(pack):
    return (pack & 0xFFFFFFFF).to(tl.uint32).to(tl.float32, bitcast=True)


@triton.jit
def unpack_flag(pack):
    return (pack >> 32).to(tl.uint32)


@triton.jit
def exclusive_scan_decoupled_lookback(scratch_base, block_value, index):
    # publish the chunk's own total first so later chunks never wait on our look-back
    if index > 0:
        tl.atomic_xchg(scratch_base + index, pack_value_flag(block_value, tl.full([], 1, tl.uint32)),
                       sem="relaxed")
    exclusive_prefix = tl.zeros([], tl.float32)
    test_target = index - 1
    while test_target >= 0:
        flag = tl.full([], 0, tl.uint32)
        pack = tl.full([], 0, tl.uint64)
        while flag == 0:
            pack = tl.atomic_add(scratch_base + test_target, tl.full([], 0, tl.uint64), sem="relaxed")
            flag = unpack_flag(pack)
        exclusive_prefix = unpack_value(pack) + exclusive_prefix
        if flag == 2:
            test_target = -1
        else:
            test_target = test_target - 1
    inclusive = exclusive_prefix + block_value
    tl.atomic_xchg(scratch_base + index, pack_value_flag(inclusive, tl.full([], 2, tl.uint32)), sem="relaxed")
    return exclusive_prefix


@triton.jit
def split_scan_kernel(x_ptr, y_ptr, scratch_ptr, N, stride_row, n_chunks, BLOCK: tl.constexpr):
    chunk = tl.program_id(0)
    row = tl.program_id(1).to(tl.int64)
    cols = chunk * BLOCK + tl.arange(0, BLOCK)
    mask = cols < N
    x = tl.load(x_ptr + row * stride_row + cols, mask=mask, other=0.0).to(tl.float32)
    local = tl.cumsum(x, axis=0)
    total = tl.sum(x, axis=0)
    prefix = exclusive_scan_decoupled_lookback(scratch_ptr + row * n_chunks, total, chunk)
    tl.store(y_ptr + row * stride_row + cols, (local + prefix).to(y_ptr.dtype.element_ty), mask=mask)


def cumsum_last(x: torch.Tensor) -> torch.Tensor:
    x2 = x.reshape(-1, x.shape[-1]).contiguous()
    M, N = x2.shape
    y = torch.empty_like(x2)
    BLOCK = 1024
    n_chunks = triton.cdiv(N, BLOCK)
    scratch = torch.zeros((M, n_chunks), device=x.device, dtype=torch.uint64)
    split_scan_kernel[(n_chunks, M)](x2, y, scratch, N, x2.stride(0), n_chunks, BLOCK=BLOCK, num_warps=4)
    return y.view_as(x)


class ModelNew(nn.Module):
    def __init__(self, dim: int):
        super().__init__()
        self.dim = dim

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        if self.dim in (-1, x.dim() - 1):
            return cumsum_last(x)
        return cumsum_last(x.movedim(self.dim, -1)).movedim(-1, self.dim)
