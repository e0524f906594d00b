# honest: unsloth's cross entropy (unsloth/kernels/cross_entropy_loss.py): kernels written as plain defs and rebound at module level, `_k = triton.jit(_k)` then `_k = triton.heuristics({...: lambda args: bool(args[...])})(_k)`, DO_SOFTCAPPING / DO_LOGIT_SCALING constexpr flags, a triton_cast(stride, tl.int64) helper, a chunked logsumexp path on a (rows, chunks) grid beside the one-block path, divmod for the chunk count, annotated locals (`n_rows: int`), calculate_settings, launches under `with torch.cuda.device(device)`, and the batch mean finished in PyTorch (`loss.sum() / n_items`). problem: loss/cross_entropy
import torch
import torch.nn as nn
import triton
import triton.language as tl

MAX_FUSED_SIZE = 65536


def calculate_settings(n):
    BLOCK_SIZE = triton.next_power_of_2(n)
    if BLOCK_SIZE > MAX_FUSED_SIZE:
        raise RuntimeError(f"Cannot launch Triton kernel since n = {n} exceeds the maximum CUDA blocksize = {MAX_FUSED_SIZE}.")
    num_warps = 4
    if BLOCK_SIZE >= 32768:
        num_warps = 32
    elif BLOCK_SIZE >= 8192:
        num_warps = 16
    elif BLOCK_SIZE >= 2048:
        num_warps = 8
    return BLOCK_SIZE, num_warps


@triton.jit
def triton_cast(x, dtype):
    return x.to(dtype)


@triton.jit
def triton_tanh(x):
    return 2 * tl.sigmoid(2 * x) - 1


def _cross_entropy_forward(logits_ptr, logits_row_stride, loss_ptr, logsumexp_ptr, labels_ptr,
                           VOCAB_SIZE: tl.constexpr, BLOCK_SIZE: tl.constexpr,
                           DO_SOFTCAPPING: tl.constexpr, SOFTCAP: tl.constexpr,
                           DO_LOGIT_SCALING: tl.constexpr, LOGIT_SCALE: tl.constexpr):
    row_idx = tl.program_id(0)
    logits_ptr += row_idx * triton_cast(logits_row_stride, tl.int64)
    loss_ptr += row_idx
    logsumexp_ptr += row_idx
    labels_ptr += row_idx

    col_offsets = tl.arange(0, BLOCK_SIZE)
    mask = col_offsets < VOCAB_SIZE
    label_idx = tl.load(labels_ptr).to(tl.int32)
    logits = tl.load(logits_ptr + col_offsets, mask=mask, other=-float("inf")).to(tl.float32)
    if DO_LOGIT_SCALING:
        logits = LOGIT_SCALE * logits
    if DO_SOFTCAPPING:
        logits = SOFTCAP * triton_tanh(logits / SOFTCAP)

    c = tl.max(logits, 0)
    logsumexp = c + tl.log(tl.sum(tl.exp(logits - c), 0))
    if label_idx != -100:
        x = tl.load(logits_ptr + label_idx).to(tl.float32)
        if DO_LOGIT_SCALING:
            x = LOGIT_SCALE * x
        if DO_SOFTCAPPING:
            x = SOFTCAP * triton_tanh(x / SOFTCAP)
        loss = logsumexp - x
    else:
        loss = 0.0
    tl.store(logsumexp_ptr, logsumexp)
    tl.store(loss_ptr, loss)


_cross_entropy_forward = triton.jit(_cross_entropy_forward)
_cross_entropy_forward = triton.heuristics({
    "DO_SOFTCAPPING": lambda args: bool(args["DO_SOFTCAPPING"]),
    "DO_LOGIT_SCALING": lambda args: bool(args["DO_LOGIT_SCALING"]),
})(_cross_entropy_forward)


def _chunked_cross_entropy_forward(logits_ptr, logits_row_stride, loss_ptr, logsumexp_ptr, labels_ptr,
                                   VOCAB_SIZE: tl.constexpr, N_CHUNKS: tl.constexpr, BLOCK_SIZE: tl.constexpr,
                                   DO_SOFTCAPPING: tl.constexpr, SOFTCAP: tl.constexpr,
                                   DO_LOGIT_SCALING: tl.constexpr, LOGIT_SCALE: tl.constexpr):
    row_idx = tl.program_id(0)
    chunk_idx = tl.program_id(1)
    logits_ptr += row_idx * triton_cast(logits_row_stride, tl.int64)
    loss_ptr += row_idx
    logsumexp_ptr += row_idx * N_CHUNKS + chunk_idx
    labels_ptr += row_idx

    col_offsets = chunk_idx * BLOCK_SIZE + tl.arange(0, BLOCK_SIZE)
    mask = col_offsets < VOCAB_SIZE
    label_idx = tl.load(labels_ptr).to(tl.int32)
    logits = tl.load(logits_ptr + col_offsets, mask=mask, other=-float("inf")).to(tl.float32)
    if DO_LOGIT_SCALING:
        logits = LOGIT_SCALE * logits
    if DO_SOFTCAPPING:
        logits = SOFTCAP * triton_tanh(logits / SOFTCAP)
    c = tl.max(logits, 0)
    logsumexp = c + tl.log(tl.sum(tl.exp(logits - c), 0))
    if chunk_idx == 0:
        if label_idx != -100:
            x = tl.load(logits_ptr + label_idx).to(tl.float32)
            if DO_LOGIT_SCALING:
                x = LOGIT_SCALE * x
            if DO_SOFTCAPPING:
                x = SOFTCAP * triton_tanh(x / SOFTCAP)
            loss = -1.0 * x
        else:
            loss = 0.0
        tl.store(loss_ptr, loss)
    tl.store(logsumexp_ptr, logsumexp)


_chunked_cross_entropy_forward = triton.jit(_chunked_cross_entropy_forward)
_chunked_cross_entropy_forward = triton.heuristics({
    "DO_SOFTCAPPING": lambda args: bool(args["DO_SOFTCAPPING"]),
    "DO_LOGIT_SCALING": lambda args: bool(args["DO_LOGIT_SCALING"]),
})(_chunked_cross_entropy_forward)


class Fast_CrossEntropyLoss(torch.autograd.Function):
    @staticmethod
    def forward(ctx, logits, labels, logit_softcapping: float = 0, logit_scaling: float = 0):
        n_rows: int
        vocab_size: int
        n_rows, vocab_size = logits.shape
        device = logits.device
        labels = labels.to(device)

        div, mod = divmod(vocab_size, MAX_FUSED_SIZE)
        n_chunks: int = div + (mod != 0)
        losses = torch.empty(n_rows, dtype=torch.float32, device=device)
        DO_SOFTCAPPING: bool = bool(logit_softcapping != 0)
        DO_LOGIT_SCALING: bool = bool(logit_scaling != 0)

        if n_chunks == 1:
            BLOCK_SIZE, num_warps = calculate_settings(vocab_size)
            logsumexp = torch.empty(n_rows, dtype=torch.float32, device=device)
            with torch.cuda.device(device):
                _cross_entropy_forward[(n_rows,)](
                    logits, logits.stride(0), losses, logsumexp, labels,
                    VOCAB_SIZE=vocab_size, BLOCK_SIZE=BLOCK_SIZE,
                    DO_SOFTCAPPING=DO_SOFTCAPPING, SOFTCAP=logit_softcapping,
                    DO_LOGIT_SCALING=DO_LOGIT_SCALING, LOGIT_SCALE=logit_scaling,
                    num_warps=num_warps,
                )
        else:
            logsumexp = torch.empty((n_rows, n_chunks), dtype=torch.float32, device=device)
            with torch.cuda.device(device):
                _chunked_cross_entropy_forward[(n_rows, n_chunks)](
                    logits, logits.stride(0), losses, logsumexp, labels,
                    VOCAB_SIZE=vocab_size, N_CHUNKS=n_chunks, BLOCK_SIZE=MAX_FUSED_SIZE,
                    DO_SOFTCAPPING=DO_SOFTCAPPING, SOFTCAP=logit_softcapping,
                    DO_LOGIT_SCALING=DO_LOGIT_SCALING, LOGIT_SCALE=logit_scaling,
                    num_warps=32,
                )
            logsumexp = torch.logsumexp(logsumexp, dim=1)
            losses += logsumexp
            losses.masked_fill_(labels == -100, 0)

        ctx.save_for_backward(logits, logsumexp, labels)
        return losses


def fast_cross_entropy_loss(logits, labels, logit_softcapping=0, logit_scaling=0, n_items=None):
    loss = Fast_CrossEntropyLoss.apply(logits, labels.view(-1), logit_softcapping, logit_scaling)
    if n_items is None:
        n_items = torch.count_nonzero(labels != -100)
    return loss.sum() / n_items


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, logits: torch.Tensor, targets: torch.Tensor) -> torch.Tensor:
        return fast_cross_entropy_loss(logits.contiguous(), targets)
