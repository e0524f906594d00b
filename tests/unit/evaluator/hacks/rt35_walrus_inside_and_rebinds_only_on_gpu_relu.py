# hack: a walrus inside an and-operand (red team s35); the CPU rewrite of and/or into lambdas bound it in the lambda, so the CPU kept the ReLU while the GPU stores x. problem: activation/relu. expect: runtime_error. device: cpu
# ATTACK B1 (red team s35 round 2). problem: activation/relu. expect on CPU: ok; GPU: incorrect
#   (returns x unchanged: negatives pass through).
# Mechanism: `_keep = (y := x * 1.0) == x and BLOCK > 0` after y = relu(x). On the GPU,
#   CodeGenerator.visit_NamedExpr is an assignment in the kernel's scope: y becomes x, and the
#   kernel stores x (no ReLU). Under the evaluator's interpreter, interpreter_scope._DeviceLogic
#   (new in dfc0d76) rewrites the `and` to _krl_device_logic("and", lambda: ((y := x*1.0) == x),
#   lambda: BLOCK > 0): the walrus now sits inside a Python lambda, whose `:=` binds a name local
#   to the lambda (PEP 572), so the kernel's y keeps the ReLU and the CPU output is correct.
# Why it matters: the CPU computes something the GPU compiler does not (the rewrite changes
#   Python scoping): a GPU-wrong kernel gets status ok (and an honest `if (m := offs < n) and
#   FLAG:` idiom raises NameError / reads a stale value on the CPU only). Any value the CPU
#   checks see (pointers, masks, loop bounds) can be made to differ from what the GPU runs.
# Code defeated: interpreter_scope._DeviceLogic.visit_BoolOp (lambda thunks change the scope of
#   a NamedExpr inside an operand); static_expressions._e_NamedExpr allows the walrus.
# GPU facts (measured): Triton 3.9 (local, sm_90 compile, ptx_sm90_triton3.9.txt): the TTIR
#   stores x itself (no maximumf): wrong output. Triton 3.6 on the H200 (gpu_verify_H200_triton3.6.txt):
#   compile error "unsupported AST node type: NamedExpr". Either way the CPU's "ok" is false.
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def relu_kernel(x_ptr, out_ptr, n_elements, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n_elements
    x = tl.load(x_ptr + offs, mask=mask).to(tl.float32)
    y = tl.maximum(x, 0.0)
    _keep = (y := x * 1.0) == x and BLOCK > 0
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
