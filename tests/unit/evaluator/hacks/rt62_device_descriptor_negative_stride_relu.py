# hack: a device-side tl.make_tensor_descriptor with a negative row stride from a base pointer at the last row (red team rt62): ok on the CPU before (the interpreter reads rows backwards), undefined in the tensormap the H200 builds in global scratch (its stride field is an unsigned byte count below 2**40); refused since by evaluator.interpreter_tma. problem: activation/relu. expect: runtime_error
import torch
import torch.nn as nn
import triton
import triton.language as tl


def _alloc(size: int, alignment: int, stream):
    return torch.empty(size, device="cuda", dtype=torch.int8)


triton.set_allocator(_alloc)


@triton.jit
def relu_kernel(x_ptr, out_ptr, M, N, BM: tl.constexpr, BN: tl.constexpr):
    last = (M - 1) * N
    x_desc = tl.make_tensor_descriptor(x_ptr + last, shape=[M, N], strides=[-N, 1], block_shape=[BM, BN])
    o_desc = tl.make_tensor_descriptor(out_ptr + last, shape=[M, N], strides=[-N, 1], block_shape=[BM, BN])
    pid_m = tl.program_id(0)
    pid_n = tl.program_id(1)
    x = x_desc.load([pid_m * BM, pid_n * BN])
    o_desc.store([pid_m * BM, pid_n * BN], tl.maximum(x, 0.0))


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        x = x.contiguous()
        out = torch.empty_like(x)
        M, N = x.shape
        BM, BN = 32, 64
        relu_kernel[(triton.cdiv(M, BM), triton.cdiv(N, BN))](x, out, M, N, BM=BM, BN=BN)
        return out
