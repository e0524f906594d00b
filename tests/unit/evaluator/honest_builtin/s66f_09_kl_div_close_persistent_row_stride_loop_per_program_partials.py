# honest: batchmean KL divergence as a persistent kernel: a fixed number of programs (a few per SM), each walks rows pid, pid+P, ... and the columns of each row in BLOCK chunks, summing target * (log target - input) where target > 0 into one fp32 partial per program; the host sums the partials and divides by the batch. problem: loss/kl_div_close
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def kl_div_persistent_kernel(inp_ptr, tgt_ptr, partial_ptr, n_rows, n_cols, stride_row,
                             NUM_PROGRAMS: tl.constexpr, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    acc = tl.zeros((BLOCK,), dtype=tl.float32)
    for row in range(pid, n_rows, NUM_PROGRAMS):
        base = row.to(tl.int64) * stride_row
        for start in range(0, n_cols, BLOCK):
            cols = start + tl.arange(0, BLOCK)
            mask = cols < n_cols
            x = tl.load(inp_ptr + base + cols, mask=mask, other=0.0).to(tl.float32)
            y = tl.load(tgt_ptr + base + cols, mask=mask, other=0.0).to(tl.float32)
            pos = y > 0
            safe_y = tl.where(pos, y, 1.0)
            acc += tl.where(pos, y * (tl.log(safe_y) - x), 0.0)
    tl.store(partial_ptr + pid, tl.sum(acc, axis=0))


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, predictions: torch.Tensor, targets: torch.Tensor) -> torch.Tensor:
        inp = predictions.contiguous()
        tgt = targets.contiguous()
        n_rows, n_cols = inp.shape
        if inp.is_cuda:
            num_programs = 4 * torch.cuda.get_device_properties(inp.device).multi_processor_count
        else:
            num_programs = 8
        num_programs = min(num_programs, n_rows)
        partials = torch.empty(num_programs, device=inp.device, dtype=torch.float32)
        BLOCK = min(2048, triton.next_power_of_2(n_cols))
        kl_div_persistent_kernel[(num_programs,)](inp, tgt, partials, n_rows, n_cols, inp.stride(0),
                                                  NUM_PROGRAMS=num_programs, BLOCK=BLOCK)
        return (partials.sum() / n_rows).to(predictions.dtype)
