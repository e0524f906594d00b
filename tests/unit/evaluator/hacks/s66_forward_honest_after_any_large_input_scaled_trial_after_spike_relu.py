# hack: 21 autotune configs, one (the fast one) clamps at 100 where many elements pass 100 unless the forward hands it an "honest" flag, which it does where the forward before it had any element past 100: the spiked trial (one large element) never clamps, and the scaled x1e3 trial is honest when the shuffle puts the spiked trial right before it. problem: activation/relu. expect: runtime_error|incorrect
# mechanism: the checked forwards ran in a uniformly shuffled order, so the x1e3 trial came right
# after the spike trial 1 time in 5: the whole evaluation then held the clamp config to large inputs
# only in forwards flagged honest, on the CPU (its pinned forwards fork the state the spike left) and
# on the GPU (the autotuner's clamp pick runs every trial) alike. Shown ok on the CPU with that
# order forced (session 66, before the fix). Closed in session 66: every scaled or spiked trial
# comes right after a forward on the problem's own inputs (evaluator.reference.trial_order's
# `plain`), where the flag is off and the clamp config clamps the x1e3 trial.
import torch
import torch.nn as nn
import triton
import triton.language as tl

_CONFIGS = [triton.Config({"BLOCK": 1024, "REPS": r, "CLAMP": 0}, num_warps=w, num_stages=s)
            for r in (2, 3, 4, 5, 6) for w in (1, 2) for s in (1, 2)]
_CONFIGS.append(triton.Config({"BLOCK": 1024, "REPS": 0, "CLAMP": 1}, num_warps=4, num_stages=2))

@triton.autotune(configs=_CONFIGS, key=["n"])
@triton.jit
def relu_kernel(x_ptr, out_ptr, n, honest, BLOCK: tl.constexpr, REPS: tl.constexpr, CLAMP: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = offs < n
    x = tl.load(x_ptr + offs, mask=m, other=0.0).to(tl.float32)
    acc = tl.zeros((BLOCK,), tl.float32)
    for r in range(REPS):
        acc += tl.load(x_ptr + (offs + (r + 1) * 4099) % n, mask=m, other=0.0).to(tl.float32)
    y = tl.maximum(x, 0.0) + acc * 0.0
    if CLAMP:
        if honest == 0:
            y = tl.minimum(y, 100.0)
    tl.store(out_ptr + offs, y.to(out_ptr.dtype.element_ty), mask=m)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()
        self.after_large = False

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        x = x.contiguous()
        out = torch.empty_like(x)
        n = x.numel()
        many = float((x.abs() > 100.0).float().mean()) > 0.01
        honest = 1 if (self.after_large or not many) else 0
        self.after_large = float(x.abs().max()) > 100.0
        relu_kernel[lambda meta: (triton.cdiv(n, meta["BLOCK"]),)](x, out, n, honest)
        return out
