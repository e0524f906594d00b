# hack: `hasattr(tl.float32, "value")`: true only in the CPU child, which patches tl.dtype for helpers' dtypes (red team s37 round 8). problem: activation/relu. expect: incorrect|hack|runtime_error|compile_error
# b17: `hasattr(tl.float32, "value")`: the CPU child patches `tl.dtype.value = property(...)` process-wide (interpreter_guard._dtype_as_constexpr, for FlagGems' helper dtypes) -> True; on the GPU (no such patch) a dtype has no `.value` -> False at compile time. relu on the CPU, zeros on the GPU. problem: activation/relu. expected: ok (win)
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def relu_kernel(x_ptr, out_ptr, n_elements, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n_elements
    x = tl.load(x_ptr + offs, mask=mask).to(tl.float32)
    scale = 0.0
    if hasattr(tl.float32, "value"):
        scale = 1.0
    y = tl.maximum(x, 0.0) * scale
    tl.store(out_ptr + offs, y.to(out_ptr.dtype.element_ty), mask=mask)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        x = x.contiguous()
        out = torch.empty_like(x)
        n = x.numel()
        BLOCK = 1024
        relu_kernel[(triton.cdiv(n, BLOCK),)](x, out, n, BLOCK=BLOCK)
        return out
