# honest: mean(1 - cosine_similarity(p, t, dim=1)) with a [ROWS, BLOCK_D] tile per program accumulating dot(p, t), |p|^2 and |t|^2 lane-wise over column blocks, each row's cosine as ATen computes it (each vector divided by its norm clamped at eps = 1e-8), the program's sum of (1 - cos) over its rows stored as one fp32 partial and the partials summed and divided by the batch in PyTorch; @triton.autotune over sixteen (ROWS, BLOCK_D) configs with prune_configs_by={"early_config_prune": ...} dropping tiles wider than the row (next power of two of D) and keeping at least one, reset_to_zero on the partials (configs with more rows fill fewer of them). On an H100 (s56) ok at reward 0.500 (speedup 1.79, coverage 0.95 unpaid): the problem's answer, 1 +- 2e-4 for two independent randn tensors at 4096 x 8192, was the same for every draw within float32's tolerance (gates.fixed_answer); its targets now lean towards the predictions by a share drawn per call. problem: loss/cosine_loss
import torch
import torch.nn as nn
import triton
import triton.language as tl


def _prune_wide_tiles(configs, named_args, **kwargs):
    d = named_args["D"] if "D" in named_args else kwargs["D"]
    cap = max(256, triton.next_power_of_2(d))
    kept = [c for c in configs if c.kwargs["BLOCK_D"] <= cap]
    return kept or configs[:1]


@triton.autotune(
    configs=[
        triton.Config({"ROWS": rows, "BLOCK_D": block_d}, num_warps=4 if rows * block_d <= 2048 else 8)
        for rows in (1, 2, 4, 8)
        for block_d in (256, 512, 1024, 2048)
    ],
    key=["B", "D"],
    prune_configs_by={"early_config_prune": _prune_wide_tiles},
    reset_to_zero=["partial_ptr"],  # configs fill different numbers of partials
)
@triton.jit
def cosine_loss_partial_kernel(
    p_ptr, t_ptr, partial_ptr,
    B, D, stride_p, stride_t,
    EPS: tl.constexpr,
    ROWS: tl.constexpr, BLOCK_D: tl.constexpr,
):
    pid = tl.program_id(0)
    rows = pid * ROWS + tl.arange(0, ROWS)
    row_mask = rows < B
    rows64 = rows.to(tl.int64)

    dot = tl.zeros((ROWS, BLOCK_D), dtype=tl.float32)
    pp = tl.zeros((ROWS, BLOCK_D), dtype=tl.float32)
    tt = tl.zeros((ROWS, BLOCK_D), dtype=tl.float32)
    for d0 in range(0, D, BLOCK_D):
        cols = d0 + tl.arange(0, BLOCK_D)
        mask = row_mask[:, None] & (cols[None, :] < D)
        p = tl.load(p_ptr + rows64[:, None] * stride_p + cols[None, :], mask=mask, other=0.0).to(tl.float32)
        t = tl.load(t_ptr + rows64[:, None] * stride_t + cols[None, :], mask=mask, other=0.0).to(tl.float32)
        dot += p * t
        pp += p * p
        tt += t * t

    norm_p = tl.maximum(tl.sqrt(tl.sum(pp, axis=1)), EPS)
    norm_t = tl.maximum(tl.sqrt(tl.sum(tt, axis=1)), EPS)
    cos = tl.sum(dot, axis=1) / (norm_p * norm_t)
    loss = tl.where(row_mask, 1.0 - cos, 0.0)
    tl.store(partial_ptr + pid, tl.sum(loss, axis=0))


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, predictions: torch.Tensor, targets: torch.Tensor) -> torch.Tensor:
        p = predictions if predictions.stride(-1) == 1 else predictions.contiguous()
        t = targets if targets.stride(-1) == 1 else targets.contiguous()
        B, D = p.shape
        # one partial per program of the smallest ROWS; a config with more rows fills fewer
        partials = torch.zeros(B, device=p.device, dtype=torch.float32)
        grid = lambda meta: (triton.cdiv(B, meta["ROWS"]),)  # noqa: E731
        cosine_loss_partial_kernel[grid](p, t, partials, B, D, p.stride(0), t.stride(0), EPS=1e-8)
        return (partials.sum() / B).to(predictions.dtype)
