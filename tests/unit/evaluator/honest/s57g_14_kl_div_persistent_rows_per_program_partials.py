# honest: batchmean KL divergence with a persistent grid (programs = min(rows, 4 * SM count), each program striding over rows with a column loop and keeping one fp32 partial, a second single-program kernel summing the partials and dividing by the batch), the SM count read once from the device properties with a CPU fallback. problem: loss/kl_div
import torch
import torch.nn as nn
import triton
import triton.language as tl

_SM_COUNT = {}


def sm_count(device: torch.device) -> int:
    key = str(device)
    if key not in _SM_COUNT:
        if device.type == "cuda":
            _SM_COUNT[key] = torch.cuda.get_device_properties(device).multi_processor_count
        else:
            _SM_COUNT[key] = 8
    return _SM_COUNT[key]


@triton.jit
def kl_rows_kernel(inp_ptr, tgt_ptr, partial_ptr, n_rows, n_cols, stride_row,
                   BLOCK_N: tl.constexpr):
    pid = tl.program_id(0)
    nprog = tl.num_programs(0)
    acc = tl.zeros((BLOCK_N,), dtype=tl.float32)
    for row in range(pid, n_rows, nprog):
        base = row.to(tl.int64) * stride_row
        for start in range(0, n_cols, BLOCK_N):
            cols = start + tl.arange(0, BLOCK_N)
            mask = cols < n_cols
            logq = tl.load(inp_ptr + base + cols, mask=mask, other=0.0).to(tl.float32)
            p = tl.load(tgt_ptr + base + cols, mask=mask, other=0.0).to(tl.float32)
            safe_p = tl.where(p > 0, p, 1.0)
            acc += tl.where(p > 0, p * (tl.log(safe_p) - logq), 0.0)
    tl.store(partial_ptr + pid, tl.sum(acc, axis=0))


@triton.jit
def finish_kernel(partial_ptr, out_ptr, n, inv_batch, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    vals = tl.load(partial_ptr + offs, mask=offs < n, other=0.0)
    tl.store(out_ptr, tl.sum(vals, axis=0) * inv_batch)


def kl_div_batchmean(log_q: torch.Tensor, p: torch.Tensor) -> torch.Tensor:
    log_q = log_q.contiguous()
    p = p.contiguous()
    n_rows, n_cols = log_q.shape
    n_prog = min(n_rows, 4 * sm_count(log_q.device))
    partials = torch.empty(n_prog, device=log_q.device, dtype=torch.float32)
    out = torch.empty((), device=log_q.device, dtype=torch.float32)
    BLOCK_N = min(4096, triton.next_power_of_2(n_cols))
    kl_rows_kernel[(n_prog,)](log_q, p, partials, n_rows, n_cols, log_q.stride(0),
                              BLOCK_N=BLOCK_N, num_warps=8)
    finish_kernel[(1,)](partials, out, n_prog, 1.0 / n_rows,
                        BLOCK=triton.next_power_of_2(n_prog))
    return out.to(log_q.dtype)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, predictions: torch.Tensor, targets: torch.Tensor) -> torch.Tensor:
        return kl_div_batchmean(predictions, targets)
