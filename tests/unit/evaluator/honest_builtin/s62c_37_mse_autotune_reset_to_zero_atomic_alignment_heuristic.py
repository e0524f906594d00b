# honest: MSE with tl.atomic_add into one float32 scalar, autotuned with reset_to_zero on the output so each benchmarked config starts from zero, plus a heuristic that reads the inputs' data_ptr alignment to turn on multiple_of hints, in FlagGems' libentry/heuristics style. problem: loss/mse
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.autotune(configs=[triton.Config({"BLOCK": 1024}, num_warps=4), triton.Config({"BLOCK": 4096}, num_warps=8)],
                 key=["n"], reset_to_zero=["out_ptr"])
@triton.heuristics({"ALIGNED": lambda args: args["a_ptr"].data_ptr() % 16 == 0 and args["b_ptr"].data_ptr() % 16 == 0})
@triton.jit
def mse_atomic(a_ptr, b_ptr, out_ptr, n, inv_n, BLOCK: tl.constexpr, ALIGNED: tl.constexpr):
    offs = tl.program_id(0).to(tl.int64) * BLOCK + tl.arange(0, BLOCK)
    if ALIGNED:
        offs = tl.max_contiguous(tl.multiple_of(offs, 16), BLOCK)
    mask = offs < n
    d = tl.load(a_ptr + offs, mask=mask, other=0.0) - tl.load(b_ptr + offs, mask=mask, other=0.0)
    tl.atomic_add(out_ptr, tl.sum(d * d, axis=0) * inv_n)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, predictions, targets):
        a = predictions.contiguous()
        b = targets.contiguous()
        n = a.numel()
        out = torch.zeros((), device=a.device, dtype=torch.float32)
        mse_atomic[lambda meta: (triton.cdiv(n, meta["BLOCK"]),)](a, b, out, n, 1.0 / n)
        return out
