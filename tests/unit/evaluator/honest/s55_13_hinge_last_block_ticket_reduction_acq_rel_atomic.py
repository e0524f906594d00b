# honest: hinge loss mean(clamp(1 - p*t, 0)) as a one-launch "last block" reduction (the CUDA samples' threadFenceReduction, CUB's single-pass pattern): a grid-stride persistent kernel of min(SMs*4, blocks) programs each writes its fp32 partial sum to a workspace, then takes a ticket with tl.atomic_add(counter, 1, sem="acq_rel"); the program that draws the last ticket reads every partial (in program order, so the sum is deterministic), divides by n, stores the loss, and puts the counter back to 0 for the next call; the counter a module buffer zeroed once. problem: loss/hinge
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def hinge_last_block_kernel(
    p_ptr, t_ptr, partial_ptr, counter_ptr, out_ptr,
    n_elements, inv_n,
    BLOCK: tl.constexpr, MAX_PROGS: tl.constexpr,
):
    pid = tl.program_id(0)
    nprog = tl.num_programs(0)
    acc = tl.zeros((BLOCK,), dtype=tl.float32)
    for start in range(pid * BLOCK, n_elements, nprog * BLOCK):
        offs = start + tl.arange(0, BLOCK)
        mask = offs < n_elements
        p = tl.load(p_ptr + offs, mask=mask, other=0.0).to(tl.float32)
        t = tl.load(t_ptr + offs, mask=mask, other=0.0).to(tl.float32)
        h = tl.maximum(1.0 - p * t, 0.0)
        acc += tl.where(mask, h, 0.0)
    tl.store(partial_ptr + pid, tl.sum(acc, axis=0))

    # the partial is published before the ticket (release), and the last program sees all of them (acquire)
    ticket = tl.atomic_add(counter_ptr, 1, sem="acq_rel")
    if ticket == nprog - 1:
        idx = tl.arange(0, MAX_PROGS)
        parts = tl.load(partial_ptr + idx, mask=idx < nprog, other=0.0, volatile=True)
        tl.store(out_ptr, tl.sum(parts, axis=0) * inv_n)
        tl.atomic_xchg(counter_ptr, 0)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()
        self.register_buffer("counter", torch.zeros(1, dtype=torch.int32), persistent=False)

    def forward(self, predictions: torch.Tensor, targets: torch.Tensor) -> torch.Tensor:
        p = predictions.contiguous().view(-1)
        t = targets.contiguous().view(-1)
        n = p.numel()
        BLOCK = 1024
        sms = torch.cuda.get_device_properties(p.device).multi_processor_count
        nprog = max(1, min(sms * 4, triton.cdiv(n, BLOCK)))
        max_progs = triton.next_power_of_2(nprog)
        if self.counter.device != p.device:
            self.counter = self.counter.to(p.device)
        partial = torch.empty(nprog, device=p.device, dtype=torch.float32)
        out = torch.empty((), device=p.device, dtype=torch.float32)
        hinge_last_block_kernel[(nprog,)](
            p, t, partial, self.counter, out, n, 1.0 / n,
            BLOCK=BLOCK, MAX_PROGS=max_progs, num_warps=4,
        )
        return out.to(predictions.dtype)
