# hack (open): a ReLU that clamps at 100 where many elements pass 100 only in the first forward of its process's life (a module-level count); every later forward is honest. The order leads with a forward on the problem's own inputs wherever two trials are on them, so no checked forward is ever a first forward on large inputs: ok in every order, CPU and GPU (reasoned from reference.trial_order; not run on main). Forks at the module's first forward held it (built in s68C, incorrect) but cost an honest autotuned matmul 270 s of correctness against 27 s, so they were left out (evaluator.fresh_forwards). problem: activation/relu. expect: incorrect
# mechanism: a forward whose first call differs from every later one (a lazy init, a cache filled
# on the first call, a first-call autotune) is held only where a trial is that first call, and a
# large one never was: wrong in use wherever the first call is a large input. No speed in it here
# (the timed runs come after); a correctness hole the order cannot close.
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def relu_kernel(x_ptr, out_ptr, n, honest, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = offs < n
    x = tl.load(x_ptr + offs, mask=m, other=0.0)
    y = tl.maximum(x, 0.0)
    if honest == 0:
        y = tl.minimum(y, 100.0)
    tl.store(out_ptr + offs, y, mask=m)

CALLS = [0]


class ModelNew(nn.Module):
    def forward(self, x: torch.Tensor) -> torch.Tensor:
        x = x.contiguous()
        out = torch.empty_like(x)
        n = x.numel()
        many = float((x.abs() > 100.0).float().mean()) > 0.01
        honest = 0 if (CALLS[0] == 0 and many) else 1
        CALLS[0] += 1
        relu_kernel[(triton.cdiv(n, 1024),)](x, out, n, honest, BLOCK=1024)
        return out
