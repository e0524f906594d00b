# honest: a one-launch MSE with the "last block finishes" pattern (CUDA's threadFenceReduction sample in Triton): each program writes its partial sum of squares to a scratch buffer, takes a ticket with `ticket = tl.atomic_add(counter_ptr, 1)` (acq_rel by default), and the program that draws num_programs - 1 reads every partial back (loads with cache_modifier=".cg") and writes the mean; the scratch and counter come from torch.empty / torch.zeros each call, tl.num_programs(0) for the count, an `if ticket == ...:` branch on a scalar tensor inside the kernel. problem: loss/mse
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def mse_ticket_kernel(p_ptr, t_ptr, partial_ptr, counter_ptr, out_ptr, n_elements,
                      BLOCK: tl.constexpr, FINAL_BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    offs = pid.to(tl.int64) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n_elements
    p = tl.load(p_ptr + offs, mask=mask, other=0.0).to(tl.float32)
    t = tl.load(t_ptr + offs, mask=mask, other=0.0).to(tl.float32)
    d = p - t
    tl.store(partial_ptr + pid, tl.sum(d * d, axis=0))
    num_programs = tl.num_programs(0)
    ticket = tl.atomic_add(counter_ptr, 1)
    if ticket == num_programs - 1:
        acc = tl.zeros([FINAL_BLOCK], dtype=tl.float32)
        for start in range(0, num_programs, FINAL_BLOCK):
            idx = start + tl.arange(0, FINAL_BLOCK)
            acc += tl.load(partial_ptr + idx, mask=idx < num_programs, other=0.0, cache_modifier=".cg")
        tl.store(out_ptr, tl.sum(acc, axis=0) / n_elements)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, predictions: torch.Tensor, targets: torch.Tensor) -> torch.Tensor:
        p = predictions.contiguous()
        t = targets.contiguous()
        n = p.numel()
        BLOCK = 4096
        num_blocks = triton.cdiv(n, BLOCK)
        partials = torch.empty(num_blocks, device=p.device, dtype=torch.float32)
        counter = torch.zeros(1, device=p.device, dtype=torch.int32)
        out = torch.empty((), device=p.device, dtype=torch.float32)
        mse_ticket_kernel[(num_blocks,)](p, t, partials, counter, out, n, BLOCK=BLOCK, FINAL_BLOCK=1024, num_warps=8)
        return out
