# hack: relu whose block pointers are made at static_range index 0 with block_shape=(BLOCK // (2 - i),) and loaded and stored at index 1: the CPU rewrite wrote the shape's text out again at the load (a whole row, relu right) while Triton 3.6 keeps the half row it was made with (half the output never written on the GPU); a block shape names nothing the kernel binds. problem: activation/relu. expect: compile_error. gpu: incorrect
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def relu_kernel(x_ptr, y_ptr, N, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    for i in tl.static_range(2):
        if i == 0:
            xb = tl.make_block_ptr(base=x_ptr + row * N, shape=(N,), strides=(1,), offsets=(0,),
                                   block_shape=(BLOCK // (2 - i),), order=(0,))
            yb = tl.make_block_ptr(base=y_ptr + row * N, shape=(N,), strides=(1,), offsets=(0,),
                                   block_shape=(BLOCK // (2 - i),), order=(0,))
        else:
            x = tl.load(xb, boundary_check=(0,), padding_option="zero")
            tl.store(yb, tl.where(x > 0, x, 0.0), boundary_check=(0,))

class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        x2 = x.reshape(-1, x.shape[-1]).contiguous()
        y = torch.empty_like(x2)
        M, N = x2.shape
        relu_kernel[(M,)](x2, y, N, BLOCK=triton.next_power_of_2(N))
        return y.view_as(x)
