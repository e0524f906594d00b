# honest: cosine loss with a per-row workspace the module registers in __init__ (an empty non-persistent buffer) and regrows in forward only when the batch outgrows it or the device changes, as inference modules cache scratch space; a row kernel writes 1 - dot / (max(|p|, eps) * max(|t|, eps)) per row into the workspace (three fp32 accumulators over column chunks), then a single-program Triton kernel sums the first B entries and divides by B. problem: loss/cosine_loss
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def _row_cosine_loss(p_ptr, t_ptr, ws_ptr, n_cols, stride_p, stride_t, eps, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    dot = tl.zeros((BLOCK,), dtype=tl.float32)
    pp = tl.zeros((BLOCK,), dtype=tl.float32)
    tt = tl.zeros((BLOCK,), dtype=tl.float32)
    for c0 in range(0, n_cols, BLOCK):
        cols = c0 + tl.arange(0, BLOCK)
        mask = cols < n_cols
        p = tl.load(p_ptr + row * stride_p + cols, mask=mask, other=0.0).to(tl.float32)
        t = tl.load(t_ptr + row * stride_t + cols, mask=mask, other=0.0).to(tl.float32)
        dot += p * t
        pp += p * p
        tt += t * t
    norm_p = tl.maximum(tl.sqrt(tl.sum(pp, axis=0)), eps)
    norm_t = tl.maximum(tl.sqrt(tl.sum(tt, axis=0)), eps)
    tl.store(ws_ptr + row, 1.0 - tl.sum(dot, axis=0) / (norm_p * norm_t))


@triton.jit
def _mean_of_rows(ws_ptr, out_ptr, n_rows, BLOCK: tl.constexpr):
    acc = tl.zeros((BLOCK,), dtype=tl.float32)
    for r0 in range(0, n_rows, BLOCK):
        rows = r0 + tl.arange(0, BLOCK)
        acc += tl.load(ws_ptr + rows, mask=rows < n_rows, other=0.0)
    tl.store(out_ptr, tl.sum(acc, axis=0) / n_rows)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()
        self.eps = 1e-8
        self.register_buffer("workspace", torch.empty(0, dtype=torch.float32), persistent=False)

    def _workspace(self, n_rows: int, device: torch.device) -> torch.Tensor:
        if self.workspace.numel() < n_rows or self.workspace.device != device:
            self.workspace = torch.empty(n_rows, dtype=torch.float32, device=device)
        return self.workspace

    def forward(self, predictions: torch.Tensor, targets: torch.Tensor) -> torch.Tensor:
        p = predictions.contiguous()
        t = targets.contiguous()
        n_rows, n_cols = p.shape
        ws = self._workspace(n_rows, p.device)
        _row_cosine_loss[(n_rows,)](p, t, ws, n_cols, p.stride(0), t.stride(0), self.eps, BLOCK=1024)
        out = torch.empty((), dtype=torch.float32, device=p.device)
        _mean_of_rows[(1,)](ws, out, n_rows, BLOCK=1024)
        return out.to(predictions.dtype)
