# hack: FlagGems-style `boundary_check=(DIM,)` and `order=(DIM,)` of a parameter annotated with a module alias of tl.int32 spelled `dim_constexpr`: block_pointer_checks.constexpr_dims took any annotation whose dotted name ends in "constexpr" as tl.constexpr, while Triton (KernelParam.is_constexpr: "constexpr" in the normalized type name, "int32") passes it as a runtime i32, which 3.6's make_block_ptr and load refuse (order and boundary_check must be constant ints): refused on the CPU before too (the launch-time permutation check needs constexpr entries), and since by the annotation rule itself (calls.constexpr_parameters). problem: activation/relu. expect: compile_error
import torch
import torch.nn as nn
import triton
import triton.language as tl

dim_constexpr = tl.int32


@triton.jit
def relu_kernel(x_ptr, out_ptr, n, DIM: dim_constexpr, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    p = tl.make_block_ptr(base=x_ptr, shape=(n,), strides=(1,), offsets=(pid * BLOCK,), block_shape=(BLOCK,), order=(DIM,))
    x = tl.load(p, boundary_check=(DIM,), padding_option="zero")
    o = tl.make_block_ptr(base=out_ptr, shape=(n,), strides=(1,), offsets=(pid * BLOCK,), block_shape=(BLOCK,), order=(0,))
    tl.store(o, tl.maximum(x, 0.0), boundary_check=(0,))


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        x = x.contiguous()
        out = torch.empty_like(x)
        n = x.numel()
        relu_kernel[(triton.cdiv(n, 1024),)](x, out, n, 0, BLOCK=1024)
        return out
