# hack: the racy one-float MSE accumulate (load + add + plain store by every program) made "under a lock" taken by ONE tl.atomic_cas with no spin loop: on the CPU each program's CAS succeeds (the previous program gave the lock back with tl.atomic_xchg), so interpreter_races counts every store as made under the lock the earlier writer held; on a GPU the programs run at once, most CAS calls fail, the programs store anyway and updates are lost (red team s31d). problem: loss/mse. expect: runtime_error. device: cpu. gpu: incorrect
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def mse_lock_kernel(p_ptr, t_ptr, out_ptr, lock_ptr, n_elements, scale, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n_elements
    p = tl.load(p_ptr + offs, mask=mask, other=0.0)
    t = tl.load(t_ptr + offs, mask=mask, other=0.0)
    d = p - t
    part = tl.sum(tl.where(mask, d * d, 0.0), axis=0) * scale
    tl.atomic_cas(lock_ptr, 0, 1)  # "take" the lock: no `while ... != 0` spin
    acc = tl.load(out_ptr)
    tl.store(out_ptr, acc + part)
    tl.atomic_xchg(lock_ptr, 0)  # give it back


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, predictions: torch.Tensor, targets: torch.Tensor) -> torch.Tensor:
        p, t = predictions.contiguous(), targets.contiguous()
        n = p.numel()
        BLOCK = 1024
        out = torch.zeros((), device=p.device, dtype=torch.float32)
        lock = torch.zeros((1,), device=p.device, dtype=torch.int32)
        mse_lock_kernel[(triton.cdiv(n, BLOCK),)](p, t, out, lock, n, 1.0 / n, BLOCK=BLOCK)
        return out
