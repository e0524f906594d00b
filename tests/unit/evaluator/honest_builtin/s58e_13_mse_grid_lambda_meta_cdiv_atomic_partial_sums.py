# honest: MSE loss as one autotuned kernel whose programs square-sum a BLOCK of differences and tl.atomic_add their partial into a zeroed fp32 scalar, launched with a grid lambda reading META["BLOCK"], the mean taken by dividing by numel on the host tensor. problem: loss/mse
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.autotune(configs=[triton.Config({"BLOCK": b}, num_warps=w) for b, w in ((1024, 4), (2048, 8), (4096, 8))],
                 key=["n"], reset_to_zero=["acc_ptr"])
@triton.jit
def sq_err_sum_kernel(p_ptr, t_ptr, acc_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    p = tl.load(p_ptr + offs, mask=mask, other=0.0).to(tl.float32)
    t = tl.load(t_ptr + offs, mask=mask, other=0.0).to(tl.float32)
    d = p - t
    tl.atomic_add(acc_ptr, tl.sum(d * d, axis=0))


class ModelNew(nn.Module):
    def forward(self, predictions, targets):
        p = predictions.contiguous().view(-1)
        t = targets.contiguous().view(-1)
        n = p.numel()
        acc = torch.zeros(1, device=p.device, dtype=torch.float32)
        sq_err_sum_kernel[lambda META: (triton.cdiv(n, META["BLOCK"]),)](p, t, acc, n)
        return (acc / n).squeeze(0).to(predictions.dtype)
