"""The math attention every fused scaled-dot-product-attention kernel stands for, as the CPU
work meter's decomposition of that kernel (evaluator.aten_plans reads `chain_of`).

F.scaled_dot_product_attention picks a fused kernel per device: on the CPU
`_scaled_dot_product_flash_attention_for_cpu`, which torch._decomp decomposes into the math
attention (scores written, scaled, masked, softmaxed and read again); on CUDA the flash,
memory-efficient or cuDNN kernels (or their `_flash_attention_forward` /
`_efficient_attention_forward` entry points), which torch._decomp does not decompose. The
coverage bound (profiled_coverage) prices the reference's fused op as the chain it stands for,
so without a chain the CUDA reference was priced by its flops and footprint only, a tenth of
two torch.matmul of the same attention: an honest candidate doing the scale, mask and
softmax in Triton between two torch.matmul was paid coverage 0 on an H100 (s61f_08, s61f_10:
reward 0.53 and 0.89) where the CPU paid it 0.25. Here each variant is one row of `_LAYOUTS`:
which of its arguments are the query, key, value, bias and causal flag, and how its tensors
are laid out; every row is priced as the CPU's flash op is, through that op's decomposition
(the math path directly where its checks refuse the shapes), so the same attention costs the
bound the same on both devices and by whichever kernel PyTorch ran it, the candidate's and
the reference's alike.

A causal call is priced over the keys its mask leaves (`_causal_rows`): the chain on as many
query rows against all keys as the mask's lower triangle holds entries, about half. Priced as
the full S x S chain, the causal reference's W left a PyTorch route over blocks of query rows
that skips the masked-out key blocks (it computes about half the scores) reference_share 0.28
at causal_sdpa_fp16's GPU sizes (red team s63H); a causal flash kernel does half too.
"""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import torch
from torch._decomp import decomposition_table

aten = torch.ops.aten


@dataclass(frozen=True)
class _Layout:
    """Where a fused attention op keeps the math attention's arguments."""

    bias: str | None = None  # the additive mask's argument, if it takes one
    causal: str | None = "is_causal"  # a bool argument, or "custom_mask_type" (non-zero: causal)
    heads_second: bool = True  # (batch, heads, seq, dim); False: (batch, seq, heads, dim)
    packed: str | None = None  # the cumulative-lengths argument of a packed (varlen) call


# Each SDPA kernel's overload -> its layout (argument names as in torch's schemas, 2.13). The
# CPU's flash op has a torch._decomp decomposition of its own; aten_plans takes this one first,
# so that a causal call costs the same on both devices.
_LAYOUTS = {
    "_scaled_dot_product_flash_attention_for_cpu.default": _Layout(bias="attn_mask"),
    "_scaled_dot_product_flash_attention.default": _Layout(),
    "_scaled_dot_product_efficient_attention.default": _Layout(bias="attn_bias"),
    "_scaled_dot_product_cudnn_attention.default": _Layout(bias="attn_bias"),
    "_scaled_dot_product_fused_attention_overrideable.default": _Layout(bias="attn_bias"),
    "_scaled_dot_product_attention_math_for_mps.default": _Layout(bias="attn_mask"),
    "_flash_attention_forward.default": _Layout(heads_second=False, packed="cum_seq_q"),
    "_flash_attention_forward_no_dropout_inplace.default": _Layout(heads_second=False, packed="cum_seq_q"),
    "_efficient_attention_forward.default": _Layout(bias="bias", causal="custom_mask_type",
                                                    heads_second=False, packed="cu_seqlens_q"),
}


def chain_of(func) -> Callable | None:
    """The math attention `func` stands for, called as `func` is (None: not an SDPA kernel)."""
    layout = _LAYOUTS.get(f"{func.overloadpacket.__name__}.{func._overloadname}")
    if layout is None or func.namespace != "aten":
        return None

    def chain(*args, **kwargs):
        return _math_attention(layout, _bound(func, args, kwargs))

    return chain


def _bound(func, args: tuple, kwargs: dict) -> dict:
    """The op's arguments by name, defaults filled in."""
    named = {}
    for i, arg in enumerate(func._schema.arguments):
        if i < len(args) and not arg.kwarg_only:
            named[arg.name] = args[i]
        elif arg.name in kwargs:
            named[arg.name] = kwargs[arg.name]
        elif arg.has_default_value():
            named[arg.name] = arg.default_value
    return named


def _heads_second(t: torch.Tensor, layout: _Layout, packed: bool) -> torch.Tensor:
    """`t` as (batch, heads, seq, dim). A packed call's (tokens, heads, dim) is priced as one
    sequence of all its tokens: more score entries than its sequences have, never fewer."""
    if packed:
        t = t.unsqueeze(0)
    return t if layout.heads_second else t.transpose(1, 2)


def _math_attention(layout: _Layout, named: dict):
    """The CPU flash op's decomposition on these arguments (no dropout: the chain without it,
    less than with), or the math path itself where that decomposition's checks refuse them (a
    value head size unlike the query's)."""
    packed = layout.packed is not None and named.get(layout.packed) is not None
    q, k, v = (_heads_second(named[n], layout, packed) for n in ("query", "key", "value"))
    bias = named.get(layout.bias) if layout.bias else None
    flag = named.get(layout.causal) if layout.causal else False
    causal = bool(flag) and bias is None  # the math path takes one of a mask and a causal flag
    scale = named.get("scale")
    if causal:
        q = q.narrow(2, 0, _causal_rows(q.shape[2], k.shape[2]))
    cpu = decomposition_table.get(aten._scaled_dot_product_flash_attention_for_cpu.default)
    if cpu is not None and q.dim() == 4 and q.shape[-1] == v.shape[-1]:
        return cpu(q, k, v, 0.0, causal, attn_mask=bias, scale=scale)
    return aten._scaled_dot_product_attention_math.default(
        q, k, v, attn_mask=bias, is_causal=causal, scale=scale, enable_gqa=q.size(1) != k.size(1))


def _causal_rows(queries: int, keys: int) -> int:
    """How many query rows against all `keys` keys hold as many scores as a causal mask leaves
    of a queries x keys attention (top-left aligned, as PyTorch's math path: row i sees keys
    0..i): the lower triangle, rounded up. The mask is PyTorch's choice of the smaller count
    where a flash kernel aligns it bottom-right, so the reference is never priced above it."""
    if queries <= 0 or keys <= 0:
        return queries
    inside = min(queries, keys)
    entries = inside * (inside + 1) // 2 + (queries - inside) * keys
    return min(queries, -(-entries // keys))
