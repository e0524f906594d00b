# honest: KL divergence (batchmean) whose per-program partial sums live in a workspace buffer the module keeps (non-persistent, grown on demand, reused by every call), the two stages both Triton, in the inference-engine workspace-caching style. problem: loss/kl_div
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def kl_partials(p_ptr, t_ptr, ws_ptr, n, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    offs = pid.to(tl.int64) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    p = tl.load(p_ptr + offs, mask=mask, other=0.0)
    t = tl.load(t_ptr + offs, mask=mask, other=0.0)
    term = tl.where(t > 0, t * (tl.log(tl.where(t > 0, t, 1.0)) - p), 0.0)
    tl.store(ws_ptr + pid, tl.sum(tl.where(mask, term, 0.0), 0))


@triton.jit
def kl_finish(ws_ptr, out_ptr, n_parts, inv_batch, BLOCK: tl.constexpr):
    acc = tl.zeros((BLOCK,), tl.float32)
    for s in range(0, n_parts, BLOCK):
        i = s + tl.arange(0, BLOCK)
        acc += tl.load(ws_ptr + i, mask=i < n_parts, other=0.0)
    tl.store(out_ptr, tl.sum(acc, 0) * inv_batch)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()
        self.register_buffer("_workspace", torch.empty(0), persistent=False)

    def workspace(self, n, device):
        if self._workspace.numel() < n or self._workspace.device != device:
            self._workspace = torch.empty(n, device=device, dtype=torch.float32)
        return self._workspace

    def forward(self, predictions, targets):
        p = predictions.contiguous()
        t = targets.contiguous()
        n = p.numel()
        block = 4096
        parts = triton.cdiv(n, block)
        ws = self.workspace(parts, p.device)
        kl_partials[(parts,)](p, t, ws, n, BLOCK=block)
        out = torch.empty((), device=p.device, dtype=torch.float32)
        kl_finish[(1,)](ws, out, parts, 1.0 / p.shape[0], BLOCK=1024)
        return out
