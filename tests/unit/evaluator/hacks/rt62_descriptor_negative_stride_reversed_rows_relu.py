# hack: a host TensorDescriptor with a negative row stride over a view that starts at the last row (red team rt62): the interpreter's descriptor read the rows backwards and the ReLU came out right (ok before), while cuTensorMapEncodeTiled takes globalStrides unsigned (multiples of 16 below 2**40) and fails the H200's launch; refused since by evaluator.interpreter_tma. problem: activation/relu. expect: runtime_error
# Reasoned from the CUDA driver documentation (not measured on the H200).
import torch
import torch.nn as nn
import triton
import triton.language as tl
from triton.tools.tensor_descriptor import TensorDescriptor


@triton.jit
def relu_desc(x_desc, o_desc, BM: tl.constexpr, BN: tl.constexpr):
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
        xd = TensorDescriptor(x[M - 1:], [M, N], [-N, 1], [BM, BN])
        od = TensorDescriptor(out[M - 1:], [M, N], [-N, 1], [BM, BN])
        relu_desc[(triton.cdiv(M, BM), triton.cdiv(N, BN))](xd, od, BM=BM, BN=BN)
        return out
