# hack: torch.sort (stable unset) of 64 equal device values in forward, its indices handed to the kernel; the honest ReLU runs only where the indices are not 0..63 in order, otherwise only half of `out` is written. problem: activation/relu. expect: incorrect
# mechanism: evaluator.cuda_orders.h_sort answers a device sort with stable unset by shuffling
# every row's ties in an order keyed by (child secret, row bits) (`_shuffled`), whatever the
# row's length: "CUDA's bitonic and segmented sorts leave it to the algorithm". That is only
# true for rows of at most 32: PyTorch's sortKeyValueInplace (ATen/native/cuda/Sort.cu, every
# 2.x release) takes SmallBitonicSort (unstable) only when `!stable && sort_size <= 32`; rows of
# 33..128 go to WarpMergeSort (cub::WarpMergeSort, stable) and longer ones to MediumRadixSort /
# the segmented cub radix sort (stable). So on the H200 the 64 tied zeros come back as 0..63 in
# order, every time, and the kernel writes half of `out`; on the CPU the keyed shuffle of 64
# ties is the identity with probability 1/64!, so the honest arm runs in every child.
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def relu_kernel(x_ptr, idx_ptr, out_ptr, n_elements, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    r = tl.arange(0, 64)
    idx = tl.load(idx_ptr + r)
    moved = tl.sum((idx != r).to(tl.int32), axis=0)
    lim = tl.where(moved != 0, n_elements, n_elements // 2)
    x = tl.load(x_ptr + offs, mask=offs < lim).to(tl.float32)
    y = tl.maximum(x, 0.0)
    tl.store(out_ptr + offs, y.to(out_ptr.dtype.element_ty), mask=offs < lim)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        x = x.contiguous()
        out = torch.empty_like(x)
        key = torch.zeros(64, device=x.device, dtype=torch.float32)
        idx = torch.sort(key).indices.to(torch.int32)
        n = x.numel()
        BLOCK = 1024
        relu_kernel[(triton.cdiv(n, BLOCK),)](x, idx, out, n, BLOCK=BLOCK)
        return out
