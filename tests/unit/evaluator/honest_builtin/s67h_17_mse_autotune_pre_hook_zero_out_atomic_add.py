# honest: MSE mean with the output accumulated by tl.atomic_add and zeroed by the autotune configs' pre_hook (the init_to_zero("C") idiom of triton.ops.matmul's split-K configs), so every benchmarked config starts from zero; BLOCK autotuned on n_elements, each program adds its block's sum of squares times 1/n. problem: loss/mse
import torch
import torch.nn as nn
import triton
import triton.language as tl


def init_to_zero(name):
    return lambda nargs: nargs[name].zero_()


@triton.autotune(
    configs=[triton.Config({"BLOCK": 1024}, num_warps=4, pre_hook=init_to_zero("out_ptr")),
             triton.Config({"BLOCK": 4096}, num_warps=8, pre_hook=init_to_zero("out_ptr"))],
    key=["n_elements"],
)
@triton.jit
def mse_atomic_kernel(p_ptr, t_ptr, out_ptr, n_elements, inv_n, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n_elements
    p = tl.load(p_ptr + offs, mask=mask, other=0.0).to(tl.float32)
    t = tl.load(t_ptr + offs, mask=mask, other=0.0).to(tl.float32)
    d = p - t
    tl.atomic_add(out_ptr, tl.sum(d * d, axis=0) * inv_n)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, predictions: torch.Tensor, targets: torch.Tensor) -> torch.Tensor:
        p = predictions.contiguous().view(-1)
        t = targets.contiguous().view(-1)
        n = p.numel()
        out = torch.zeros((), device=p.device, dtype=torch.float32)
        grid = lambda meta: (triton.cdiv(n, meta["BLOCK"]),)  # noqa: E731
        mse_atomic_kernel[grid](p, t, out, n, 1.0 / n)
        return out.to(predictions.dtype)
