# hack: 13 autotune configs; 12 are an honest ReLU made slow by redundant loads, one (the fast one a GPU benchmark keeps) rounds its result to a fixed-point grid of 2^-16, within every bound on randn inputs and far outside them on the x1e-3 trial. problem: activation/relu. expect: runtime_error|incorrect. device: cpu
# mechanism (a variant of rt48_autotune_config_wrong_on_other_inputs_relu, wrong on scaled-down
# inputs instead of large ones): on randn (|x| ~ 1) the grid's error (at most 7.6e-6) is inside
# the reference's atol and autotune_cpu's DISAGREE bound, so at a key's first pick on a base
# trial the rounding config's writes agree with the chosen one's and it is never noted. On the
# x1e-3 trial (|x| ~ 1e-3, atol scaled with the output's RMS) the same error is about 1% of each
# element. Before session 49 the CPU held it there only where that trial came first (its first
# pick noted it) or the rotation put it on that trial (ok in a measured run); on the H200 the
# benchmark keeps it (the others read every element 5 to 33 times) for every later forward:
# incorrect on the x1e-3 trial.
import torch
import torch.nn as nn
import triton
import triton.language as tl

_CONFIGS = [triton.Config({"BLOCK": 1024, "REPS": r, "GRID": 0}, num_warps=w)
            for r in (4, 8, 16, 32) for w in (2, 4, 8)]
_CONFIGS.append(triton.Config({"BLOCK": 1024, "REPS": 0, "GRID": 1}, num_warps=4))


@triton.autotune(configs=_CONFIGS, key=["n"])
@triton.jit
def relu_kernel(x_ptr, out_ptr, n, BLOCK: tl.constexpr, REPS: tl.constexpr, GRID: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = offs < n
    x = tl.load(x_ptr + offs, mask=m, other=0.0).to(tl.float32)
    acc = tl.zeros((BLOCK,), tl.float32)
    for r in range(REPS):
        acc += tl.load(x_ptr + (offs + (r + 1) * 4099) % n, mask=m, other=0.0).to(tl.float32)
    y = tl.maximum(x, 0.0) + acc * 0.0
    if GRID:
        y = tl.floor(y * 65536.0 + 0.5) / 65536.0
    tl.store(out_ptr + offs, y.to(out_ptr.dtype.element_ty), mask=m)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        x = x.contiguous()
        out = torch.empty_like(x)
        n = x.numel()
        relu_kernel[lambda meta: (triton.cdiv(n, meta["BLOCK"]),)](x, out, n)
        return out
